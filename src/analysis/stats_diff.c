/* stats_diff.c - `traceglot stats --diff OTHER PATH`: per event class, the counts and rates of
 * two runs side by side and the change, so a trace before and after a change shows which
 * events appeared, vanished or doubled.
 *
 * Each run is counted by class_counts (the pass `stats` makes), then its classes are merged
 * by name, since two runs (or two formats) never share class objects: a name seen in several
 * traces or streams of one run is one row.  Rows: PATH's classes in first-seen order, then
 * the classes only OTHER has.  A rate is the class's count over its run's span (first to last
 * event of the run); the changes are PATH minus OTHER, in events and in percent of OTHER,
 * "new" for a class only PATH has and "gone" for one only OTHER has.  --format json gives the
 * same rows as one JSON document (stats_diff_json.c). */
#include "analysis/class_counts.h"
#include "analysis/summary_json.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <stdlib.h>
#include <string.h>

static int row_named(const void *ctx, uint64_t value)
{
    const void *const *c = ctx;
    const diff_rows *dr = c[0];
    return strcmp(dr->rows[value].name, (const char *)c[1]) == 0;
}

/* Adds the counts of one run (side 0 OTHER, 1 PATH) by class name. */
static int add_run(diff_rows *dr, const tg_class_counts *cc, int side)
{
    for (size_t i = 0; i < cc->n; i++) {
        const char *name = tg_event_class_name(cc->rows[i].cls);
        const void *key[2] = {dr, name};
        uint64_t hash = tg_hash_str(name);
        uint64_t *index = tg_hash_find_by(&dr->by_name, hash, row_named, key);
        if (!index) {
            if (tg_grow(&dr->rows, &dr->cap, dr->n + 1, sizeof *dr->rows) < 0 ||
                tg_hash_add(&dr->by_name, hash, &index) < 0)
                return TG_ERR_NOMEM;
            *index = dr->n;
            dr->rows[dr->n++] = (diff_row){.name = name};
        }
        diff_row *r = &dr->rows[*index];
        r->count[side] += cc->rows[i].count;
        r->seen[side] = true;
    }
    return 0;
}

double tg_stats_diff_span(const tg_class_counts *cc)
{
    if (cc->events < 2 || cc->last_ns <= cc->first_ns)
        return 0;
    return (double)((uint64_t)cc->last_ns - (uint64_t)cc->first_ns);
}

/* The cells of a row, as text, in tmp (NUL-separated) - widths are known only at the end. */
enum { COLS = 7 };
static const char *const heads[COLS] = {"event", "other",   "path",  "change",
                                        "%",     "other/s", "path/s"};

static void put_cells(tg_buf *b, const diff_row *r, const double span[2])
{
    tg_buf_puts(b, r->name);
    tg_buf_putc(b, 0);
    for (int s = 0; s < 2; s++) {
        if (r->seen[s])
            tg_buf_u64(b, r->count[s]);
        else
            tg_buf_putc(b, '-');
        tg_buf_putc(b, 0);
    }
    int64_t d = (int64_t)(r->count[1] - r->count[0]);
    if (d > 0)
        tg_buf_putc(b, '+');
    tg_buf_i64(b, d);
    tg_buf_putc(b, 0);
    if (!r->seen[0])
        tg_buf_puts(b, "new");
    else if (!r->seen[1])
        tg_buf_puts(b, "gone");
    else if (r->count[0])
        tg_buf_printf(b, "%+.1f%%", 100.0 * (double)d / (double)r->count[0]);
    else
        tg_buf_putc(b, '-');
    tg_buf_putc(b, 0);
    for (int s = 0; s < 2; s++) {
        if (r->seen[s] && span[s] > 0)
            tg_buf_printf(b, "%.1f", (double)r->count[s] * 1e9 / span[s]);
        else
            tg_buf_putc(b, '-');
        tg_buf_putc(b, 0);
    }
}

static void put_run(tg_buf *out, const char *label, tg_set *set, const tg_class_counts *cc)
{
    tg_buf_puts(out, label);
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        tg_buf_puts(out, i ? ", " : " ");
        tg_buf_puts(out, tg_trace_path(tg_set_trace(set, i)));
    }
    tg_buf_puts(out, ": ");
    tg_buf_u64(out, cc->events);
    tg_buf_puts(out, " events, ");
    tg_buf_u64(out, cc->lost);
    tg_buf_puts(out, " lost, ");
    tg_text_time(out, (int64_t)tg_stats_diff_span(cc));
    tg_buf_puts(out, " s\n");
}

int tg_stats_diff_rows(diff_rows *dr, const tg_class_counts cc[2])
{
    *dr = (diff_rows){0};
    int rc = add_run(dr, &cc[1], 1);
    if (rc == 0)
        rc = add_run(dr, &cc[0], 0);
    return rc;
}

void tg_stats_diff_rows_free(diff_rows *dr)
{
    free(dr->rows);
    tg_hash_free(&dr->by_name);
}

static int print_diff(tg_set *set, tg_set *other, const tg_class_counts cc[2], tg_buf *out)
{
    diff_rows dr;
    int rc = tg_stats_diff_rows(&dr, cc);
    tg_buf *cells = tg_buf_new();
    if (rc < 0 || !cells) {
        tg_buf_free(cells);
        tg_stats_diff_rows_free(&dr);
        return TG_ERR_NOMEM;
    }
    double span[2] = {tg_stats_diff_span(&cc[0]), tg_stats_diff_span(&cc[1])};
    int width[COLS];
    for (int c = 0; c < COLS; c++)
        width[c] = (int)strlen(heads[c]);
    for (size_t i = 0; i < dr.n; i++)
        put_cells(cells, &dr.rows[i], span);
    const char *p = tg_buf_data(cells);
    for (size_t i = 0; i < dr.n; i++)
        for (int c = 0; c < COLS; c++) {
            int w = (int)strlen(p);
            width[c] = w > width[c] ? w : width[c];
            p += w + 1;
        }
    put_run(out, "other:", other, &cc[0]);
    put_run(out, "path: ", set, &cc[1]);
    for (int c = 0; c < COLS; c++) { /* the name left-aligned, numbers right-aligned */
        if (c)
            tg_buf_pad(out, ' ', 2 + width[c] - (int)strlen(heads[c]));
        tg_buf_puts(out, heads[c]);
        if (!c)
            tg_buf_pad(out, ' ', width[c] - (int)strlen(heads[c]));
    }
    tg_buf_putc(out, '\n');
    p = tg_buf_data(cells);
    for (size_t i = 0; i < dr.n; i++) {
        for (int c = 0; c < COLS; c++) {
            int w = (int)strlen(p);
            if (c)
                tg_buf_pad(out, ' ', 2 + width[c] - w);
            tg_buf_puts(out, p);
            if (!c)
                tg_buf_pad(out, ' ', width[c] - w);
            p += w + 1;
        }
        tg_buf_putc(out, '\n');
    }
    tg_buf_free(cells);
    tg_stats_diff_rows_free(&dr);
    return 0;
}

static int run_stats_diff(const void *impl, tg_set *set, tg_iter *it, tg_set *other,
                          tg_iter *other_it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    (void)impl;
    tg_class_counts cc[2];
    int rc0 = tg_class_counts_run(&cc[0], other_it);
    int rc1 = tg_class_counts_run(&cc[1], it);
    int rc = rc0 == TG_ERR_NOMEM || rc1 == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
    if (rc == 0 && tg_summary_format(opts, NULL) == 1)
        rc = tg_stats_diff_json(set, other, cc, out, err);
    else if (rc == 0)
        rc = print_diff(set, other, cc, out);
    tg_class_counts_free(&cc[0]);
    tg_class_counts_free(&cc[1]);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc;
}

int tg_stats_diff(tg_set *set, tg_set *other, const tg_filter *f, const tg_options *opts,
                  tg_buf *out, tg_error **err)
{
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "stats", "filter", NULL, err));
    TG_TRY(tg_summary_format(opts, err));
    return tg_sink_run_diff(set, f, other, f, opts, out, err, run_stats_diff, NULL);
}
