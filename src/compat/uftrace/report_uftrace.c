/* report_uftrace.c - the "uftrace" report style: `uftrace report`'s table, byte for byte.
 *
 * Each function exit (and each sched-in, as the virtual function linux:schedule) adds the
 * call's total and self time to the function's row; a call made while the same function is
 * already on the thread's stack does not add to the total (recursion is counted once, as
 * uftrace does), only to the self time and the call count.  Frames still open at the end
 * are closed at their thread's last record.  Rows are keyed by name in core's hash table
 * and sorted once at the end by the -s keys (total time by default), printed with the -f
 * columns (report_rows.c).  The minima, maxima and averages (--avg-total, --avg-self, -f
 * total-min, ...) cost nothing unless a column or key asks for them: the inline paths are
 * compiled twice, with and without them.  The size column reads each function's symbol
 * and takes the general path.  --task is report_task.c. */
#include "analysis/callstack.h"
#include "compat/uftrace/report_internal.h"
#include "compat/uftrace/report_task.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/consumer.h"
#include "core/cursor.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* The symbol of a function entry/exit, asked of the reader once per address. */
const char *uf_rep_name(struct rep *p, const tg_event *ev)
{
    uint64_t a = ev->addr;
    size_t h = (a ^ (a >> 12)) & 4095;
    const void *tr = ev->cls->trace;
    if (!p->names[h].set || p->names[h].addr != a || p->names[h].trace != tr) {
        p->names[h].addr = a;
        p->names[h].trace = tr;
        p->names[h].name = tg_event_func_name(ev);
        p->names[h].row = NULL;
        p->names[h].set = true;
        p->names[h].fixup = p->names[h].name ? uf_fixup_kind(p->names[h].name) : 0;
    }
    return p->names[h].name;
}

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
    struct row *r = uf_row_get(&p->tb, key);
    if (r) {
        p->cache[h].name = name;
        p->cache[h].addr = addr;
        p->cache[h].row = r;
    }
    return r;
}

/* report_update_node: the frame just closed sits at index stack_count */
int uf_rep_account(struct rep *p, uf_task *t, const char *name, uint64_t addr)
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
    uf_row_add(r, f->total, f->total - f->child, recursive, p->fmt->stats);
    if (p->fmt->needs_size) {
        const uint64_t *size = addr ? tg_hash_find(&p->sizes, addr) : NULL;
        if (size)
            r->size = *size;
        else if ((size_t)t->order < p->task_size_cap)
            r->size = p->task_size[t->order];
    }
    return 0;
}

/* The size column: the record's symbol size, remembered by address and as its thread's
 * last. */
int uf_rep_note_size(struct rep *p, uf_task *t, const tg_event *ev)
{
    tg_func_symbol sym;
    uint64_t size = tg_event_func_symbol(ev, &sym) ? sym.size : 0;
    uint64_t *slot;
    if (tg_hash_insert(&p->sizes, ev->addr, &slot) < 0 ||
        tg_grow(&p->task_size, &p->task_size_cap, (size_t)t->order + 1, sizeof *p->task_size) < 0)
        return TG_ERR_NOMEM;
    *slot = size;
    p->task_size[t->order] = size;
    return 0;
}

static int account_close(void *ctx, uf_task *t, const char *name, uint64_t addr, int64_t ts,
                         int how)
{
    (void)ts;
    (void)how;
    return uf_rep_account(ctx, t, name, addr);
}

/* One record through uftrace's report rules (build_function_tree, in the call-stack
 * builder's uftrace rules), each ended frame accounted. */
__attribute__((noinline)) static int feed(struct rep *p, const tg_event *ev)
{
    uf_rec r;
    uf_rec_from_event(ev, &r);
    uf_task *t = uf_task_get(&p->st, r.tid, r.pid);
    if (!t)
        return TG_ERR_NOMEM;
    if (r.type == UF_ENTRY || r.type == UF_EXIT) {
        r.name = uf_rep_name(p, ev);
        if (p->fmt->needs_size && uf_rep_note_size(p, t, ev) < 0)
            return TG_ERR_NOMEM;
    }
    const uf_sink sink = {.close = account_close, .ctx = p};
    return uf_step(&p->st, t, &r, &sink);
}

/* The common case of feed() - an entry or exit of a thread in its steady state, in a frame
 * already allocated, no special function - with the same rules inlined; anything else
 * takes feed().  About half the report's time is spent here. */
static inline __attribute__((always_inline)) int feed_fast(struct rep *p, const tg_event *ev,
                                                           const bool stats)
{
    tg_event_kind kind = ev->cls->kind;
    if ((kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT) || ev->cls->kernel ||
        ev->cls->exit_ends_top || ev->cls->exit_has_call_ns)
        return feed(p, ev);
    uf_task *t = p->st.last_task;
    if (!t || t->tid != ev->tid)
        return feed(p, ev);
    if (!t->steady || !t->display_depth_set)
        return feed(p, ev);
    uint64_t a = ev->addr;
    size_t h = p->last_h;
    if (p->names[h].addr != a || !p->names[h].set || p->names[h].trace != ev->cls->trace) {
        h = (a ^ (a >> 12)) & 4095;
        if (!p->names[h].set || p->names[h].addr != a || p->names[h].trace != ev->cls->trace)
            return feed(p, ev);
        p->last_h = h;
    }
    uint64_t ts = (uint64_t)ev->ts;
    if (kind == TG_KIND_FUNC_ENTRY) {
        int idx = t->stack_count;
        const char *name = p->names[h].name;
        if (idx < 0 || idx >= t->cap || p->names[h].fixup)
            return feed(p, ev);
        uf_frame_push(t, idx, a, name, ts);
        t->last_time = ts;
        t->last_was_perf = false;
        t->entry_flags = 0;
        t->display_depth++;
        return 0;
    }
    int idx = t->stack_count - 1;
    if (idx < 0 || idx >= t->cap)
        return feed(p, ev);
    uf_frame_pop(t, idx, ts);
    const uf_frame *f = &t->frames[idx];
    uint64_t delta = f->total; /* the popped frame's time */
    t->last_time = ts;
    t->last_was_perf = false;
    if (t->display_depth > 0)
        t->display_depth--;
    /* account(): recursion = the same address lower on the stack */
    bool recursive = false;
    for (int i = 0; i < idx; i++)
        if (t->frames[i].addr == f->addr) {
            recursive = true;
            break;
        }
    struct row *r = p->names[h].row;
    if (!r) {
        r = row_for(p, p->names[h].name, a);
        if (!r)
            return TG_ERR_NOMEM;
        p->names[h].row = r;
    }
    uf_row_add(r, delta, delta - f->child, recursive, stats);
    return 0;
}

/* Frames still open at the end: closed at their thread's last record. */
int uf_rep_finish(struct rep *p)
{
    const uf_sink sink = {.close = account_close, .ctx = p};
    return uf_finish(&p->st, &sink);
}

/* other: the run report --diff compares with, which uftrace reads with options of its own:
 * none but -k, so events and kernel functions outside user functions count (sic). */
struct rep *uf_rep_new(const tg_options *opts, const struct uf_report_fmt *fmt, bool other)
{
    struct rep *p = calloc(1, sizeof *p);
    if (p && uf_state_init(&p->st) < 0) {
        free(p);
        return NULL;
    }
    if (p) {
        p->st.kernel_full = other || (opts && tg_options_flag(opts, "kernel-full"));
        p->st.event_full = other;
        p->fmt = fmt;
    }
    return p;
}

void uf_rep_free(struct rep *p)
{
    if (!p)
        return;
    uf_table_free(&p->tb);
    uf_state_free(&p->st);
    tg_hash_free(&p->sizes);
    free(p->task_size);
    free(p);
}

/* ---- the per-thread path ------------------------------------------------------------------
 * A report needs each thread's records in time order, not the interleaving of threads.  When
 * the set is uftrace data read without filters, each thread's TID.dat is read on its own
 * (no merge), merged only with that thread's perf events, by two worker threads; their
 * tables are summed at the end.  The one cross-thread rule of uftrace (a thread whose last
 * record was a perf record ends at the last perf record of all) is applied with the global
 * last perf time. */

struct side_ev { /* a perf event kept for its thread: the model's header fields */
    tg_event ev;
    size_t stream_no; /* its stream's place in the set: the tie-break of equal times */
};

struct task_job {
    tg_stream *s;
    int tid;
    struct side_ev *side; /* this thread's perf events, time-ordered */
    size_t n_side;
};

struct run { /* what the per-stream callback shares (read-only) */
    struct task_job *jobs;
    size_t n_jobs;
    struct rep *rep[2]; /* one accumulator per worker */
};

/* One thread's records, read straight through its stream's next() (the report's own loop:
 * uftrace data only, whose reader fills every header field it uses), merged with the
 * thread's perf events.  Damage is collected and the stream resumes, as the iterators do. */
/* The job's own cache of address -> name/row/special kind: one stream means one trace, so no
 * trace check; direct-mapped, filled from the report's cache after a record took feed_fast. */
#define JOB_CACHE 256
struct job_fn {
    uint64_t addr; /* ~0: empty */
    const char *name;
    struct row *row; /* NULL until the first exit */
    uint8_t fixup;
};

static inline size_t job_hash(uint64_t a) { return (size_t)((a ^ (a >> 8)) & (JOB_CACHE - 1)); }

/* After a record went through feed_fast: remember its address if the report's cache has it. */
static void job_learn(struct rep *p, struct job_fn *jc, const tg_event *ev)
{
    uint64_t a = ev->addr;
    size_t h = (a ^ (a >> 12)) & 4095;
    if (!p->names[h].set || p->names[h].addr != a || p->names[h].trace != ev->cls->trace)
        return;
    struct job_fn *c = &jc[job_hash(a)];
    c->addr = a;
    c->name = p->names[h].name;
    c->row = p->names[h].row;
    c->fixup = p->names[h].fixup;
}

/* A record the inline path of run_job_with does not take: the general rules (feed_fast),
 * then what they resolved is learnt (its class, its address).  Out of line: it runs a few
 * times per thread, and inlined its variables crowd the inline path's out of registers. */
static __attribute__((noinline)) int job_other(struct rep *p, struct job_fn *jc, const tg_event *ev,
                                               const tg_event_class **c_entry,
                                               const tg_event_class **c_exit, const bool stats)
{
    tg_event_kind kind = ev->cls->kind;
    int rc = feed_fast(p, ev, stats);
    if (rc < 0)
        return rc;
    if (ev->cls->kernel || ev->cls->exit_has_call_ns)
        kind = TG_KIND_GENERIC; /* kernel functions, tracer-timed exits: feed() */
    if (kind == TG_KIND_FUNC_ENTRY)
        *c_entry = ev->cls;
    else if (kind == TG_KIND_FUNC_EXIT)
        *c_exit = ev->cls;
    if (kind == TG_KIND_FUNC_ENTRY || kind == TG_KIND_FUNC_EXIT)
        job_learn(p, jc, ev);
    return 0;
}

/* The thread whose records take the inline path: the report's current one, if it is this
 * job's thread in its steady state (the flags change only in feed()). */
static inline uf_task *job_task(struct rep *p, int tid)
{
    uf_task *t = p->st.last_task;
    if (!t || t->tid != tid || !t->steady || !t->display_depth_set)
        return NULL;
    return t;
}

/* One thread's records, read through the one-stream cursor in batches, merged with the
 * thread's perf events; damage is kept by the cursor (tg_streams_run returns it).  The
 * common record (an entry or exit of a known, non-special address, in an allocated frame) is
 * handled inline with the rules of feed_fast; everything else goes there. */
static inline __attribute__((always_inline)) int run_job_with(void *ctx, unsigned worker,
                                                              tg_stream_iter *it, const bool stats)
{
    struct run *run = ctx;
    struct rep *p = run->rep[worker];
    tg_stream *s = tg_stream_iter_stream(it);
    struct task_job *j = run->jobs;
    while (j->s != s)
        j++;
    struct job_fn jc[JOB_CACHE];
    const tg_event *evs;
    for (size_t i = 0; i < JOB_CACHE; i++)
        jc[i].addr = ~(uint64_t)0;
    const tg_event_class *c_entry = NULL, *c_exit = NULL;
    uf_task *t = job_task(p, j->tid);
    size_t k = 0;
    int64_t side_ts = j->n_side ? j->side[0].ev.ts : INT64_MAX;
    int rc = 0;
    for (;;) {
        int n = tg_stream_iter_next_run(it, &evs, NULL);
        if (n == 0)
            break;
        if (n < 0)
            continue; /* damage: kept by the cursor, which goes on past it */
        for (const tg_event *ev = evs, *end = evs + n; ev < end; ev++) {
            if (__builtin_expect(side_ts < ev->ts, 0)) {
                while (k < j->n_side && j->side[k].ev.ts < ev->ts)
                    if ((rc = feed(p, &j->side[k++].ev)) < 0)
                        return rc;
                side_ts = k < j->n_side ? j->side[k].ev.ts : INT64_MAX;
                t = job_task(p, j->tid);
            }
            uint64_t a = ev->addr;
            struct job_fn *c = &jc[job_hash(a)];
            if (__builtin_expect(t != NULL && c->addr == a, 1)) {
                uint64_t ts = (uint64_t)ev->ts;
                if (ev->cls == c_entry) {
                    int idx = t->stack_count;
                    if (idx >= 0 && idx < t->cap && !c->fixup) {
                        uf_frame_push(t, idx, a, c->name, ts);
                        t->last_time = ts;
                        t->last_was_perf = false;
                        t->entry_flags = 0;
                        t->display_depth++;
                        continue;
                    }
                } else if (ev->cls == c_exit && c->row) {
                    int idx = t->stack_count - 1;
                    if (idx >= 0 && idx < t->cap) {
                        uf_frame_pop(t, idx, ts);
                        const uf_frame *f = &t->frames[idx];
                        uint64_t delta = f->total;
                        /* account(): recursion = the same address lower on the stack (the
                         * caller first: the usual case of a recursive call) */
                        bool recursive = false;
                        if (idx > 0) {
                            if (f[-1].addr == f->addr)
                                recursive = true;
                            else
                                for (int q = 0; q < idx - 1; q++)
                                    if (t->frames[q].addr == f->addr) {
                                        recursive = true;
                                        break;
                                    }
                        }
                        t->last_time = ts;
                        t->last_was_perf = false;
                        if (t->display_depth > 0)
                            t->display_depth--;
                        uf_row_add(c->row, delta, delta - f->child, recursive, stats);
                        continue;
                    }
                }
            }
            /* anything else: the general rules, then learn what they resolved */
            if ((rc = job_other(p, jc, ev, &c_entry, &c_exit, stats)) < 0)
                return rc;
            t = job_task(p, j->tid);
        }
    }
    while (k < j->n_side)
        if ((rc = feed(p, &j->side[k++].ev)) < 0)
            return rc;
    return 0;
}

static int run_job(void *ctx, unsigned worker, tg_stream_iter *it)
{
    return run_job_with(ctx, worker, it, false);
}

static int run_job_stats(void *ctx, unsigned worker, tg_stream_iter *it)
{
    return run_job_with(ctx, worker, it, true);
}

static int cmp_side(const void *a, const void *b)
{
    const struct side_ev *x = a, *y = b;
    if (x->ev.ts != y->ev.ts)
        return x->ev.ts < y->ev.ts ? -1 : 1;
    size_t a1 = x->stream_no, b1 = y->stream_no;
    return a1 < b1 ? -1 : a1 > b1;
}

static bool fast_path_ok(tg_set *set, const tg_options *opts, const struct uf_report_fmt *fmt,
                         bool other)
{
    static const char *const filters[] = {"begin", "end", "events", "tid", "cpu", NULL};
    if (fmt->needs_size)
        return false;
    for (size_t i = 0; opts && !other && filters[i]; i++)
        if (tg_options_get(opts, filters[i]))
            return false;
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        if (strcmp(tg_trace_format(tg_set_trace(set, i)), "uftrace") != 0)
            return false;
    return true;
}

static int report_parallel(tg_set *set, const tg_options *opts, const struct uf_report_fmt *fmt,
                           bool other, struct table *tb, tg_error **err)
{
    struct run run = {0};
    struct side_ev *side = NULL;
    size_t n_side = 0, cap_side = 0;
    tg_stream **streams = NULL;
    tg_error *errors = NULL;
    int64_t last_perf_time = 0;
    size_t stream_no = 0;
    int rc = 0;
    size_t n_streams = 0;
    for (size_t ti = 0; ti < tg_set_trace_count(set); ti++)
        n_streams += tg_trace_stream_count(tg_set_trace(set, ti));
    run.jobs = calloc(n_streams ? n_streams : 1, sizeof *run.jobs);
    streams = calloc(n_streams ? n_streams : 1, sizeof *streams);
    if (!run.jobs || !streams) {
        free(run.jobs);
        free(streams);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    /* perf (per-cpu) streams first, their events kept per thread */
    for (size_t ti = 0; ti < tg_set_trace_count(set) && rc >= 0; ti++) {
        tg_trace *tr = tg_set_trace(set, ti);
        for (size_t si = 0; si < tg_trace_stream_count(tr) && rc >= 0; si++, stream_no++) {
            tg_stream *s = tg_trace_stream(tr, si);
            if (tg_stream_tid(s) >= 0) {
                run.jobs[run.n_jobs].s = s;
                run.jobs[run.n_jobs].tid = tg_stream_tid(s);
                streams[run.n_jobs++] = s;
                continue;
            }
            tg_stream_iter *it = tg_stream_iter_new(s);
            const tg_event *ev;
            for (;;) {
                tg_error *e = NULL;
                int r = it ? tg_stream_iter_next(it, &ev, &e) : TG_ERR_NOMEM;
                if (r == TG_ERR_NOMEM) {
                    rc = r;
                    break;
                }
                if (r < 0) {
                    if (e)
                        tg_err_append(&errors, e);
                    continue;
                }
                if (r == 0)
                    break;
                if (tg_grow(&side, &cap_side, n_side + 1, sizeof *side) < 0) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                side[n_side].ev = *ev;
                side[n_side++].stream_no = stream_no;
                if (uf_kind_is_perf(ev->cls->kind) && ev->ts > last_perf_time)
                    last_perf_time = ev->ts;
            }
            tg_stream_iter_free(it);
        }
    }
    if (rc >= 0) {
        if (n_side > 1)
            qsort(side, n_side, sizeof *side, cmp_side);
        /* hand each thread its perf events (stable: grouped by tid, time order kept) */
        for (size_t i = 0; i < run.n_jobs; i++) {
            struct task_job *j = &run.jobs[i];
            size_t first = n_side, cnt = 0;
            for (size_t k = 0; k < n_side; k++)
                if (side[k].ev.tid == j->tid) {
                    if (first == n_side)
                        first = k;
                    cnt++;
                }
            /* a private copy per thread (perf events are few) */
            if (cnt) {
                j->side = malloc(cnt * sizeof *j->side);
                if (!j->side) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                for (size_t k = first; k < n_side; k++)
                    if (side[k].ev.tid == j->tid)
                        j->side[j->n_side++] = side[k];
            }
        }
    }
    unsigned nw = run.n_jobs > 1 && tg_thread_count() > 1 ? 2 : 1;
    for (unsigned i = 0; i < nw && rc >= 0; i++)
        if (!(run.rep[i] = uf_rep_new(opts, fmt, other)))
            rc = TG_ERR_NOMEM;
    if (rc >= 0) {
        /* each thread on its own, on two workers; their tables are summed at the end */
        rc = tg_streams_run(streams, run.n_jobs, nw, fmt->stats ? run_job_stats : run_job, &run,
                            &errors);
        if (rc == TG_ERR_FORMAT)
            rc = 0; /* damage: in errors, reported after the table */
        for (unsigned i = 0; i < nw && rc >= 0; i++) {
            run.rep[i]->st.last_perf_time = last_perf_time;
            rc = uf_rep_finish(run.rep[i]);
        }
        if (rc >= 0 && nw == 2) /* sum the second table into the first */
            rc = uf_table_merge(&run.rep[0]->tb, &run.rep[1]->tb);
        if (rc >= 0) { /* the table is the caller's */
            *tb = run.rep[0]->tb;
            memset(&run.rep[0]->tb, 0, sizeof run.rep[0]->tb);
        }
    }
    for (unsigned i = 0; i < nw; i++)
        uf_rep_free(run.rep[i]);
    for (size_t i = 0; i < run.n_jobs; i++)
        free(run.jobs[i].side);
    free(run.jobs);
    free(streams);
    free(side);
    if (rc == TG_ERR_NOMEM) {
        tg_error_free(errors);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    if (rc < 0) {
        tg_error_free(errors);
        return rc;
    }
    if (errors) {
        if (err && !*err)
            *err = errors;
        else
            tg_err_append(err, errors);
        return TG_ERR_FORMAT;
    }
    return rc;
}

int uf_report_table(tg_set *set, tg_iter *it, const tg_options *opts,
                    const struct uf_report_fmt *fmt, bool other, struct table *tb, tg_error **err)
{
    memset(tb, 0, sizeof *tb);
    { /* uftrace's filters: the base of a --diff too; the other run as uftrace filters it */
        uf_filter filter;
        int frc = uf_filter_setup(&filter, opts, err);
        if (frc >= 0 && other)
            uf_filter_for_other_run(&filter);
        filter.lenient = fmt->patterns_elsewhere;
        if (frc >= 0 && filter.on)
            frc = uf_report_filtered(set, it, opts, fmt, &filter, other, tb, err);
        bool done = frc < 0 || filter.on;
        uf_filter_free(&filter);
        if (done)
            return frc;
    }
    if (fast_path_ok(set, opts, fmt, other))
        return report_parallel(set, opts, fmt, other, tb, err);
    struct rep *p = uf_rep_new(opts, fmt, other);
    if (!p)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const tg_event *ev;
    int rc;
    if (fmt->needs_size) { /* every record asks its symbol: the general path */
        while ((rc = tg_iter_next(it, &ev)) > 0)
            if ((rc = feed(p, ev)) < 0)
                break;
    } else if (fmt->stats) {
        while ((rc = tg_iter_next(it, &ev)) > 0)
            if ((rc = feed_fast(p, ev, true)) < 0)
                break;
    } else {
        while ((rc = tg_iter_next(it, &ev)) > 0)
            if ((rc = feed_fast(p, ev, false)) < 0)
                break;
    }
    if (rc >= 0)
        rc = uf_rep_finish(p);
    if (rc == TG_ERR_NOMEM)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0) {
        *tb = p->tb;
        memset(&p->tb, 0, sizeof p->tb);
    }
    uf_rep_free(p);
    return rc < 0 ? rc : 0;
}

static int report_uftrace(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    TG_TRY(uf_need_symbols(set, err));
    if (tg_options_flag(opts, "task") || tg_options_flag(opts, "threads")) {
        uf_filter filter;
        int rc = uf_filter_setup(&filter, opts, err);
        bool filtered = filter.on;
        uf_filter_free(&filter);
        if (rc < 0)
            return rc;
        if (filtered)
            return tg_err(err, TG_ERR_USAGE,
                          "report --task takes none of uftrace's filters (-F, -N, -C, -D, -t, "
                          "-r, --no-libcall) yet");
        return uf_report_task(set, it, opts, out, err);
    }
    struct uf_report_fmt fmt;
    int rc = uf_report_fmt_parse(&fmt, opts, err);
    if (rc < 0)
        return rc;
    const char *format = tg_options_get(opts, "format");
    bool json = format && strcmp(format, "json") == 0;
    struct table tb;
    rc = uf_report_table(set, it, opts, &fmt, false, &tb, err);
    if (json && rc >= 0)
        rc = uf_rows_print_json(&tb, &fmt, out, err);
    else if (json && rc == TG_ERR_FORMAT) /* damage: the document, then the errors */
        uf_rows_print_json(&tb, &fmt, out, NULL);
    else if (rc >= 0 || rc == TG_ERR_FORMAT) /* damage: the table, then the errors */
        uf_rows_print(&tb, &fmt, out);
    uf_table_free(&tb);
    return rc;
}

/* sort and output-fields are checked where they are parsed (report_rows.c, report_task.c),
 * with uftrace's own reasons */
static const tg_option_decl report_uftrace_options[] = {
    {"sort", TG_OPT_TEXT, "total",
     "sort keys: total, self, call, func, total-avg/-min/-max, self-avg/-min/-max, size "
     "(with --avg-*: avg, min, max; --task: tid, name) (uftrace report -s)",
     "KEY[,KEY]", NULL, 0, 0, 's'},
    {"output-fields", TG_OPT_TEXT, NULL,
     "columns: total, self, call, total-avg/-min/-max, self-avg/-min/-max, size, all, none; "
     "+FIELD adds (uftrace report -f)",
     "FIELDS", NULL, 0, 0, 'f'},
    {"avg-total", TG_OPT_FLAG, NULL, "average, min and max of each total time"},
    {"avg-self", TG_OPT_FLAG, NULL, "average, min and max of each self time"},
    {"task", TG_OPT_FLAG, NULL, "one row per thread (uftrace report --task)"},
    {"format", TG_OPT_CHOICE, "text",
     "text (uftrace report's table), or json: one JSON document of the same rows and columns, "
     "times in ns",
     "FORMAT", "text|json"},
    {"threads", TG_OPT_FLAG, NULL, "--task, as older uftrace names it"},
    {"diff-policy", TG_OPT_TEXT, "abs,compact",
     "--diff: abs, no-abs, percent, no-percent, compact, full, comma-separated (uftrace "
     "report --diff-policy)",
     "POLICY"},
    {"sort-column", TG_OPT_INT, "2",
     "--diff: sort on column N: 0 or 1 the values, 2 the change (uftrace report --sort-column)",
     "N", NULL, 0, 2},
    {"kernel-full", TG_OPT_FLAG, NULL,
     "uftrace data recorded with -k: also the kernel functions outside user functions "
     "(uftrace --kernel-full)"},
    UF_FILTER_OPTION_DECLS,
    {0},
};

TG_REPORT_STYLE(uftrace) = {
    .name = "uftrace",
    .report = report_uftrace,
    .diff = uf_report_diff,
    .diff_other_whole = true,

    .options = report_uftrace_options,
};
