/* report_rows.h - the rows of uftrace's report: one per function name, with total time,
 * self time and calls (and, when a column or sort key asks for them, the minimum, maximum
 * and average of each), found by name and printed sorted as `uftrace report` prints them.
 * Rows are allocated one by one because callers cache pointers to them.
 *
 * The columns (-f/--output-fields), the sort keys (-s/--sort) and the averages modes
 * (--avg-total, --avg-self) are parsed once into a uf_report_fmt; uf_row_value reads a
 * column of a row, so another report built on the same rows (report --diff) reuses the
 * columns, keys and comparisons. */
#ifndef TG_REPORT_ROWS_H
#define TG_REPORT_ROWS_H

#include "core/consumer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct row {
    char *name;
    uint64_t total, self, calls; /* total: calls made while the function was not already
                                  * on the thread's stack (recursion counted once) */
    /* only kept when the format asks for them (uf_report_fmt.stats): */
    uint64_t total_rec;            /* total time of the recursive calls */
    uint64_t total_min, total_max; /* over every call, recursive or not */
    uint64_t self_min, self_max;
    uint64_t size; /* bytes of the function's symbol (the size column) */
};

struct table {
    struct row **rows; /* each row allocated on its own: caches keep pointers to rows */
    size_t n, cap;
    tg_hash by_name; /* hash of the name -> index into rows */
};

/* The columns of uftrace report, in uftrace's column order, and the sort keys (the same
 * values plus the function's name). */
enum uf_col {
    UF_COL_TOTAL,
    UF_COL_TOTAL_AVG,
    UF_COL_TOTAL_MIN,
    UF_COL_TOTAL_MAX,
    UF_COL_SELF,
    UF_COL_SELF_AVG,
    UF_COL_SELF_MIN,
    UF_COL_SELF_MAX,
    UF_COL_CALL,
    UF_COL_SIZE,
    UF_COL_COUNT,
    UF_KEY_FUNC = UF_COL_COUNT, /* sort key only */
};

#define UF_MAX_KEYS 16

struct uf_report_fmt {
    bool col_on[UF_COL_COUNT]; /* the columns printed, in enum order */
    uint8_t keys[UF_MAX_KEYS]; /* enum uf_col values, the first deciding */
    int n_keys;
    bool stats;      /* min/max/averages needed by a column or key */
    bool needs_size; /* the size column or key */
    /* report --diff: the function patterns name functions of the other run, so the base run
     * takes them even where none names one of its own (uftrace sets them up on both) */
    bool patterns_elsewhere;
};

/* -f/--output-fields ("output-fields"), -s/--sort ("sort"), --avg-total, --avg-self from
 * opts, as uftrace report reads them.  TG_ERR_USAGE with uftrace's reason: an unknown sort
 * key ("invalid sort key: KEY"), an unknown field, --avg-total with --avg-self. */
int uf_report_fmt_parse(struct uf_report_fmt *f, const tg_options *opts, tg_error **err);

/* The row of name, made (zeroed, minima at their largest) when new; NULL when out of
 * memory. */
struct row *uf_row_get(struct table *tb, const char *name);
/* The row of name, or NULL when there is none. */
struct row *uf_row_find(const struct table *tb, const char *name);
void uf_table_free(struct table *tb);
/* Adds the rows of src into dst (the report's workers each keep a table). */
int uf_table_merge(struct table *dst, const struct table *src);

/* One ended call of a row: total time, self time, whether the function was already on the
 * stack; with stats, minima and maxima too (a compile-time constant where it is inlined). */
static inline __attribute__((always_inline)) void
uf_row_add(struct row *r, uint64_t total, uint64_t self, bool recursive, bool stats)
{
    if (!recursive)
        r->total += total;
    r->self += self;
    r->calls++;
    if (!stats)
        return;
    if (recursive)
        r->total_rec += total;
    if (total < r->total_min)
        r->total_min = total;
    if (total > r->total_max)
        r->total_max = total;
    if (self < r->self_min)
        r->self_min = self;
    if (self > r->self_max)
        r->self_max = self;
}

/* A column's value for a row (averages computed as uftrace does: integer division). */
uint64_t uf_row_value(const struct row *r, enum uf_col col);
/* uftrace's order of two rows under the format's keys: <0 when a comes first. */
int uf_row_cmp(const struct row *a, const struct row *b, const struct uf_report_fmt *f);
/* Sorts the rows by the format's keys (uftrace's order). */
void uf_rows_sort(struct table *tb, const struct uf_report_fmt *f);
/* Sorts the rows by the format's keys and prints uftrace report's table. */
void uf_rows_print(struct table *tb, const struct uf_report_fmt *f, tg_buf *out);
/* The same rows and columns as one JSON document, times in ns (report_json.c). */
int uf_rows_print_json(struct table *tb, const struct uf_report_fmt *f, tg_buf *out,
                       tg_error **err);
/* The JSON member name of a column ("total_ns", "calls", ...). */
const char *uf_col_json_key(enum uf_col col);
/* A row's columns (those f shows) as a JSON object, after "function": FUNCTION when that is
 * not NULL; a row without a name (a run that lacks the function) all zero. */
struct json_object *uf_row_json(const char *function, const struct row *r,
                                const struct uf_report_fmt *f);

/* The function rows of a set as `uftrace report` counts them (report_uftrace.c), with what
 * fmt asks (stats, sizes), into tb (the caller frees it with uf_table_free).  other: the run
 * report --diff compares with, read as uftrace reads it there (whole, events and kernel
 * functions outside functions too); the base run under uftrace's filters when opts has
 * them (report_filter.c).  0, a negative status, or TG_ERR_FORMAT with tb filled
 * (damage, in *err). */
int uf_report_table(tg_set *set, tg_iter *it, const tg_options *opts,
                    const struct uf_report_fmt *fmt, bool other, struct table *tb, tg_error **err);
/* report --diff of the uftrace style (report_diff.c). */
int uf_report_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                   const tg_options *opts, tg_buf *out, tg_error **err);

#endif
