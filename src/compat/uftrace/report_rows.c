/* report_rows.c - the rows of uftrace's report (see report_rows.h): core's hash table by
 * name over rows kept in insertion order, uftrace report's columns and sort keys, and the
 * sorted table printer.
 *
 * uftrace sorts by inserting its rows, in name order, into a tree where a row that compares
 * equal goes after the ones already there; so the order is the keys' (largest first), then
 * the name's (strcmp, ascending).  A plain sort by (keys descending, name ascending) gives
 * the same order, names being unique. */
#define _GNU_SOURCE /* qsort_r */
#include "compat/uftrace/report_rows.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row_key {
    const struct table *tb;
    const char *name;
};

/* Is the row at index value the one named ctx? */
static int row_named(const void *ctx, uint64_t value)
{
    const struct table *tb = ((const struct row_key *)ctx)->tb;
    return strcmp(tb->rows[value]->name, ((const struct row_key *)ctx)->name) == 0;
}

struct row *uf_row_get(struct table *tb, const char *name)
{
    const struct row_key key = {tb, name};
    uint64_t hash = tg_hash_str(name);
    uint64_t *index = tg_hash_find_by(&tb->by_name, hash, row_named, &key);
    if (index)
        return tb->rows[*index];
    if (tg_grow(&tb->rows, &tb->cap, tb->n + 1, sizeof *tb->rows) < 0)
        return NULL;
    struct row *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->name = strdup(name);
    if (!r->name || tg_hash_add(&tb->by_name, hash, &index) < 0) {
        free(r->name);
        free(r);
        return NULL;
    }
    r->total_min = r->self_min = UINT64_MAX;
    *index = tb->n;
    tb->rows[tb->n++] = r;
    return r;
}

struct row *uf_row_find(const struct table *tb, const char *name)
{
    const struct row_key key = {tb, name};
    uint64_t *index = tg_hash_find_by(&tb->by_name, tg_hash_str(name), row_named, &key);
    return index ? tb->rows[*index] : NULL;
}

void uf_table_free(struct table *tb)
{
    for (size_t i = 0; i < tb->n; i++) {
        free(tb->rows[i]->name);
        free(tb->rows[i]);
    }
    free(tb->rows);
    tg_hash_free(&tb->by_name);
    memset(tb, 0, sizeof *tb);
}

int uf_table_merge(struct table *dst, const struct table *src)
{
    for (size_t i = 0; i < src->n; i++) {
        const struct row *s = src->rows[i];
        struct row *d = uf_row_get(dst, s->name);
        if (!d)
            return TG_ERR_NOMEM;
        d->total += s->total;
        d->self += s->self;
        d->calls += s->calls;
        d->total_rec += s->total_rec;
        if (s->total_min < d->total_min)
            d->total_min = s->total_min;
        if (s->total_max > d->total_max)
            d->total_max = s->total_max;
        if (s->self_min < d->self_min)
            d->self_min = s->self_min;
        if (s->self_max > d->self_max)
            d->self_max = s->self_max;
        if (s->size)
            d->size = s->size;
    }
    return 0;
}

/* ---- columns and keys ------------------------------------------------------------------ */

static const struct {
    const char *field; /* -f name */
    const char *key;   /* -s name (uftrace takes '-' as '_' outside the averages modes) */
    const char *header;
} cols[UF_COL_COUNT] = {
    {"total", "total", "Total time"},
    {"total-avg", "total_avg", "Total avg"},
    {"total-min", "total_min", "Total min"},
    {"total-max", "total_max", "Total max"},
    {"self", "self", "Self time"},
    {"self-avg", "self_avg", "Self avg"},
    {"self-min", "self_min", "Self min"},
    {"self-max", "self_max", "Self max"},
    {"call", "call", "Calls"},
    {"size", "size", "Size"},
};

uint64_t uf_row_value(const struct row *r, enum uf_col col)
{
    switch (col) {
    case UF_COL_TOTAL: return r->total;
    case UF_COL_TOTAL_AVG: return r->calls ? (r->total + r->total_rec) / r->calls : 0;
    case UF_COL_TOTAL_MIN: return r->total_min;
    case UF_COL_TOTAL_MAX: return r->total_max;
    case UF_COL_SELF: return r->self;
    case UF_COL_SELF_AVG: return r->calls ? r->self / r->calls : 0;
    case UF_COL_SELF_MIN: return r->self_min;
    case UF_COL_SELF_MAX: return r->self_max;
    case UF_COL_CALL: return r->calls;
    case UF_COL_SIZE: return r->size;
    default: return 0;
    }
}

static bool col_needs_stats(int c)
{
    return c != UF_COL_TOTAL && c != UF_COL_SELF && c != UF_COL_CALL && c != UF_COL_SIZE &&
           c != UF_KEY_FUNC;
}

/* One -s key: its column, or -1. */
static int key_named(const char *s, size_t n)
{
    if (n == 4 && memcmp(s, "func", 4) == 0)
        return UF_KEY_FUNC;
    for (int c = 0; c < UF_COL_COUNT; c++)
        if (strlen(cols[c].key) == n && memcmp(s, cols[c].key, n) == 0)
            return c;
    return -1;
}

static int parse_keys(struct uf_report_fmt *f, const char *spec, int avg_mode, tg_error **err)
{
    static const char *const defaults[] = {"total", "total_avg", "self_avg"};
    const char *s = spec ? spec : defaults[avg_mode];
    f->n_keys = 0;
    for (;;) {
        size_t n = strcspn(s, ",");
        char key[16];
        int c = -1;
        if (n < sizeof key) {
            memcpy(key, s, n);
            key[n] = 0;
            if (avg_mode == 0) { /* outside the averages modes '-' is read as '_' */
                for (size_t i = 0; i < n; i++)
                    if (key[i] == '-')
                        key[i] = '_';
            } else if (!strcmp(key, "avg") || !strcmp(key, "min") || !strcmp(key, "max")) {
                /* the averages modes' keys: avg, min and max of their total or self */
                char tmp[16];
                snprintf(tmp, sizeof tmp, "%s_%.3s", avg_mode == 1 ? "total" : "self", key);
                memcpy(key, tmp, strlen(tmp) + 1);
            }
            c = key_named(key, strlen(key));
        }
        if (c < 0 || f->n_keys >= UF_MAX_KEYS)
            return tg_err(err, TG_ERR_USAGE, "invalid sort key: %s", spec ? spec : "");
        f->keys[f->n_keys++] = (uint8_t)c;
        if (col_needs_stats(c))
            f->stats = true;
        if (c == UF_COL_SIZE)
            f->needs_size = true;
        s += n;
        if (!*s)
            return 0;
        s++;
    }
}

static int parse_fields(struct uf_report_fmt *f, const char *spec, tg_error **err)
{
    if (strcmp(spec, "none") == 0)
        return 0;
    if (*spec == '+') {
        f->col_on[UF_COL_TOTAL] = f->col_on[UF_COL_SELF] = f->col_on[UF_COL_CALL] = true;
        spec++;
    }
    for (const char *s = spec;;) {
        size_t n = strcspn(s, ",");
        bool found = false;
        if (n == 3 && memcmp(s, "all", 3) == 0) {
            for (int c = 0; c < UF_COL_COUNT; c++)
                f->col_on[c] = true;
            found = true;
        }
        for (int c = 0; c < UF_COL_COUNT && !found; c++)
            if (strlen(cols[c].field) == n && memcmp(s, cols[c].field, n) == 0)
                f->col_on[c] = found = true;
        if (!found)
            return tg_err(err, TG_ERR_USAGE,
                          "unknown field name '%.*s' (possible fields are: total total-avg "
                          "total-min total-max self self-avg self-min self-max call size)",
                          (int)n, s);
        s += n;
        if (!*s)
            return 0;
        s++;
    }
}

int uf_report_fmt_parse(struct uf_report_fmt *f, const tg_options *opts, tg_error **err)
{
    memset(f, 0, sizeof *f);
    bool avg_total = tg_options_flag(opts, "avg-total");
    bool avg_self = tg_options_flag(opts, "avg-self");
    const char *fields = tg_options_get(opts, "output-fields");
    if (avg_total && avg_self)
        return tg_err(err, TG_ERR_USAGE,
                      "--avg-total and --avg-self options should not be used together");
    /* with -f, uftrace ignores the averages modes */
    int avg_mode = fields ? 0 : avg_total ? 1 : avg_self ? 2 : 0;
    int rc = parse_keys(f, tg_options_get(opts, "sort"), avg_mode, err);
    if (rc < 0)
        return rc;
    if (fields) {
        if ((rc = parse_fields(f, fields, err)) < 0)
            return rc;
    } else if (avg_mode) {
        int base = avg_mode == 1 ? UF_COL_TOTAL_AVG : UF_COL_SELF_AVG;
        f->col_on[base] = f->col_on[base + 1] = f->col_on[base + 2] = true;
    } else {
        f->col_on[UF_COL_TOTAL] = f->col_on[UF_COL_SELF] = f->col_on[UF_COL_CALL] = true;
    }
    for (int c = 0; c < UF_COL_COUNT; c++)
        if (f->col_on[c] && col_needs_stats(c))
            f->stats = true;
    f->needs_size |= f->col_on[UF_COL_SIZE];
    return 0;
}

int uf_row_cmp(const struct row *a, const struct row *b, const struct uf_report_fmt *f)
{
    for (int i = 0; i < f->n_keys; i++) {
        int k = f->keys[i];
        if (k == UF_KEY_FUNC) {
            int c = strcmp(a->name, b->name);
            if (c)
                return c;
            continue;
        }
        uint64_t x = uf_row_value(a, (enum uf_col)k), y = uf_row_value(b, (enum uf_col)k);
        if (x != y)
            return x > y ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

static int cmp_rows(const void *a, const void *b, void *f)
{
    return uf_row_cmp(*(struct row *const *)a, *(struct row *const *)b, f);
}

void uf_rows_sort(struct table *tb, const struct uf_report_fmt *f)
{
    if (tb->n > 1)
        qsort_r(tb->rows, tb->n, sizeof *tb->rows, cmp_rows, (void *)f);
}

void uf_rows_print(struct table *tb, const struct uf_report_fmt *f, tg_buf *out)
{
    uf_rows_sort(tb, f);
    bool any = false;
    for (int c = 0; c < UF_COL_COUNT; c++)
        any |= f->col_on[c];
    if (any) {
        for (int c = 0; c < UF_COL_COUNT; c++)
            if (f->col_on[c])
                tg_buf_printf(out, "  %10s", cols[c].header);
        tg_buf_puts(out, "  Function\n");
        for (int c = 0; c < UF_COL_COUNT; c++)
            if (f->col_on[c])
                tg_buf_puts(out, "  ==========");
        tg_buf_puts(out, "  ====================\n");
    }
    for (size_t i = 0; i < tb->n; i++) {
        const struct row *r = tb->rows[i];
        for (int c = 0; c < UF_COL_COUNT; c++) {
            if (!f->col_on[c])
                continue;
            tg_buf_puts(out, "  ");
            if (c == UF_COL_CALL || c == UF_COL_SIZE)
                tg_buf_u64_pad(out, uf_row_value(r, (enum uf_col)c), 10, ' ');
            else
                uf_put_time(out, uf_row_value(r, (enum uf_col)c));
        }
        tg_buf_puts(out, "  ");
        tg_buf_puts(out, r->name);
        tg_buf_putc(out, '\n');
    }
}
