/* report_json.c - `report --format json` of the uftrace style: the rows of uftrace's report
 * table as one JSON document, in the table's order, with the columns the table shows (-f),
 * times as integer nanoseconds rather than uftrace's rounded "1.234 ms":
 *
 *   {"functions": [{"function": "main", "total_ns": 1234567, "self_ns": 1234,
 *                   "calls": 1}, ...]}
 *
 * Built with json-c (the project's JSON library), so that names are escaped as JSON wants
 * and a script reads the numbers without parsing the text table. */
#include "core/json_doc.h"
#include "compat/uftrace/report_rows.h"
#include "core/error_internal.h"

#include <json-c/json.h>
#include <string.h>

/* The member of each column: the sort key's name, "_ns" for a time. */
static const char *const json_keys[UF_COL_COUNT] = {
    [UF_COL_TOTAL] = "total_ns",
    [UF_COL_TOTAL_AVG] = "total_avg_ns",
    [UF_COL_TOTAL_MIN] = "total_min_ns",
    [UF_COL_TOTAL_MAX] = "total_max_ns",
    [UF_COL_SELF] = "self_ns",
    [UF_COL_SELF_AVG] = "self_avg_ns",
    [UF_COL_SELF_MIN] = "self_min_ns",
    [UF_COL_SELF_MAX] = "self_max_ns",
    [UF_COL_CALL] = "calls",
    [UF_COL_SIZE] = "size",
};

const char *uf_col_json_key(enum uf_col col) { return json_keys[col]; }

json_object *uf_row_json(const char *function, const struct row *r, const struct uf_report_fmt *f)
{
    json_object *o = json_object_new_object();
    if (function)
        json_object_object_add(o, "function", json_object_new_string(function));
    for (int c = 0; c < UF_COL_COUNT; c++)
        if (f->col_on[c])
            json_object_object_add(
                o, json_keys[c],
                json_object_new_int64(r->name ? (int64_t)uf_row_value(r, (enum uf_col)c) : 0));
    return o;
}

int uf_rows_print_json(struct table *tb, const struct uf_report_fmt *f, tg_buf *out, tg_error **err)
{
    uf_rows_sort(tb, f);
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(doc, "functions", rows);
    for (size_t i = 0; i < tb->n; i++)
        json_object_array_add(rows, uf_row_json(tb->rows[i]->name, tb->rows[i], f));
    return tg_json_doc_put(out, doc, err);
}
