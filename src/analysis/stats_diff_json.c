/* stats_diff_json.c - `stats --diff OTHER PATH --format json`: the rows stats --diff prints as
 * one JSON document (json-c, as info's and stats's), so that a script compares two runs from
 * numbers instead of columns: counts as integers, a change in percent and a rate as numbers,
 * null where the text prints "-". */
#include "analysis/summary_json.h"
#include "core/json_doc.h"
#include "core/error_internal.h"

#include <json-c/json.h>

static json_object *run_object(tg_set *set, const tg_class_counts *cc)
{
    json_object *run = json_object_new_object(), *paths = json_object_new_array();
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        json_object_array_add(paths, json_object_new_string(tg_trace_path(tg_set_trace(set, i))));
    json_object_object_add(run, "paths", paths);
    json_object_object_add(run, "events", json_object_new_int64((int64_t)cc->events));
    json_object_object_add(run, "lost", json_object_new_int64((int64_t)cc->lost));
    json_object_object_add(run, "span_ns", json_object_new_int64((int64_t)tg_stats_diff_span(cc)));
    return run;
}

static json_object *count_or_null(const diff_row *r, int side)
{
    return r->seen[side] ? json_object_new_int64((int64_t)r->count[side]) : NULL;
}

static json_object *rate_or_null(const diff_row *r, int side, double span)
{
    return r->seen[side] && span > 0 ? json_object_new_double((double)r->count[side] * 1e9 / span)
                                     : NULL;
}

int tg_stats_diff_json(tg_set *set, tg_set *other, const tg_class_counts cc[2], tg_buf *out,
                       tg_error **err)
{
    diff_rows dr;
    if (tg_stats_diff_rows(&dr, cc) < 0) {
        tg_stats_diff_rows_free(&dr);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    double span[2] = {tg_stats_diff_span(&cc[0]), tg_stats_diff_span(&cc[1])};
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(doc, "other", run_object(other, &cc[0]));
    json_object_object_add(doc, "path", run_object(set, &cc[1]));
    for (size_t i = 0; i < dr.n; i++) {
        const diff_row *r = &dr.rows[i];
        json_object *row = json_object_new_object();
        int64_t d = (int64_t)(r->count[1] - r->count[0]);
        json_object_object_add(row, "event", json_object_new_string(r->name));
        json_object_object_add(row, "other", count_or_null(r, 0));
        json_object_object_add(row, "path", count_or_null(r, 1));
        json_object_object_add(row, "change", json_object_new_int64(d));
        json_object_object_add(row, "percent",
                               r->seen[0] && r->seen[1] && r->count[0]
                                   ? json_object_new_double(100.0 * (double)d / (double)r->count[0])
                                   : NULL);
        json_object_object_add(row, "status",
                               !r->seen[0]   ? json_object_new_string("new")
                               : !r->seen[1] ? json_object_new_string("gone")
                                             : NULL);
        json_object_object_add(row, "other_rate_per_s", rate_or_null(r, 0, span[0]));
        json_object_object_add(row, "path_rate_per_s", rate_or_null(r, 1, span[1]));
        json_object_array_add(rows, row);
    }
    json_object_object_add(doc, "events", rows);
    tg_stats_diff_rows_free(&dr);
    return tg_json_doc_put(out, doc, err);
}
