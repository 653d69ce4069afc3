/* summary_json.h - `info` and `stats` as one JSON document (--format json): see
 * summary_json.c. */
#ifndef TG_SUMMARY_JSON_H
#define TG_SUMMARY_JSON_H

#include "analysis/class_counts.h"

/* The option "format": 0 text (or unset), 1 json, or TG_ERR_USAGE (another value: "format"
 * is sql's too, whose values the options store accepts). */
int tg_summary_format(const tg_options *opts, tg_error **err);
/* stats: {"events": [{"event", "count", "first_ns", "last_ns", "rate_per_s"}...],
 * "total": {"events", "lost"}}.  0 or a negative status. */
int tg_stats_json(const tg_class_counts *cc, tg_buf *out, tg_error **err);
/* info: {"traces": [{"path", "format", "version", "tracer", "clock", "shift_ns", "alignment",
 * "host", "process", "streams", "first_ns", "last_ns", "events", "classes", "description"}]}. */
int tg_info_json(tg_set *set, const tg_class_counts *cc, tg_buf *out, tg_error **err);

#endif
