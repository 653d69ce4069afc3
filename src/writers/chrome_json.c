/* chrome_json.c - conversion to Chrome Trace Event JSON (chrome://tracing, Perfetto UI).
 *
 * Written as a stream: function entries and exits become "B"/"E" duration events, lost
 * records and every other event become thread-scoped instants "i" with the payload as args.
 * Each process and thread is named once, when first seen, with "M" metadata events; the
 * table of seen threads is the only memory kept, so memory is bounded by the number of
 * threads, not events.  Timestamps are microseconds with nanosecond decimals. */
#include "core/grow.h"
#include "core/consumer.h"

#include <stdlib.h>

struct seen_ids {
    int *ids;
    size_t n, cap;
};

/* 1 when id was not seen before (and is now), 0 when seen, -1 out of memory. */
static int first_sight(struct seen_ids *s, int id)
{
    for (size_t i = 0; i < s->n; i++) /* a trace has few threads; linear is fine */
        if (s->ids[i] == id)
            return 0;
    if (tg_grow(&s->ids, &s->cap, s->n + 1, sizeof *s->ids) < 0)
        return -1;
    s->ids[s->n++] = id;
    return 1;
}

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

static int convert_chrome(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    struct seen_ids pids = {0}, tids = {0};
    tg_buf *scratch = tg_buf_new();
    if (!scratch)
        return TG_ERR_NOMEM;
    const tg_event *ev;
    int rc;
    tg_buf_puts(out, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
                     "\"tid\":0,\"args\":{\"name\":\"traceglot\"}}");
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int tid = tg_event_tid(ev), pid = tg_event_pid(ev);
        if (tid < 0)
            tid = tg_event_cpu(ev) >= 0 ? tg_event_cpu(ev) : 0;
        if (pid < 0)
            pid = tid;
        if (first_sight(&pids, pid) > 0)
            put_meta(out, "process_name", pid, tid, "process", pid);
        if (first_sight(&tids, tid) > 0)
            put_meta(out, "thread_name", pid, tid, "thread", tid);
        tg_event_kind kind = tg_event_kind_of(ev);
        const char *ph = "i";
        const char *name = tg_event_name(ev);
        if (kind == TG_KIND_FUNC_ENTRY || kind == TG_KIND_FUNC_EXIT ||
            kind == TG_KIND_FUNC_TAIL_EXIT) {
            ph = kind == TG_KIND_FUNC_ENTRY ? "B" : "E";
            name = tg_event_func_name(ev);
        }
        tg_buf_puts(out, ",\n{\"ph\":\"");
        tg_buf_puts(out, ph);
        tg_buf_puts(out, "\",\"name\":");
        if (name) {
            put_string(out, name);
        } else {
            tg_buf_puts(out, "\"0x");
            tg_buf_hex(out, tg_event_func_addr(ev));
            tg_buf_putc(out, '"');
        }
        put_ids(out, pid, tid);
        tg_buf_puts(out, ",\"ts\":");
        put_ts(out, tg_event_time_ns(ev));
        if (*ph == 'i') {
            tg_buf_puts(out, ",\"s\":\"t\"");
            put_args(out, scratch, ev);
        }
        tg_buf_putc(out, '}');
    }
    tg_buf_puts(out, "\n],\"displayTimeUnit\":\"ns\"}\n");
    tg_buf_free(scratch);
    free(pids.ids);
    free(tids.ids);
    return rc < 0 ? rc : 0;
}

TG_CONVERTER(chrome) = {"chrome", convert_chrome};
