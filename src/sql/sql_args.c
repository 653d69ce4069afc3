/* sql_args.c - the args table and EXTRACT_ARG: an event's fields as Perfetto's key/value
 * rows, decoded only when a query asks.
 *
 * An ftrace_event row's arg_set_id is its id (its ordinal in the merged events).  A lookup
 * by arg_set_id (a join with ftrace_event, or EXTRACT_ARG in its select list) finds the
 * event on the ftrace_event cursor that is on that row, and decodes its fields there; other
 * lookups read a pass of their own forward to the event (started again when a lookup goes
 * back).  The fields are flattened as Perfetto flattens args: a struct member's key is
 * "outer.member", an array element's "array[i]" (flat_key without the index); payload
 * fields by their own names, return values likewise, CTF contexts under "context.".  Values:
 * int (signed), uint, pointer, real, string; text is copied out of the trace, so rows stay
 * valid while the cursor they came from moves on.  A track's dimension and source args (a
 * viewer trace's, TG_KM_TRACK_ARGSET; a thread's or process's track has its utid or upid as
 * its dimension, as trace_processor gives it) are read from the kernel model's track, and a
 * trace's own arg sets (tg_trace_arg_set: Perfetto's content analysis) from the trace: a
 * lookup by their arg_set_id finds them, and a scan of the whole table lists them after the
 * events' (the tracks' of the track table, then the processes' (tg_kprocess.args), then the
 * traces'). */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    A_ARG_SET_ID,
    A_FLAT_KEY,
    A_KEY,
    A_INT_VALUE,
    A_STRING_VALUE,
    A_REAL_VALUE,
    A_VALUE_TYPE,
    A_ID,
    A_DISPLAY_VALUE,
    A_COUNT
};

/* An args row's id: its set's id and its place in the set, so ids follow Perfetto's order
 * (sets in event order, a set's args in the order the event gives them). */
#define ARG_ID_BITS 16

struct arg_row {
    size_t flat_key, key, text; /* offsets into the set's text */
    size_t text_len;
    bool null_text;   /* a string of no value (string_value NULL) */
    const char *type; /* "int", "uint", "pointer", "real", "string", "bool" */
    int64_t i;
    double d;
};

/* One event's args. */
struct arg_set {
    int64_t id;
    const tg_kmodel *model; /* to show a thread id (TG_VALF_THREAD) as its utid; NULL none */
    struct arg_row *rows;
    size_t n, cap;
    tg_buf *text;
};

static int put_text(struct arg_set *a, const char *s, size_t n, size_t *at)
{
    *at = tg_buf_len(a->text);
    tg_buf_put(a->text, s, n);
    tg_buf_putc(a->text, 0);
    return 0;
}

/* Flattens v under key (its flat form flat) into a's rows. */
static int flatten(struct arg_set *a, const tg_value *v, const char *key, const char *flat,
                   int depth)
{
    if (depth > 16)
        return 0;
    char k[256], f[256];
    switch (v->type) {
    case TG_VAL_STRUCT:
    case TG_VAL_VARIANT:
        for (size_t i = 0; i < v->count && i < 1024; i++) {
            tg_value c;
            if (tg_value_child(v, i, &c) < 0)
                continue;
            const char *name = c.name ? c.name : "";
            /* a key past 255 bytes is left out rather than cut (it would name another) */
            if (snprintf(k, sizeof k, "%s%s%s", key, *key ? "." : "", name) >= (int)sizeof k ||
                snprintf(f, sizeof f, "%s%s%s", flat, *flat ? "." : "", name) >= (int)sizeof f)
                continue;
            TG_TRY(flatten(a, &c, k, f, depth + 1));
        }
        return 0;
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE:
        for (size_t i = 0; i < v->count && i < 4096; i++) {
            tg_value c;
            if (tg_value_child(v, i, &c) < 0)
                continue;
            if (snprintf(k, sizeof k, "%s[%zu]", key, i) >= (int)sizeof k)
                continue;
            TG_TRY(flatten(a, &c, k, flat, depth + 1));
        }
        return 0;
    case TG_VAL_NONE: return 0;
    default: break;
    }
    if (tg_grow(&a->rows, &a->cap, a->n + 1, sizeof *a->rows) < 0)
        return TG_ERR_NOMEM;
    struct arg_row *r = &a->rows[a->n];
    *r = (struct arg_row){0};
    put_text(a, key, strlen(key), &r->key);
    put_text(a, flat, strlen(flat), &r->flat_key);
    switch (v->type) {
    case TG_VAL_SINT:
        r->type = "int";
        r->i = v->v.s;
        break;
    case TG_VAL_UINT:
        r->type = (v->flags & TG_VALF_POINTER) ? "pointer" : v->bits == 1 ? "bool" : "uint";
        r->i = (int64_t)v->v.u;
        if ((v->flags & TG_VALF_THREAD) && a->model)
            r->i = tg_kmodel_utid_of_tid(a->model, r->i);
        if ((v->flags & TG_VALF_PROCESS) && a->model) {
            int64_t upid = r->i ? tg_kmodel_upid_of_pid(a->model, r->i) : 0;
            r->i = upid >= 0 ? upid : 0;
        }
        break;
    case TG_VAL_FLOAT:
        r->type = "real";
        r->d = v->v.f;
        break;
    case TG_VAL_STRING:
        r->type = "string";
        r->null_text = !v->v.str.ptr;
        r->text_len = v->v.str.ptr ? strnlen(v->v.str.ptr, v->v.str.len) : 0;
        put_text(a, v->v.str.ptr ? v->v.str.ptr : "", r->text_len, &r->text);
        break;
    default: { /* bytes: as hex text */
        r->type = "string";
        r->text = tg_buf_len(a->text);
        for (size_t i = 0; i < v->v.str.len; i++)
            tg_buf_printf(a->text, "%02x", (unsigned char)v->v.str.ptr[i]);
        r->text_len = tg_buf_len(a->text) - r->text;
        tg_buf_putc(a->text, 0);
        break;
    }
    }
    a->n++;
    return 0;
}

static int flatten_scope(struct arg_set *a, const tg_event *ev, tg_scope scope, const char *prefix)
{
    size_t n = tg_event_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) < 0)
            continue;
        char k[256];
        snprintf(k, sizeof k, "%s%s", prefix, v.name ? v.name : "");
        TG_TRY(flatten(a, &v, k, k, 0));
    }
    return 0;
}

/* a holds ev's args (id: its arg_set_id): the kernel model's for the slice or counter it
 * makes (id TG_KM_ARGSET(ordinal), from the step of the pass that found it), else its
 * fields. */
static int arg_set_fill(sql_db *db, struct arg_set *a, const tg_event *ev, int64_t id)
{
    if (!a->text && !(a->text = tg_buf_new()))
        return TG_ERR_NOMEM;
    tg_buf_reset(a->text);
    a->n = 0;
    a->id = SQL_ANY;
    a->model = db->model;
    if (id >= 0 && (id & TG_KM_ARGSET_BIT)) {
        const tg_kstep *st = db->arg_scan ? tg_iter_kstep(db->arg_scan->it) : NULL;
        for (size_t i = 0; st && i < st->n_args; i++)
            TG_TRY(flatten(a, &st->args[i], st->args[i].name, st->args[i].name, 0));
        a->id = id;
        return 0;
    }
    TG_TRY(flatten_scope(a, ev, TG_SCOPE_PAYLOAD, ""));
    TG_TRY(flatten_scope(a, ev, TG_SCOPE_RETURN, ""));
    TG_TRY(flatten_scope(a, ev, TG_SCOPE_STREAM_CONTEXT, "context."));
    TG_TRY(flatten_scope(a, ev, TG_SCOPE_EVENT_CONTEXT, "context."));
    a->id = id;
    return 0;
}

/* a emptied to hold the arg set id.  0, or TG_ERR_NOMEM. */
static int arg_set_start(struct arg_set *a, int64_t id)
{
    if (!a->text && !(a->text = tg_buf_new()))
        return TG_ERR_NOMEM;
    tg_buf_reset(a->text);
    a->n = 0;
    a->id = id;
    return 0;
}

/* The n values into a, each under its own name (none: ""). */
static int flatten_values(struct arg_set *a, const tg_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        TG_TRY(flatten(a, &v[i], v[i].name ? v[i].name : "", v[i].name ? v[i].name : "", 0));
    return 0;
}

/* a holds the args a viewer trace gave a track (id: TG_KM_TRACK_ARGSET), once the model is
 * whole.  0, or a negative status. */
static int track_arg_set_fill(sql_db *db, struct arg_set *a, int64_t id)
{
    TG_TRY(arg_set_start(a, id));
    int rc = sql_registry_complete(db);
    if (rc < 0)
        return rc;
    a->model = db->model;
    const tg_ktrack *t = tg_kmodel_track(db->model, (id & ~TG_KM_TRACK_ARGSET_BIT) >> 1);
    if (!t)
        return 0;
    tg_value own;
    const tg_value *v = t->source_args;
    size_t n = id & 1 ? t->n_source_args : sql_track_dims(t, &own, &v);
    return flatten_values(a, v, n);
}

static bool is_track_arg_set(int64_t id) { return id >= 0 && (id & TG_KM_TRACK_ARGSET_BIT); }

/* a holds a trace's own arg set (id: SQL_ARGSET_TRACE).  0, or a negative status. */
static int trace_arg_set_fill(sql_db *db, struct arg_set *a, int64_t id)
{
    TG_TRY(arg_set_start(a, id));
    a->model = db->model;
    const tg_trace *tr = tg_set_trace(db->set, (size_t)((id & ~SQL_ARGSET_TRACE_BIT) >> 24));
    const tg_arg_set *set = tr ? tg_trace_arg_set(tr, (size_t)(id & 0xffffff)) : NULL;
    return set ? flatten_values(a, set->args, set->n_args) : 0;
}

static bool is_trace_arg_set(int64_t id)
{
    return id >= 0 && (id & SQL_ARGSET_TRACE_BIT) && !(id & TG_KM_TRACK_ARGSET_BIT);
}

static bool is_process_arg_set(int64_t id) { return id >= 0 && (id & SQL_ARGSET_PROCESS_BIT); }

/* a holds the args of a process (id: SQL_ARGSET_PROCESS_BIT | upid), once the model is
 * whole.  0, or a negative status. */
static int process_arg_set_fill(sql_db *db, struct arg_set *a, int64_t id)
{
    TG_TRY(arg_set_start(a, id));
    int rc = sql_registry_complete(db);
    if (rc < 0)
        return rc;
    a->model = db->model;
    const tg_kprocess *p = tg_kmodel_process(db->model, id & ~SQL_ARGSET_PROCESS_BIT);
    return p ? flatten_values(a, p->args, p->n_args) : 0;
}

/* a holds the arg set id names when it is a track's, a trace's or a process's: 1, else 0
 * (a left alone), or a negative status. */
static int other_arg_set_fill(sql_db *db, struct arg_set *a, int64_t id)
{
    if (is_track_arg_set(id))
        return track_arg_set_fill(db, a, id) < 0 ? TG_ERR_NOMEM : 1;
    if (is_trace_arg_set(id))
        return trace_arg_set_fill(db, a, id) < 0 ? TG_ERR_NOMEM : 1;
    if (is_process_arg_set(id)) {
        int rc = process_arg_set_fill(db, a, id);
        return rc < 0 ? rc : 1;
    }
    return 0;
}

/* a holds the args a trace lists of a CPU when id is a cpu row's arg_set_id: true (none when
 * no trace lists that CPU), else false and a is left alone. */
static bool arg_set_fill_cpu(sql_db *db, struct arg_set *a, int64_t id, int *rc)
{
    *rc = 0;
    if (id < 0 || !(id & SQL_ARGSET_CPU_BIT))
        return false;
    if (!a->text && !(a->text = tg_buf_new())) {
        *rc = sql_fail(db, TG_ERR_NOMEM, NULL);
        return true;
    }
    tg_buf_reset(a->text);
    a->n = 0;
    a->id = id;
    const tg_cpu_info *info = sql_cpu_info(db, id & ~SQL_ARGSET_CPU_BIT);
    for (size_t i = 0; info && i < info->n_args && *rc == 0; i++)
        if ((*rc = flatten(a, &info->args[i], info->args[i].name, info->args[i].name, 0)) < 0)
            *rc = sql_fail(db, *rc, NULL);
    return true;
}

static void arg_set_free(struct arg_set *a)
{
    free(a->rows);
    tg_buf_free(a->text);
    memset(a, 0, sizeof *a);
}

const tg_event *sql_args_event(sql_db *db, int64_t argset, int *rc)
{
    *rc = 0;
    for (const sql_cursor *c = db->live; c; c = c->next_live)
        if (c->live_ev && c->live_id == argset)
            return c->live_ev;
    if (argset < 0)
        return NULL;
    argset &= ~TG_KM_ARGSET_BIT; /* the model's args: found on the event's step */
    sql_scan *s = db->arg_scan;
    if (s && (s->ordinal > argset || s->ended)) {
        sql_scan_close(s);
        free(s);
        s = db->arg_scan = NULL;
    }
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) {
            *rc = sql_fail(db, TG_ERR_NOMEM, NULL);
            return NULL;
        }
        if ((*rc = sql_scan_open(db, s)) < 0) {
            free(s);
            return NULL;
        }
        db->arg_scan = s;
        db->arg_ev = NULL;
    }
    while (s->ordinal < argset) {
        *rc = sql_scan_next(s, &db->arg_ev);
        if (*rc <= 0) {
            db->arg_ev = NULL;
            return NULL;
        }
    }
    return s->ordinal == argset ? db->arg_ev : NULL;
}

/* ---- EXTRACT_ARG --------------------------------------------------------------------------- */

static void extract_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sql_db *db = sqlite3_user_data(ctx);
    const char *key = (const char *)sqlite3_value_text(argv[1]);
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || !key) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t id = sqlite3_value_int64(argv[0]);
    struct arg_set *a = db->arg_cache;
    if (!a) {
        if (!(a = db->arg_cache = calloc(1, sizeof *a)) || !(a->text = tg_buf_new())) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        a->id = SQL_ANY;
    }
    int rc;
    if (a->id != id && arg_set_fill_cpu(db, a, id, &rc) && rc < 0) {
        sqlite3_result_error(ctx, db->message ? db->message : "out of memory", -1);
        return;
    }
    if (a->id != id && (is_track_arg_set(id) || is_trace_arg_set(id) || is_process_arg_set(id))) {
        rc = other_arg_set_fill(db, a, id);
        if (rc < 0) {
            sqlite3_result_error(ctx, db->message ? db->message : "out of memory", -1);
            return;
        }
    }
    if (a->id != id) {
        const tg_event *ev = sql_args_event(db, id, &rc);
        if (rc < 0 || (ev && (rc = arg_set_fill(db, a, ev, id)) < 0)) {
            sqlite3_result_error(ctx, db->message ? db->message : "out of memory", -1);
            return;
        }
        if (!ev) {
            a->n = 0;
            a->id = id;
        }
    }
    const char *text = tg_buf_data(a->text);
    for (size_t i = 0; i < a->n; i++) {
        const struct arg_row *r = &a->rows[i];
        if (strcmp(text + r->key, key) != 0)
            continue;
        if (r->null_text)
            sqlite3_result_null(ctx);
        else if (r->type[0] == 's' && r->type[1] == 't')
            sqlite3_result_text(ctx, text + r->text, (int)r->text_len, SQLITE_TRANSIENT);
        else if (r->type[0] == 'r')
            sqlite3_result_double(ctx, r->d);
        else
            sqlite3_result_int64(ctx, r->i);
        return;
    }
    sqlite3_result_null(ctx);
}

static void arg_cache_free(void *p)
{
    if (p) {
        arg_set_free(p);
        free(p);
    }
}

int sql_args_register(sql_db *db)
{
    return sqlite3_create_function(db->sqlite, "EXTRACT_ARG", 2, SQLITE_UTF8, db, extract_arg, NULL,
                                   NULL);
}

void sql_args_cache_free(sql_db *db)
{
    arg_cache_free(db->arg_cache);
    db->arg_cache = NULL;
}

/* ---- the args table ------------------------------------------------------------------------ */

struct args_cursor {
    struct arg_set set;
    size_t row;
    sql_scan scan; /* a whole-table scan: every event's args, then the tracks' sets (from
                    * track_set: a track's number times 2, plus 1 for its source args), then
                    * the traces' own sets (trace, trace_set) */
    int part;      /* 0 the events', 1 the tracks', 2 the traces' */
    size_t track_set, process, trace, trace_set;
    tg_buf *display; /* the row's display_value when it is not the string itself */
    bool scanning, done;
};

static void args_close(sql_cursor *c)
{
    struct args_cursor *a = c->priv;
    if (!a)
        return;
    if (a->scanning)
        sql_scan_close(&a->scan);
    arg_set_free(&a->set);
    tg_buf_free(a->display);
    free(a);
    c->priv = NULL;
}

static int args_filter(sql_cursor *c)
{
    struct args_cursor *a = c->priv;
    if (a && a->scanning) {
        sql_scan_close(&a->scan);
        a->scanning = false;
    }
    if (!a && !(a = c->priv = calloc(1, sizeof *a)))
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    a->done = false;
    a->row = 0;
    a->set.n = 0;
    a->part = 0;
    a->track_set = a->process = a->trace = a->trace_set = 0;
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    if (is_track_arg_set(c->q.argset) || is_trace_arg_set(c->q.argset) ||
        is_process_arg_set(c->q.argset)) {
        int rc = other_arg_set_fill(c->db, &a->set, c->q.argset);
        a->done = true;
        return rc < 0 ? sql_fail(c->db, rc, NULL) : 0;
    }
    if (c->q.argset != SQL_ANY) {
        int rc;
        if (arg_set_fill_cpu(c->db, &a->set, c->q.argset, &rc)) {
            a->done = true;
            return rc;
        }
        const tg_event *ev = sql_args_event(c->db, c->q.argset, &rc);
        if (rc < 0)
            return rc;
        if (ev && (rc = arg_set_fill(c->db, &a->set, ev, c->q.argset)) < 0)
            return sql_fail(c->db, rc, NULL);
        a->done = true;
        return 0;
    }
    a->scanning = true;
    return sql_scan_open(c->db, &a->scan);
}

/* Perfetto's display_value: the value as text (a pointer in hex, a truth value as
 * true/false), kept by the cursor until its next row. */
static void put_display_value(sql_cursor *c, const struct arg_row *r, const char *text)
{
    struct args_cursor *a = c->priv;
    sql_val *v = &c->row[A_DISPLAY_VALUE];
    if (r->null_text) {
        sql_null(v);
        return;
    }
    if (r->type[0] == 's' && r->type[1] == 't') {
        sql_text(v, text + r->text);
        v->len = (int)r->text_len;
        return;
    }
    tg_buf *b = a->display ? a->display : (a->display = tg_buf_new());
    if (!b) {
        sql_null(v);
        return;
    }
    tg_buf_reset(b);
    if (r->type[0] == 'b')
        tg_buf_printf(b, "%s", r->i ? "true" : "false");
    else if (r->type[0] == 'p')
        tg_buf_printf(b, "0x%llx", (unsigned long long)r->i);
    else if (r->type[0] == 'u')
        tg_buf_printf(b, "%llu", (unsigned long long)r->i);
    else if (r->type[0] == 'r')
        tg_buf_printf(b, "%g", r->d);
    else
        tg_buf_printf(b, "%lld", (long long)r->i);
    tg_buf_putc(b, 0);
    sql_text(v, tg_buf_data(b));
}

/* The whole table's next arg set into a->set: the next event's, then the tracks' (of the
 * tracks the track table lists), then the traces' own.  1, 0 at the end, or a negative
 * status. */
static int next_set(sql_db *db, struct args_cursor *a)
{
    if (a->part == 0) {
        const tg_event *ev;
        int rc = sql_scan_next(&a->scan, &ev);
        if (rc < 0)
            return rc;
        if (rc > 0)
            return (rc = arg_set_fill(db, &a->set, ev, a->scan.ordinal)) < 0 ? rc : 1;
        if ((rc = sql_registry_complete(db)) < 0)
            return rc;
        a->part = 1;
    }
    if (a->part == 1) {
        while (a->track_set / 2 < tg_kmodel_track_count(db->model)) {
            size_t at = a->track_set++;
            const tg_ktrack *t = tg_kmodel_track(db->model, (int64_t)(at / 2));
            if (!t || !sql_track_listed(db->model, t))
                continue;
            int rc = track_arg_set_fill(db, &a->set, TG_KM_TRACK_ARGSET(t->id, (int64_t)(at & 1)));
            if (rc < 0)
                return rc;
            if (a->set.n)
                return 1;
        }
        a->part = 2;
    }
    if (a->part == 2) {
        while (a->process < tg_kmodel_process_count(db->model)) {
            int rc =
                process_arg_set_fill(db, &a->set, SQL_ARGSET_PROCESS_BIT | (int64_t)a->process++);
            if (rc < 0)
                return rc;
            if (a->set.n)
                return 1;
        }
        a->part = 3;
    }
    while (a->trace < tg_set_trace_count(db->set)) {
        const tg_trace *tr = tg_set_trace(db->set, a->trace);
        if (a->trace_set >= tg_trace_arg_set_count(tr)) {
            a->trace++;
            a->trace_set = 0;
            continue;
        }
        int rc = trace_arg_set_fill(db, &a->set, SQL_ARGSET_TRACE(a->trace, a->trace_set++));
        if (rc < 0)
            return rc;
        if (a->set.n)
            return 1;
    }
    return 0;
}

static int args_next(sql_cursor *c)
{
    struct args_cursor *a = c->priv;
    while (a->row >= a->set.n) {
        if (a->done || !a->scanning) {
            c->eof = true;
            return 0;
        }
        int rc = next_set(c->db, a);
        if (rc <= 0) {
            a->done = c->eof = true;
            return rc < 0 ? sql_fail(c->db, rc, NULL) : 0;
        }
        a->row = 0;
    }
    size_t index = a->row;
    const struct arg_row *r = &a->set.rows[a->row++];
    const char *text = tg_buf_data(a->set.text);
    sql_val *v = c->row;
    sql_int(&v[A_ID], (int64_t)((uint64_t)a->set.id << ARG_ID_BITS | index));
    put_display_value(c, r, text);
    sql_int(&v[A_ARG_SET_ID], a->set.id);
    sql_text(&v[A_FLAT_KEY], text + r->flat_key);
    sql_text(&v[A_KEY], text + r->key);
    sql_null(&v[A_INT_VALUE]);
    sql_null(&v[A_STRING_VALUE]);
    sql_null(&v[A_REAL_VALUE]);
    if (r->null_text) {
        /* a string of no value: string_value NULL */
    } else if (r->type[0] == 's' && r->type[1] == 't') {
        sql_text(&v[A_STRING_VALUE], text + r->text);
        v[A_STRING_VALUE].len = (int)r->text_len;
    } else if (r->type[0] == 'r') {
        v[A_REAL_VALUE].type = SQLITE_FLOAT;
        v[A_REAL_VALUE].u.d = r->d;
    } else {
        sql_int(&v[A_INT_VALUE], r->i);
    }
    sql_text(&v[A_VALUE_TYPE], r->type);
    for (int i = A_FLAT_KEY; i <= A_STRING_VALUE; i++)
        v[i].copy = true;
    v[A_DISPLAY_VALUE].copy = true;
    return 0;
}

const sql_table sql_table_args = {
    .name = "args",
    .columns = "arg_set_id INTEGER, flat_key TEXT, key TEXT, int_value INTEGER, "
               "string_value TEXT, real_value REAL, value_type TEXT, id INTEGER, "
               "display_value TEXT",
    .n_cols = A_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = -1,
    .col_track = -1,
    .col_argset = A_ARG_SET_ID,
    .big = true,
    .filter = args_filter,
    .next = args_next,
    .close = args_close,
};
