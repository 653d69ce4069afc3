/* report_uftrace.c - the "uftrace" report style: `uftrace report`'s table, byte for byte.
 *
 * Each function exit (and each sched-in, as the virtual function linux:schedule) adds the
 * call's total and self time to the function's row; a call made while the same function is
 * already on the thread's stack does not add to the total (recursion is counted once, as
 * uftrace does), only to the self time and the call count.  Frames still open at the end
 * are closed at their thread's last record.  Rows are keyed by name in an open-addressing
 * hash table; sorted by total time (descending, then name) once at the end. */
#include "analysis/uftrace_fstack.h"
#include "analysis/uftrace_text.h"
#include "core/error_internal.h"
#include "sinks/style_api.h"

#include <stdlib.h>
#include <string.h>

struct row {
    char *name;
    uint64_t total, self, calls;
};

struct table {
    struct row *rows;
    size_t n, cap;
    size_t *slots; /* row index + 1; 0 empty */
    size_t n_slots;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

static struct row *row_get(struct table *tb, const char *name)
{
    if ((tb->n + 1) * 2 > tb->n_slots) {
        size_t ns = tb->n_slots ? tb->n_slots * 2 : 256;
        size_t *sl = calloc(ns, sizeof *sl);
        if (!sl)
            return NULL;
        for (size_t i = 0; i < tb->n; i++) {
            size_t j = hash_str(tb->rows[i].name) & (ns - 1);
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
        struct row *r = &tb->rows[tb->slots[j] - 1];
        if (strcmp(r->name, name) == 0)
            return r;
        j = (j + 1) & (tb->n_slots - 1);
    }
    if (tb->n == tb->cap) {
        size_t nc = tb->cap ? tb->cap * 2 : 64;
        struct row *nr = realloc(tb->rows, nc * sizeof *nr);
        if (!nr)
            return NULL;
        tb->rows = nr;
        tb->cap = nc;
    }
    struct row *r = &tb->rows[tb->n];
    memset(r, 0, sizeof *r);
    r->name = strdup(name);
    if (!r->name)
        return NULL;
    tb->slots[j] = ++tb->n;
    return r;
}

/* A small cache from symbol pointer to row: names repeat millions of times. */
struct rep {
    uf_state st;
    struct table tb;
    struct {
        const char *name;
        uint64_t addr;
        struct row *row;
    } cache[1024];
};

static struct row *row_for(struct rep *p, const char *name, uint64_t addr)
{
    size_t h = (((uintptr_t)name >> 4) ^ addr ^ (addr >> 10)) & 1023;
    if (p->cache[h].row && p->cache[h].name == name && p->cache[h].addr == addr)
        return p->cache[h].row;
    char tmp[32];
    const char *key = name;
    if (!key) {
        tmp[0] = '<';
        size_t n = 1;
        char hex[20];
        int k = 0;
        uint64_t a = addr;
        do {
            hex[k++] = "0123456789abcdef"[a & 15];
            a >>= 4;
        } while (a);
        while (k)
            tmp[n++] = hex[--k];
        tmp[n++] = '>';
        tmp[n] = 0;
        key = tmp;
    }
    struct row *r = row_get(&p->tb, key);
    if (r) {
        p->cache[h].name = name;
        p->cache[h].addr = addr;
        p->cache[h].row = r;
    }
    return r;
}

/* report_update_node: the frame just closed sits at index stack_count */
static int account(struct rep *p, uf_task *t, const char *name, uint64_t addr)
{
    uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
    if (!f)
        return 0;
    bool recursive = false;
    for (int i = 0; i < t->stack_count; i++) {
        uf_frame *c = uf_frame_at(&p->st, t, i);
        if (!c)
            break;
        if (c->addr == f->addr) {
            recursive = true;
            break;
        }
    }
    struct row *r = row_for(p, name, addr);
    if (!r)
        return TG_ERR_NOMEM;
    if (!recursive)
        r->total += (uint64_t)f->total;
    r->self += (uint64_t)(f->total - f->child);
    r->calls++;
    return 0;
}

static int cmp_rows(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int report_uftrace(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    (void)set;
    (void)opts;
    struct rep *p = calloc(1, sizeof *p);
    if (!p || uf_state_init(&p->st) < 0) {
        free(p);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    int rc;
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        uf_rec r;
        uf_rec_from_event(ev, &r);
        uf_task *t = uf_task_get(&p->st, r.tid, r.pid);
        if (!t) {
            rc = TG_ERR_NOMEM;
            break;
        }
        if (r.type == UF_ENTRY)
            r.name = tg_event_func_name(ev);
        uf_consume(&p->st, t, &r);
        if (r.type == UF_EVENT && t->user_stack_count == 0)
            continue;
        if (r.type == UF_ENTRY) {
            uf_entry_fixups(&p->st, t, &r);
            uf_update_entry(&p->st, t);
            continue;
        }
        if (r.type == UF_EXIT) {
            uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
            if (!f)
                continue;
            uf_update_exit(t);
            rc = account(p, t, tg_event_func_name(ev), r.addr);
        } else if (r.type == UF_EVENT) {
            if (r.addr != UF_SCHED_IN)
                continue;
            uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
            if (!f)
                continue;
            rc = account(p, t, f->addr == UF_SCHED_OUT_PREEMPT ? "linux:schedule (pre-empted)"
                                                                : "linux:schedule",
                         0);
        } else { /* LOST: close what was open, as uftrace's add_lost_fstack */
            while (t->stack_count >= t->user_stack_count) {
                uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
                if (f && f->valid)
                    rc = account(p, t, f->name, f->addr);
                t->stack_count--;
                if (rc < 0 || t->stack_count < 0)
                    break;
            }
            if (t->stack_count < 0)
                t->stack_count = 0;
        }
        if (rc < 0)
            break;
    }
    if (rc == TG_ERR_NOMEM)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0) {
        /* frames still open: closed at their thread's last record */
        for (size_t i = 0; i < p->st.count && rc >= 0; i++) {
            uf_task *t = p->st.order[i];
            int64_t last = uf_task_last_time(&p->st, t);
            while (--t->stack_count >= 0) {
                uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
                if (!f || f->total > last)
                    continue;
                f->total = last - f->total;
                if (f->child > f->total)
                    f->total = f->child;
                if (t->stack_count > 0)
                    f[-1].child += f->total;
                rc = account(p, t, f->name, f->addr);
            }
        }
        qsort(p->tb.rows, p->tb.n, sizeof *p->tb.rows, cmp_rows);
        tg_buf_puts(out, "  Total time   Self time       Calls  Function\n");
        tg_buf_puts(out, "  ==========  ==========  ==========  ====================\n");
        for (size_t i = 0; i < p->tb.n; i++) {
            const struct row *r = &p->tb.rows[i];
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
    for (size_t i = 0; i < p->tb.n; i++)
        free(p->tb.rows[i].name);
    free(p->tb.rows);
    free(p->tb.slots);
    uf_state_free(&p->st);
    free(p);
    return rc < 0 ? rc : 0;
}

TG_REPORT_STYLE(uftrace) = {
    .name = "uftrace",
    .report = report_uftrace,
};
