/* fuzz_perfetto.c - libFuzzer target: the input bytes as a Perfetto protobuf trace (the
 * packet framing, every TracePacket kind the reader decodes, ftrace bundles, compact_sched,
 * track events with interned state, perf samples with interned stacks), run through
 * everything the library does.  Seeds: the Perfetto fixtures of tests/data/perfetto. */
#include "fuzz_fixture.h"

static const char *const seeds[] = {
    "perfetto/ftrace.pb",
    "perfetto/track-events.pb",
    "perfetto/perf-samples.pb",
};

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_files(out, seeds, sizeof seeds / sizeof seeds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_whole_file("input.pb", data, size);
    return 0;
}
