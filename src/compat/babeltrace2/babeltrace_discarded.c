/* babeltrace_discarded.c - the text sink's warnings about discarded events and packets.
 *
 * babeltrace2's sink.text.pretty writes nothing on its output for a discarded-events or
 * discarded-packets message; it says it on stderr, one line each, in the messages' order:
 *
 *   WARNING: Tracer discarded 2 packets between [22:13:20.000001135] and
 *   [22:13:20.000001400] in trace "host" (UUID: ...) within stream "/abs/chan_0"
 *   (stream class ID: 0, stream ID: 0).
 *
 * (one line).  The times are the gap's clock snapshots as the sink's clock options write
 * them (--clock-cycles does not apply to them), "(unknown time range)" where the stream's
 * packets have no times; the singular for one element.  The line goes to the set's notes
 * (tg_set_notes), which the command line writes on stderr. */
#include "compat/babeltrace2/babeltrace_options.h"
#include "compat/babeltrace2/babeltrace_style.h"

#include <stdint.h>

int bt_discarded_warning(bt_header *h, const tg_event *ev, tg_buf *notes)
{
    const char *what = tg_event_kind_of(ev) == TG_KIND_LOST ? "event" : "packet";
    uint64_t n = tg_event_lost_count(ev);
    tg_buf_puts(notes, "WARNING: Tracer discarded ");
    if (n) {
        tg_buf_u64(notes, n);
        tg_buf_printf(notes, " %s%s ", what, n == 1 ? "" : "s");
    } else {
        tg_buf_printf(notes, "a number of %ss ", what);
    }
    uint64_t begin, end;
    int64_t end_ns;
    if (tg_event_clock_span(ev, &begin, &end, &end_ns)) {
        tg_buf_puts(notes, "between [");
        bt_put_wall(h, notes, tg_event_trace_time_ns(ev));
        tg_buf_puts(notes, "] and [");
        bt_put_wall(h, notes, end_ns);
        tg_buf_putc(notes, ']');
    } else {
        tg_buf_puts(notes, "(unknown time range)");
    }
    const tg_stream *s = tg_event_stream(ev);
    const tg_trace *t = tg_event_trace(ev);
    tg_buf_puts(notes, " in trace \"");
    bt_trace_name(notes, t);
    tg_buf_puts(notes, "\" ");
    tg_buf *uu = tg_buf_new();
    if (!uu)
        return TG_ERR_NOMEM;
    if (tg_trace_render(t, "babeltrace-details-uuid", uu, NULL) == 1)
        tg_buf_printf(notes, "(UUID: %s) ", tg_buf_data(uu));
    else
        tg_buf_puts(notes, "(no UUID) ");
    tg_buf_free(uu);
    tg_buf_puts(notes, "within stream \"");
    if (bt_stream_file_path(notes, s) < 0)
        return TG_ERR_NOMEM;
    uint64_t cls = 0, id = 0;
    bool ids = tg_stream_ids(s, &cls, &id);
    tg_buf_puts(notes, "\" (stream class ID: ");
    tg_buf_u64(notes, cls);
    if (ids) {
        tg_buf_puts(notes, ", stream ID: ");
        tg_buf_u64(notes, id);
    } else {
        tg_buf_puts(notes, ", no stream ID");
    }
    tg_buf_puts(notes, ").\n");
    return 0;
}
