/* chrome_json.c - conversion to Chrome Trace Event JSON (chrome://tracing, Perfetto UI).
 *
 * Written as a stream over the frame walk (the call-stack builder's frames): each frame it
 * opens becomes a "B" duration event and each frame it ends an "E", so uftrace data shows
 * linux:schedule as `uftrace dump --chrome` does and frames still open at the end are ended;
 * counter events (uftrace's read:* records) become "C" counter events with their integer fields
 * as numbers; lost records and every other event become thread-scoped instants "i" with the
 * payload as args.  Each process and thread is named once, when first seen, with "M" metadata
 * events.  Memory is bounded by the number of threads and names, not events.
 * --split-size/--split-time write parts that are each a whole JSON file (split_output.h).
 * Timestamps are microseconds with nanosecond decimals. */
#include "core/consumer.h"
#include "writers/viewers/call_args.h"
#include "writers/viewers/frame_walk.h"
#include "writers/viewers/split_output.h"
#include "writers/viewers/task_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread's name and its process's, interned in the walk's names (+1; 0: none). */
struct names {
    uint32_t thread, process;
};

/* A text written once and copied into every event that needs it. */
struct piece {
    size_t at, len; /* in chrome_writer.pieces */
};

struct chrome_writer {
    tg_frame_walk walk;
    tg_split split; /* --split-size, --split-time */
    tg_error **err;
    tg_buf *out, *scratch;
    tg_buf *pieces;      /* the JSON of frame names and thread ids, rendered once */
    struct piece *names; /* by interned name: "\"name\"" */
    size_t n_names, names_cap;
    struct piece *threads; /* by walk thread index: ",\"pid\":P,\"tid\":T,\"ts\":" */
    size_t n_threads, threads_cap;
    struct names *names_of; /* by walk thread index */
    size_t names_of_cap;
    tg_call_args args;
};

static void put_ts(tg_buf *out, int64_t ns)
{
    uint64_t mag = (uint64_t)ns;
    if (ns < 0) {
        tg_buf_putc(out, '-');
        mag = 0 - mag; /* INT64_MIN too */
    }
    tg_buf_u64_fast(out, mag / 1000);
    unsigned frac = (unsigned)(mag % 1000);
    char d[4] = {'.', (char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
                 (char)('0' + frac % 10)};
    tg_buf_put_fast(out, d, 4);
}

static void put_string(tg_buf *out, const char *s)
{
    tg_buf_putc(out, '"');
    tg_text_json_escaped(out, s, __builtin_strlen(s));
    tg_buf_putc(out, '"');
}

static void put_ids(tg_buf *out, int pid, int tid)
{
    tg_buf_puts(out, ",\"pid\":");
    tg_buf_i64(out, pid);
    tg_buf_puts(out, ",\"tid\":");
    tg_buf_i64(out, tid);
}

/* A metadata event naming a process or thread as `uftrace dump --chrome` does, "[ID] name"
 * (name: an interned name + 1), or "process ID" / "thread ID" when it has no name. */
static void put_meta(struct chrome_writer *cw, const char *what, int pid, int tid, int id,
                     uint32_t name)
{
    tg_buf *out = cw->out;
    tg_buf_puts(out, ",\n{\"ph\":\"M\",\"name\":\"");
    tg_buf_puts(out, what);
    tg_buf_putc(out, '"');
    put_ids(out, pid, tid);
    tg_buf_puts(out, ",\"args\":{\"name\":\"");
    if (name) {
        tg_buf_putc(out, '[');
        tg_buf_i64(out, id);
        tg_buf_puts(out, "] ");
        const char *s = tg_frame_names_get(&cw->walk.names, name - 1);
        tg_text_json_escaped(out, s, __builtin_strlen(s));
    } else {
        tg_buf_puts(out, what[0] == 'p' ? "process " : "thread ");
        tg_buf_i64(out, id);
    }
    tg_buf_puts(out, "\"}}");
}

/* One payload value as a JSON value: integers and floats as numbers, strings quoted once,
 * addresses, enums and compounds as the text traceglot's printers show. */
static void put_value(tg_buf *out, tg_buf *scratch, const tg_value *v)
{
    if (v->type == TG_VAL_SINT && !v->label) {
        tg_buf_i64(out, v->v.s);
    } else if (v->type == TG_VAL_UINT && !v->label && !(v->flags & TG_VALF_POINTER)) {
        tg_buf_u64_fast(out, v->v.u);
    } else if (v->type == TG_VAL_FLOAT && v->v.f == v->v.f && v->v.f - v->v.f == 0) {
        tg_buf_printf(out, "%.17g", v->v.f);
    } else if (v->type == TG_VAL_STRING) {
        tg_buf_putc(out, '"');
        tg_text_json_escaped(out, v->v.str.ptr, strnlen(v->v.str.ptr, v->v.str.len));
        tg_buf_putc(out, '"');
    } else {
        tg_buf_reset(scratch);
        tg_text_value(scratch, v);
        put_string(out, tg_buf_data(scratch));
    }
}

/* The payload as "args"; values are rendered through one scratch buffer reused across
 * events (no allocation per event). */
static void put_args(tg_buf *out, tg_buf *scratch, const tg_event *ev)
{
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    if (!n)
        return;
    tg_buf_puts(out, ",\"args\":{");
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        if (i)
            tg_buf_putc(out, ',');
        put_string(out, v.name ? v.name : "?");
        tg_buf_putc(out, ':');
        put_value(out, scratch, &v);
    }
    tg_buf_putc(out, '}');
}

static void put_piece(struct chrome_writer *cw, struct piece pc)
{
    tg_buf_put_fast(cw->out, tg_buf_data(cw->pieces) + pc.at, pc.len);
}

/* The JSON of the interned names up to `name`, rendered the first time one is written. */
__attribute__((noinline)) static int render_names(struct chrome_writer *cw, uint32_t name)
{
    while (cw->n_names <= name) {
        if (tg_grow(&cw->names, &cw->names_cap, cw->n_names + 1, sizeof *cw->names) < 0)
            return TG_ERR_NOMEM;
        size_t at = tg_buf_len(cw->pieces);
        const char *s = tg_frame_names_get(&cw->walk.names, cw->n_names);
        if (strcmp(s, "linux:schedule (pre-empted)") == 0)
            s = "linux:schedule"; /* uftrace dump --chrome names both switches so */
        put_string(cw->pieces, s);
        cw->names[cw->n_names++] = (struct piece){at, tg_buf_len(cw->pieces) - at};
    }
    return 0;
}

/* The JSON of interned name `name`. */
static inline int name_piece(struct chrome_writer *cw, uint32_t name, struct piece *pc)
{
    if (name >= cw->n_names)
        TG_TRY(render_names(cw, name));
    *pc = cw->names[name];
    return 0;
}

/* {"ph":"<ph>","name":<name>,"pid":P,"tid":T,"ts":<ns> */
static void put_head(struct chrome_writer *cw, char ph, const tg_walk_thread *t, struct piece name,
                     int64_t ns)
{
    char head[] = ",\n{\"ph\":\"?\",\"name\":";
    head[9] = ph;
    tg_buf_put_fast(cw->out, head, sizeof head - 1);
    put_piece(cw, name);
    put_piece(cw, cw->threads[t->index]);
    put_ts(cw->out, ns);
}

/* The "M" events naming thread i, and its process when no thread before it named it. */
static void put_thread_meta(struct chrome_writer *cw, size_t i)
{
    const tg_walk_thread *t = &cw->walk.threads[i];
    bool pid_seen = false;
    for (size_t k = 0; k < i && !pid_seen; k++) /* few threads */
        pid_seen = cw->walk.threads[k].pid == t->pid;
    if (!pid_seen)
        put_meta(cw, "process_name", t->pid, t->tid, t->pid, cw->names_of[i].process);
    put_meta(cw, "thread_name", t->pid, t->tid, t->tid, cw->names_of[i].thread);
}

static void put_file_head(tg_buf *out)
{
    tg_buf_puts(out, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
                     "\"tid\":0,\"args\":{\"name\":\"traceglot\"}}");
}

static void put_file_tail(tg_buf *out) { tg_buf_puts(out, "\n],\"displayTimeUnit\":\"ns\"}\n"); }

/* A "B" or "E" event of frame `name` on thread t. */
static int put_frame(struct chrome_writer *cw, char ph, const tg_walk_thread *t, uint32_t name,
                     int64_t ns)
{
    struct piece pc;
    TG_TRY(name_piece(cw, name, &pc));
    put_head(cw, ph, t, pc, ns);
    tg_buf_put_fast(cw->out, "}", 1);
    return 0;
}

/* The process name a thread of pid shows: the one its first thread found. */
static uint32_t process_name(const struct chrome_writer *cw, size_t i)
{
    const tg_walk_thread *t = &cw->walk.threads[i];
    for (size_t k = 0; k < i; k++) /* few threads */
        if (cw->walk.threads[k].pid == t->pid)
            return cw->names_of[k].process;
    return 0;
}

/* A "B" or "E" event with one argument, key: the scratch buffer's text (a call's arguments
 * or return value, the strings `uftrace dump --chrome` writes). */
static int put_frame_text(struct chrome_writer *cw, char ph, const tg_walk_thread *t, uint32_t name,
                          int64_t ns, const char *key)
{
    struct piece pc;
    TG_TRY(name_piece(cw, name, &pc));
    put_head(cw, ph, t, pc, ns);
    TG_BUF_LIT(cw->out, ",\"args\":{\"");
    tg_buf_puts(cw->out, key);
    TG_BUF_LIT(cw->out, "\":\"");
    tg_text_json_escaped(cw->out, tg_buf_data(cw->scratch), tg_buf_len(cw->scratch));
    TG_BUF_LIT(cw->out, "\"}}");
    return 0;
}

/* A task-name event (uftrace's COMM records) names its thread again, and its process when
 * it is the main thread. */
static int on_task_name(struct chrome_writer *cw, const tg_walk_thread *t, const tg_event *ev)
{
    int64_t name = tg_task_name_field(&cw->walk.names, ev, TG_SCOPE_PAYLOAD, "comm");
    if (name <= 0)
        return (int)name;
    struct names *nm = &cw->names_of[t->index];
    if (nm->thread == (uint32_t)name)
        return 0;
    nm->thread = (uint32_t)name;
    if (t->tid == t->pid) {
        for (size_t k = 0; k < cw->walk.n_threads; k++)
            if (cw->walk.threads[k].pid == t->pid)
                cw->names_of[k].process = (uint32_t)name;
        put_meta(cw, "process_name", t->pid, t->tid, t->pid, nm->process);
    }
    put_meta(cw, "thread_name", t->pid, t->tid, t->tid, nm->thread);
    return 0;
}

static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct chrome_writer *cw = ctx;
    if (tg_grow(&cw->names_of, &cw->names_of_cap, t->index + 1, sizeof *cw->names_of) < 0)
        return TG_ERR_NOMEM;
    int64_t name = tg_task_thread_name(&cw->walk.names, ev, t->tid), pname = 0;
    if (name >= 0 && !(pname = process_name(cw, t->index)))
        pname = tg_task_process_name(&cw->walk.names, ev, t->pid, t->tid == t->pid ? name : 0);
    if (name < 0 || pname < 0)
        return TG_ERR_NOMEM;
    cw->names_of[t->index] = (struct names){(uint32_t)name, (uint32_t)pname};
    put_thread_meta(cw, t->index);
    if (tg_grow(&cw->threads, &cw->threads_cap, t->index + 1, sizeof *cw->threads) < 0)
        return TG_ERR_NOMEM;
    size_t at = tg_buf_len(cw->pieces);
    put_ids(cw->pieces, t->pid, t->tid);
    tg_buf_puts(cw->pieces, ",\"ts\":");
    cw->threads[t->index] = (struct piece){at, tg_buf_len(cw->pieces) - at};
    cw->n_threads = t->index + 1;
    return 0;
}

/* ---- split output: each part a whole JSON file, frames open at a cut ended and begun ---- */

static int split_end_frame(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns)
{
    return put_frame(ctx, 'E', t, name, ns);
}

static int split_part_end(void *ctx)
{
    put_file_tail(((struct chrome_writer *)ctx)->out);
    return 0;
}

static int split_part_start(void *ctx)
{
    struct chrome_writer *cw = ctx;
    cw->out = cw->split.out;
    put_file_head(cw->out);
    for (size_t i = 0; i < cw->walk.n_threads; i++)
        put_thread_meta(cw, i);
    return 0;
}

static int split_begin_frame(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns)
{
    return put_frame(ctx, 'B', t, name, ns);
}

static const tg_split_ops chrome_split_ops = {
    .end_frame = split_end_frame,
    .part_end = split_part_end,
    .part_start = split_part_start,
    .begin_frame = split_begin_frame,
};

/* ---- the walk's hooks --------------------------------------------------------------------- */

/* uftrace's ids of its context-switch records, which its stack keeps as the address of a
 * linux:schedule frame (its perf events: sched-out, sched-out pre-empted) */
#define UFTRACE_SCHED_OUT 200002u
#define UFTRACE_SCHED_OUT_PREEMPTED 200007u

static bool is_sched_frame(const tg_call *c, uint64_t id, const char *name)
{
    return c->addr == id && c->name && strcmp(c->name, name) == 0;
}

/* `uftrace dump --chrome` writes a "B" for a plain sched-out only: a pre-empted context
 * switch shows as the "E" of its sched-in alone. */
static bool uftrace_writes_no_begin(const tg_call *c)
{
    return is_sched_frame(c, UFTRACE_SCHED_OUT_PREEMPTED, "linux:schedule (pre-empted)");
}

static bool traced_by_uftrace(const tg_trace *tr)
{
    const tg_tracer_info *ti = tr ? tg_trace_tracer(tr) : NULL;
    return ti && ti->name && strcmp(ti->name, "uftrace") == 0;
}

/* A frame still open at the end of a uftrace recording: `uftrace dump --chrome` ends it
 * with an "E" at its thread's last record, named by a symbol lookup of the frame's address
 * (a context switch's is its record id: "<30d42>"); frames without an address, or opened
 * after that time, get none. */
static int end_uftrace_frame(struct chrome_writer *cw, const tg_walk_thread *t, const tg_call *c,
                             uint32_t name)
{
    if (!c->addr || c->entry_ns > t->last_ns)
        return 0;
    if (!is_sched_frame(c, UFTRACE_SCHED_OUT, "linux:schedule") &&
        !is_sched_frame(c, UFTRACE_SCHED_OUT_PREEMPTED, "linux:schedule (pre-empted)"))
        return put_frame(cw, 'E', t, name, t->last_ns);
    char text[32];
    int n = snprintf(text, sizeof text, "\"<%llx>\"", (unsigned long long)c->addr);
    TG_BUF_LIT(cw->out, ",\n{\"ph\":\"E\",\"name\":");
    tg_buf_put(cw->out, text, (size_t)n);
    put_piece(cw, cw->threads[t->index]);
    put_ts(cw->out, t->last_ns);
    tg_buf_putc(cw->out, '}');
    return 0;
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    struct chrome_writer *cw = ctx;
    if (uftrace_writes_no_begin(frame))
        return 0;
    TG_TRY(tg_split_before(&cw->split, &cw->walk, frame->entry_ns, cw->err));
    TG_TRY(tg_split_begun(&cw->split, t->index));
    const tg_event *entry = tg_call_args_entry_of(cw->walk.current_ev, frame);
    if (entry) {
        tg_buf_reset(cw->scratch);
        int rc = tg_call_args_entry(&cw->args, entry, cw->scratch);
        if (rc < 0)
            return rc;
        if (rc)
            return put_frame_text(cw, 'B', t, name, frame->entry_ns, "arguments");
    }
    return put_frame(cw, 'B', t, name, frame->entry_ns);
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    struct chrome_writer *cw = ctx;
    if (!ev) /* still open at the end: as uftrace ends it, else a "B" without "E" (llvm-xray) */
        return traced_by_uftrace(call->trace) ? end_uftrace_frame(cw, t, call, name) : 0;
    TG_TRY(tg_split_before(&cw->split, &cw->walk, call->exit_ns, cw->err));
    if (!uftrace_writes_no_begin(call)) /* its "B" was not written nor counted */
        tg_split_ended(&cw->split, t->index);
    if (ev->size) { /* only a payload has a return value */
        tg_buf_reset(cw->scratch);
        if (tg_call_args_retval(&cw->args, ev, call, cw->scratch))
            return put_frame_text(cw, 'E', t, name, call->exit_ns, "retval");
    }
    return put_frame(cw, 'E', t, name, call->exit_ns);
}

/* A counter event (TG_KIND_COUNTER) as a "C" event of its process: its integer fields as
 * numbers in args, one counter series each (the Trace Event format's counters). */
static void put_counter(struct chrome_writer *cw, const tg_walk_thread *t, const tg_event *ev)
{
    const char *name = tg_event_name(ev);
    TG_BUF_LIT(cw->out, ",\n{\"ph\":\"C\",\"name\":");
    put_string(cw->out, name ? name : "?");
    put_piece(cw, cw->threads[t->index]);
    put_ts(cw->out, tg_event_time_ns(ev));
    TG_BUF_LIT(cw->out, ",\"args\":{");
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD), written = 0;
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        if ((v.type != TG_VAL_UINT && v.type != TG_VAL_SINT) || v.label)
            continue; /* texts, enums, symbols: not samples */
        if (written++)
            tg_buf_putc(cw->out, ',');
        put_string(cw->out, v.name ? v.name : "?");
        tg_buf_putc(cw->out, ':');
        if (v.type == TG_VAL_UINT)
            tg_buf_u64_fast(cw->out, v.v.u);
        else
            tg_buf_i64(cw->out, v.v.s);
    }
    TG_BUF_LIT(cw->out, "}}");
}

static int on_other(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct chrome_writer *cw = ctx;
    TG_TRY(tg_split_before(&cw->split, &cw->walk, tg_event_time_ns(ev), cw->err));
    const tg_event_class *cls = ev->cls; /* kind and name read once, without calls */
    if (cls && cls->kind == TG_KIND_COUNTER) {
        put_counter(cw, t, ev);
        return 0;
    }
    if (cls && cls->kind == TG_KIND_TASK_NAME)
        TG_TRY(on_task_name(cw, t, ev));
    const char *name = cls ? cls->name : "";
    TG_BUF_LIT(cw->out, ",\n{\"ph\":\"i\",\"name\":");
    put_string(cw->out, name ? name : "?");
    put_piece(cw, cw->threads[t->index]);
    put_ts(cw->out, tg_event_time_ns(ev));
    TG_BUF_LIT(cw->out, ",\"s\":\"t\"");
    put_args(cw->out, cw->scratch, ev);
    tg_buf_putc(cw->out, '}');
    return 0;
}

static const tg_walk_hooks chrome_hooks = {
    .thread_new = on_thread_new,
    .frame_open = on_frame_open,
    .frame_close = on_frame_close,
    .other = on_other,
};

static int convert_chrome(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    (void)set;
    struct chrome_writer cw = {
        .out = out, .err = err, .scratch = tg_buf_new(), .pieces = tg_buf_new()};
    int rc = !cw.scratch || !cw.pieces
                 ? TG_ERR_NOMEM
                 : tg_split_open(&cw.split, out, opts, &chrome_split_ops, &cw, err);
    if (rc == 0) {
        if (cw.split.active)
            cw.out = cw.split.out;
        put_file_head(cw.out);
        rc = tg_frame_walk_run(&cw.walk, it, &chrome_hooks, &cw);
        if (rc == 0) /* after a failed cut there is no part to end */
            put_file_tail(cw.out);
    }
    int close_rc = tg_split_close(&cw.split, rc < 0 ? NULL : err);
    if (rc == 0)
        rc = close_rc;
    tg_frame_walk_free(&cw.walk);
    tg_buf_free(cw.scratch);
    tg_buf_free(cw.pieces);
    free(cw.names);
    free(cw.threads);
    free(cw.names_of);
    tg_call_args_free(&cw.args);
    return rc < 0 ? rc : 0;
}

/* --split-size/--split-time: writers/viewers/split_output.c */
static const tg_option_decl chrome_options[] = {
    {"split-size", TG_OPT_TEXT, NULL,
     "write FILE-0001.ext, FILE-0002.ext, ... of at most about SIZE each (100M, 1G)", "SIZE"},
    {"split-time", TG_OPT_TEXT, NULL, "a new part every DURATION of trace time (1s, 250ms)",
     "DURATION"},
    {0},
};

TG_CONVERTER(chrome) = {.name = "chrome", .convert = convert_chrome, .options = chrome_options};
