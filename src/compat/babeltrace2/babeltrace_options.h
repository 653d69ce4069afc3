/* babeltrace_options.h - babeltrace2's text options (--names, --fields, --no-delta,
 * --clock-cycles, --clock-date, --clock-gmt, --clock-seconds) and the event header they
 * shape (babeltrace_options.c). */
#ifndef TG_BABELTRACE_OPTIONS_H
#define TG_BABELTRACE_OPTIONS_H

#include "core/consumer.h"

#include <stdbool.h>

/* sink.text.pretty's options, as babeltrace2's command line sets them */
typedef struct bt_opts {
    bool seconds, date, gmt, cycles, delta;
    bool header_names, scope_names, payload_names, context_names;
    bool f_trace, f_hostname, f_domain, f_procname, f_vpid, f_loglevel, f_emf;
    bool stream_intersection; /* --stream-intersection (babeltrace_intersection.c) */
} bt_opts;

/* From the option bag ("names", "fields", "no-delta", "clock-*"): 0, or TG_ERR_USAGE with
 * babeltrace2's reason (an unknown name or field). */
int bt_opts_parse(const tg_options *opts, bt_opts *o, tg_error **err);
/* The output babeltrace2 prints without options (or only --clock-seconds). */
bool bt_opts_plain(const bt_opts *o);
/* The tg_render_flag of the scopes' names. */
unsigned bt_opts_render_flags(const bt_opts *o);

/* What a trace shows before its events' names */
typedef struct bt_trace_fields {
    const tg_trace *trace;
    bool has_clock;
    const char *hostname, *domain, *procname, *name; /* NULL: not in the environment */
    bool has_vpid;
    int64_t vpid;
} bt_trace_fields;

typedef struct bt_header {
    const bt_opts *o;
    bool have_last_ns, have_last_cycles, warned_negative;
    int64_t last_ns;
    uint64_t last_cycles, delta_cycles;
    uint64_t delta_ns;
    bool have_delta_ns, have_delta_cycles;
    int64_t cached_sec; /* the date and time text of this second */
    char cached[48];
    size_t cached_len;
    bt_trace_fields *traces;
    size_t n_traces, cap_traces;
} bt_header;

int bt_header_init(bt_header *h, const bt_opts *o, tg_set *set);
void bt_header_free(bt_header *h);
/* The event's header as sink.text.pretty prints it: time, delta, trace fields, log level, EMF
 * URI, name (names or not).  0, or TG_ERR_NOMEM. */
int bt_header_put(bt_header *h, const tg_event *ev, tg_buf *out);

/* A time as the text sink's options write it in brackets (print_timestamp_wall: local time
 * or GMT, the date or not, or seconds; never cycles). */
void bt_put_wall(bt_header *h, tg_buf *out, int64_t ns);
/* babeltrace2's warning on stderr for a discarded-events or discarded-packets message
 * (TG_KIND_LOST, TG_KIND_PACKETS_LOST from an iterator that wants messages), into notes:
 * "WARNING: Tracer discarded 2 packets between [T] and [T] in trace ... (stream ID: 0).".
 * 0, or TG_ERR_NOMEM (babeltrace_discarded.c). */
int bt_discarded_warning(bt_header *h, const tg_event *ev, tg_buf *notes);

#endif
