/* info.c - `traceglot info`: for each trace its format and version, clock, streams, event
 * classes, time range and event counts, then the format's own description (what
 * `uftrace info`, `trace-cmd report --stat` ... show); --format json: summary_json.c. */
#include "analysis/class_counts.h"
#include "analysis/summary_json.h"
#include "core/error_internal.h"
#include "core/consumer.h"

static void describe_counts(tg_buf *out, tg_trace *t, const tg_class_counts *cc)
{
    tg_trace_span sp = tg_class_counts_span(cc, t);
    uint64_t events = sp.events;
    int64_t first = sp.first_ns, last = sp.last_ns;
    size_t classes = sp.classes;
    tg_buf_puts(out, "time range:   ");
    if (events) {
        tg_text_time(out, first);
        tg_buf_puts(out, " .. ");
        tg_text_time(out, last);
        /* last >= first: the span in uint64 is exact even where int64 would overflow */
        uint64_t span = (uint64_t)last - (uint64_t)first;
        tg_buf_puts(out, " (");
        tg_buf_u64(out, span / 1000000000u);
        tg_buf_putc(out, '.');
        tg_buf_u64_pad(out, span % 1000000000u, 9, '0');
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

/* The typed attributes: tracer, clock, host, process (what the trace says; lines for what it
 * does not say are left out). */
static void describe_attrs(tg_buf *out, const tg_trace *t)
{
    const tg_tracer_info *tr = tg_trace_tracer(t);
    if (tr->name)
        tg_buf_printf(out, "tracer:       %s%s%s\n", tr->name, tr->version ? " " : "",
                      tr->version ? tr->version : "");
    const tg_clock_info *c = tg_trace_clock(t);
    tg_buf_printf(out, "clock:        %s (%s", tg_trace_clock_name(t),
                  tg_clock_origin_name(c->origin));
    if (c->frequency_hz)
        tg_buf_printf(out, ", %llu Hz", (unsigned long long)c->frequency_hz);
    if (c->raw_cycles)
        tg_buf_puts(out, ", raw counts");
    tg_buf_printf(out, ", offset %lld ns", (long long)c->offset_ns);
    if (c->sync_origin != TG_CLOCK_UNKNOWN)
        tg_buf_printf(out, ", %s %+lld ns", tg_clock_origin_name(c->sync_origin),
                      (long long)c->sync_offset_ns);
    tg_buf_puts(out, ")\n");
    tg_buf_printf(out, "domain:       %s\n", tg_trace_clock_domain(t));
    tg_buf_printf(out, "shift:        %+lld ns (%s: %s)\n", (long long)tg_trace_shift_ns(t),
                  tg_alignment_name(tg_trace_alignment(t)), tg_trace_alignment_note(t));
    const tg_host_info *h = tg_trace_host(t);
    if (h->hostname || h->kernel || h->arch || h->word_bits || h->page_size || h->boot_id) {
        tg_buf_puts(out, "host:         ");
        const char *sep = "";
        if (h->hostname) {
            tg_buf_puts(out, h->hostname);
            sep = ", ";
        }
        if (h->kernel) {
            tg_buf_printf(out, "%s%s", sep, h->kernel);
            sep = ", ";
        }
        if (h->arch) {
            tg_buf_printf(out, "%s%s", sep, h->arch);
            sep = ", ";
        }
        if (h->word_bits) {
            tg_buf_printf(out, "%s%d-bit", sep, h->word_bits);
            sep = ", ";
        }
        if (h->byte_order) {
            tg_buf_printf(out, "%s%s-endian", sep, h->byte_order == 2 ? "big" : "little");
            sep = ", ";
        }
        if (h->page_size) {
            tg_buf_printf(out, "%spage size %u", sep, h->page_size);
            sep = ", ";
        }
        if (h->boot_id)
            tg_buf_printf(out, "%sboot id %s", sep, h->boot_id);
        tg_buf_putc(out, '\n');
    }
    const tg_process_info *p = tg_trace_process(t);
    if (p->pid >= 0 || p->name || p->executable) {
        tg_buf_puts(out, "process:      ");
        if (p->pid >= 0)
            tg_buf_printf(out, "%lld ", (long long)p->pid);
        if (p->name)
            tg_buf_printf(out, "%s ", p->name);
        if (p->executable)
            tg_buf_printf(out, "(%s)", p->executable);
        tg_buf_putc(out, '\n');
    }
}

/* `info --task`: each trace's task table as uftrace info --task prints it (the format's own
 * text); a trace that is no uftrace recording is refused by name. */
static int task_tables(tg_set *set, tg_buf *out, tg_error **err)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        int rc = tg_trace_render(t, "uftrace-info-task", out, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return tg_err(err, TG_ERR_USAGE,
                          "info --task: %s is not a uftrace recording (format %s): --task lists "
                          "a uftrace recording's tasks, as uftrace info --task does",
                          tg_trace_path(t), tg_trace_format(t));
    }
    return 0;
}

int tg_info(tg_set *set, const tg_options *opts, tg_buf *out, tg_error **err)
{
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "info", NULL, NULL, err));
    if (tg_options_flag(opts, "symbols"))
        return tg_err(err, TG_ERR_USAGE,
                      "info --symbols is not taken: uftrace info --symbols prints the symbol "
                      "table of the program's ELF file (data objects included), which traceglot "
                      "does not read; info --task lists the tasks");
    if (tg_options_flag(opts, "task"))
        return task_tables(set, out, err);
    int json = tg_summary_format(opts, err);
    if (json < 0)
        return json;
    tg_iter *it = tg_iter_new(set, NULL, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    tg_class_counts cc;
    int rc = tg_class_counts_run(&cc, it);
    if (json && rc >= 0)
        rc = tg_info_json(set, &cc, out, err);
    for (size_t i = 0; !json && rc >= 0 && i < tg_set_trace_count(set); i++) {
        tg_trace *t = tg_set_trace(set, i);
        if (i)
            tg_buf_putc(out, '\n');
        tg_buf_printf(out, "trace:        %s\n", tg_trace_path(t));
        tg_buf_printf(out, "format:       %s %s\n", tg_trace_format(t), tg_trace_version(t));
        describe_attrs(out, t);
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
