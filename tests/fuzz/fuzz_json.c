/* fuzz_json.c - libFuzzer target: the input bytes as a Chrome JSON trace (the Trace Event
 * Format: the array and object forms, every phase, args), run through everything the
 * library does.  Seed: tests/data/json (uftrace dump --chrome's output). */
#include "fuzz_fixture.h"

static const char *const seeds[] = {
    "json/uftrace-recursion.json",
};

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_files(out, seeds, sizeof seeds / sizeof seeds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_whole_file("input.json", data, size);
    return 0;
}
