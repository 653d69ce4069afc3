/* summary_json.h - `info` and `stats` as one JSON document (--format json): see
 * summary_json.c. */
#ifndef TG_SUMMARY_JSON_H
#define TG_SUMMARY_JSON_H

#include "analysis/class_counts.h"
#include "core/consumer.h"

#include <stdbool.h>

struct json_object;

/* The option "format": 0 text (or unset), 1 json, or TG_ERR_USAGE (another value: "format"
 * is sql's too, whose values the options store accepts). */
int tg_summary_format(const tg_options *opts, tg_error **err);
/* stats: {"events": [{"event", "count", "first_ns", "last_ns", "rate_per_s"}...],
 * "total": {"events", "lost"}}.  0 or a negative status. */
int tg_stats_json(const tg_class_counts *cc, tg_buf *out, tg_error **err);
/* info: {"traces": [{"path", "format", "version", "tracer", "clock", "shift_ns", "alignment",
 * "host", "process", "streams", "first_ns", "last_ns", "events", "classes", "description"}]}. */
int tg_info_json(tg_set *set, const tg_class_counts *cc, tg_buf *out, tg_error **err);

/* stats --diff: the rows of two runs' counts merged by class name (stats_diff.c). */
typedef struct diff_row {
    const char *name;
    uint64_t count[2]; /* 0: OTHER, 1: PATH */
    bool seen[2];
} diff_row;
typedef struct diff_rows {
    diff_row *rows;
    size_t n, cap;
    tg_hash by_name; /* hash of the name -> index into rows */
} diff_rows;
/* PATH's classes in first-seen order, then those only OTHER has; 0 or TG_ERR_NOMEM. */
int tg_stats_diff_rows(diff_rows *dr, const tg_class_counts cc[2]);
void tg_stats_diff_rows_free(diff_rows *dr);
/* A run's span in ns (first to last event), 0 for fewer than two events. */
double tg_stats_diff_span(const tg_class_counts *cc);
/* stats --diff --format json: {"other": RUN, "path": RUN, "events": [{"event", "other",
 * "path", "change", "percent", "status", "other_rate_per_s", "path_rate_per_s"}...]}, a RUN
 * being {"paths", "events", "lost", "span_ns"}; a count a run lacks is null (status "new" or
 * "gone").  0 or a negative status (stats_diff_json.c). */
int tg_stats_diff_json(tg_set *set, tg_set *other, const tg_class_counts cc[2], tg_buf *out,
                       tg_error **err);

#endif
