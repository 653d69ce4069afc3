/* fuzz_gecko.c - libFuzzer target: the input bytes as a Gecko profile (the Firefox Profiler's
 * JSON: meta, threads, markers in the processed and in Gecko's schema form), run through
 * everything the library does.  Seed: tests/data/gecko (a hand-written profile). */
#include "fuzz_fixture.h"

static const char *const seeds[] = {
    "gecko/markers.json",
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
