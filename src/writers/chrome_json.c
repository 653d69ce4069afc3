/* chrome_json.c - conversion to Chrome Trace Event JSON (chrome://tracing, Perfetto UI).
 *
 * Written as a stream over the frame walk (the call-stack builder's frames): each frame it
 * opens becomes a "B" duration event and each frame it ends an "E", so uftrace data shows
 * linux:schedule as `uftrace dump --chrome` does and frames still open at the end are
 * ended; lost records and every other event become thread-scoped instants "i" with the
 * payload as args.  Each process and thread is named once, when first seen, with "M"
 * metadata events.  Memory is bounded by the number of threads and names, not events.
 * Timestamps are microseconds with nanosecond decimals. */
#include "core/consumer.h"
#include "writers/frame_walk.h"

#include <stdlib.h>

struct chrome_writer {
    tg_frame_walk walk;
    tg_buf *out, *scratch;
};

static void put_ts(tg_buf *out, int64_t ns)
{
    if (ns < 0) {
        tg_buf_putc(out, '-');
        ns = -ns;
    }
    tg_buf_u64(out, (uint64_t)ns / 1000);
    tg_buf_putc(out, '.');
    tg_buf_u64_pad(out, (uint64_t)ns % 1000, 3, '0');
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

static void put_meta(tg_buf *out, const char *what, int pid, int tid, const char *label,
                     int id)
{
    tg_buf_puts(out, ",\n{\"ph\":\"M\",\"name\":\"");
    tg_buf_puts(out, what);
    tg_buf_putc(out, '"');
    put_ids(out, pid, tid);
    tg_buf_puts(out, ",\"args\":{\"name\":\"");
    tg_buf_puts(out, label);
    tg_buf_putc(out, ' ');
    tg_buf_i64(out, id);
    tg_buf_puts(out, "\"}}");
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
        tg_buf_reset(scratch);
        tg_text_value(scratch, &v);
        put_string(out, tg_buf_data(scratch));
    }
    tg_buf_putc(out, '}');
}

static void put_head(tg_buf *out, const char *ph, const tg_walk_thread *t, const char *name,
                     int64_t ns)
{
    tg_buf_puts(out, ",\n{\"ph\":\"");
    tg_buf_puts(out, ph);
    tg_buf_puts(out, "\",\"name\":");
    put_string(out, name);
    put_ids(out, t->pid, t->tid);
    tg_buf_puts(out, ",\"ts\":");
    put_ts(out, ns);
}

static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    (void)ev;
    struct chrome_writer *cw = ctx;
    bool pid_seen = false;
    for (size_t i = 0; i + 1 < cw->walk.n_threads && !pid_seen; i++) /* few threads */
        pid_seen = cw->walk.threads[i].pid == t->pid;
    if (!pid_seen)
        put_meta(cw->out, "process_name", t->pid, t->tid, "process", t->pid);
    put_meta(cw->out, "thread_name", t->pid, t->tid, "thread", t->tid);
    return 0;
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    struct chrome_writer *cw = ctx;
    put_head(cw->out, "B", t, tg_frame_names_get(&cw->walk.names, name), frame->entry_ns);
    tg_buf_putc(cw->out, '}');
    return 0;
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    struct chrome_writer *cw = ctx;
    if (!ev)
        return 0; /* still open at the end: a "B" without "E", as llvm-xray writes it */
    put_head(cw->out, "E", t, tg_frame_names_get(&cw->walk.names, name), call->exit_ns);
    tg_buf_putc(cw->out, '}');
    return 0;
}

static int on_other(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct chrome_writer *cw = ctx;
    const char *name = tg_event_name(ev);
    put_head(cw->out, "i", t, name ? name : "?", tg_event_time_ns(ev));
    tg_buf_puts(cw->out, ",\"s\":\"t\"");
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
    (void)opts;
    (void)err;
    struct chrome_writer cw = {.out = out, .scratch = tg_buf_new()};
    if (!cw.scratch)
        return TG_ERR_NOMEM;
    tg_buf_puts(out, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
                     "\"tid\":0,\"args\":{\"name\":\"traceglot\"}}");
    int rc = tg_frame_walk_run(&cw.walk, it, &chrome_hooks, &cw);
    tg_buf_puts(out, "\n],\"displayTimeUnit\":\"ns\"}\n");
    tg_frame_walk_free(&cw.walk);
    tg_buf_free(cw.scratch);
    return rc < 0 ? rc : 0;
}

TG_CONVERTER(chrome) = {"chrome", convert_chrome};
