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

#endif
