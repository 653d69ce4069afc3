/* report_rows.c - the rows of uftrace's report (see report_rows.h): core's hash table by
 * name over rows kept in insertion order, and the sorted table printer. */
#include "compat/uftrace/report_rows.h"
#include "compat/uftrace/uftrace_text.h"

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
    *index = tb->n;
    tb->rows[tb->n++] = r;
    return r;
}

static int cmp_rows(const void *a, const void *b)
{
    const struct row *x = *(struct row *const *)a, *y = *(struct row *const *)b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

void uf_rows_print(struct table *tb, tg_buf *out)
{
    if (tb->n > 1)
        qsort(tb->rows, tb->n, sizeof *tb->rows, cmp_rows);
    tg_buf_puts(out, "  Total time   Self time       Calls  Function\n");
    tg_buf_puts(out, "  ==========  ==========  ==========  ====================\n");
    for (size_t i = 0; i < tb->n; i++) {
        const struct row *r = tb->rows[i];
        tg_buf_puts(out, "  ");
        uf_put_time(out, r->total);
        tg_buf_puts(out, "  ");
        uf_put_time(out, r->self);
        tg_buf_puts(out, "  ");
        tg_buf_u64_pad(out, r->calls, 10, ' ');
        tg_buf_puts(out, "  ");
        tg_buf_puts(out, r->name);
        tg_buf_putc(out, '\n');
    }
}
