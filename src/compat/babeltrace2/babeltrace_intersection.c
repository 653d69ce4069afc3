/* babeltrace_intersection.c - babeltrace2's --stream-intersection: only the events of the
 * time when every stream of their trace is active.
 *
 * babeltrace2 asks its CTF source the range of each stream (babeltrace.trace-infos: from its
 * first packet's timestamp_begin to its last packet's timestamp_end), takes for each trace
 * (traces of one UUID are one trace to it) the latest beginning and the earliest end, and
 * trims every stream of the trace to that range, both ends kept.  A stream whose packets do
 * not say their times makes it fail ("Cannot determine stream intersection of trace"), as
 * a range that ends before it begins does.
 *
 * The ranges are read here from a second opening of the same traces (tg_set_reopen), whose
 * iterator gives the packets' beginnings and ends as messages (with a clock value when the
 * packet context has its times); the printing pass then keeps
 * the events inside their trace's range. */
#include "compat/babeltrace2/babeltrace_style.h"

#include <stdlib.h>
#include <string.h>

typedef struct stream_span {
    const tg_stream *stream;
    size_t trace; /* its trace's index in the set */
    bool timed;   /* its packets say when they begin and end */
    int64_t begin, end;
} stream_span;

typedef struct spans {
    stream_span *v;
    size_t n, cap;
} spans;

static size_t trace_index(tg_set *set, const tg_trace *t)
{
    size_t n = tg_set_trace_count(set);
    for (size_t i = 0; i < n; i++)
        if (tg_set_trace(set, i) == t)
            return i;
    return n;
}

static stream_span *span_of(spans *sp, tg_set *set, const tg_event *ev, size_t *last)
{
    const tg_stream *s = tg_event_stream(ev);
    if (*last < sp->n && sp->v[*last].stream == s)
        return &sp->v[*last];
    for (size_t i = 0; i < sp->n; i++)
        if (sp->v[i].stream == s)
            return &sp->v[*last = i];
    if (tg_grow(&sp->v, &sp->cap, sp->n + 1, sizeof *sp->v) < 0)
        return NULL;
    stream_span *x = &sp->v[ *last = sp->n++];
    *x = (stream_span){.stream = s, .trace = trace_index(set, tg_event_trace(ev)), .timed = true};
    x->begin = tg_event_trace_time_ns(ev);
    x->end = x->begin;
    return x;
}

/* Each stream's first packet beginning and last packet end, from a second opening. */
static int read_spans(tg_set *set, spans *sp, tg_error **err)
{
    tg_set *two = tg_set_reopen(set, err);
    if (!two)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    tg_iter *it = tg_iter_new(two, NULL, err);
    int rc = it ? 0 : TG_ERR_NOMEM;
    if (it) {
        tg_iter_use_trace_clocks(it);
        tg_iter_want_messages(it);
    }
    const tg_event *ev;
    size_t last = 0;
    while (rc >= 0 && it && (rc = tg_iter_next(it, &ev)) > 0) {
        tg_event_kind k = tg_event_kind_of(ev);
        if (k != TG_KIND_PACKET_BEGIN && k != TG_KIND_PACKET_END)
            continue;
        stream_span *x = span_of(sp, two, ev, &last);
        if (!x) {
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
        uint64_t cycles;
        if (!tg_event_clock_value(ev, &cycles)) /* a packet without its times */
            x->timed = false;
        if (k == TG_KIND_PACKET_END)
            x->end = tg_event_trace_time_ns(ev);
    }
    tg_iter_free(it);
    tg_close(two);
    return rc < 0 ? rc : 0;
}

/* The key babeltrace2 groups traces by: the UUID, else the trace itself (""). */
static void trace_key(const tg_trace *t, char *key, size_t cap)
{
    key[0] = 0;
    tg_buf *u = tg_buf_new();
    if (u && tg_trace_render(t, "babeltrace-details-uuid", u, NULL) == 1 && tg_buf_len(u) < cap) {
        memcpy(key, tg_buf_data(u), tg_buf_len(u));
        key[tg_buf_len(u)] = 0;
    }
    tg_buf_free(u);
}

int bt_intersection_compute(tg_set *set, bt_trims *out, tg_error **err)
{
    spans sp = {0};
    size_t n = tg_set_trace_count(set);
    memset(out, 0, sizeof *out);
    int rc = read_spans(set, &sp, err);
    char(*keys)[48] = rc >= 0 ? calloc(n ? n : 1, sizeof *keys) : NULL;
    if (rc >= 0 && !(out->v = calloc(n ? n : 1, sizeof *out->v)))
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0 && !keys)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc >= 0 && i < n; i++)
        trace_key(tg_set_trace(set, i), keys[i], sizeof keys[i]);
    for (size_t i = 0; rc >= 0 && i < n; i++) {
        bt_trim *tr = &out->v[out->n++];
        *tr = (bt_trim){.trace = tg_set_trace(set, i), .begin = INT64_MIN, .end = INT64_MAX};
        for (size_t k = 0; k < sp.n; k++) {
            size_t j = sp.v[k].trace;
            if (j != i && (j >= n || !keys[i][0] || strcmp(keys[i], keys[j]) != 0))
                continue;
            if (!sp.v[k].timed) {
                rc = tg_err(err, TG_ERR_FORMAT,
                            "%s: cannot determine the stream intersection of the trace: a "
                            "stream's packets do not say when they begin and end "
                            "(timestamp_begin, timestamp_end)",
                            tg_trace_path(tr->trace));
                break;
            }
            if (sp.v[k].begin > tr->begin)
                tr->begin = sp.v[k].begin;
            if (sp.v[k].end < tr->end)
                tr->end = sp.v[k].end;
        }
        if (rc >= 0 && tr->begin > tr->end)
            rc = tg_err(err, TG_ERR_FORMAT,
                        "%s: the streams of the trace are never all active at once: no "
                        "stream intersection",
                        tg_trace_path(tr->trace));
    }
    free(keys);
    free(sp.v);
    if (rc < 0)
        bt_trims_free(out);
    return rc;
}

bool bt_trims_keep(bt_trims *t, const tg_event *ev)
{
    const tg_trace *tr = tg_event_trace(ev);
    if (t->last >= t->n || t->v[t->last].trace != tr)
        for (t->last = 0; t->last < t->n && t->v[t->last].trace != tr; t->last++)
            ;
    if (t->last >= t->n)
        return true;
    int64_t ts = tg_event_trace_time_ns(ev);
    return ts >= t->v[t->last].begin && ts <= t->v[t->last].end;
}

void bt_trims_free(bt_trims *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}
