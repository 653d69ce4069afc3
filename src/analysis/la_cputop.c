/* la_cputop.c - `traceglot analyze cputop`: lttng-cputop's per-thread, per-CPU and total CPU
 * usage over the period, byte for byte (text) and value for value (LAMI).
 *
 * Its definitions (lttng-analyses 0.6.1's): a thread runs from its switch-in to its
 * switch-out; one already running when the period begins is counted from the period's
 * beginning once it is switched out, one still running at the end up to the last event; the
 * idle task (tid 0) is no thread and makes its CPU idle; the duration is from the period's
 * first event to its last; the total is the sum of the CPUs' usages divided by every CPU the
 * trace showed (also those filtered out with --cpu).  Rows keep the order in which the
 * threads were first seen among equal usages (Python's stable sort). */
#include "analysis/la_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cpu_usage {
    bool seen;
    int64_t total, start; /* start LA_NONE: nothing running counted */
    double pct;
};

struct tid_usage {
    int64_t tid, total, last_sched, migrations;
    char comm[LA_COMM_MAX];
    int64_t *prios;
    size_t n_prios, cap_prios;
    double pct;
};

struct cputop {
    struct cpu_usage *cpus;
    size_t n_cpus, cap_cpus;
    struct tid_usage *tids;
    size_t n_tids, cap_tids;
    tg_hash by_tid;
    int64_t begin;
    bool nomem;
    la_run *run;
};

static bool filter_proc(const la_run *r, const la_proc *p)
{
    return p && p->tid != 0 && la_filter_proc(&r->conf, p);
}

static struct cpu_usage *cpu_at(struct cputop *c, int32_t cpu)
{
    if (cpu < 0)
        return NULL;
    if ((size_t)cpu >= c->n_cpus &&
        tg_grow_zeroed(&c->cpus, &c->n_cpus, &c->cap_cpus, (size_t)cpu + 1, sizeof *c->cpus) < 0) {
        c->nomem = true;
        return NULL;
    }
    struct cpu_usage *u = &c->cpus[cpu];
    if (!u->seen) {
        u->seen = true;
        u->start = c->begin;
    }
    return u;
}

static struct tid_usage *tid_find(struct cputop *c, int64_t tid)
{
    uint64_t *v = tg_hash_find(&c->by_tid, (uint64_t)tid);
    return v ? &c->tids[*v] : NULL;
}

static struct tid_usage *tid_add(struct cputop *c, int64_t tid, const char *comm)
{
    uint64_t *slot;
    if (tg_grow(&c->tids, &c->cap_tids, c->n_tids + 1, sizeof *c->tids) < 0 ||
        tg_hash_insert(&c->by_tid, (uint64_t)tid, &slot) < 0) {
        c->nomem = true;
        return NULL;
    }
    *slot = c->n_tids;
    struct tid_usage *t = &c->tids[c->n_tids++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->last_sched = LA_NONE;
    snprintf(t->comm, sizeof t->comm, "%s", comm);
    return t;
}

static void add_prio(struct cputop *c, struct tid_usage *t, int64_t prio)
{
    if (prio == LA_NONE) /* a tracer that records no priority (LTTng 0.x) */
        return;
    if (tg_grow(&t->prios, &t->cap_prios, t->n_prios + 1, sizeof *t->prios) < 0) {
        c->nomem = true;
        return;
    }
    t->prios[t->n_prios++] = prio;
}

static void on_switch(void *ctx, const tg_event *ev, int64_t prev_tid, const char *prev_comm,
                      int64_t next_tid, const char *next_comm, size_t wakee, long waker)
{
    struct cputop *c = ctx;
    la_run *r = c->run;
    (void)waker;
    if (!la_filter_cpu(&r->conf, ev->cpu))
        return;
    const la_proc *wp = la_proc_at(&r->st, wakee);
    bool pass = filter_proc(r, wp);
    /* per CPU */
    struct cpu_usage *u = cpu_at(c, ev->cpu);
    if (u) {
        if (u->start != LA_NONE)
            u->total += ev->ts - u->start;
        u->start = pass ? ev->ts : LA_NONE;
    }
    /* per thread */
    struct tid_usage *prev = tid_find(c, prev_tid);
    if (!prev) {
        if (!(prev = tid_add(c, prev_tid, prev_comm)))
            return;
        prev->last_sched = c->begin; /* it ran since before the period */
    }
    if (prev->last_sched != LA_NONE) {
        prev->total += ev->ts - prev->last_sched;
        prev->last_sched = LA_NONE;
    }
    if (!pass)
        return;
    struct tid_usage *next = tid_find(c, next_tid);
    if (!next) {
        if (!(next = tid_add(c, next_tid, next_comm)))
            return;
        add_prio(c, next, wp->prio);
    }
    next->last_sched = ev->ts;
}

static void on_migrate(void *ctx, size_t proc, int32_t cpu)
{
    struct cputop *c = ctx;
    const la_proc *p = la_proc_at(&c->run->st, proc);
    if (!filter_proc(c->run, p) || !la_filter_cpu(&c->run->conf, cpu))
        return;
    struct tid_usage *t = tid_find(c, p->tid);
    if (!t && !(t = tid_add(c, p->tid, p->comm)))
        return;
    t->migrations++;
}

static void on_prio(void *ctx, int64_t ts, int64_t tid, int64_t prio)
{
    struct cputop *c = ctx;
    (void)ts;
    struct tid_usage *t = tid_find(c, tid);
    if (t)
        add_prio(c, t, prio);
}

static int cputop_begin(la_run *r)
{
    struct cputop *c = calloc(1, sizeof *c);
    if (!c)
        return TG_ERR_NOMEM;
    c->run = r;
    c->begin = r->period_begin;
    r->ctx = c;
    r->st.hooks = (la_hooks){
        .ctx = c, .sched_switch = on_switch, .migrate = on_migrate, .prio_changed = on_prio};
    return 0;
}

/* Indexes of the threads by usage, highest first, ties in first-seen order. */
static bool by_usage(size_t a, size_t b, const void *arg)
{
    const struct tid_usage *t = arg;
    return t[a].pct > t[b].pct;
}

static int cputop_end(la_run *r, tg_buf *out)
{
    struct cputop *c = r->ctx;
    if (c->nomem)
        return TG_ERR_NOMEM;
    int64_t end = r->last_ts, duration = end - c->begin;
    for (size_t i = 0; i < c->n_cpus; i++) {
        struct cpu_usage *u = &c->cpus[i];
        if (!u->seen)
            continue;
        if (u->start != LA_NONE)
            u->total += end - u->start;
        u->pct = duration ? (double)(u->total * 100) / (double)duration : 0;
    }
    for (size_t i = 0; i < c->n_tids; i++) {
        struct tid_usage *t = &c->tids[i];
        if (t->last_sched != LA_NONE)
            t->total += end - t->last_sched;
        t->pct = duration ? (double)(t->total * 100) / (double)duration : 0;
    }
    size_t *idx = malloc((c->n_tids + c->n_cpus + 1) * sizeof *idx);
    la_bar *bars = malloc((c->n_tids + c->n_cpus + 1) * sizeof *bars);
    char(*labels)[96] = malloc((c->n_tids + c->n_cpus + 1) * sizeof *labels);
    if (!idx || !bars || !labels) {
        free(idx);
        free(bars);
        free(labels);
        return TG_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->n_tids; i++)
        idx[i] = i;
    la_sort(idx, c->n_tids, by_usage, c->tids);
    size_t rows = c->n_tids;
    if (r->conf.limit > 0 && rows > (size_t)r->conf.limit)
        rows = (size_t)r->conf.limit;
    /* the total: the CPUs' usages summed highest first, over every CPU known */
    size_t n_known = la_state_cpu_count(&r->st);
    double total = 0;
    size_t n_cpu_rows = 0;
    size_t *cidx = idx + c->n_tids;
    for (size_t i = 0; i < c->n_cpus; i++)
        if (c->cpus[i].seen)
            cidx[n_cpu_rows++] = i;
    {
        size_t *order = malloc((n_cpu_rows + 1) * sizeof *order);
        if (order) {
            memcpy(order, cidx, n_cpu_rows * sizeof *order);
            for (size_t i = 1; i < n_cpu_rows; i++) /* stable, highest first */
                for (size_t k = i; k > 0 && c->cpus[order[k - 1]].pct < c->cpus[order[k]].pct;
                     k--) {
                    size_t tmp = order[k];
                    order[k] = order[k - 1];
                    order[k - 1] = tmp;
                }
            for (size_t i = 0; i < n_cpu_rows; i++)
                total += c->cpus[order[i]].pct;
            free(order);
        }
    }
    if (n_known)
        total /= (double)n_known;
    if (r->conf.json) {
        json_object *t = la_lami_table(r, "per-process", c->begin, end);
        for (size_t i = 0; i < rows; i++) {
            const struct tid_usage *u = &c->tids[idx[i]];
            char prios[256];
            la_prio_list(prios, sizeof prios, u->prios, u->n_prios);
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_process(u->comm, LA_NONE, u->tid));
            json_object_array_add(row, la_lami_int("number", u->migrations));
            json_object_array_add(row, la_lami_string(prios));
            json_object_array_add(row, la_lami_value("ratio", u->pct / 100));
        }
        la_lami_add(r, t);
        t = la_lami_table(r, "per-cpu", c->begin, end);
        for (size_t i = 0; i < n_cpu_rows; i++) {
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_cpu((int64_t)cidx[i]));
            json_object_array_add(row, la_lami_value("ratio", c->cpus[cidx[i]].pct / 100));
        }
        la_lami_add(r, t);
        if (n_known) {
            t = la_lami_table(r, "total", c->begin, end);
            json_object_array_add(la_lami_row(t), la_lami_value("ratio", total / 100));
            la_lami_add(r, t);
        }
    } else {
        la_print_timerange(r, out, c->begin, end);
        for (size_t i = 0; i < rows; i++) {
            const struct tid_usage *u = &c->tids[idx[i]];
            char prios[256], name[LA_COMM_MAX + 24], mig[24];
            la_prio_list(prios, sizeof prios, u->prios, u->n_prios);
            snprintf(name, sizeof name, "%s (%lld)", u->comm, (long long)u->tid);
            snprintf(mig, sizeof mig, "%lld", (long long)u->migrations);
            tg_buf *tmp = tg_buf_new();
            if (!tmp)
                break;
            tg_buf_puts(tmp, "  ");
            la_pad(tmp, name, 25, '<');
            tg_buf_putc(tmp, ' ');
            la_pad(tmp, mig, 10, '>');
            tg_buf_printf(tmp, "   %s", prios);
            snprintf(labels[i], sizeof labels[i], "%s", tg_buf_data(tmp));
            tg_buf_free(tmp);
            bars[i] = (la_bar){u->pct / 100 * 100, labels[i]};
        }
        tg_buf *head = tg_buf_new();
        if (head) {
            tg_buf_puts(head, "  ");
            la_pad(head, "Process", 25, '<');
            tg_buf_putc(head, ' ');
            la_pad(head, "Migrations", 10, '>');
            tg_buf_puts(head, "   Priorities");
            la_bar_graph(out, "Per-TID Usage", tg_buf_data(head), "%", bars, rows);
            tg_buf_free(head);
        }
        for (size_t i = 0; i < n_cpu_rows; i++) {
            snprintf(labels[i], sizeof labels[i], "CPU %zu", cidx[i]);
            bars[i] = (la_bar){c->cpus[cidx[i]].pct / 100 * 100, labels[i]};
        }
        la_bar_graph(out, "Per-CPU Usage", NULL, "%", bars, n_cpu_rows);
        if (n_known)
            tg_buf_printf(out, "\nTotal CPU Usage: %0.02f%%\n\n", total / 100 * 100);
    }
    free(idx);
    free(bars);
    free(labels);
    return 0;
}

static void cputop_free(la_run *r)
{
    struct cputop *c = r->ctx;
    if (!c)
        return;
    for (size_t i = 0; i < c->n_tids; i++)
        free(c->tids[i].prios);
    free(c->tids);
    free(c->cpus);
    tg_hash_free(&c->by_tid);
    free(c);
    r->ctx = NULL;
}

static const char *const cputop_needs[] = {"sched_switch", NULL};

const la_kind la_kind_cputop = {
    .name = "cputop",
    .needs = cputop_needs,
    .begin = cputop_begin,
    .end = cputop_end,
    .free = cputop_free,
};
