/* la_intersect.c - lttng-analyses' stream intersection (its default; --no-intersection turns
 * it off): babeltrace 1, which lttng-analyses reads CTF traces through, then gives only the
 * events from the latest first packet's beginning to the earliest last packet's end of the
 * trace's streams, both included, and fails with "Trace has no intersection" when that range
 * is empty.  It matters where some streams begin late or end early (a flight recorder's
 * snapshot, a CPU brought online while tracing).
 *
 * The bounds are read as the events go, from the iterator's stream and packet messages
 * (tg_iter_want_messages): every stream's beginning comes first, an event is before the
 * intersection while a stream has not had its first packet, and the first stream's end is the
 * intersection's end (the merge gives each message at its time). */
#include "analysis/la_run.h"

#include <stdlib.h>
#include <string.h>

void la_intersect_start(la_intersect *x, tg_set *set, tg_iter *it)
{
    *x = (la_intersect){.end = INT64_MAX};
    x->on = tg_set_trace_count(set) > 0;
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const char *format = tg_trace_format(tg_set_trace(set, i));
        x->on = x->on && format && strcmp(format, "ctf") == 0;
    }
    if (x->on)
        tg_iter_want_messages(it);
}

void la_intersect_free(la_intersect *x) { free(x->begun); }

/* has stream s had its first packet (else: it has now) */
static int first_packet(la_intersect *x, const tg_stream *s)
{
    for (size_t i = 0; i < x->n_begun; i++)
        if (x->begun[i] == s)
            return 0;
    size_t cap = x->n_begun;
    TG_TRY(tg_grow(&x->begun, &cap, x->n_begun + 1, sizeof *x->begun));
    x->begun[x->n_begun++] = s;
    return 1;
}

int la_intersect_event(la_intersect *x, const tg_event *ev, tg_error **err)
{
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (!x->on)
        return kind >= TG_KIND_STREAM_BEGIN ? 0 : 1;
    switch (kind) {
    case TG_KIND_STREAM_BEGIN: x->n_streams++; return 0;
    case TG_KIND_PACKET_BEGIN:
        if (x->n_begun < x->n_streams)
            TG_TRY(first_packet(x, tg_event_stream(ev)));
        return 0;
    case TG_KIND_PACKET_END: return 0;
    case TG_KIND_STREAM_END:
        if (x->n_begun < x->n_streams)
            return tg_err(err, TG_ERR_UNSUPPORTED,
                          "Trace has no intersection. Use --no-intersection to override");
        if (ev->ts < x->end)
            x->end = ev->ts;
        return 0;
    default:
        if (ev->ts > x->end)
            return 2;
        return x->n_begun < x->n_streams ? 0 : 1;
    }
}
