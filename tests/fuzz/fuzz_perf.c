/* fuzz_perf.c - libFuzzer target: the input bytes as a perf.data file (file or pipe mode),
 * read through everything the library does.  Seeds: the perf.data fixtures recorded by
 * tests/perf/record-fixtures.sh (every sample_type they hold, pipe mode, zstd records), the
 * tracepoints from perf-tp/sched-task.data: a few dozen sched records, where perf/sched.data's
 * 1352 take over a second of CPU per input under the instrumentation (libFuzzer's timeout
 * stopped every run at that seed, before any mutation). */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "perf/cpu-clock.data", "perf/cpu-clock-g.data", "perf/multi.data",
    "perf/pipe.data",      "perf/zstd.data",        "perf-tp/sched-task.data",
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
    if (tg_fuzz_scratch_put("input.data", data, size, path, sizeof path) == 0)
        tg_exercise_path(path, NULL);
    return 0;
}
