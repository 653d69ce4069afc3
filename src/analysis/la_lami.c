/* la_lami.c - LAMI 1.0 result tables, the JSON that lttng-analyses' `lttng-NAME-mi` commands
 * print and Trace Compass reads as an external analysis: {"results": [table...]}, a table
 * {"class": NAME or {"inherit": NAME, "title": ...}, "time-range": ..., "data": [[cell...]]},
 * each cell an object whose "class" says what it is (number, ratio, duration, timestamp,
 * process, cpu, irq, syscall, unknown) or null (lttng-analyses' Empty).  Built with json-c so
 * that any process name makes valid JSON. */
#include "analysis/la_run.h"

static json_object *time_range(int64_t begin, int64_t end)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("time-range"));
    json_object_object_add(o, "begin", la_lami_int("timestamp", begin));
    json_object_object_add(o, "end", la_lami_int("timestamp", end));
    return o;
}

json_object *la_lami_timerange(int64_t begin, int64_t end) { return time_range(begin, end); }

json_object *la_lami_table(la_run *r, const char *cls, int64_t begin, int64_t end)
{
    (void)r;
    json_object *t = json_object_new_object();
    json_object_object_add(t, "class", json_object_new_string(cls));
    json_object_object_add(t, "time-range", time_range(begin, end));
    json_object_object_add(t, "data", json_object_new_array());
    return t;
}

json_object *la_lami_table_sub(la_run *r, const char *cls, const char *title, int64_t begin,
                               int64_t end)
{
    json_object *t = la_lami_table(r, cls, begin, end);
    json_object *c = json_object_new_object();
    json_object_object_add(c, "inherit", json_object_new_string(cls));
    json_object_object_add(c, "title", json_object_new_string(title));
    json_object_object_add(t, "class", c);
    return t;
}

json_object *la_lami_row(json_object *table)
{
    json_object *data = json_object_object_get(table, "data");
    json_object *row = json_object_new_array();
    json_object_array_add(data, row);
    return row;
}

void la_lami_add(la_run *r, json_object *table)
{
    json_object *data = json_object_object_get(table, "data");
    if (json_object_array_length(data) == 0) {
        json_object_put(table);
        return;
    }
    json_object_array_add(r->results, table);
}

json_object *la_lami_int(const char *cls, int64_t v)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(o, "value", json_object_new_int64(v));
    return o;
}

json_object *la_lami_value(const char *cls, double v)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(o, "value", json_object_new_double(v));
    return o;
}

json_object *la_lami_number(double v) { return la_lami_value("number", v); }

json_object *la_lami_string(const char *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("string"));
    json_object_object_add(o, "value", json_object_new_string(s));
    return o;
}

json_object *la_lami_unknown(void)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("unknown"));
    return o;
}

json_object *la_lami_process(const char *name, int64_t pid, int64_t tid)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("process"));
    if (name)
        json_object_object_add(o, "name", json_object_new_string(name));
    if (pid != LA_NONE)
        json_object_object_add(o, "pid", json_object_new_int64(pid));
    if (tid != LA_NONE)
        json_object_object_add(o, "tid", json_object_new_int64(tid));
    return o;
}

json_object *la_lami_cpu(int64_t id)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("cpu"));
    json_object_object_add(o, "id", json_object_new_int64(id));
    return o;
}

static json_object *column(const char *title, const char *cls, const char *unit)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "title", json_object_new_string(title));
    json_object_object_add(o, "class", json_object_new_string(cls));
    if (unit)
        json_object_object_add(o, "unit", json_object_new_string(unit));
    return o;
}

void la_lami_add_series(la_run *r, const char *title, const char *unit, json_object *tables,
                        json_object *subtitles)
{
    size_t n = json_object_array_length(tables);
    if (n == 0) {
        json_object_put(tables);
        json_object_put(subtitles);
        return;
    }
    json_object *first = json_object_array_get_idx(tables, 0);
    json_object *cls = json_object_new_object(), *cols = json_object_new_array();
    json_object_object_add(cls, "title", json_object_new_string(title));
    json_object_array_add(cols, column("Duration (lower bound)", "duration", NULL));
    json_object_array_add(cols, column("Duration (upper bound)", "duration", NULL));
    for (size_t k = 0; k < n; k++)
        json_object_array_add(
            cols, column(json_object_get_string(json_object_array_get_idx(subtitles, k)), "number",
                         unit));
    json_object_object_add(cls, "column-descriptions", cols);
    json_object *series = json_object_new_object();
    json_object_object_add(series, "class", cls);
    json_object_object_add(series, "time-range",
                           json_object_get(json_object_object_get(first, "time-range")));
    json_object *data = json_object_new_array();
    json_object *rows0 = json_object_object_get(first, "data");
    for (size_t i = 0; i < json_object_array_length(rows0); i++) {
        json_object *row0 = json_object_array_get_idx(rows0, i), *row = json_object_new_array();
        json_object_array_add(row, json_object_get(json_object_array_get_idx(row0, 0)));
        json_object_array_add(row, json_object_get(json_object_array_get_idx(row0, 1)));
        for (size_t k = 0; k < n; k++) { /* a table without that row: no count (null) */
            json_object *rows =
                json_object_object_get(json_object_array_get_idx(tables, k), "data");
            json_object *cell = json_object_array_get_idx(json_object_array_get_idx(rows, i), 2);
            json_object_array_add(row, json_object_get(cell));
        }
        json_object_array_add(data, row);
    }
    json_object_object_add(series, "data", data);
    json_object_put(tables);
    json_object_put(subtitles);
    la_lami_add(r, series);
}
