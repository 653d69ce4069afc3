/* fuzz_json.c - libFuzzer target: the input bytes as a Chrome JSON trace (the Trace Event
 * Format: the array and object forms, every phase, args), run through everything the
 * library does.  Seed: tests/data/json (uftrace dump --chrome's output). */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tg_fuzz_seeds(const char *out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/json/uftrace-recursion.json", TG_FUZZ_DATA);
    size_t len = 0;
    uint8_t *b = tg_fuzz_slurp(path, &len);
    int n = b ? tg_fuzz_seed(out, "uftrace-recursion.json", -1, b, len) : 0;
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
