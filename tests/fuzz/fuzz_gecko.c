/* fuzz_gecko.c - libFuzzer target: the input bytes as a Gecko profile (the Firefox Profiler's
 * JSON: meta, threads, markers in the processed and in Gecko's schema form), run through
 * everything the library does.  Seed: tests/data/gecko (a hand-written profile). */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>

int tg_fuzz_seeds(const char *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gecko/markers.json", TG_FUZZ_DATA);
    size_t len = 0;
    uint8_t *b = tg_fuzz_slurp(path, &len);
    int n = b ? tg_fuzz_seed(out, "markers.json", -1, b, len) : 0;
    free(b);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (tg_fuzz_scratch_put("input.json", data, size, path, sizeof path) == 0)
        tg_exercise_path(path, NULL);
    return 0;
}
