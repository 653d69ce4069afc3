/* fuzz_ctf2_meta.c - libFuzzer target: the input bytes as the CTF 2 metadata (JSON text
 * sequence) of a trace directory, opened and run through everything the library does.
 * CTF 2 metadata goes through json-c and then the shared resolve/validate/compile passes;
 * this target reaches them directly instead of through the probes of fuzz_open.  The
 * part of the input after a line "--stream--", when there is one, is written beside the
 * metadata as a stream file, so that decoding runs too.  Seeds:
 * the metadata files of ../shared/corpus/ctf/ctf2. */
#define _GNU_SOURCE /* memmem */
#include "exercise.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    if (n)
        fwrite(p, 1, n, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[] = "/tmp/tg-fuzz-ctf2-XXXXXX";
    if (!mkdtemp(dir))
        return 0;
    static const char sep[] = "\n--stream--\n";
    const uint8_t *s = size >= sizeof sep - 1 ? memmem(data, size, sep, sizeof sep - 1) : NULL;
    size_t meta_len = s ? (size_t)(s - data) : size;
    write_file(dir, "metadata", data, meta_len);
    if (s)
        write_file(dir, "stream", s + sizeof sep - 1, size - meta_len - (sizeof sep - 1));
    tg_exercise_path(dir, NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/metadata", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/stream", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}
