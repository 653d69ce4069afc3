/* info.c - `traceglot info`: for each trace its format and version, clock, streams, event
 * classes, time range and event counts, then the format's own description (what
 * `uftrace info`, `trace-cmd report --stat` ... show). */
#include "analysis/class_counts.h"
#include "core/error_internal.h"
#include "core/consumer.h"

static void describe_counts(tg_buf *out, tg_trace *t, const tg_class_counts *cc)
{
    uint64_t events = 0;
    int64_t first = 0, last = 0;
    size_t classes = 0;
    for (size_t i = 0; i < cc->n; i++) {
        const tg_class_count *r = &cc->rows[i];
        if (r->trace != t)
            continue;
        if (!events || r->first_ns < first)
            first = r->first_ns;
        if (!events || r->last_ns > last)
            last = r->last_ns;
        events += r->count;
        classes++;
    }
    tg_buf_puts(out, "time range:   ");
    if (events) {
        tg_text_time(out, first);
        tg_buf_puts(out, " .. ");
        tg_text_time(out, last);
        tg_buf_puts(out, " (");
        tg_text_time(out, last - first);
        tg_buf_puts(out, " s)\n");
    } else {
        tg_buf_puts(out, "no events\n");
    }
    tg_buf_printf(out, "events:       %llu in %zu classes\n", (unsigned long long)events, classes);
    for (size_t i = 0; i < cc->n; i++) {
        const tg_class_count *r = &cc->rows[i];
        if (r->trace == t)
            tg_buf_printf(out, "  %12llu  %s\n", (unsigned long long)r->count,
                          tg_event_class_name(r->cls));
    }
}

int tg_info(tg_set *set, const tg_options *opts, tg_buf *out, tg_error **err)
{
    tg_iter *it = tg_iter_new(set, NULL, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    tg_class_counts cc;
    int rc = tg_class_counts_run(&cc, it);
    for (size_t i = 0; rc >= 0 && i < tg_set_trace_count(set); i++) {
        tg_trace *t = tg_set_trace(set, i);
        if (i)
            tg_buf_putc(out, '\n');
        tg_buf_printf(out, "trace:        %s\n", tg_trace_path(t));
        tg_buf_printf(out, "format:       %s %s\n", tg_trace_format(t), tg_trace_version(t));
        tg_buf_printf(out, "clock:        %s (offset %lld ns)\n", tg_trace_clock_name(t),
                      (long long)tg_trace_clock_offset_ns(t));
        tg_buf_printf(out, "streams:      %zu\n", tg_trace_stream_count(t));
        for (size_t s = 0; s < tg_trace_stream_count(t); s++) {
            tg_stream *st = tg_trace_stream(t, s);
            tg_buf_printf(out, "  %s", tg_stream_name(st));
            if (tg_stream_cpu(st) >= 0)
                tg_buf_printf(out, " cpu=%d", tg_stream_cpu(st));
            if (tg_stream_tid(st) >= 0)
                tg_buf_printf(out, " tid=%d", tg_stream_tid(st));
            tg_buf_putc(out, '\n');
        }
        describe_counts(out, t, &cc);
        tg_buf *own = tg_buf_new();
        if (!own) {
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
        rc = tg_trace_describe(t, own, err);
        if (tg_buf_len(own)) {
            tg_buf_putc(out, '\n');
            tg_buf_put(out, tg_buf_data(own), tg_buf_len(own));
        }
        tg_buf_free(own);
    }
    tg_buf_flush(out);
    const tg_error *e = tg_iter_errors(it);
    if (rc >= 0 && e) {
        for (; e; e = tg_error_next(e))
            tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
        rc = TG_ERR_FORMAT;
    }
    tg_class_counts_free(&cc);
    tg_iter_free(it);
    return rc < 0 ? rc : 0;
}
