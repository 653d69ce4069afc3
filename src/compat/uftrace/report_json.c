/* report_json.c - `report --format json` of the uftrace style: the rows of uftrace's report
 * table as one JSON document, in the table's order, with the columns the table shows (-f),
 * times as integer nanoseconds rather than uftrace's rounded "1.234 ms":
 *
 *   {"functions": [{"function": "main", "total_ns": 1234567, "self_ns": 1234,
 *                   "calls": 1}, ...]}
 *
 * Built with json-c (the project's JSON library), so that names are escaped as JSON wants
 * and a script reads the numbers without parsing the text table. */
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

int uf_rows_print_json(struct table *tb, const struct uf_report_fmt *f, tg_buf *out, tg_error **err)
{
    uf_rows_sort(tb, f);
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    if (!doc || !rows) {
        json_object_put(doc);
        json_object_put(rows);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    json_object_object_add(doc, "functions", rows);
    for (size_t i = 0; i < tb->n; i++) {
        const struct row *r = tb->rows[i];
        json_object *o = json_object_new_object();
        if (!o || json_object_array_add(rows, o) != 0) {
            json_object_put(o);
            json_object_put(doc);
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
        json_object_object_add(o, "function", json_object_new_string(r->name));
        for (int c = 0; c < UF_COL_COUNT; c++)
            if (f->col_on[c])
                json_object_object_add(
                    o, json_keys[c],
                    json_object_new_int64((int64_t)uf_row_value(r, (enum uf_col)c)));
    }
    const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text ? 0 : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (text) {
        tg_buf_puts(out, text);
        tg_buf_putc(out, '\n');
    }
    json_object_put(doc);
    return rc;
}
