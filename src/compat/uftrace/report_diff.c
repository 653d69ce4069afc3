/* report_diff.c - `uftrace report --diff OTHER -d PATH`, byte for byte, for any two function
 * traces (traceglot report --diff OTHER PATH).
 *
 * uftrace counts both runs into rows by function name (PATH as its report does, under the
 * filters; OTHER read whole with no option but -k, so events and kernel functions outside
 * user functions count there, under -D, --no-libcall and -F's mode but not the patterns,
 * which uftrace sets up on PATH's symbols: uf_report_table), pairs each row of PATH (the "base") with OTHER's row of the same
 * name (the "diff", zero when OTHER has none) and adds OTHER's rows PATH lacks (with a zero
 * base).  The change a column shows is OTHER minus PATH.  Rows are sorted by inserting them,
 * PATH's in name order then OTHER's own in name order, into a tree where a row that compares
 * equal goes after those already there: a stable sort, largest first, by the -s keys, each
 * compared on --sort-column (0 or 1: PATH's value (sic: both), 2: the change, as an absolute
 * value unless --diff-policy no-abs, in percent of PATH's value with percent).
 *
 * What is printed is what uftrace 0.13 prints, oddities included: a time's change carries
 * "-" when it grew and "+" when it shrank (its sign table is indexed by "delta > 0"), while a
 * count's change has the right sign; a percent is "N/A" when either side is zero and is held
 * to +-999.99.  Columns: the -f fields (default total,self,call; --avg-total and --avg-self
 * pick the average, minimum and maximum), each 11 wide with the change only, or with
 * --diff-policy full PATH's value, OTHER's value and the change (35 wide; 32 for counts and
 * for percents). */
#define _GNU_SOURCE /* qsort_r */
#include "analysis/callstack.h"
#include "core/json_doc.h"
#include "compat/uftrace/report_rows.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <json-c/json.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The column headers of the diff tables (the names, keys and -f parsing are report's:
 * uf_report_fmt_parse). */
static const char *const headers[UF_COL_COUNT][2] = {
    {"Total time", "Total time (diff)"}, {"Total avg", "Total avg (diff)"},
    {"Total min", "Total min (diff)"},   {"Total max", "Total max (diff)"},
    {"Self time", "Self time (diff)"},   {"Self avg", "Self avg (diff)"},
    {"Self min", "Self min (diff)"},     {"Self max", "Self min (diff)"}, /* sic */
    {"Calls", "Calls (diff)"},           {"Size", "Size (diff)"},
};

struct diff_fmt {
    struct uf_report_fmt rep; /* columns (in uftrace's order) and keys, as report reads them */
    bool absolute, percent, full;
    int column; /* --sort-column: 0, 1 or 2 */
};

/* uftrace's apply_diff_policy: each word by its prefix, "no-" turning it off. */
static void apply_policy(struct diff_fmt *f, const char *policy)
{
    for (const char *s = policy; *s;) {
        size_t n = strcspn(s, ",");
        bool on = true;
        const char *w = s;
        if (n >= 3 && !strncmp(w, "no-", 3)) {
            on = false;
            w += 3;
        }
        if (!strncmp(w, "abs", 3))
            f->absolute = on;
        else if (!strncmp(w, "percent", 7))
            f->percent = on;
        else if (!strncmp(w, "full", 4))
            f->full = true;
        else if (!strncmp(w, "compact", 7))
            f->full = false;
        s += n;
        if (*s)
            s++;
    }
}

static int diff_fmt_parse(struct diff_fmt *f, const tg_options *opts, tg_error **err)
{
    memset(f, 0, sizeof *f);
    TG_TRY(uf_report_fmt_parse(&f->rep, opts, err));
    f->rep.stats = true; /* both runs' rows are read whole: cheap enough for two tables */
    f->absolute = true;
    f->column = 2;
    const char *policy = tg_options_get(opts, "diff-policy");
    if (policy) /* the full columns only when a policy was given */
        apply_policy(f, policy);
    const char *col = tg_options_get(opts, "sort-column");
    if (col) {
        char *end;
        long v = strtol(col, &end, 10);
        if (*end || v < 0 || v > 2)
            return tg_err(err, TG_ERR_USAGE, "--sort-column takes 0, 1 or 2, not '%s'", col);
        f->column = (int)v;
    }
    return 0;
}

/* ---- rows ---------------------------------------------------------------------------- */

struct pair {
    const struct row *base, *diff; /* PATH's and OTHER's (a zero row when a run lacks it) */
    size_t order;                  /* insertion order: the tie-break */
};

/* The value of a column or key; a missing row is all zero (minima too, as uftrace's). */
static uint64_t value_of(const struct row *r, int col)
{
    if (!r->name)
        return 0;
    return uf_row_value(r, (enum uf_col)col);
}

static int cmp_key(const struct pair *a, const struct pair *b, int k, const struct diff_fmt *f)
{
    if (k == UF_KEY_FUNC)
        return strcmp(b->base->name ? b->base->name : b->diff->name,
                      a->base->name ? a->base->name : a->diff->name);
    uint64_t xa = value_of(a->base, k), xb = value_of(b->base, k);
    if (f->column != 2) {
        if (xa == xb)
            return 0;
        return xa > xb ? 1 : -1;
    }
    int64_t da = (int64_t)(value_of(a->diff, k) - xa), db = (int64_t)(value_of(b->diff, k) - xb);
    if (f->percent) {
        double pa = xa ? 100.0 * (double)da / (double)xa : 0;
        double pb = xb ? 100.0 * (double)db / (double)xb : 0;
        if (pa == pb)
            return 0;
        if (f->absolute) {
            pa = pa > 0 ? pa : -pa;
            pb = pb > 0 ? pb : -pb;
        }
        return pa > pb ? 1 : -1;
    }
    if (da == db)
        return 0;
    if (f->absolute) {
        da = da > 0 ? da : -da;
        db = db > 0 ? db : -db;
    }
    return da > db ? 1 : -1;
}

static int cmp_pairs(const void *x, const void *y, void *ctx)
{
    const struct pair *a = x, *b = y;
    const struct diff_fmt *f = ctx;
    for (int i = 0; i < f->rep.n_keys; i++) {
        int c = cmp_key(a, b, f->rep.keys[i], f);
        if (c)
            return -c; /* the larger first */
    }
    return a->order < b->order ? -1 : a->order > b->order;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp((*(struct row *const *)x)->name, (*(struct row *const *)y)->name);
}

/* ---- printing -------------------------------------------------------------------------- */

/* uftrace's __print_time_unit with a sign: note the sign (see the top comment). */
static void put_diff_time(tg_buf *out, uint64_t base, uint64_t pair)
{
    if (base == pair) {
        tg_buf_printf(out, "%11s", "0 us");
        return;
    }
    int64_t d = (int64_t)(pair - base);
    uint64_t v = d < 0 ? 0 - (uint64_t)d : (uint64_t)d, small = 0;
    static const char *const units[] = {"us", "ms", " s", " m", " h"};
    static const unsigned limit[] = {1000, 1000, 1000, 60, 24, 0x7fffffff};
    unsigned idx;
    for (idx = 0; idx < 5; idx++) {
        small = v % limit[idx];
        v /= limit[idx];
        if (v < limit[idx + 1])
            break;
    }
    if (idx == 5)
        idx = 4;
    int indent = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    tg_buf_printf(out, "%*s%s%llu.%03llu %s", indent, "", d > 0 ? "-" : "+", (unsigned long long)v,
                  (unsigned long long)small, units[idx]);
}

static void put_diff_percent(tg_buf *out, uint64_t base, uint64_t pair)
{
    if (base == 0 || pair == 0) {
        tg_buf_printf(out, "%7s ", "N/A");
        return;
    }
    double pct = 100.0 * (double)(int64_t)(pair - base) / (double)base;
    if (pct > 999.99)
        pct = 999.99;
    else if (pct < -999.99)
        pct = -999.99;
    tg_buf_printf(out, "%+7.2f%%", pct);
}

static void put_diff_count(tg_buf *out, uint64_t base, uint64_t pair)
{
    int64_t d = (int64_t)(pair - base);
    if (d)
        tg_buf_printf(out, "%+9lld", (long long)d);
    else
        tg_buf_printf(out, "%9s", "+0");
}

static void put_time_or_dash(tg_buf *out, uint64_t ns)
{
    if (ns)
        uf_put_time(out, ns);
    else
        tg_buf_printf(out, "%10s", "-");
}

static bool is_count(int c) { return c == UF_COL_CALL || c == UF_COL_SIZE; }

static int col_width(const struct diff_fmt *f, int c)
{
    if (!f->full)
        return 11;
    return is_count(c) || f->percent ? 32 : 35;
}

static void put_cell(tg_buf *out, const struct diff_fmt *f, int c, const struct pair *p)
{
    uint64_t a = value_of(p->base, c), b = value_of(p->diff, c);
    if (is_count(c)) {
        if (f->full)
            tg_buf_printf(out, " %9llu  %9llu", (unsigned long long)a, (unsigned long long)b);
        tg_buf_puts(out, "  ");
        put_diff_count(out, a, b);
        return;
    }
    if (f->full) {
        put_time_or_dash(out, a);
        tg_buf_puts(out, "  ");
        put_time_or_dash(out, b);
        tg_buf_puts(out, "  ");
        if (f->percent)
            put_diff_percent(out, a, b);
        else
            put_diff_time(out, a, b);
        return;
    }
    if (f->percent) {
        tg_buf_puts(out, "   ");
        put_diff_percent(out, a, b);
    } else {
        put_diff_time(out, a, b);
    }
}

/* What a run was recorded from: uftrace's info keeps the recording's command line, else the
 * best the first trace says. */
static const char *run_from(tg_set *set)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        const tg_env_entry *cmd = tg_trace_env_find(t, "cmdline");
        const tg_process_info *pi = tg_trace_process(t);
        const tg_tracer_info *ti = tg_trace_tracer(t);
        return cmd                    ? cmd->value
               : pi && pi->cmdline    ? pi->cmdline
               : pi && pi->executable ? pi->executable
               : ti && ti->name       ? ti->name
                                      : tg_trace_format(t);
    }
    return NULL;
}

/* "PATH\t(from CMDLINE)" */
static void put_run(tg_buf *out, int n, const char *what, tg_set *set)
{
    tg_buf_printf(out, "#  [%d] %s: ", n, what);
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        tg_buf_puts(out, i ? "," : "");
        tg_buf_puts(out, tg_trace_path(tg_set_trace(set, i)));
    }
    const char *from = run_from(set);
    tg_buf_printf(out, "\t(from %s)\n", from ? from : "");
}

static void print_table(tg_buf *out, const struct diff_fmt *f, const struct pair *pairs, size_t n,
                        tg_set *set, tg_set *other)
{
    static const char line[] = "=================================================";
    tg_buf_puts(out, "#\n# uftrace diff\n");
    put_run(out, 0, "base", set);
    put_run(out, 1, "diff", other);
    tg_buf_puts(out, "#\n");
    bool first = true;
    for (int c = 0; c < UF_COL_COUNT; c++) {
        if (!f->rep.col_on[c])
            continue;
        tg_buf_printf(out, "%*s%*s", 3, first ? "  " : "", col_width(f, c), headers[c][f->full]);
        first = false;
    }
    if (!first) { /* no line at all without a column, as uftrace */
        tg_buf_printf(out, "%*s%s\n", 3, " ", "Function");
        for (int c = 0; c < UF_COL_COUNT; c++)
            if (f->rep.col_on[c])
                tg_buf_printf(out, "   %-.*s", col_width(f, c), line);
        tg_buf_printf(out, "   %-.*s\n", 20, line);
    }
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < UF_COL_COUNT; c++) {
            if (!f->rep.col_on[c])
                continue;
            tg_buf_puts(out, "   ");
            put_cell(out, f, c, &pairs[i]);
        }
        tg_buf_puts(out, "   ");
        tg_buf_puts(out, pairs[i].base->name ? pairs[i].base->name : pairs[i].diff->name);
        tg_buf_putc(out, '\n');
    }
}

/* A run as JSON: {"paths": [PATH...], "from": CMDLINE}. */
static json_object *run_json(tg_set *set)
{
    json_object *o = json_object_new_object(), *paths = json_object_new_array();
    json_object_object_add(o, "paths", paths);
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        json_object_array_add(paths, json_object_new_string(tg_trace_path(tg_set_trace(set, i))));
    const char *from = run_from(set);
    json_object_object_add(o, "from", from ? json_object_new_string(from) : NULL);
    return o;
}

/* --format json: the pairs in the table's order, each function with both runs' columns and
 * the change (OTHER minus PATH, signed as it is, not as uftrace's text signs a time), and
 * with the percent policy the change in percent of PATH's value (null where uftrace prints
 * N/A). */
static int print_json(tg_buf *out, const struct diff_fmt *f, const struct pair *pairs, size_t n,
                      tg_set *set, tg_set *other, tg_error **err)
{
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(doc, "base", run_json(set));
    json_object_object_add(doc, "diff", run_json(other));
    json_object_object_add(doc, "functions", rows);
    for (size_t i = 0; i < n; i++) {
        const struct pair *p = &pairs[i];
        json_object *o = json_object_new_object(), *change = json_object_new_object();
        json_object_array_add(rows, o);
        json_object_object_add(
            o, "function", json_object_new_string(p->base->name ? p->base->name : p->diff->name));
        json_object_object_add(o, "base", uf_row_json(NULL, p->base, &f->rep));
        json_object_object_add(o, "diff", uf_row_json(NULL, p->diff, &f->rep));
        json_object_object_add(o, "change", change);
        json_object *pct = f->percent ? json_object_new_object() : NULL;
        if (pct)
            json_object_object_add(o, "change_percent", pct);
        for (int c = 0; c < UF_COL_COUNT; c++) {
            if (!f->rep.col_on[c])
                continue;
            uint64_t a = value_of(p->base, c), b = value_of(p->diff, c);
            json_object_object_add(change, uf_col_json_key((enum uf_col)c),
                                   json_object_new_int64((int64_t)(b - a)));
            if (pct)
                json_object_object_add(
                    pct, uf_col_json_key((enum uf_col)c),
                    a && b ? json_object_new_double(100.0 * (double)(int64_t)(b - a) / (double)a)
                           : NULL);
        }
    }
    return tg_json_doc_put(out, doc, err);
}

int uf_report_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                   const tg_options *opts, tg_buf *out, tg_error **err)
{
    struct diff_fmt f;
    TG_TRY(uf_need_symbols(set, err));
    TG_TRY(uf_need_symbols(other, err));
    TG_TRY(diff_fmt_parse(&f, opts, err));
    /* the function patterns are set up on both runs: one naming a function of either will do */
    uf_filter check;
    int frc = uf_filter_setup(&check, opts, err);
    if (frc >= 0 && check.by_name && uf_filter_bind(&check, set, NULL) < 0) {
        uf_filter_free(&check);
        if ((frc = uf_filter_setup(&check, opts, err)) >= 0 &&
            (frc = uf_filter_bind(&check, other, NULL)) >= 0)
            f.rep.patterns_elsewhere = true;
        else if (frc != TG_ERR_NOMEM) /* neither: the base run's message */
            frc = uf_filter_bind(&check, set, err);
    }
    uf_filter_free(&check);
    if (frc < 0)
        return frc;
    struct table base, pair;
    int rc = uf_report_table(set, it, opts, &f.rep, false, &base, err);
    if (rc < 0 && rc != TG_ERR_FORMAT)
        return rc;
    int rc2 = uf_report_table(other, other_it, opts, &f.rep, true, &pair, err);
    if (rc2 < 0 && rc2 != TG_ERR_FORMAT) {
        uf_table_free(&base);
        return rc2;
    }
    static const struct row zero;
    struct pair *pairs = malloc((base.n + pair.n + 1) * sizeof *pairs);
    struct row **names = malloc((base.n + pair.n + 1) * sizeof *names);
    if (!pairs || !names) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* PATH's rows in name order, each with OTHER's of that name; then OTHER's own */
    if (base.n) /* an empty run under filters has no rows at all */
        memcpy(names, base.rows, base.n * sizeof *names);
    qsort(names, base.n, sizeof *names, cmp_names);
    size_t n = 0;
    for (size_t i = 0; i < base.n; i++, n++) {
        const struct row *d = uf_row_find(&pair, names[i]->name);
        pairs[n] = (struct pair){names[i], d ? d : &zero, n};
    }
    if (pair.n)
        memcpy(names, pair.rows, pair.n * sizeof *names);
    qsort(names, pair.n, sizeof *names, cmp_names);
    for (size_t i = 0; i < pair.n; i++)
        if (!uf_row_find(&base, names[i]->name)) {
            pairs[n] = (struct pair){&zero, names[i], n};
            n++;
        }
    qsort_r(pairs, n, sizeof *pairs, cmp_pairs, &f);
    const char *format = tg_options_get(opts, "format");
    if (format && strcmp(format, "json") == 0) {
        int jrc = print_json(out, &f, pairs, n, set, other, err);
        if (jrc < 0) {
            rc = jrc;
            goto out;
        }
    } else {
        print_table(out, &f, pairs, n, set, other);
    }
    rc = rc < 0 ? rc : rc2;
out:
    free(pairs);
    free(names);
    uf_table_free(&base);
    uf_table_free(&pair);
    return rc;
}
