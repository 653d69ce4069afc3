/* xray_account_json.c - `report --style=xray --format json`, with and without --diff: the rows
 * llvm-xray account prints, as one JSON document, so a script reads the numbers without
 * parsing llvm's columns:
 *
 *   {"functions": [{"funcid": 1, "count": 10, "min_s": ..., "median_s": ..., "p90_s": ...,
 *                   "p99_s": ..., "max_s": ..., "sum_s": ..., "location": "app.cc:3:0",
 *                   "function": "main"}, ...]}
 *
 * Times are seconds as llvm-xray computes them (doubles: its latencies are cycles over the
 * log's frequency, so no nanosecond integer is more exact), in the text's order, -top kept.
 * --diff: {"functions": [{"function", "funcid", "path": ROW|null, "other": ROW|null,
 * "change": ROW}]}, each row of PATH then OTHER's rows PATH lacks, the change PATH minus
 * OTHER as the text's change lines show it. */
#include "compat/llvm-xray/xray_account.h"
#include "core/error_internal.h"

#include <json-c/json.h>

/* The numbers of a row, without its name: shared by a row and a change. */
static json_object *numbers(int64_t count, const row *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "count", json_object_new_int64(count));
    json_object_object_add(o, "min_s", json_object_new_double(r->min));
    json_object_object_add(o, "median_s", json_object_new_double(r->med));
    json_object_object_add(o, "p90_s", json_object_new_double(r->p90));
    json_object_object_add(o, "p99_s", json_object_new_double(r->p99));
    json_object_object_add(o, "max_s", json_object_new_double(r->max));
    json_object_object_add(o, "sum_s", json_object_new_double(r->sum));
    return o;
}

static json_object *row_json(const row *r)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "funcid", json_object_new_int(r->id));
    json_object *n = numbers((int64_t)r->count, r);
    json_object_object_foreach(n, k, v) json_object_object_add(o, k, json_object_get(v));
    json_object_put(n);
    json_object_object_add(o, "location", json_object_new_string(r->location));
    json_object_object_add(o, "function", json_object_new_string(r->name));
    return o;
}

int xray_account_put_json(tg_buf *out, const account *ac, const tg_options *opts, tg_error **err)
{
    json_object *doc = json_object_new_object(), *rows = json_object_new_array();
    json_object_object_add(doc, "functions", rows);
    for (size_t i = 0, limit = xray_account_top_of(opts, ac->n); i < limit; i++)
        json_object_array_add(rows, row_json(&ac->rows[ac->idx[i]]));
    return tg_json_doc_put(out, doc, err);
}

json_object *xray_diff_json_new(void)
{
    json_object *doc = json_object_new_object();
    json_object_object_add(doc, "functions", json_object_new_array());
    return doc;
}

void xray_diff_json_add(json_object *doc, const row *path, const row *other)
{
    static const row zero;
    const row *p = path ? path : &zero, *o = other ? other : &zero;
    const row *named = path ? path : other;
    row change = {.min = p->min - o->min,
                  .med = p->med - o->med,
                  .p90 = p->p90 - o->p90,
                  .p99 = p->p99 - o->p99,
                  .max = p->max - o->max,
                  .sum = p->sum - o->sum};
    json_object *f = json_object_new_object();
    json_object_object_add(f, "function", json_object_new_string(named->name));
    json_object_object_add(f, "funcid", json_object_new_int(named->id));
    json_object_object_add(f, "path", path ? row_json(path) : NULL);
    json_object_object_add(f, "other", other ? row_json(other) : NULL);
    json_object_object_add(f, "change", numbers((int64_t)p->count - (int64_t)o->count, &change));
    json_object_array_add(json_object_object_get(doc, "functions"), f);
}
