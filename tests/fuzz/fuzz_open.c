/* fuzz_open.c - libFuzzer target: the input bytes as one trace file (trace.dat, XRay log,
 * CTF packetized metadata ... whatever the probes recognise), run through everything the
 * library does.  The other targets fuzz one unit each inside a fixture; this one also
 * mutates what decides which reader runs.  Seeds: the small single-file fixtures. */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "ftrace/func-le64-1cpu-v6.dat",
    "ftrace/func-le64-1cpu-v7.dat",
    "ftrace/fgraph-le32-2cpu-v6.dat",
    "ftrace/fgraph-le64-1cpu-v7zstd.dat",
    "ftrace/comm-idle-first-v6.dat",
    "xray/basic.xray",
    "xray/fdr.xray",
};

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char path[1024], name[256];
        snprintf(path, sizeof path, "%s/%s", TG_FUZZ_DATA, seeds[i]);
        snprintf(name, sizeof name, "%s", strrchr(seeds[i], '/') + 1);
        size_t len = 0;
        uint8_t *b = tg_fuzz_slurp(path, &len);
        if (b)
            n += tg_fuzz_seed(out, name, -1, b, len);
        free(b);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (tg_fuzz_scratch_put("input", data, size, path, sizeof path) == 0)
        tg_exercise_path(path, NULL);
    return 0;
}
