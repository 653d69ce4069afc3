/* fuzz_perf.c - libFuzzer target: the input bytes as a perf.data file (file or pipe mode),
 * read through everything the library does.  Seeds: the perf.data fixtures recorded by
 * tests/perf/record-fixtures.sh (every sample_type they hold, pipe mode, zstd records), the
 * tracepoints from perf-tp/sched-task.data: a few dozen sched records, where perf/sched.data's
 * 1352 take over a second of CPU per input under the instrumentation (libFuzzer's timeout
 * stopped every run at that seed, before any mutation). */
#include "fuzz_fixture.h"

static const char *const seeds[] = {
    "perf/cpu-clock.data", "perf/cpu-clock-g.data", "perf/multi.data",
    "perf/pipe.data",      "perf/zstd.data",        "perf-tp/sched-task.data",
};

int tg_fuzz_seeds(const char *out)
{
    return tg_fuzz_seed_files(out, seeds, sizeof seeds / sizeof seeds[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_whole_file("input.data", data, size);
    return 0;
}
