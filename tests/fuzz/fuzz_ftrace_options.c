/* fuzz_ftrace_options.c - libFuzzer target: a trace.dat's cpu count and options (version 6:
 * "options  " blocks of id, size, data: date, cpustat, trace clock, uname, offset, tsc2nsec,
 * version, traceid ...).
 *
 * The first input byte picks the template; the rest replaces the template's bytes from the
 * cpu count up to "flyrecord" (fuzz_tracedat.h), whose table is rewritten to the pages'
 * new place.  Seeds: each template's own options. */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdlib.h>

static const char *const templates[] = {
    "sched-irq-timer-v6.dat",
    "func-be32-4cpu-v6.dat",
    "comm-idle-first-v6.dat",
    "fgraph-le64-1cpu-v6.dat",
};
enum { N = sizeof templates / sizeof templates[0] };

int tg_fuzz_seeds(const char *out)
{
    int n = 0;
    for (int i = 0; i < N; i++) {
        tg_fuzz_dat d;
        uint8_t *file;
        tg_fuzz_dat_load(templates[i], &d, &file);
        n += tg_fuzz_seed(out, templates[i], i, file + d.cmdlines_end,
                          d.options_end - d.cmdlines_end);
        free(file);
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(templates[data[0] % N], &d, &file);
    tg_fuzz_dat_run(&d, d.cmdlines_end, d.options_end, data + 1, size - 1);
    free(file);
    return 0;
}
