/* babeltrace_style.h - what the babeltrace style's files share: the style of traces that are
 * not CTF (babeltrace_convert.c). */
#ifndef TG_BABELTRACE_STYLE_H
#define TG_BABELTRACE_STYLE_H

#include "core/consumer.h"

#include <stdbool.h>

/* Does the set hold a trace babeltrace2 cannot read (not CTF)? */
bool bt_needs_conversion(tg_set *set);
/* Prints in style ("babeltrace", "babeltrace-details") what babeltrace2 prints for the CTF the converter writes of the iterator's events. */
int bt_print_converted(tg_set *set, tg_iter *it, const tg_options *opts, const char *style,
                       tg_buf *out, tg_error **err);

/* The trace's name as babeltrace2's CTF source gives it (its hostname, then the trace's
 * folder below the path it was opened from), into out. */
void bt_trace_name(tg_buf *out, const tg_trace *t);
/* The stream's file as babeltrace2's CTF source names it: the absolute path, normalized, not
 * resolved.  0, or TG_ERR_NOMEM. */
int bt_stream_file_path(tg_buf *out, const tg_stream *s);

/* --stream-intersection (babeltrace_intersection.c): each trace's range, from the latest
 * beginning of its streams to their earliest end. */
typedef struct bt_trim {
    const tg_trace *trace;
    int64_t begin, end; /* on the trace's clock (tg_event_trace_time_ns), both kept */
} bt_trim;
typedef struct bt_trims {
    bt_trim *v;
    size_t n, last;
} bt_trims;
/* The ranges of the set's traces (read from a second opening of it): 0, or a negative status
 * with *err (a stream without packet times, streams never all active at once). */
int bt_intersection_compute(tg_set *set, bt_trims *out, tg_error **err);
/* Is the event inside its trace's range? */
bool bt_trims_keep(bt_trims *t, const tg_event *ev);
void bt_trims_free(bt_trims *t);

#endif
