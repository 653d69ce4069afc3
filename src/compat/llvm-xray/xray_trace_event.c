/* xray_trace_event.c - the "xray-trace-event" converter: `llvm-xray convert
 * -output-format=trace_event` (LLVM 14) byte for byte.
 *
 * llvm-xray sorts the records by TSC (convert's -sort is on by default) and writes one "B"
 * object per function entry and one "E" per frame an exit closes, with the time in
 * microseconds as a double (1e6 / frequency * TSC, "%.4f"; "%.3f" and pid "1" before log
 * version 3), and a stack id ("sf") per distinct call path: the paths of all threads share
 * ids, so a path's id is fixed by its caller's id and its function id, numbered in the order
 * they first appear.  The "stackFrames" dictionary after the events lists each id with its
 * function and its caller's id, in the bucket order of the llvm::DenseMap that holds them.
 * An exit pops frames until it meets its function (or the stack empties); an exit on an empty
 * stack, and custom and typed events, write nothing.  The records are taken in the merged
 * order, each run of one nanosecond re-sorted by TSC as in the YAML style. */
#include "core/consumer.h"

#include "common/llvm/llvm_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llvm::xray::RecordTypes, the class ids of the XRay reader's events. */
enum { REC_ENTER = 0, REC_EXIT = 1, REC_TAIL_EXIT = 2, REC_ENTER_ARG = 3 };

struct record {
    uint64_t tsc;
    size_t seq; /* arrival, for a stable sort */
    int32_t func;
    uint32_t tid, pid;
    int kind;
    const char *name;
};

struct frame {
    unsigned id;
    int32_t func;
    const char *name;
};

struct thread_stack {
    struct frame *frames;
    size_t n, cap;
};

struct stack_id {
    int32_t func;
    long parent; /* the caller's stack id, -1: none */
    const char *name;
};

typedef struct trace_event_writer {
    tg_buf *out;
    int symbolize, version;
    double us_per_tick;
    size_t n_written;
    tg_hash thread_of; /* tid -> index into threads */
    struct thread_stack *threads;
    size_t n_threads, cap_threads;
    tg_hash id_of; /* (caller id + 1) << 32 | function id -> stack id */
    struct stack_id *ids;
    size_t n_ids, cap_ids;
} trace_event_writer;

static void put_name(trace_event_writer *w, int32_t func, const char *name)
{
    if (w->symbolize && name)
        tg_buf_puts(w->out, name);
    else
        tg_buf_i64(w->out, func);
}

static void put_event(trace_event_writer *w, const struct record *r, const struct frame *f,
                      char phase)
{
    char ts[64];
    double us = w->us_per_tick * (double)r->tsc;
    if (w->n_written++)
        tg_buf_puts(w->out, ",\n");
    tg_buf_puts(w->out, "    { \"name\" : \"");
    put_name(w, f->func, f->name);
    tg_buf_puts(w->out, "\", \"ph\" : \"");
    tg_buf_putc(w->out, phase);
    tg_buf_puts(w->out, "\", \"tid\" : \"");
    tg_buf_u64(w->out, r->tid);
    tg_buf_puts(w->out, "\", \"pid\" : \"");
    if (w->version >= 3)
        tg_buf_u64(w->out, r->pid);
    else
        tg_buf_putc(w->out, '1');
    snprintf(ts, sizeof ts, w->version >= 3 ? "%.4f" : "%.3f", us);
    tg_buf_puts(w->out, "\", \"ts\" : \"");
    tg_buf_puts(w->out, ts);
    tg_buf_puts(w->out, "\", \"sf\" : \"");
    tg_buf_u64(w->out, f->id);
    tg_buf_puts(w->out, "\" }");
}

static int thread_of(trace_event_writer *w, uint32_t tid, struct thread_stack **ts)
{
    uint64_t *slot;
    int added = tg_hash_insert(&w->thread_of, tid, &slot);
    if (added < 0)
        return TG_ERR_NOMEM;
    if (added) {
        if (tg_grow(&w->threads, &w->cap_threads, w->n_threads + 1, sizeof *w->threads) < 0)
            return TG_ERR_NOMEM;
        w->threads[w->n_threads] = (struct thread_stack){0};
        *slot = w->n_threads++;
    }
    *ts = &w->threads[*slot];
    return 0;
}

/* The stack id of func called from the path whose id is caller (-1: a thread's root). */
static int stack_id_of(trace_event_writer *w, long caller, int32_t func, const char *name,
                       unsigned *id)
{
    uint64_t key = ((uint64_t)(caller + 1) << 32) | (uint32_t)func, *slot;
    int added = tg_hash_insert(&w->id_of, key, &slot);
    if (added < 0)
        return TG_ERR_NOMEM;
    if (added) {
        if (tg_grow(&w->ids, &w->cap_ids, w->n_ids + 1, sizeof *w->ids) < 0)
            return TG_ERR_NOMEM;
        w->ids[w->n_ids] = (struct stack_id){func, caller, name};
        *slot = w->n_ids++;
    }
    *id = (unsigned)*slot;
    return 0;
}

static int take_record(trace_event_writer *w, const struct record *r)
{
    struct thread_stack *ts;
    TG_TRY(thread_of(w, r->tid, &ts));
    if (r->kind == REC_ENTER || r->kind == REC_ENTER_ARG) {
        long caller = ts->n ? (long)ts->frames[ts->n - 1].id : -1;
        unsigned id;
        TG_TRY(stack_id_of(w, caller, r->func, r->name, &id));
        if (tg_grow(&ts->frames, &ts->cap, ts->n + 1, sizeof *ts->frames) < 0)
            return TG_ERR_NOMEM;
        ts->frames[ts->n++] = (struct frame){id, r->func, r->name};
        put_event(w, r, &ts->frames[ts->n - 1], 'B');
    } else if (r->kind == REC_EXIT || r->kind == REC_TAIL_EXIT) {
        while (ts->n) {
            struct frame f = ts->frames[--ts->n];
            put_event(w, r, &f, 'E');
            if (f.func == r->func)
                break;
        }
    }
    return 0;
}

static void put_stack_frames(trace_event_writer *w, const size_t *order)
{
    tg_buf_puts(w->out, "\n  ],\n  \"displayTimeUnit\": \"ns\",\n  \"stackFrames\": {");
    for (size_t i = 0; i < w->n_ids; i++) {
        const struct stack_id *s = &w->ids[order[i]];
        tg_buf_puts(w->out, i ? ",\n    \"" : "\n    \"");
        tg_buf_u64(w->out, order[i]);
        tg_buf_puts(w->out, "\" : { \"name\" : \"");
        put_name(w, s->func, s->name);
        tg_buf_putc(w->out, '"');
        if (s->parent >= 0) {
            tg_buf_puts(w->out, ", \"parent\": \"");
            tg_buf_u64(w->out, (uint64_t)s->parent);
            tg_buf_putc(w->out, '"');
        }
        tg_buf_puts(w->out, " }");
    }
    tg_buf_puts(w->out, "\n  }\n}\n");
}

static int record_cmp(const void *a, const void *b)
{
    const struct record *x = a, *y = b;
    if (x->tsc != y->tsc)
        return x->tsc < y->tsc ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int flush_group(trace_event_writer *w, struct record *g, size_t n)
{
    if (n > 1)
        qsort(g, n, sizeof *g, record_cmp);
    for (size_t i = 0; i < n; i++)
        TG_TRY(take_record(w, &g[i]));
    return 0;
}

static int is_xray(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

static uint64_t record_tsc(const tg_event *ev, int ns_is_tsc)
{
    if (ns_is_tsc)
        return (uint64_t)tg_event_trace_time_ns(ev);
    tg_value v;
    if (tg_event_field(ev, TG_SCOPE_PAYLOAD, 0, &v) < 0)
        return 0;
    return v.type == TG_VAL_SINT ? (uint64_t)v.v.s : v.v.u;
}

static int write_events(trace_event_writer *w, tg_iter *it, uint64_t freq)
{
    int ns_is_tsc = freq == 1000000000u;
    struct record *g = NULL;
    size_t n = 0, cap = 0, seq = 0;
    int64_t group_ts = 0;
    int rc;
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (!is_xray(tg_event_trace(ev)))
            continue;
        int64_t ts = tg_event_trace_time_ns(ev);
        if (n && ts != group_ts) {
            if ((rc = flush_group(w, g, n)) < 0)
                break;
            n = 0;
        }
        if (tg_grow(&g, &cap, n + 1, sizeof *g) < 0) {
            rc = TG_ERR_NOMEM;
            break;
        }
        g[n++] = (struct record){
            .tsc = record_tsc(ev, ns_is_tsc),
            .seq = seq++,
            .func = (int32_t)tg_event_func_addr(ev),
            .tid = (uint32_t)tg_event_tid(ev),
            .pid = (uint32_t)tg_event_pid(ev),
            .kind = (int)tg_event_class_id(tg_event_class_of(ev)),
            .name = w->symbolize ? tg_event_func_name(ev) : NULL,
        };
        group_ts = ts;
    }
    if (rc >= 0)
        rc = flush_group(w, g, n);
    free(g);
    return rc;
}

static int xray_trace_event_convert(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                                    tg_error **err)
{
    (void)err;
    tg_iter_use_trace_clocks(it); /* llvm-xray's own times */
    const tg_trace *first = NULL;
    for (size_t i = 0; i < tg_set_trace_count(set) && !first; i++)
        if (is_xray(tg_set_trace(set, i)))
            first = tg_set_trace(set, i);
    uint64_t freq = first ? tg_trace_clock(first)->frequency_hz : 0;
    const char *version = first ? tg_trace_version(first) : NULL;
    trace_event_writer w = {
        .out = out,
        .symbolize = tg_options_flag(opts, "symbolize"),
        .version = version ? atoi(version) : 0,
        .us_per_tick = (double)1000000 / (double)freq,
    };
    tg_buf_puts(out, "{\n  \"traceEvents\": [\n");
    int rc = write_events(&w, it, freq);
    size_t *order = NULL;
    unsigned *hashes = NULL;
    if (rc >= 0 && w.n_ids) {
        order = malloc(w.n_ids * sizeof *order);
        hashes = malloc(w.n_ids * sizeof *hashes);
        if (!order || !hashes)
            rc = TG_ERR_NOMEM;
        for (size_t i = 0; rc >= 0 && i < w.n_ids; i++)
            hashes[i] = tg_llvm_hash32((uint32_t)i);
        if (rc >= 0)
            rc = tg_llvm_densemap_order(hashes, w.n_ids, order);
    }
    if (rc >= 0)
        put_stack_frames(&w, order);
    free(order);
    free(hashes);
    for (size_t i = 0; i < w.n_threads; i++)
        free(w.threads[i].frames);
    free(w.threads);
    free(w.ids);
    tg_hash_free(&w.thread_of);
    tg_hash_free(&w.id_of);
    return rc < 0 ? rc : 0;
}

static const tg_option_decl xray_trace_event_options[] = {
    {"symbolize", TG_OPT_FLAG, "0",
     "name each function (from --instr-map; #ID outside it), else its id (llvm-xray convert "
     "-symbolize)",
     .short_name = 'y'},
    {0},
};

TG_CONVERTER(xray_trace_event) = {
    .name = "xray-trace-event",
    .convert = xray_trace_event_convert,
    .options = xray_trace_event_options,
};
