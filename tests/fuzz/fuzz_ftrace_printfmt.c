/* fuzz_ftrace_printfmt.c - libFuzzer target: the print fmt of an event format (the C-like
 * format string and arguments: REC->field, __get_str, __print_flags, __print_symbolic,
 * __print_hex, ternaries, arithmetic ...), compiled and evaluated on real records.
 *
 * The input is the event's ID on a first line, then the print fmt text: it replaces what
 * follows "print fmt: " in that event's format in the fixture (the first format when the ID
 * names none), whose records are then printed (fuzz_tracedat.h).  Seeds: the print fmt of
 * every format of the fixture.  Dictionary: dict/ftrace_printfmt.dict. */
#define _GNU_SOURCE /* memmem */
#include "fuzz_fixture.h"
#include "fuzz_tracedat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char template_name[] = "all-events-v6.dat";
static const char tag[] = "print fmt: ";

/* Where the format's print fmt starts (after the tag), or its end when it has none. */
static size_t fmt_start(const uint8_t *t, size_t n)
{
    for (size_t i = 0; i + sizeof tag - 1 <= n; i++)
        if (memcmp(t + i, tag, sizeof tag - 1) == 0)
            return i + sizeof tag - 1;
    return n;
}

int tg_fuzz_seeds(const char *out)
{
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(template_name, &d, &file);
    int n = 0;
    for (size_t i = 0; i < d.n_fmts; i++) {
        const uint8_t *t = file + d.fmt_at[i];
        size_t at = fmt_start(t, d.fmt_len[i]);
        const char *id = memmem(t, d.fmt_len[i], "ID: ", 4);
        if (at == d.fmt_len[i] || !id)
            continue;
        char name[32], *seed = malloc(32 + d.fmt_len[i]);
        if (!seed)
            break;
        int k = snprintf(seed, 32, "%ld\n", atol(id + 4));
        memcpy(seed + k, t + at, d.fmt_len[i] - at);
        snprintf(name, sizeof name, "printfmt-%zu", i);
        n += tg_fuzz_seed(out, name, -1, seed, (size_t)k + d.fmt_len[i] - at);
        free(seed);
    }
    free(file);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    long id = 0;
    for (const uint8_t *p = data; nl && p < nl && *p >= '0' && *p <= '9' && id < 1000000; p++)
        id = id * 10 + (*p - '0');
    const uint8_t *fmt = nl ? nl + 1 : data;
    size_t flen = size - (size_t)(fmt - data);
    tg_fuzz_dat d;
    uint8_t *file;
    tg_fuzz_dat_load(template_name, &d, &file);
    int i = tg_fuzz_dat_format_by_id(&d, nl ? id : -1);
    if (i < 0)
        i = 0;
    const uint8_t *t = file + d.fmt_at[i];
    size_t keep = fmt_start(t, d.fmt_len[i]);
    size_t len = keep == d.fmt_len[i] ? keep : keep + flen;
    uint8_t *unit = malloc(8 + len + 1);
    if (unit) {
        tg_fuzz_dat_put64(&d, unit, len);
        memcpy(unit + 8, t, keep);
        if (len > keep)
            memcpy(unit + 8 + keep, fmt, flen);
        tg_fuzz_dat_edit e[2] = {{d.fmt_at[i] - 8, d.fmt_at[i] + d.fmt_len[i], unit, 8 + len},
                                 tg_fuzz_dat_no_symbols(&d)};
        tg_fuzz_dat_run_edits(&d, e, 2);
        free(unit);
    }
    free(file);
    return 0;
}
