/* babeltrace_details.c - the "babeltrace-details" print style: what babeltrace2 2.0.4 prints
 * with its details sink (`babeltrace2 -c sink.text.details PATH`).
 *
 *   [1,140,254,578,723 cycles, 1,795,320,148,481,311,448 ns from origin]
 *   {Trace 0, Stream class ID 0, Stream ID 1}
 *   Event `lttng_ust_statedump:procname` (Class ID 4):
 *     Common context:
 *       vpid: 5086
 *     Payload:
 *       procname: ust_app
 *
 * One block per babeltrace2 message, blank lines between: a trace's classes before its first
 * message ("Trace class:", the CTF reader's text: tg_trace_render part "babeltrace-details"),
 * then each stream's beginning (its file, its trace's name, UUID, environment and streams),
 * packet beginnings with their context, events with their contexts and payload, discarded
 * events and packets, packet ends and stream ends, in babeltrace2's muxer order.  The iterator gives the
 * stream and packet boundaries as events (tg_iter_want_messages), merged by time with the
 * others, which is the order of babeltrace2's muxer; the streams' beginnings, which have no
 * time, are written in the order of its ports (trace UUID, stream class id, stream id).
 * This file writes each message's frame (clock snapshot, ids, what the message is, a
 * stream's beginning); an event's fields and a packet's context are the format's text
 * (tg_event_render_with TG_RENDER_DETAILS), as the plain babeltrace style's are, because
 * babeltrace2 shows there the recycled text of texts that decode empty, which only the CTF
 * reader replays (docs/design-notes.md, "Compatible rendering lives with the format").
 *
 * A trace that is not CTF is printed as the CTF `traceglot convert --to ctf` writes of it
 * (babeltrace_convert.c), as the plain babeltrace style does. */
#include "compat/babeltrace2/babeltrace_style.h"
#include "core/consumer.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct details_trace {
    const tg_trace *trace;
    bool described; /* its "Trace class:" block was written */
} details_trace;

/* A stream's beginning not yet written: those at the start are written in babeltrace2's
 * port order (trace UUID, stream class id, stream id) once all are known. */
typedef struct details_begin {
    tg_stream *stream;
    bool timed;   /* its class has a clock: "[Unknown]" */
    char key[48]; /* the trace's UUID, else its path's start */
    uint64_t cls, id;
} details_begin;

/* The details sink's parameters (`--params with-time=no,...`, as babeltrace2's
 * `-c sink.text.details --params` takes them): what each message shows. */
typedef struct details_params {
    bool metadata;    /* with-metadata: the "Trace class:" blocks */
    bool data;        /* with-data: the messages */
    bool time;        /* with-time: the clock snapshot lines */
    bool trace_name;  /* with-trace-name: "Trace `NAME`:" */
    bool stream_name; /* with-stream-name: a stream beginning's "Name:" */
    bool uuid;        /* with-uuid: the trace's and the clock classes' UUID lines */
} details_params;

typedef struct details_state {
    details_params par;
    details_trace *traces;
    size_t n_traces, cap_traces;
    details_begin *begins;
    size_t n_begins, cap_begins;
    bool any; /* a block was written: the next one is preceded by a blank line */
} details_state;

static void num(tg_buf *out, uint64_t abs, bool neg, unsigned base)
{
    char b[48];
    tg_buf_put(out, b, tg_digits_grouped(b, abs, neg, base));
}

static void num_s(tg_buf *out, int64_t v)
{
    num(out, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0, 10);
}

/* The trace's number (in order of first message), or -1 when out of memory. */
static long trace_index(details_state *st, const tg_trace *t)
{
    for (size_t i = 0; i < st->n_traces; i++)
        if (st->traces[i].trace == t)
            return (long)i;
    if (tg_grow(&st->traces, &st->cap_traces, st->n_traces + 1, sizeof *st->traces) < 0)
        return -1;
    st->traces[st->n_traces] = (details_trace){.trace = t};
    return (long)st->n_traces++;
}

static void block(details_state *st, tg_buf *out)
{
    if (st->any)
        tg_buf_putc(out, '\n');
    st->any = true;
}

/* "[C cycles, N ns from origin]" */
static void time_line(tg_buf *out, uint64_t cycles, int64_t ns)
{
    tg_buf_putc(out, '[');
    num(out, cycles, false, 10);
    tg_buf_puts(out, " cycles, ");
    num_s(out, ns);
    tg_buf_puts(out, " ns from origin]\n");
}

static int cmp_env(const void *a, const void *b)
{
    return strcmp((*(const tg_env_entry *const *)a)->key, (*(const tg_env_entry *const *)b)->key);
}

/* A stream's ids, in the order of the "Stream (ID .., Class ID ..)" lines: by id, then class. */
typedef struct stream_key {
    uint64_t id, cls;
} stream_key;

static int cmp_stream_key(const void *a, const void *b)
{
    const stream_key *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->cls < y->cls ? -1 : x->cls > y->cls;
}

static int stream_beginning(tg_buf *out, const tg_stream *s, const details_params *par)
{
    const tg_trace *t = tg_stream_trace(s);
    tg_buf_puts(out, "Stream beginning:\n");
    if (par->stream_name) {
        tg_buf_puts(out, "  Name: ");
        if (bt_stream_file_path(out, s) < 0)
            return TG_ERR_NOMEM;
        tg_buf_putc(out, '\n');
    }
    tg_buf_puts(out, "  Trace");
    if (par->trace_name) {
        tg_buf *name = tg_buf_new();
        if (!name)
            return TG_ERR_NOMEM;
        bt_trace_name(name, t);
        tg_buf_printf(out, " `%s`", tg_buf_len(name) ? tg_buf_data(name) : "");
        tg_buf_free(name);
    }
    tg_buf_puts(out, ":\n");
    size_t ne = tg_trace_env_count(t);
    const tg_env_entry **env = calloc(ne ? ne : 1, sizeof *env);
    if (!env)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < ne; i++)
        env[i] = tg_trace_env(t, i);
    qsort(env, ne, sizeof *env, cmp_env);
    tg_buf *uu = tg_buf_new();
    if (par->uuid && uu && tg_trace_render(t, "babeltrace-details-uuid", uu, NULL) == 1)
        tg_buf_printf(out, "    UUID: %s\n", tg_buf_data(uu));
    tg_buf_free(uu);
    if (ne) {
        tg_buf_puts(out, "    Environment (");
        num(out, ne, false, 10);
        tg_buf_printf(out, " entr%s):\n", ne == 1 ? "y" : "ies");
    }
    for (size_t i = 0; i < ne; i++) {
        tg_buf_printf(out, "      %s: ", env[i]->key);
        if (env[i]->is_integer)
            num_s(out, env[i]->integer);
        else
            tg_buf_puts(out, env[i]->value ? env[i]->value : "");
        tg_buf_putc(out, '\n');
    }
    free(env);
    /* the trace's streams by id, sorted once (a scan per line made the stream beginnings
     * of a trace cubic in its streams: fuzz_xray_basic's 90-thread log took over 1 s) */
    size_t ns = tg_trace_stream_count(t), n = 0;
    stream_key *keys = calloc(ns ? ns : 1, sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < ns; i++)
        if (tg_stream_ids(tg_trace_stream(t, i), &keys[n].cls, &keys[n].id))
            n++;
    qsort(keys, n, sizeof *keys, cmp_stream_key);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || keys[i].id != keys[i - 1].id || keys[i].cls != keys[i - 1].cls)
            tg_buf_printf(out, "    Stream (ID %llu, Class ID %llu)\n",
                          (unsigned long long)keys[i].id, (unsigned long long)keys[i].cls);
    free(keys);
    return 0;
}

/* The "Trace class:" block of trace t (the CTF reader's text), without its UUID lines under
 * with-uuid=no. */
static int trace_class(details_state *st, const tg_trace *t, tg_buf *out, tg_error **err)
{
    block(st, out);
    tg_buf *text = tg_buf_new();
    if (!text)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    int rc = tg_trace_render(t, "babeltrace-details", text, err);
    if (rc == 0)
        rc = tg_err(err, TG_ERR_UNSUPPORTED,
                    "%s: the babeltrace-details style prints CTF traces only", tg_trace_path(t));
    const char *p = tg_buf_data(text), *end = p + tg_buf_len(text);
    while (rc > 0 && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        size_t indent = strspn(p, " ");
        if (st->par.uuid || indent >= n || strncmp(p + indent, "UUID: ", 6) != 0)
            tg_buf_put(out, p, n);
        p += n;
    }
    tg_buf_free(text);
    return rc < 0 ? rc : 0;
}

/* A message's start: the trace's classes before its first message, the blank line between
 * blocks; the trace's number, or a negative status. */
static long start(details_state *st, const tg_trace *t, tg_buf *out, tg_error **err)
{
    long ti = trace_index(st, t);
    if (ti < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (!st->traces[ti].described) {
        st->traces[ti].described = true;
        int rc = st->par.metadata ? trace_class(st, t, out, err) : 0;
        if (rc < 0)
            return rc;
    }
    block(st, out);
    return ti;
}

static void ids_line(tg_buf *out, long ti, const tg_stream *s)
{
    uint64_t cls_id = 0, id = 0;
    tg_stream_ids(s, &cls_id, &id);
    tg_buf_printf(out, "{Trace %ld, Stream class ID %llu, Stream ID %llu}\n", ti,
                  (unsigned long long)cls_id, (unsigned long long)id);
}

static int cmp_begin(const void *a, const void *b)
{
    const details_begin *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int flush_begins(details_state *st, tg_buf *out, tg_error **err)
{
    qsort(st->begins, st->n_begins, sizeof *st->begins, cmp_begin);
    for (size_t i = 0; i < st->n_begins; i++) {
        const tg_stream *s = st->begins[i].stream;
        long ti = start(st, tg_stream_trace(s), out, err);
        if (ti < 0)
            return (int)ti;
        if (st->begins[i].timed && st->par.time)
            tg_buf_puts(out, "[Unknown]\n");
        ids_line(out, ti, s);
        if (stream_beginning(out, s, &st->par) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    st->n_begins = 0;
    return 0;
}

static int pend_begin(details_state *st, const tg_event *ev, tg_error **err)
{
    if (tg_grow(&st->begins, &st->cap_begins, st->n_begins + 1, sizeof *st->begins) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    details_begin *b = &st->begins[st->n_begins++];
    uint64_t cycles;
    memset(b, 0, sizeof *b);
    b->stream = tg_event_stream(ev);
    b->timed = tg_event_clock_value(ev, &cycles);
    tg_stream_ids(b->stream, &b->cls, &b->id);
    tg_buf *u = tg_buf_new();
    const tg_trace *t = tg_event_trace(ev);
    if (u && tg_trace_render(t, "babeltrace-details-uuid", u, NULL) == 1)
        snprintf(b->key, sizeof b->key, "%s", tg_buf_data(u));
    else
        snprintf(b->key, sizeof b->key, "~%s", tg_trace_path(t));
    tg_buf_free(u);
    return 0;
}

static int message(details_state *st, const tg_event *ev, tg_buf *out, tg_error **err)
{
    tg_event_kind kind = tg_event_kind_of(ev);
    if (kind == TG_KIND_STREAM_BEGIN)
        return pend_begin(st, ev, err);
    if (st->n_begins)
        TG_TRY(flush_begins(st, out, err));
    const tg_trace *t = tg_event_trace(ev);
    long ti = start(st, t, out, err);
    if (ti < 0)
        return (int)ti;
    uint64_t cycles = 0, end = 0;
    if (!st->par.time) {
        /* no clock snapshot lines */
    } else if (kind == TG_KIND_STREAM_BEGIN || kind == TG_KIND_STREAM_END) {
        if (tg_event_clock_value(ev, &cycles)) /* a stream class with a clock */
            tg_buf_puts(out, "[Unknown]\n");
    } else if (kind == TG_KIND_LOST || kind == TG_KIND_PACKETS_LOST) {
        int64_t end_ns;
        if (tg_event_clock_span(ev, &cycles, &end, &end_ns)) {
            time_line(out, cycles, tg_event_trace_time_ns(ev));
            time_line(out, end, end_ns);
        }
    } else if (tg_event_clock_value(ev, &cycles)) {
        time_line(out, cycles, tg_event_trace_time_ns(ev));
    }
    ids_line(out, ti, tg_event_stream(ev));
    switch (kind) {
    case TG_KIND_STREAM_END: tg_buf_puts(out, "Stream end\n"); return 0;
    case TG_KIND_PACKET_BEGIN:
        tg_buf_puts(out, tg_event_field_count(ev, TG_SCOPE_PACKET_CONTEXT) ? "Packet beginning:\n"
                                                                           : "Packet beginning\n");
        return tg_event_render_with(ev, out, TG_RENDER_DETAILS) < 0 ? TG_ERR_NOMEM : 0;
    case TG_KIND_PACKET_END: tg_buf_puts(out, "Packet end\n"); return 0;
    case TG_KIND_LOST:
    case TG_KIND_PACKETS_LOST: {
        /* "Discarded events (3 events)", "Discarded packets (1 packets)": the plural always */
        const char *what = kind == TG_KIND_LOST ? "events" : "packets";
        uint64_t n = tg_event_lost_count(ev);
        tg_buf_printf(out, "Discarded %s", what);
        if (n) {
            tg_buf_puts(out, " (");
            num(out, n, false, 10);
            tg_buf_printf(out, " %s)", what);
        }
        tg_buf_putc(out, '\n');
        return 0;
    }
    default: break;
    }
    const tg_event_class *c = tg_event_class_of(ev);
    tg_buf_printf(out, "Event `%s` (Class ID %llu):\n", tg_event_name(ev),
                  (unsigned long long)tg_event_class_id(c));
    if (tg_event_render_with(ev, out, TG_RENDER_DETAILS) != 1)
        return tg_err(err, TG_ERR_UNSUPPORTED, "%s: event '%s': no babeltrace2 details text",
                      tg_trace_path(t), tg_event_name(ev));
    return 0;
}

/* A boolean parameter's value as babeltrace2 reads it: yes, no, true, false. */
static int param_bool(const char *v, size_t n, bool *out)
{
    if ((n == 3 && !strncmp(v, "yes", 3)) || (n == 4 && !strncmp(v, "true", 4)))
        *out = true;
    else if ((n == 2 && !strncmp(v, "no", 2)) || (n == 5 && !strncmp(v, "false", 5)))
        *out = false;
    else
        return -1;
    return 0;
}

/* --params "KEY=VALUE,...": babeltrace2's details sink's parameters.  A key of another
 * component (lttng-live's session-not-found-action) is left to it; compact=yes and
 * color=always are not followed: a usage error says so. */
static int details_params_parse(details_params *par, const char *params, tg_error **err)
{
    *par = (details_params){true, true, true, true, true, true};
    static const struct {
        const char *key;
        size_t at; /* offsetof the flag, or SIZE_MAX: accepted as babeltrace2's default */
    } keys[] = {
        {"with-metadata", offsetof(details_params, metadata)},
        {"with-data", offsetof(details_params, data)},
        {"with-time", offsetof(details_params, time)},
        {"with-trace-name", offsetof(details_params, trace_name)},
        {"with-stream-name", offsetof(details_params, stream_name)},
        {"with-uuid", offsetof(details_params, uuid)},
        /* CTF 1.8 stream classes have no name: babeltrace2 prints none either way */
        {"with-stream-class-name", SIZE_MAX},
    };
    for (const char *s = params ? params : ""; *s;) {
        size_t n = strcspn(s, ",");
        const char *eq = memchr(s, '=', n);
        size_t klen = eq ? (size_t)(eq - s) : n;
        const char *v = eq ? eq + 1 : "";
        size_t vn = eq ? n - klen - 1 : 0;
        if (vn >= 2 && (v[0] == '"' || v[0] == '\'') && v[vn - 1] == v[0]) {
            v++;
            vn -= 2;
        }
        bool on = false, known = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            if (strlen(keys[i].key) != klen || strncmp(s, keys[i].key, klen))
                continue;
            known = true;
            if (param_bool(v, vn, &on) < 0)
                return tg_err(err, TG_ERR_USAGE,
                              "--params: %.*s takes yes, no, true or false, not '%.*s'", (int)klen,
                              s, (int)vn, v);
            if (keys[i].at != SIZE_MAX)
                *(bool *)((char *)par + keys[i].at) = on;
        }
        if (!known && klen == 7 && !strncmp(s, "compact", 7)) {
            if (param_bool(v, vn, &on) < 0 || on)
                return tg_err(err, TG_ERR_USAGE,
                              "--params: compact=yes (babeltrace2's one-line details) is not "
                              "printed by the babeltrace-details style");
            known = true;
        }
        if (!known && klen == 5 && !strncmp(s, "color", 5)) {
            if (!((vn == 5 && !strncmp(v, "never", 5)) || (vn == 4 && !strncmp(v, "auto", 4))))
                return tg_err(err, TG_ERR_USAGE,
                              "--params: color=%.*s: the babeltrace-details style writes no "
                              "colors (color=never or auto)",
                              (int)vn, v);
            known = true;
        }
        if (!known && !(klen == 24 && !strncmp(s, "session-not-found-action", 24)))
            return tg_err(err, TG_ERR_USAGE,
                          "--params: '%.*s' is not a parameter of sink.text.details (it takes "
                          "with-metadata, with-data, with-time, with-trace-name, "
                          "with-stream-class-name, with-stream-name, with-uuid, compact, color)",
                          (int)n, s);
        s += n + (s[n] == ',');
    }
    return 0;
}

/* with-data=no: each trace's classes only (with-metadata), at its first message. */
static int metadata_only(details_state *st, const tg_event *ev, tg_buf *out, tg_error **err)
{
    const tg_trace *t = tg_event_trace(ev);
    long ti = trace_index(st, t);
    if (ti < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (st->traces[ti].described)
        return 0;
    st->traces[ti].described = true;
    return st->par.metadata ? trace_class(st, t, out, err) : 0;
}

static int print_details(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                         tg_error **err)
{
    if (bt_needs_conversion(set)) /* babeltrace2 reads CTF: print the CTF we write of it */
        return bt_print_converted(set, it, opts, "babeltrace-details", out, err);
    details_state st = {0};
    TG_TRY(details_params_parse(&st.par, opts ? tg_options_get(opts, "params") : NULL, err));
    tg_iter_use_trace_clocks(it); /* babeltrace2's own times and order */
    tg_iter_want_messages(it);
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0)
        if ((rc = st.par.data ? message(&st, ev, out, err) : metadata_only(&st, ev, out, err)) < 0)
            break;
    if (rc >= 0 && st.n_begins)
        rc = flush_begins(&st, out, err);
    free(st.traces);
    free(st.begins);
    return rc;
}

TG_PRINT_STYLE(babeltrace_details) = {"babeltrace-details", print_details, NULL};
