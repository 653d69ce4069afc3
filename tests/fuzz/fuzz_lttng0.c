/* fuzz_lttng0.c - libFuzzer target for the LTTng 0.x reader: blocks and marker formats.
 *
 * An LTTng 0.x trace is a folder, so the input is cut into two tracefiles: the first two
 * bytes (little endian) say how many of the following bytes are metadata_0 (block headers,
 * core_marker_id / core_marker_format events, hence marker formats); the rest is kernel_0
 * (blocks of events decoded with those markers).  The folder then runs through everything
 * the library does (tg_exercise_path).  Seeds: tests/lttng0/fuzz-seeds.sh makes them from
 * the fixtures in tests/data/lttng0. */
#include "exercise.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int spill(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(p, 1, n, f);
    fclose(f);
    return w == n ? 0 : -1;
}

static void drop(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t meta = (size_t)data[0] | (size_t)data[1] << 8;
    data += 2;
    size -= 2;
    if (meta > size)
        meta = size;
    char dir[] = "/tmp/tg-fuzz-lttng0-XXXXXX";
    if (!mkdtemp(dir))
        return 0;
    if (spill(dir, "metadata_0", data, meta) == 0 &&
        spill(dir, "kernel_0", data + meta, size - meta) == 0)
        tg_exercise_path(dir, NULL);
    drop(dir, "metadata_0");
    drop(dir, "kernel_0");
    rmdir(dir);
    return 0;
}
