/* uftrace_write.c - the uftrace data-directory converter: traceglot convert --to uftrace.
 *
 * Function traces from any reader (uftrace, XRay, LTTng-UST cyg-profile, ...) become a data
 * directory that uftrace's own tools read (replay, report, graph, tui): one TID.dat of
 * 16-byte records per thread, task.txt with one session, a session map with one module and
 * that module's .sym file, and the info file (uftrace_meta.c).
 *
 * Records: {time ns, type:2 more:1 magic:3 depth:10 addr:48}.  Each distinct function gets
 * an address in the one module (16 bytes apart, in order of first sight), so the symbol table
 * needs no knowledge of the input's binaries.  Depth is the input's where the tracer recorded
 * one (uftrace), else the writer's count of open frames per thread.  Sched-out/in events
 * become uftrace's perf event records, lost records a LOST record.  Memory: one output
 * buffer per thread, the function table. */
#include "writers/uftrace/uftrace_writer.h"
#include "writers/dir_output.h"
#include "core/error_internal.h"
#include "core/grow.h"
#include "core/consumer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { REC_ENTRY = 0, REC_EXIT = 1, REC_LOST = 2, REC_EVENT = 3, REC_MORE = 4, REC_MAGIC = 5 };
enum { EV_SCHED_IN = 200001, EV_SCHED_OUT = 200002, EV_SCHED_OUT_PREEMPT = 200007 };

#define FUNC_CACHE 1024

static int thread_of(uw_writer *w, const tg_event *ev, uw_thread **out, tg_error **err)
{
    int tid = tg_event_tid(ev);
    if (tid < 0)
        tid = tg_stream_tid(tg_event_stream(ev));
    if (tid < 0)
        tid = 0;
    if (w->last && w->last->tid == tid) {
        *out = w->last;
        return 0;
    }
    for (size_t i = 0; i < w->n_threads; i++)
        if (w->threads[i].tid == tid) {
            *out = w->last = &w->threads[i];
            return 0;
        }
    if (tg_grow(&w->threads, &w->cap_threads, w->n_threads + 1, sizeof *w->threads) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    uw_thread *t = &w->threads[w->n_threads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = tg_event_pid(ev);
    t->first_ns = tg_event_time_ns(ev);
    char name[32];
    snprintf(name, sizeof name, "%d.dat", tid);
    int fd = tg_dir_file_create(w->dir, name, err);
    if (fd < 0) {
        w->n_threads--;
        return fd;
    }
    t->out = tg_buf_new_fd(fd);
    t->fd = fd;
    if (!t->out) {
        close(fd);
        w->n_threads--;
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    w->last = NULL; /* the array may have moved */
    *out = w->last = t;
    return 0;
}

/* The function's address in the written module (functions are added to the table at first
 * sight, found by input address, then name); a function without a name keeps its own
 * address, which uftrace shows as <addr> as the input's tools do. */
/* The index of the function named name, added at first sight. */
static int func_index(uw_writer *w, const char *name, size_t *out, tg_error **err)
{
    size_t i;
    for (i = 0; i < w->n_funcs; i++)
        if (strcmp(w->funcs[i].name, name) == 0)
            break;
    if (i == w->n_funcs) {
        char *copy = strdup(name);
        if (!copy || tg_grow(&w->funcs, &w->cap_funcs, w->n_funcs + 1, sizeof *w->funcs) < 0) {
            free(copy);
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
        w->funcs[w->n_funcs++] = (uw_func){.name = copy};
    }
    *out = i;
    return 0;
}

static int func_address(uw_writer *w, uint64_t addr, const char *name, uint64_t *out, size_t *func,
                        tg_error **err)
{
    size_t slot = (size_t)((addr >> 2) ^ (addr >> 12)) % FUNC_CACHE;
    if (w->cache_addr[slot] == addr && w->cache_index[slot]) {
        *out = UW_BASE + UW_FIRST + UW_STEP * (w->cache_index[slot] - 1);
        *func = w->cache_index[slot] - 1;
        return 0;
    }
    *func = SIZE_MAX;
    if (!name) {
        *out = addr & 0xffffffffffffull;
        return 0;
    }
    size_t i;
    TG_TRY(func_index(w, name, &i, err));
    w->cache_addr[slot] = addr;
    w->cache_index[slot] = i + 1;
    *out = UW_BASE + UW_FIRST + UW_STEP * i;
    *func = i;
    return 0;
}

static int note_tie(uw_writer *w, int first, int second, tg_error **err)
{
    for (size_t i = 0; i < w->n_ties; i++)
        if (w->before[i] == first && w->after[i] == second)
            return 0;
    if (tg_grow(&w->before, &w->cap_before, w->n_ties + 1, sizeof *w->before) < 0 ||
        tg_grow(&w->after, &w->cap_after, w->n_ties + 1, sizeof *w->after) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    w->before[w->n_ties] = first;
    w->after[w->n_ties] = second;
    w->n_ties++;
    return 0;
}

/* The program the first call names in its contexts (LTTng-UST's procname), for a trace
 * whose attributes name none. */
static void program_of(uw_writer *w, const tg_event *ev)
{
    static const tg_scope scopes[] = {TG_SCOPE_STREAM_CONTEXT, TG_SCOPE_EVENT_CONTEXT};
    for (size_t i = 0; i < 2; i++) {
        tg_value v;
        if (tg_event_field_by_name(ev, scopes[i], "procname", &v) == 0 && v.type == TG_VAL_STRING &&
            v.v.str.len && v.v.str.len < sizeof w->program) {
            size_t n = strnlen(v.v.str.ptr, v.v.str.len);
            memcpy(w->program, v.v.str.ptr, n);
            w->program[n] = 0;
            return;
        }
    }
    w->program[0] = '\x01'; /* looked: none */
}

/* The position of tid in a task list "1,2,3" (its count when absent). */
static size_t listed_at(const char *tids, int tid)
{
    size_t k = 0;
    for (const char *p = tids; p && *p; k++) {
        if (atoi(p) == tid)
            return k;
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return SIZE_MAX;
}

/* The input's task list order where it has one (a uftrace recording's, whose ties it already
 * decided), the threads it does not list after. */
static void order_as_listed(const uw_writer *w, const char *tids, size_t *order)
{
    size_t n = w->n_threads;
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, few threads */
        size_t v = order[i], at = listed_at(tids, w->threads[v].tid), j = i;
        while (j > 0 && listed_at(tids, w->threads[order[j - 1]].tid) > at) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

/* Threads in first-seen order, except that a thread whose record came first at an equal
 * time goes before the other (a topological order of the ties; a cycle falls back to
 * first-seen order); with the input's task list (tids), in its order. */
size_t *uw_thread_order(const uw_writer *w, const char *tids)
{
    size_t n = w->n_threads;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    char *done = calloc(n ? n : 1, 1);
    if (!order || !done) {
        free(order);
        free(done);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++) {
            if (done[i])
                continue;
            int blocked = 0;
            for (size_t e = 0; e < w->n_ties && !blocked; e++) {
                if (w->after[e] != w->threads[i].tid)
                    continue;
                for (size_t j = 0; j < n; j++)
                    if (!done[j] && j != i && w->threads[j].tid == w->before[e])
                        blocked = 1;
            }
            if (!blocked)
                pick = i;
        }
        for (size_t i = 0; i < n && pick == n; i++)
            if (!done[i])
                pick = i;
        done[pick] = 1;
        order[k] = pick;
    }
    free(done);
    if (tids)
        order_as_listed(w, tids, order);
    return order;
}

/* A record's second word: type, magic, depth, address. */
static uint64_t record_word(unsigned type, unsigned depth, uint64_t addr)
{
    return (uint64_t)(type & 7) | ((uint64_t)REC_MAGIC << 3) | ((uint64_t)(depth & 0x3ff) << 6) |
           ((addr & 0xffffffffffffull) << 16);
}

static int put_record(uw_thread *t, int64_t ns, unsigned type, unsigned depth, uint64_t addr,
                      tg_error **err)
{
    uint64_t w0 = (uint64_t)ns, w1 = record_word(type, depth, addr);
    uint8_t rec[16];
    for (int i = 0; i < 8; i++) {
        rec[i] = (uint8_t)(w0 >> (8 * i));
        rec[8 + i] = (uint8_t)(w1 >> (8 * i));
    }
    t->n_records++;
    return uw_hold_put(t, rec, sizeof rec) < 0 ? tg_err(err, TG_ERR_NOMEM, "out of memory") : 0;
}

enum { PERF_COMM = 3, PERF_EXIT = 4, PERF_FORK = 7, PERF_SWITCH = 14 };
#define PERF_SWITCH_OUT 0x2000
#define PERF_SWITCH_OUT_PREEMPT 0x4000

static int perf_of(uw_writer *w, int cpu, uw_perf **out, tg_error **err)
{
    for (size_t i = 0; i < w->n_perf; i++)
        if (w->perf[i].cpu == cpu) {
            *out = &w->perf[i];
            return 0;
        }
    if (tg_grow(&w->perf, &w->cap_perf, w->n_perf + 1, sizeof *w->perf) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    char name[32];
    snprintf(name, sizeof name, "perf-cpu%d.dat", cpu);
    int fd = tg_dir_file_create(w->dir, name, err);
    if (fd < 0)
        return fd;
    uw_perf *p = &w->perf[w->n_perf];
    p->cpu = cpu;
    p->fd = fd;
    p->out = tg_buf_new_fd(fd);
    if (!p->out) {
        close(fd);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    w->n_perf++;
    *out = p;
    return 0;
}

static void put_u(tg_buf *b, uint64_t v, int n)
{
    uint8_t x[8];
    for (int i = 0; i < n; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    tg_buf_put(b, x, (size_t)n);
}

/* Scheduling and task events with a cpu go to that cpu's perf file, as uftrace records
 * them; 1 when written, 0 when the event is not one of them or has no cpu. */
static int write_perf(uw_writer *w, const tg_event *ev, tg_event_kind kind, tg_error **err)
{
    int comm = kind == TG_KIND_TASK_NAME;
    if (kind != TG_KIND_SCHED_IN && kind != TG_KIND_SCHED_OUT &&
        kind != TG_KIND_SCHED_OUT_PREEMPTED && kind != TG_KIND_TASK_FORK &&
        kind != TG_KIND_TASK_EXIT && !comm)
        return 0;
    int cpu = tg_event_cpu(ev), tid = tg_event_tid(ev), pid = tg_event_pid(ev);
    if (cpu < 0 || tid < 0)
        return 0;
    if (pid < 0)
        pid = tid;
    uw_perf *p = NULL;
    TG_TRY(perf_of(w, cpu, &p, err));
    uint64_t ns = (uint64_t)tg_event_time_ns(ev);
    if (kind == TG_KIND_SCHED_IN || kind == TG_KIND_SCHED_OUT ||
        kind == TG_KIND_SCHED_OUT_PREEMPTED) {
        uint16_t misc = kind == TG_KIND_SCHED_IN    ? 0
                        : kind == TG_KIND_SCHED_OUT ? PERF_SWITCH_OUT
                                                    : PERF_SWITCH_OUT | PERF_SWITCH_OUT_PREEMPT;
        put_u(p->out, PERF_SWITCH, 4);
        put_u(p->out, misc, 2);
        put_u(p->out, 24, 2);
        put_u(p->out, (uint32_t)pid, 4);
        put_u(p->out, (uint32_t)tid, 4);
        put_u(p->out, ns, 8);
    } else if (!comm) {
        put_u(p->out, kind == TG_KIND_TASK_FORK ? PERF_FORK : PERF_EXIT, 4);
        put_u(p->out, 0, 2);
        put_u(p->out, 48, 2);
        put_u(p->out, (uint32_t)pid, 4); /* pid, ppid, tid, ptid, time */
        put_u(p->out, (uint32_t)pid, 4);
        put_u(p->out, (uint32_t)tid, 4);
        put_u(p->out, (uint32_t)tid, 4);
        put_u(p->out, ns, 8);
        put_u(p->out, (uint32_t)pid, 4); /* sample_id: pid, tid, time */
        put_u(p->out, (uint32_t)tid, 4);
        put_u(p->out, ns, 8);
    } else {
        tg_value v;
        const char *text = "";
        size_t len = 0;
        if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "comm", &v) >= 0 &&
            (v.type == TG_VAL_STRING || v.type == TG_VAL_BYTES)) {
            text = v.v.str.ptr;
            len = v.v.str.len < 15 ? v.v.str.len : 15;
        }
        size_t padded = (len + 1 + 7) / 8 * 8;
        put_u(p->out, PERF_COMM, 4);
        put_u(p->out, 0, 2);
        put_u(p->out, 8 + 8 + padded + 16, 2);
        put_u(p->out, (uint32_t)pid, 4);
        put_u(p->out, (uint32_t)tid, 4);
        tg_buf_put(p->out, text, len);
        tg_buf_pad(p->out, 0, (int)(padded - len));
        put_u(p->out, (uint32_t)pid, 4);
        put_u(p->out, (uint32_t)tid, 4);
        put_u(p->out, ns, 8);
    }
    return 1;
}

/* A thread whose first record declares depth n - 1 (an entry: n): the n calls it was inside
 * when the recording began, entries held without a function until their exits name them
 * (uftrace_hold.c), so that uftrace nests and times them as trace-cmd does. */
static int put_implied(uw_thread *t, unsigned n, int64_t ns, tg_error **err)
{
    for (unsigned i = 0; i < n && i < 1024; i++) {
        if (uw_hold_entry(t) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        TG_TRY(put_record(t, ns, REC_ENTRY, i, 0, err));
        t->n_implied++;
    }
    return 0;
}

/* The function record of ev, with its arguments (entry) or return value (exit) after it
 * when the input has them. */
static int put_call(uw_writer *w, uw_thread *t, const tg_event *ev, int64_t ns, int is_exit,
                    unsigned depth, uint64_t addr, size_t func, tg_error **err)
{
    tg_scope scope = is_exit ? TG_SCOPE_RETURN : TG_SCOPE_PAYLOAD;
    size_t n = func != SIZE_MAX ? tg_event_field_count(ev, scope) : 0;
    int more = 0;
    if (n) {
        if (tg_grow(&w->vals, &w->cap_vals, n, sizeof *w->vals) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            tg_value *v = &w->vals[k];
            if (tg_event_field(ev, scope, i, v) < 0 ||
                !(is_exit || (v->name && strncmp(v->name, "arg", 3) == 0)))
                continue;
            /* a pointer to a function points to it in the written module */
            if ((v->flags & (TG_VALF_POINTER | TG_VALF_SYMBOLIC)) ==
                    (TG_VALF_POINTER | TG_VALF_SYMBOLIC) &&
                v->label) {
                size_t to;
                TG_TRY(func_index(w, v->label, &to, err));
                v->v.u = UW_BASE + UW_FIRST + UW_STEP * to;
            }
            k++;
        }
        tg_buf_reset(w->payload);
        more = k == n && uw_args_payload(&w->funcs[func], is_exit, w->vals, k, w->payload) > 0;
    }
    TG_TRY(put_record(t, ns, (is_exit ? REC_EXIT : REC_ENTRY) | (more ? REC_MORE : 0), depth, addr,
                      err));
    if (more && uw_hold_put(t, tg_buf_data(w->payload), tg_buf_len(w->payload)) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int write_event(uw_writer *w, const tg_event *ev, tg_error **err)
{
    tg_event_kind kind = tg_event_kind_of(ev);
    int rc = write_perf(w, ev, kind, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    if (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT && kind != TG_KIND_FUNC_TAIL_EXIT &&
        kind != TG_KIND_LOST && kind != TG_KIND_SCHED_IN && kind != TG_KIND_SCHED_OUT &&
        kind != TG_KIND_SCHED_OUT_PREEMPTED)
        return 0;
    if (w->stacks && kind != TG_KIND_SCHED_IN && kind != TG_KIND_SCHED_OUT &&
        kind != TG_KIND_SCHED_OUT_PREEMPTED) {
        w->ended_addr = 0;
        w->ended_name = NULL;
        if (tg_callstack_feed(w->stacks, ev) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    uw_thread *t = NULL;
    TG_TRY(thread_of(w, ev, &t, err));
    int64_t ns = tg_event_time_ns(ev);
    if (w->any && ns == w->prev_ns && t->tid != w->prev_tid)
        TG_TRY(note_tie(w, w->prev_tid, t->tid, err));
    w->prev_ns = ns;
    w->prev_tid = t->tid;
    if (!w->any || ns < w->first_ns)
        w->first_ns = ns;
    if (!w->any || ns > w->last_ns)
        w->last_ns = ns;
    w->any = 1;
    int depth = tg_event_depth(ev);
    uint64_t addr;
    size_t f;
    bool is_func = kind == TG_KIND_FUNC_ENTRY || kind == TG_KIND_FUNC_EXIT;
    if (w->hold && is_func && ev->cls->depth_is_stack && t->n_records == 0 && depth > 0)
        TG_TRY(put_implied(t, (unsigned)depth + (kind == TG_KIND_FUNC_EXIT), ns, err));
    switch (kind) {
    case TG_KIND_FUNC_ENTRY:
        if (!w->program[0])
            program_of(w, ev);
        TG_TRY(func_address(w, tg_event_func_addr(ev), tg_event_func_name(ev), &addr, &f, err));
        if (depth < 0)
            depth = t->open;
        t->open = depth + 1;
        if (w->hold && uw_hold_entry(t) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        TG_TRY(put_call(w, t, ev, ns, 0, (unsigned)depth, addr, f, err));
        break;
    case TG_KIND_FUNC_EXIT:
    case TG_KIND_FUNC_TAIL_EXIT:
        if (ev->cls->exit_ends_top) /* no address: the function of the frame it ended */
            TG_TRY(func_address(w, w->ended_addr, w->ended_name, &addr, &f, err));
        else
            TG_TRY(func_address(w, tg_event_func_addr(ev), tg_event_func_name(ev), &addr, &f, err));
        if (depth < 0)
            depth = t->open > 0 ? t->open - 1 : 0;
        t->open = depth;
        int64_t call_ns, ret_ns;
        /* the call as the tracer timed it: its entry at calltime, the exit at rettime */
        if (w->hold && tg_event_call_times(ev, &call_ns, &ret_ns) &&
            uw_hold_exit(t, record_word(REC_EXIT, (unsigned)depth, addr), call_ns)) {
            ns = ret_ns;
            if (call_ns < w->first_ns)
                w->first_ns = call_ns;
            if (call_ns < t->first_ns)
                t->first_ns = call_ns;
        }
        TG_TRY(put_call(w, t, ev, ns, 1, (unsigned)depth, addr, f, err));
        if (w->hold)
            uw_hold_done(t);
        break;
    case TG_KIND_LOST:
        TG_TRY(put_record(t, ns, REC_LOST, (unsigned)t->open, tg_event_lost_count(ev), err));
        break;
    default: {
        uint64_t id = kind == TG_KIND_SCHED_IN    ? EV_SCHED_IN
                      : kind == TG_KIND_SCHED_OUT ? EV_SCHED_OUT
                                                  : EV_SCHED_OUT_PREEMPT;
        TG_TRY(put_record(t, ns, REC_EVENT, (unsigned)t->open, id, err));
        break;
    }
    }
    return 0;
}

/* The call the builder ended with the exit being written (an exit without an address). */
static void on_ended(void *ctx, const tg_call *call)
{
    uw_writer *w = ctx;
    if (!(call->flags & (TG_CALL_NO_EXIT | TG_CALL_NO_ENTRY))) {
        w->ended_addr = call->addr;
        w->ended_name = call->name;
    }
}

/* Whether the set has exits without an address (they need the builder's stacks: which 0),
 * or exits that hold their call's times (which 1). */
static bool any_exit_class(tg_set *set, int which)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *tr = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_class_count(tr); k++)
            if (which ? tg_trace_class(tr, k)->exit_has_call_ns
                      : tg_trace_class(tr, k)->exit_ends_top)
                return true;
    }
    return false;
}

static void writer_free(uw_writer *w)
{
    tg_callstack_free(w->stacks);
    for (size_t i = 0; i < w->n_threads; i++) {
        tg_buf_free(w->threads[i].out);
        close(w->threads[i].fd);
        free(w->threads[i].held);
        free(w->threads[i].waiting);
    }
    for (size_t i = 0; i < w->n_funcs; i++) {
        free(w->funcs[i].name);
        free(w->funcs[i].args);
        free(w->funcs[i].ret);
    }
    free(w->vals);
    tg_buf_free(w->payload);
    free(w->funcs);
    free(w->threads);
    free(w->before);
    free(w->after);
    for (size_t i = 0; i < w->n_perf; i++) {
        tg_buf_free(w->perf[i].out);
        close(w->perf[i].fd);
    }
    free(w->perf);
    free(w->cache_addr);
    free(w->cache_index);
}

static int convert_uftrace(tg_set *set, tg_iter *it, const tg_options *opts, const char *dir,
                           tg_error **err)
{
    uw_writer w = {.dir = dir, .set = set, .hold = any_exit_class(set, 1)};
    w.cache_addr = calloc(FUNC_CACHE, sizeof *w.cache_addr);
    w.cache_index = calloc(FUNC_CACHE, sizeof *w.cache_index);
    w.payload = tg_buf_new();
    if (any_exit_class(set, 0))
        w.stacks = tg_callstack_new(on_ended, &w);
    int rc = w.cache_addr && w.cache_index && w.payload && (w.stacks || !any_exit_class(set, 0))
                 ? 0
                 : tg_err(err, TG_ERR_NOMEM, "out of memory");
    const tg_event *ev;
    while (rc >= 0 && (rc = tg_iter_next(it, &ev)) > 0)
        rc = write_event(&w, ev, err);
    for (size_t i = 0; rc >= 0 && i < w.n_threads; i++) {
        uw_hold_release(&w.threads[i]); /* calls still open at the end */
        if (tg_buf_flush(w.threads[i].out) < 0)
            rc = tg_err(err, TG_ERR_IO, "%s/%d.dat: write failed: %s", dir, w.threads[i].tid,
                        strerror(tg_buf_error(w.threads[i].out)));
    }
    for (size_t i = 0; rc >= 0 && i < w.n_perf; i++) {
        if (tg_buf_flush(w.perf[i].out) < 0)
            rc = tg_err(err, TG_ERR_IO, "%s/perf-cpu%d.dat: write failed: %s", dir, w.perf[i].cpu,
                        strerror(tg_buf_error(w.perf[i].out)));
    }
    if (rc >= 0 && !w.any)
        rc = tg_err(err, TG_ERR_USAGE, "no function events to write as uftrace data");
    if (rc >= 0)
        rc = uw_write_meta(&w, err);
    writer_free(&w);
    return rc;
}

TG_CONVERTER(uftrace) = {"uftrace", NULL, convert_uftrace};
