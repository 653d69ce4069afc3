/* fuzz_ftrace_eventfmt.c - libFuzzer target: one event format file of a trace.dat ("name:",
 * "ID:", "format:" with the common and own fields, "print fmt:").
 *
 * The input replaces the format of the fixture whose ID it names (the first format when it
 * names none), so the fixture's records of that event are decoded and printed with the
 * mutated fields and print fmt (fuzz_tracedat.h).  Seeds: every format of the fixture.
 * Dictionary: dict/ftrace_eventfmt.dict. */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char template_name[] = "all-events-v6.dat";

/* The ID the text names ("ID: N"), or -1. */
static long named_id(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 4 < n; i++)
        if (memcmp(p + i, "ID: ", 4) == 0 && p[i + 4] >= '0' && p[i + 4] <= '9') {
            long v = 0;
            for (size_t j = i + 4; j < n && p[j] >= '0' && p[j] <= '9' && v < 1000000; j++)
                v = v * 10 + (p[j] - '0');
            return v;
        }
    return -1;
}

int tg_fuzz_seeds(const char *out)
{
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(template_name, &d, &file);
    int n = 0;
    for (size_t i = 0; i < d.n_fmts; i++) {
        char name[32];
        snprintf(name, sizeof name, "format-%zu", i);
        n += tg_fuzz_seed(out, name, -1, file + d.fmt_at[i], d.fmt_len[i]);
    }
    free(file);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(template_name, &d, &file);
    int i = tg_fuzz_dat_format_by_id(&d, named_id(data, size));
    if (i < 0)
        i = 0;
    uint8_t *unit = malloc(size + 8);
    if (unit) {
        tg_fuzz_dat_put64(&d, unit, size);
        memcpy(unit + 8, data, size);
        tg_fuzz_dat_edit e[2] = {{d.fmt_at[i] - 8, d.fmt_at[i] + d.fmt_len[i], unit, size + 8},
                                 tg_fuzz_dat_no_symbols(&d)};
        tg_fuzz_dat_run_edits(&d, e, 2);
        free(unit);
    }
    free(file);
    return 0;
}
