/* la_memtop.c - `traceglot analyze memtop`: lttng-memtop's pages allocated and freed per
 * thread (kmem_mm_page_alloc / kmem_mm_page_free, or mm_page_alloc / mm_page_free), text and
 * LAMI.
 *
 * Its definitions: a page event belongs to the thread lttng-analyses saw switched in on the
 * event's CPU (none before that CPU's first sched_switch, none while it idles); a free is
 * not counted while the trace's allocations minus frees are zero (lttng-analyses keeps that
 * count for the whole trace, from its first event).  Rows: the --limit (10) threads with the
 * most pages, ties in first-seen order. */
#include "analysis/la_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mem_tid {
    int64_t tid, alloc, freed;
    char comm[LA_COMM_MAX];
};

struct memtop {
    la_run *run;
    struct mem_tid *tids;
    size_t n_tids, cap_tids;
    tg_hash by_tid;
    bool nomem;
};

static void on_page(void *ctx, size_t proc, int32_t cpu, bool alloc)
{
    struct memtop *m = ctx;
    la_run *r = m->run;
    const la_proc *p = la_proc_at(&r->st, proc);
    if (!la_filter_proc(&r->conf, p) || !la_filter_cpu(&r->conf, cpu))
        return;
    uint64_t *slot = tg_hash_find(&m->by_tid, (uint64_t)p->tid);
    struct mem_tid *t;
    if (slot) {
        t = &m->tids[*slot];
    } else {
        if (tg_grow(&m->tids, &m->cap_tids, m->n_tids + 1, sizeof *m->tids) < 0 ||
            tg_hash_insert(&m->by_tid, (uint64_t)p->tid, &slot) < 0) {
            m->nomem = true;
            return;
        }
        *slot = m->n_tids;
        t = &m->tids[m->n_tids++];
        memset(t, 0, sizeof *t);
        t->tid = p->tid;
        snprintf(t->comm, sizeof t->comm, "%s", p->comm);
    }
    if (alloc)
        t->alloc++;
    else
        t->freed++;
}

static int mem_begin(la_run *r)
{
    struct memtop *m = calloc(1, sizeof *m);
    if (!m)
        return TG_ERR_NOMEM;
    m->run = r;
    r->ctx = m;
    r->st.hooks = (la_hooks){.ctx = m, .page = on_page};
    return 0;
}

static bool by_alloc(size_t a, size_t b, const void *arg)
{
    const struct mem_tid *t = arg;
    return t[a].alloc > t[b].alloc;
}

static bool by_freed(size_t a, size_t b, const void *arg)
{
    const struct mem_tid *t = arg;
    return t[a].freed > t[b].freed;
}

static int mem_end(la_run *r, tg_buf *out)
{
    struct memtop *m = r->ctx;
    if (m->nomem)
        return TG_ERR_NOMEM;
    int64_t begin = r->period_begin, end = r->last_ts;
    size_t *idx = malloc((m->n_tids + 1) * sizeof *idx);
    la_bar *bars = malloc((m->n_tids + 1) * sizeof *bars);
    char(*labels)[LA_COMM_MAX + 24] = malloc((m->n_tids + 1) * sizeof *labels);
    if (!idx || !bars || !labels) {
        free(idx);
        free(bars);
        free(labels);
        return TG_ERR_NOMEM;
    }
    size_t rows = m->n_tids;
    if (r->conf.limit > 0 && rows > (size_t)r->conf.limit)
        rows = (size_t)r->conf.limit;
    int64_t total_alloc = 0, total_freed = 0;
    for (size_t i = 0; i < m->n_tids; i++) {
        total_alloc += m->tids[i].alloc;
        total_freed += m->tids[i].freed;
    }
    if (!r->conf.json)
        la_print_timerange(r, out, begin, end);
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < m->n_tids; i++)
            idx[i] = i;
        la_sort(idx, m->n_tids, k ? by_freed : by_alloc, m->tids);
        if (r->conf.json) {
            json_object *t = la_lami_table(r, k ? "freed" : "allocd", begin, end);
            for (size_t i = 0; i < rows; i++) {
                const struct mem_tid *u = &m->tids[idx[i]];
                json_object *row = la_lami_row(t);
                json_object_array_add(row, la_lami_process(u->comm, LA_NONE, u->tid));
                json_object_array_add(row, la_lami_int("number", k ? u->freed : u->alloc));
            }
            la_lami_add(r, t);
            continue;
        }
        for (size_t i = 0; i < rows; i++) {
            const struct mem_tid *u = &m->tids[idx[i]];
            snprintf(labels[i], sizeof labels[i], "%s (%lld)", u->comm, (long long)u->tid);
            bars[i] = (la_bar){(double)(k ? u->freed : u->alloc), labels[i]};
        }
        la_bar_graph_int(out, k ? "Per-TID Memory Deallocations" : "Per-TID Memory Allocations",
                         "Process", "pages", bars, rows);
    }
    if (r->conf.json) {
        json_object *t = la_lami_table(r, "total", begin, end);
        json_object *row = la_lami_row(t);
        json_object_array_add(row, la_lami_int("number", total_alloc));
        json_object_array_add(row, la_lami_int("number", total_freed));
        la_lami_add(r, t);
    } else {
        tg_buf_printf(out, "\nTotal memory usage:\n- %lld pages allocated\n- %lld pages freed\n",
                      (long long)total_alloc, (long long)total_freed);
    }
    free(idx);
    free(bars);
    free(labels);
    return 0;
}

static void mem_free(la_run *r)
{
    struct memtop *m = r->ctx;
    if (!m)
        return;
    free(m->tids);
    tg_hash_free(&m->by_tid);
    free(m);
    r->ctx = NULL;
}

static const char *const mem_needs[] = {"kmem_mm_page_alloc", "mm_page_alloc", NULL};

const la_kind la_kind_memtop = {
    .name = "memtop",
    .needs = mem_needs,
    .threads = true,
    .begin = mem_begin,
    .end = mem_end,
    .free = mem_free,
};
