/* summary_json.c - `info --format json` and `stats --format json`: the same facts as their
 * text, as one JSON document each, so that scripts read numbers instead of scraping columns.
 *
 * Built with json-c (the project's JSON library) rather than printed by hand, so the document
 * is valid whatever a trace names its classes or streams.  Times are integer nanoseconds
 * (`first_ns`, `last_ns`: a double would round the times of a wall clock), counts are
 * integers, a rate is the number the text prints (one decimal) or null where the text prints
 * "-". */
#include "analysis/summary_json.h"
#include "core/json_doc.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

TG_OPTIONS(info) = {
    "info",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"format", TG_OPT_CHOICE, "text",
         "text, or json: one JSON document (numbers as numbers, times in ns)", "FORMAT",
         "text|json"},
        {"task", TG_OPT_FLAG, NULL,
         "a uftrace recording's tasks (start, flags, tid, name, data size), as uftrace info "
         "--task lists them"},
        {"symbols", TG_OPT_FLAG, NULL,
         "refused (exit 2): uftrace info --symbols prints the symbol table of the program's ELF "
         "file, data objects included, which traceglot does not read (the recording's own "
         "symbols name the functions of every command)"},
        {0},
    },
};

TG_OPTIONS(stats) = {
    "stats",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"format", TG_OPT_CHOICE, "text",
         "text, or json: one JSON document (numbers as numbers, times in ns)", "FORMAT",
         "text|json"},
        {0},
    },
};

int tg_summary_format(const tg_options *opts, tg_error **err)
{
    const char *f = tg_options_get(opts, "format");
    if (!f || strcmp(f, "text") == 0)
        return 0;
    if (strcmp(f, "json") == 0)
        return 1;
    return tg_err(err, TG_ERR_USAGE, "bad format '%s': expected text or json", f);
}

static json_object *str_or_null(const char *s) { return s ? json_object_new_string(s) : NULL; }

static void add(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

/* ---- stats ------------------------------------------------------------------------------ */

int tg_stats_json(const tg_class_counts *cc, tg_buf *out, tg_error **err)
{
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    /* the span the rates are over, as the text's (unsigned: far-apart times) */
    double span = (double)((uint64_t)cc->last_ns - (uint64_t)cc->first_ns);
    if (cc->last_ns < cc->first_ns)
        span = 0;
    char rate[64];
    for (size_t i = 0; doc && rows && i < cc->n; i++) {
        const tg_class_count *r = &cc->rows[i];
        json_object *row = json_object_new_object();
        add(row, "event", json_object_new_string(tg_event_class_name(r->cls)));
        add(row, "count", json_object_new_uint64(r->count));
        add(row, "first_ns", json_object_new_int64(r->first_ns));
        add(row, "last_ns", json_object_new_int64(r->last_ns));
        if (span > 0) {
            double per_s = (double)r->count * 1e9 / span;
            snprintf(rate, sizeof rate, "%.1f", per_s);
            add(row, "rate_per_s", json_object_new_double_s(per_s, rate));
        } else {
            add(row, "rate_per_s", NULL);
        }
        json_object_array_add(rows, row);
    }
    if (doc) {
        add(doc, "events", rows);
        json_object *total = json_object_new_object();
        add(total, "events", json_object_new_uint64(cc->events));
        add(total, "lost", json_object_new_uint64(cc->lost));
        add(doc, "total", total);
    }
    return tg_json_doc_put(out, doc, err);
}

/* ---- info ------------------------------------------------------------------------------- */

static json_object *clock_json(const tg_trace *t)
{
    const tg_clock_info *c = tg_trace_clock(t);
    json_object *o = json_object_new_object();
    add(o, "name", str_or_null(tg_trace_clock_name(t)));
    add(o, "origin", json_object_new_string(tg_clock_origin_name(c->origin)));
    add(o, "frequency_hz", c->frequency_hz ? json_object_new_uint64(c->frequency_hz) : NULL);
    add(o, "raw_cycles", json_object_new_boolean(c->raw_cycles));
    add(o, "offset_ns", json_object_new_int64(c->offset_ns));
    if (c->sync_origin != TG_CLOCK_UNKNOWN) {
        add(o, "sync_origin", json_object_new_string(tg_clock_origin_name(c->sync_origin)));
        add(o, "sync_offset_ns", json_object_new_int64(c->sync_offset_ns));
    }
    add(o, "domain", str_or_null(tg_trace_clock_domain(t)));
    return o;
}

static json_object *host_json(const tg_trace *t)
{
    const tg_host_info *h = tg_trace_host(t);
    json_object *o = json_object_new_object();
    add(o, "hostname", str_or_null(h->hostname));
    add(o, "kernel", str_or_null(h->kernel));
    add(o, "arch", str_or_null(h->arch));
    add(o, "word_bits", h->word_bits ? json_object_new_int(h->word_bits) : NULL);
    add(o, "byte_order",
        h->byte_order ? json_object_new_string(h->byte_order == 2 ? "big" : "little") : NULL);
    add(o, "page_size", h->page_size ? json_object_new_uint64(h->page_size) : NULL);
    add(o, "boot_id", str_or_null(h->boot_id));
    return o;
}

static json_object *trace_json(tg_trace *t, const tg_class_counts *cc, tg_error **err, int *rc)
{
    json_object *o = json_object_new_object();
    add(o, "path", json_object_new_string(tg_trace_path(t)));
    add(o, "format", json_object_new_string(tg_trace_format(t)));
    add(o, "version", str_or_null(tg_trace_version(t)));
    const tg_tracer_info *tr = tg_trace_tracer(t);
    json_object *tracer = json_object_new_object();
    add(tracer, "name", str_or_null(tr->name));
    add(tracer, "version", str_or_null(tr->version));
    add(o, "tracer", tracer);
    add(o, "clock", clock_json(t));
    add(o, "shift_ns", json_object_new_int64(tg_trace_shift_ns(t)));
    add(o, "alignment", json_object_new_string(tg_alignment_name(tg_trace_alignment(t))));
    add(o, "host", host_json(t));
    const tg_process_info *p = tg_trace_process(t);
    json_object *proc = json_object_new_object();
    add(proc, "pid", p->pid >= 0 ? json_object_new_int64(p->pid) : NULL);
    add(proc, "name", str_or_null(p->name));
    add(proc, "executable", str_or_null(p->executable));
    add(o, "process", proc);
    json_object *streams = json_object_new_array();
    for (size_t s = 0; s < tg_trace_stream_count(t); s++) {
        tg_stream *st = tg_trace_stream(t, s);
        json_object *so = json_object_new_object();
        add(so, "name", json_object_new_string(tg_stream_name(st)));
        add(so, "cpu", tg_stream_cpu(st) >= 0 ? json_object_new_int(tg_stream_cpu(st)) : NULL);
        add(so, "tid", tg_stream_tid(st) >= 0 ? json_object_new_int(tg_stream_tid(st)) : NULL);
        json_object_array_add(streams, so);
    }
    add(o, "streams", streams);
    tg_trace_span sp = tg_class_counts_span(cc, t);
    json_object *classes = json_object_new_array();
    for (size_t i = 0; i < cc->n; i++) {
        const tg_class_count *r = &cc->rows[i];
        if (r->trace != t)
            continue;
        json_object *co = json_object_new_object();
        add(co, "name", json_object_new_string(tg_event_class_name(r->cls)));
        add(co, "count", json_object_new_uint64(r->count));
        json_object_array_add(classes, co);
    }
    add(o, "first_ns", sp.events ? json_object_new_int64(sp.first_ns) : NULL);
    add(o, "last_ns", sp.events ? json_object_new_int64(sp.last_ns) : NULL);
    add(o, "events", json_object_new_uint64(sp.events));
    add(o, "classes", classes);
    /* the format's own description (uftrace info, trace-cmd report --stat, ...), as text */
    tg_buf *own = tg_buf_new();
    if (!own) {
        *rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        return o;
    }
    *rc = tg_trace_describe(t, own, err);
    add(o, "description", tg_buf_len(own) ? json_object_new_string(tg_buf_data(own)) : NULL);
    tg_buf_free(own);
    return o;
}

int tg_info_json(tg_set *set, const tg_class_counts *cc, tg_buf *out, tg_error **err)
{
    json_object *doc = json_object_new_object(), *traces = json_object_new_array();
    int rc = 0;
    for (size_t i = 0; doc && traces && rc >= 0 && i < tg_set_trace_count(set); i++)
        json_object_array_add(traces, trace_json(tg_set_trace(set, i), cc, err, &rc));
    if (doc)
        add(doc, "traces", traces);
    int prc = tg_json_doc_put(out, doc, err);
    return rc < 0 ? rc : prc;
}
