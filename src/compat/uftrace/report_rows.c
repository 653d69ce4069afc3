/* report_rows.c - the rows of uftrace's report (see report_rows.h): an open-addressing
 * index by name over rows kept in insertion order, and the sorted table printer. */
#include "compat/uftrace/report_rows.h"
#include "compat/uftrace/uftrace_text.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

struct row *uf_row_get(struct table *tb, const char *name)
{
    if ((tb->n + 1) * 2 > tb->n_slots) {
        size_t ns = tb->n_slots ? tb->n_slots * 2 : 256;
        size_t *sl = calloc(ns, sizeof *sl);
        if (!sl)
            return NULL;
        for (size_t i = 0; i < tb->n; i++) {
            size_t j = hash_str(tb->rows[i]->name) & (ns - 1);
            while (sl[j])
                j = (j + 1) & (ns - 1);
            sl[j] = i + 1;
        }
        free(tb->slots);
        tb->slots = sl;
        tb->n_slots = ns;
    }
    size_t j = hash_str(name) & (tb->n_slots - 1);
    while (tb->slots[j]) {
        struct row *r = tb->rows[tb->slots[j] - 1];
        if (strcmp(r->name, name) == 0)
            return r;
        j = (j + 1) & (tb->n_slots - 1);
    }
    if (tb->n == tb->cap) {
        size_t nc = tb->cap ? tb->cap * 2 : 64;
        struct row **nr = realloc(tb->rows, nc * sizeof *nr);
        if (!nr)
            return NULL;
        tb->rows = nr;
        tb->cap = nc;
    }
    struct row *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->name = strdup(name);
    if (!r->name) {
        free(r);
        return NULL;
    }
    tb->rows[tb->n] = r;
    tb->slots[j] = ++tb->n;
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
