/* gecko_profile.c - the Firefox Profiler's JSON profiles (Gecko's own and the profiler's
 * processed form): their threads' markers as slices.
 *
 * A profile is one object: "meta" (its "categories", each with a "name"), and "threads",
 * each with its name, tid and pid (numbers, or numeric strings), its strings ("stringArray",
 * or "stringTable" in older and Gecko's own profiles) and its "markers": a table of columns
 * name (a string index), startTime, endTime (milliseconds), phase, category (an index into
 * meta's categories) and data (an object, or null) — as one array per column (the processed
 * form) or as rows under a "schema" naming each column's place (Gecko's form).  A marker's
 * phase says what it is: 0 an instant at startTime, 1 an interval from startTime to endTime,
 * 2 the start of an interval, 3 its end (it ends the latest start of that name on the thread;
 * a start never ended is left out, as is an end without a start).  A marker is a slice of its
 * thread with its category's name, its data's members as the args "data.NAME".  (Samples and
 * their stacks are not read.)
 *
 * The file is walked member by member and thread by thread, so a damaged or cut profile gives
 * the threads read whole before the damage, then an error with its offset. */
#define _GNU_SOURCE /* memmem */
#include "core/file_input.h"
#include "core/format_api.h"
#include "core/grow.h"
#include "core/record_run.h"
#include "io/mapped_file.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gk_record {
    int64_t ts;
    uint32_t rank;  /* at one time: ends of slices that lasted (0), then the rest (1) */
    int64_t longer; /* within rank 1: -dur of a begin, so the longest begins first and holds
                     * the others begun with it; 0 for the rest */
    uint64_t order; /* within a rank: file order (ends of slices that lasted: latest first) */
    const tg_event_class *cls;
    int32_t pid, tid;
    const char *name, *category;
    struct json_object *data; /* a begin's marker data (a reference held), or NULL */
    uint64_t offset;
} gk_record;

typedef struct gk_profile {
    tg_map map;
    gk_record *recs;
    size_t n_recs, cap_recs;
    struct json_object *meta;     /* the "meta" member, NULL until read */
    struct json_object **threads; /* the threads read whole, with their offsets */
    uint64_t *thread_at;
    size_t n_threads, cap_threads, cap_thread_at;
    const tg_event_class *begin, *end;
    uint64_t order;
    tg_error *damage;
} gk_profile;

static const uint8_t *skip_space(const uint8_t *p, const uint8_t *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static int gk_probe(const tg_probe_input *in)
{
    if (in->is_dir || in->head_len == 0)
        return 0;
    const uint8_t *end = in->head + in->head_len, *p = skip_space(in->head, end);
    if (p >= end || *p != '{')
        return 0;
    size_t n = (size_t)(end - p);
    bool threads = memmem(p, n, "\"threads\"", 9) != NULL;
    bool profile = memmem(p, n, "\"markers\"", 9) || memmem(p, n, "\"samples\"", 9) ||
                   memmem(p, n, "\"categories\"", 12);
    return threads && profile && memmem(p, n, "\"meta\"", 6) ? 75 : 0;
}

static int damage(tg_trace *t, uint64_t offset, const char *what, const char *why)
{
    gk_profile *g = t->priv;
    if (!g->damage)
        tg_err(&g->damage, TG_ERR_FORMAT, "%s: offset 0x%llx: %s%s", t->path,
               (unsigned long long)offset, what, why ? why : "");
    return TG_ERR_FORMAT;
}

static struct json_object *member(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) ? v
                                                                                             : NULL;
}

/* A number, or a numeric string: 1 with *out. */
static int number_of(struct json_object *o, double *out)
{
    switch (json_object_get_type(o)) {
    case json_type_int:
    case json_type_double: *out = json_object_get_double(o); return isfinite(*out);
    case json_type_string: {
        const char *s = json_object_get_string(o);
        char *e;
        *out = strtod(s, &e);
        return e != s && *e == 0 && isfinite(*out);
    }
    default: return 0;
    }
}

static int32_t id_of(struct json_object *o)
{
    double d;
    return number_of(o, &d) && d >= INT32_MIN && d <= INT32_MAX ? (int32_t)d : 0;
}

/* A time in milliseconds as ns: 1 with *ns. */
static int time_of(struct json_object *o, int64_t *ns)
{
    double ms;
    if (!o || !number_of(o, &ms) || fabs(ms) >= 4.6e12) /* so an end minus a start fits */
        return 0;
    *ns = (int64_t)llround(ms * 1e6);
    return 1;
}

static gk_record *add(tg_trace *t, const tg_event_class *cls, int64_t ts, uint32_t rank,
                      int64_t longer, uint64_t order, const gk_record *like)
{
    gk_profile *g = t->priv;
    if (tg_grow(&g->recs, &g->cap_recs, g->n_recs + 1, sizeof *g->recs) < 0)
        return NULL;
    gk_record *r = &g->recs[g->n_recs++];
    *r = *like;
    r->ts = ts;
    r->rank = rank;
    r->longer = longer;
    r->order = order;
    r->cls = cls;
    if (cls != g->begin)
        r->data = NULL;
    else if (r->data)
        json_object_get(r->data);
    return r;
}

/* One slice from ts for dur (an instant: 0): its begin and end records. */
static int add_slice(tg_trace *t, const gk_record *m, int64_t ts, int64_t dur)
{
    gk_profile *g = t->priv;
    uint64_t order = g->order;
    g->order += 2;
    bool lasted = dur > 0;
    if (!add(t, g->begin, ts, 1, -dur, order, m) ||
        !add(t, g->end, ts + dur, lasted ? 0 : 1, lasted ? 0 : -dur,
             lasted ? UINT64_MAX - order : order + 1, m))
        return TG_ERR_NOMEM;
    return 0;
}

/* A column of the markers table: its i-th value, in either form. */
struct columns {
    struct json_object *table, *schema, *rows;
};

static struct json_object *cell(const struct columns *c, const char *column, size_t i)
{
    if (c->schema) {
        struct json_object *at = member(c->schema, column);
        struct json_object *row = json_object_array_get_idx(c->rows, i);
        return at && json_object_is_type(row, json_type_array)
                   ? json_object_array_get_idx(row, (size_t)json_object_get_int(at))
                   : NULL;
    }
    struct json_object *col = member(c->table, column);
    return json_object_is_type(col, json_type_array) ? json_object_array_get_idx(col, i) : NULL;
}

static const char *string_at(struct json_object *array, struct json_object *index)
{
    if (!json_object_is_type(index, json_type_int) || json_object_get_int64(index) < 0 ||
        (size_t)json_object_get_int64(index) >= json_object_array_length(array))
        return NULL;
    struct json_object *s = json_object_array_get_idx(array, (size_t)json_object_get_int64(index));
    return json_object_is_type(s, json_type_string) ? json_object_get_string(s) : NULL;
}

/* An open interval start (phase 2): its marker, and when it began. */
struct open_start {
    gk_record m;
    int64_t ts;
};

static int read_markers(tg_trace *t, struct json_object *th, const gk_record *thread,
                        struct json_object *strings)
{
    gk_profile *g = t->priv;
    struct json_object *markers = member(th, "markers");
    struct columns c = {.table = markers, .schema = member(markers, "schema")};
    size_t n;
    if (c.schema) {
        c.rows = member(markers, "data");
        if (!json_object_is_type(c.rows, json_type_array))
            return 0;
        n = json_object_array_length(c.rows);
    } else {
        struct json_object *names = member(markers, "name");
        if (!json_object_is_type(names, json_type_array))
            return 0;
        n = json_object_array_length(names);
    }
    struct json_object *categories = member(g->meta, "categories");
    if (!json_object_is_type(categories, json_type_array))
        categories = NULL;
    struct open_start *open = NULL;
    size_t n_open = 0, cap_open = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        gk_record m = *thread;
        m.name = string_at(strings, cell(&c, "name", i));
        if (!m.name)
            continue;
        struct json_object *cat = categories ? json_object_array_get_idx(categories, 0) : NULL;
        struct json_object *ci = cell(&c, "category", i);
        if (json_object_is_type(ci, json_type_int) && json_object_get_int64(ci) >= 0 && categories)
            cat = json_object_array_get_idx(categories, (size_t)json_object_get_int64(ci));
        struct json_object *cat_name = member(cat, "name");
        m.category = json_object_is_type(cat_name, json_type_string)
                         ? json_object_get_string(cat_name)
                         : NULL;
        struct json_object *data = cell(&c, "data", i);
        m.data = json_object_is_type(data, json_type_object) ? data : NULL;
        int64_t start = 0, end = 0;
        bool has_start = time_of(cell(&c, "startTime", i), &start);
        bool has_end = time_of(cell(&c, "endTime", i), &end);
        switch (json_object_get_int(cell(&c, "phase", i))) {
        case 0:
            if (has_start)
                rc = add_slice(t, &m, start, 0);
            break;
        case 1:
            if (has_start && has_end && end >= start)
                rc = add_slice(t, &m, start, end - start);
            break;
        case 2:
            if (!has_start)
                break;
            if (tg_grow(&open, &cap_open, n_open + 1, sizeof *open) < 0)
                rc = TG_ERR_NOMEM;
            else
                open[n_open++] = (struct open_start){.m = m, .ts = start};
            break;
        case 3:
            for (size_t k = n_open; has_end && k-- > 0;) {
                if (strcmp(open[k].m.name, m.name) != 0)
                    continue;
                if (end >= open[k].ts)
                    rc = add_slice(t, &open[k].m, open[k].ts, end - open[k].ts);
                memmove(&open[k], &open[k + 1], (n_open - k - 1) * sizeof *open);
                n_open--;
                break;
            }
            break;
        default: break;
        }
    }
    free(open);
    return rc;
}

static int read_thread(tg_trace *t, struct json_object *th, uint64_t offset)
{
    if (!json_object_is_type(th, json_type_object))
        return 0;
    gk_record thread = {
        .pid = id_of(member(th, "pid")), .tid = id_of(member(th, "tid")), .offset = offset};
    const char *name = json_object_get_string(member(th, "name"));
    tg_task_info k = {.tid = thread.tid, .pid = thread.pid, .ppid = -1, .name = name};
    bool known = false;
    for (size_t i = 0; i < t->n_tasks && !known; i++)
        known = t->tasks[i].tid == thread.tid;
    if (!known && tg_trace_add_task(t, &k) < 0)
        return TG_ERR_NOMEM;
    struct json_object *strings = member(th, "stringArray");
    if (!json_object_is_type(strings, json_type_array))
        strings = member(th, "stringTable");
    if (!json_object_is_type(strings, json_type_array))
        return 0;
    return read_markers(t, th, &thread, strings);
}

/* One JSON value at *p (moved past it); NULL with the damage noted when there is none (or
 * out of memory). */
static struct json_object *parse_value(tg_trace *t, struct json_tokener *tok, const uint8_t **p,
                                       const uint8_t *end)
{
    gk_profile *g = t->priv;
    size_t left = (size_t)(end - *p) > INT32_MAX ? INT32_MAX : (size_t)(end - *p);
    json_tokener_reset(tok);
    struct json_object *v = json_tokener_parse_ex(tok, (const char *)*p, (int)left);
    enum json_tokener_error e = json_tokener_get_error(tok);
    if (!v && e == json_tokener_success) /* a null: a placeholder (no member reads it) */
        v = json_object_new_boolean(0);
    if (!v) {
        if (e == json_tokener_continue)
            damage(t, (uint64_t)(*p - g->map.data), "the file ends inside a value", NULL);
        else
            damage(t, (uint64_t)(*p - g->map.data), "not JSON: ", json_tokener_error_desc(e));
        return NULL;
    }
    *p += json_tokener_get_parse_end(tok);
    return v;
}

/* The members of the profile object from p (just after its '{'): "meta" kept, each element
 * of "threads" kept with its offset, the rest skipped. */
static int walk_profile(tg_trace *t, const uint8_t *p, const uint8_t *end)
{
    gk_profile *g = t->priv;
    struct json_tokener *tok = json_tokener_new();
    if (!tok)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (;;) {
        p = skip_space(p, end);
        if (p < end && *p == '}')
            break;
        struct json_object *key, *value;
        if (p >= end || *p != '"') {
            rc = damage(t, (uint64_t)(p - g->map.data), "expected a member's name", NULL);
            break;
        }
        if (!(key = parse_value(t, tok, &p, end))) {
            rc = TG_ERR_FORMAT;
            break;
        }
        bool threads = strcmp(json_object_get_string(key), "threads") == 0;
        bool meta = strcmp(json_object_get_string(key), "meta") == 0;
        json_object_put(key);
        p = skip_space(p, end);
        if (p >= end || *p != ':') {
            rc = damage(t, (uint64_t)(p - g->map.data), "expected ':' after a member's name", NULL);
            break;
        }
        p = skip_space(p + 1, end);
        if (threads && p < end && *p == '[') {
            for (p = skip_space(p + 1, end); p < end && *p != ']'; p = skip_space(p, end)) {
                uint64_t at = (uint64_t)(p - g->map.data);
                if (!(value = parse_value(t, tok, &p, end))) {
                    rc = TG_ERR_FORMAT;
                    goto out;
                }
                if (tg_grow(&g->threads, &g->cap_threads, g->n_threads + 1, sizeof *g->threads) <
                        0 ||
                    tg_grow(&g->thread_at, &g->cap_thread_at, g->n_threads + 1,
                            sizeof *g->thread_at) < 0) {
                    json_object_put(value);
                    rc = TG_ERR_NOMEM;
                    goto out;
                }
                g->thread_at[g->n_threads] = at;
                g->threads[g->n_threads++] = value;
                p = skip_space(p, end);
                if (p < end && *p == ',')
                    p++;
                else if (p >= end || *p != ']') {
                    rc = damage(t, (uint64_t)(p - g->map.data),
                                "expected ',' or ']' after a thread", NULL);
                    goto out;
                }
            }
            if (p >= end) {
                rc = damage(t, (uint64_t)(p - g->map.data), "the file ends inside \"threads\"",
                            NULL);
                break;
            }
            p++;
        } else {
            if (!(value = parse_value(t, tok, &p, end))) {
                rc = TG_ERR_FORMAT;
                break;
            }
            if (meta && !g->meta)
                g->meta = value;
            else
                json_object_put(value);
        }
        p = skip_space(p, end);
        if (p < end && *p == ',')
            p++;
        else if (p >= end || *p != '}') {
            rc = damage(t, (uint64_t)(p - g->map.data), "expected ',' or '}' after a member", NULL);
            break;
        }
    }
out:
    json_tokener_free(tok);
    return rc;
}

static int compare_records(const void *a, const void *b)
{
    const gk_record *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->longer != y->longer)
        return x->longer < y->longer ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* A marker's data as its slice's args: each member keyed "data.NAME"; NULL when out of memory
 * (*nomem) or when it has none. */
static struct json_object *args_of(struct json_object *data, bool *nomem)
{
    if (!data || json_object_object_length(data) == 0)
        return NULL;
    struct json_object *args = json_object_new_object();
    if (!args) {
        *nomem = true;
        return NULL;
    }
    json_object_object_foreach(data, key, val)
    {
        size_t n = strlen(key);
        char *k = malloc(n + 6);
        if (!k || (memcpy(k, "data.", 5), memcpy(k + 5, key, n + 1),
                   json_object_object_add(args, k, json_object_get(val)) < 0)) {
            free(k);
            json_object_put(args);
            *nomem = true;
            return NULL;
        }
        free(k);
    }
    return args;
}

/* ---- the stream --------------------------------------------------------------------------- */

typedef struct gk_stream {
    gk_profile *g;
    tg_record_run run;
} gk_stream;

static int gk_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    gk_stream *st = s->priv;
    gk_profile *g = st->g;
    size_t at = 0;
    int rc = tg_record_run_next(&st->run, g->n_recs, g->damage, &at, err);
    if (rc <= 0)
        return rc;
    const gk_record *r = &g->recs[at];
    tg_record_event(ev, s, r->ts, r->cls, r->pid, r->tid);
    ev->addr = (uint64_t)(uintptr_t)r->name;
    ev->offset = r->offset;
    ev->auxp = r;
    return 1;
}

static int gk_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    gk_stream *st = s->priv;
    tg_record_run_rewind(&st->run);
    return 0;
}

static size_t gk_field_count(const tg_event *ev, tg_scope scope)
{
    const gk_record *r = ev->auxp;
    return scope == TG_SCOPE_PAYLOAD && r->data ? (size_t)json_object_object_length(r->data) : 0;
}

static int gk_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const gk_record *r = ev->auxp;
    if (i >= gk_field_count(ev, scope))
        return TG_ERR_USAGE;
    memset(out, 0, sizeof *out);
    size_t k = 0;
    json_object_object_foreach(r->data, key, val)
    {
        if (k++ != i)
            continue;
        out->name = key;
        switch (json_object_get_type(val)) {
        case json_type_int:
            out->type = TG_VAL_SINT;
            out->v.s = json_object_get_int64(val);
            out->bits = 64;
            out->base = 10;
            break;
        case json_type_boolean:
            out->type = TG_VAL_UINT;
            out->v.u = json_object_get_boolean(val) != 0;
            out->bits = 8;
            out->base = 10;
            break;
        case json_type_double:
            out->type = TG_VAL_FLOAT;
            out->v.f = json_object_get_double(val);
            out->bits = 64;
            break;
        case json_type_null: out->type = TG_VAL_NONE; break;
        default: {
            const char *s = json_object_is_type(val, json_type_string)
                                ? json_object_get_string(val)
                                : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN);
            out->type = TG_VAL_STRING;
            out->v.str.ptr = s ? s : "";
            out->v.str.len = s ? strlen(s) : 0;
            break;
        }
        }
        return 0;
    }
    return TG_ERR_USAGE;
}

static const char *gk_func_name(const tg_event *ev)
{
    const gk_record *r = ev->auxp;
    return r->name;
}

static const char *gk_func_category(const tg_event *ev)
{
    const gk_record *r = ev->auxp;
    return r->category;
}

static void gk_destroy(tg_stream *s) { free(s->priv); }

static const struct tg_stream_ops gk_stream_ops = {
    .next = gk_next,
    .field_count = gk_field_count,
    .field = gk_field,
    .func_name = gk_func_name,
    .func_category = gk_func_category,
    .destroy = gk_destroy,
    .rewind = gk_rewind,
    .events_independent = true, /* records and their data live as long as the trace */
};

/* ---- the format ----------------------------------------------------------------------------- */

static int gk_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    gk_profile *g = calloc(1, sizeof *g);
    if (!g)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = g;
    if (tg_map_open(&g->map, path, err) < 0)
        return TG_ERR_IO;
    tg_trace_set_version(t, "gecko profile");
    tg_trace_set_tracer(t, "firefox-profiler", NULL);
    if (tg_trace_add_slice_classes(t, &g->begin, &g->end) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const uint8_t *end = g->map.data + g->map.size, *p = skip_space(g->map.data, end);
    int rc = p < end && *p == '{' ? walk_profile(t, p + 1, end)
                                  : damage(t, (uint64_t)(p - g->map.data), "expected '{'", NULL);
    /* the threads read whole, the damage (if any) after them */
    for (size_t i = 0; rc != TG_ERR_NOMEM && i < g->n_threads; i++) {
        size_t first = g->n_recs;
        int trc = read_thread(t, g->threads[i], g->thread_at[i]);
        for (size_t k = first; trc == 0 && k < g->n_recs; k++) {
            bool nomem = false;
            struct json_object *data = g->recs[k].data;
            g->recs[k].data = args_of(data, &nomem);
            json_object_put(data);
            if (nomem)
                trc = TG_ERR_NOMEM;
        }
        if (trc == TG_ERR_NOMEM)
            rc = trc;
    }
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, rc, "out of memory");
    if (g->n_recs > 1)
        qsort(g->recs, g->n_recs, sizeof *g->recs, compare_records);
    gk_stream *st = calloc(1, sizeof *st);
    if (!st)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    st->g = g;
    if (!tg_trace_add_stream(t, &gk_stream_ops, "markers", -1, -1, st)) {
        free(st);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    return 0;
}

static void gk_close(tg_trace *t)
{
    gk_profile *g = t->priv;
    if (!g)
        return;
    for (size_t i = 0; i < g->n_recs; i++)
        if (g->recs[i].data)
            json_object_put(g->recs[i].data);
    for (size_t i = 0; i < g->n_threads; i++)
        json_object_put(g->threads[i]);
    free(g->threads);
    free(g->thread_at);
    free(g->recs);
    if (g->meta)
        json_object_put(g->meta);
    tg_error_free(g->damage);
    tg_map_close(&g->map);
    free(g);
    t->priv = NULL;
}

TG_FORMAT(gecko) = {
    .name = "gecko",
    .probe = gk_probe,
    .open = gk_open,
    .close = gk_close,
};
