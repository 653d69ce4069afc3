/* sql_events.c - the tables with a row per event: ftrace_event (every event of every format)
 * and counter (each value of a counter event).
 *
 * Perfetto's ftrace_event holds the kernel's raw events; here it holds every event traceglot
 * reads (CTF, trace.dat, uftrace, XRay, LTTng 0.x), in the merged order.  An event's id is its
 * ordinal in that order, the same in every pass, and its arg_set_id is its id: the args
 * table and EXTRACT_ARG decode its fields only when a query asks (sql_args.c), from the
 * cursor that is on the event when there is one.  Rows come in ts order, so a scan stops at
 * the first event past its upper ts bound; events before the lower bound, of another name,
 * cpu or thread are skipped before SQLite sees them.
 *
 * counter is uftrace's read:* samples (TG_KIND_COUNTER): one row per integer field, on the
 * track of that thread and field (the kernel model's), the value as the Perfetto writer gives it
 * (KiB fields in bytes); and the kernel model's per-CPU counters (cpu_frequency's kHz on
 * "cpufreq", cpu_idle's state on "cpuidle"), and the values of the counter tracks a viewer
 * trace declared (a Perfetto data source's: their args are the event's fields).  A sample's
 * id is its ordinal among the samples. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

enum { E_ID, E_TS, E_NAME, E_CPU, E_UTID, E_ARG_SET_ID, E_COMMON_FLAGS, E_UCPU, E_COUNT };
enum { K_ID, K_TS, K_TRACK_ID, K_VALUE, K_ARG_SET_ID, K_COUNT };

struct event_scan {
    sql_scan scan;
    uint8_t *name_match; /* by class number: 0 not yet known, 1 matches the query's name, 2 not */
    size_t n_match, cap_match;
    int32_t *flags_at; /* by class number: 0 not yet known, -1 none, else 1 + the common-scope
                        * index of common_flags (trace.dat's record header flags) */
    size_t n_flags_at, cap_flags_at;
    bool done;
    /* counter: the sample being read */
    const tg_event *ev;
    size_t field, n_fields;
    int64_t sample;           /* ordinal of the sample handed out last */
    size_t kmore, n_kmore;    /* the model's further values of the event (kernel_import.c) */
    const tg_event *model_ev; /* the event of the model's values */
};

static bool name_matches(struct event_scan *s, const sql_query *q, const tg_event *ev)
{
    if (!q->name)
        return true;
    size_t n = ev->cls ? ev->cls->number : 0;
    if (n >= s->n_match && tg_grow_zeroed(&s->name_match, &s->n_match, &s->cap_match, n + 1,
                                          sizeof *s->name_match) < 0)
        return strcmp(tg_event_name(ev), q->name) == 0;
    if (!s->name_match[n])
        s->name_match[n] = strcmp(tg_event_name(ev), q->name) == 0 ? 1 : 2;
    return s->name_match[n] == 1;
}

/* The event's common_flags (trace.dat's), or SQL_ANY when its format has none. */
static int64_t common_flags(struct event_scan *s, const tg_event *ev)
{
    if (!ev->cls)
        return SQL_ANY;
    size_t n = ev->cls->number;
    if (n >= s->n_flags_at && tg_grow_zeroed(&s->flags_at, &s->n_flags_at, &s->cap_flags_at, n + 1,
                                             sizeof *s->flags_at) < 0)
        return SQL_ANY;
    tg_value v;
    if (!s->flags_at[n]) {
        s->flags_at[n] = -1;
        for (size_t i = 0, nc = tg_event_field_count(ev, TG_SCOPE_COMMON); i < nc; i++)
            if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) == 0 && v.name &&
                strcmp(v.name, "common_flags") == 0)
                s->flags_at[n] = (int32_t)i + 1;
    }
    if (s->flags_at[n] < 0 ||
        tg_event_field(ev, TG_SCOPE_COMMON, (size_t)s->flags_at[n] - 1, &v) < 0)
        return SQL_ANY;
    return v.type == TG_VAL_UINT ? (int64_t)v.v.u : v.type == TG_VAL_SINT ? v.v.s : SQL_ANY;
}

static void unlink_live(sql_cursor *c)
{
    for (sql_cursor **p = &c->db->live; *p; p = &(*p)->next_live)
        if (*p == c) {
            *p = c->next_live;
            break;
        }
    c->next_live = NULL;
    c->live_ev = NULL;
}

static void event_close(sql_cursor *c)
{
    struct event_scan *s = c->priv;
    unlink_live(c);
    if (!s)
        return;
    sql_scan_close(&s->scan);
    free(s->name_match);
    free(s->flags_at);
    free(s);
    c->priv = NULL;
}

static int event_filter(sql_cursor *c)
{
    event_close(c);
    if (c->q.empty || (c->q.id != SQL_ANY && c->q.argset != SQL_ANY && c->q.id != c->q.argset)) {
        c->eof = true;
        return 0;
    }
    struct event_scan *s = calloc(1, sizeof *s);
    if (!s)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    c->priv = s;
    s->sample = -1;
    if (c->table == &sql_table_ftrace_event) {
        c->next_live = c->db->live;
        c->db->live = c;
    }
    return sql_scan_open(c->db, &s->scan);
}

/* The next event of the query, or NULL at its end (*rc < 0 on failure). */
static const tg_event *next_event(sql_cursor *c, struct event_scan *s, int *rc)
{
    const sql_query *q = &c->q;
    int64_t id = q->argset;
    if (q->id != SQL_ANY)
        id = q->id;
    const tg_event *ev;
    while (!s->done) {
        *rc = sql_scan_next(&s->scan, &ev);
        if (*rc <= 0)
            break;
        int64_t ordinal = s->scan.ordinal;
        int64_t ts = s->scan.last_ns;
        if (ts > q->ts_hi || (id != SQL_ANY && ordinal > id))
            break; /* rows come in ts and id order: none after this one */
        if (ts < q->ts_lo || (id != SQL_ANY && ordinal < id))
            continue;
        if ((q->cpu != SQL_ANY && ev->cpu != q->cpu) || !name_matches(s, q, ev))
            continue;
        if (q->utid != SQL_ANY && ev->utid != q->utid)
            continue;
        return ev;
    }
    s->done = true;
    return NULL;
}

static int ftrace_event_next(sql_cursor *c)
{
    struct event_scan *s = c->priv;
    int rc = 0;
    const tg_event *ev = next_event(c, s, &rc);
    c->live_ev = ev;
    if (!ev) {
        c->eof = true;
        return rc < 0 ? rc : 0;
    }
    int64_t id = s->scan.ordinal;
    c->live_id = id;
    sql_val *v = c->row;
    sql_int(&v[E_ID], id);
    sql_int(&v[E_TS], s->scan.last_ns);
    sql_text(&v[E_NAME], tg_event_name(ev));
    sql_int_or_null(&v[E_CPU], ev->cpu >= 0 ? ev->cpu : SQL_ANY);
    sql_int_or_null(&v[E_UTID], ev->utid >= 0 ? ev->utid : SQL_ANY);
    sql_int(&v[E_ARG_SET_ID], id);
    sql_int_or_null(&v[E_COMMON_FLAGS], common_flags(s, ev));
    sql_int_or_null(&v[E_UCPU], ev->cpu >= 0 ? ev->cpu : SQL_ANY);
    return 0;
}

const sql_table sql_table_ftrace_event = {
    .name = "ftrace_event",
    .columns = "id INTEGER, ts INTEGER, name TEXT, cpu INTEGER, utid INTEGER, arg_set_id INTEGER, "
               "common_flags INTEGER, ucpu INTEGER",
    .n_cols = E_COUNT,
    .col_ts = E_TS,
    .col_name = E_NAME,
    .col_cpu = E_CPU,
    .col_utid = E_UTID,
    .col_id = E_ID,
    .col_track = -1,
    .col_argset = E_ARG_SET_ID,
    .big = true,
    .ts_ordered = true,
    .filter = event_filter,
    .next = ftrace_event_next,
    .close = event_close,
};

/* ---- counter ------------------------------------------------------------------------------ */

static bool numeric(const tg_value *v, double *out)
{
    switch (v->type) {
    case TG_VAL_SINT: *out = (double)v->v.s; return true;
    case TG_VAL_UINT: *out = (double)v->v.u; return true;
    case TG_VAL_FLOAT: *out = v->v.f; return true;
    default: return false;
    }
}

/* A counter event's numeric fields are samples; every pass counts them all (whatever its
 * constraints), so a sample's ordinal is its id. */
/* The kernel model's counter value of the event the scan is on (cpu_frequency, cpu_idle),
 * as a row when it passes the constraints: 1, else 0. */
static int model_counter_row(sql_cursor *c, struct event_scan *s, int64_t track, double value,
                             const tg_kstep *st)
{
    const sql_query *q = &c->q;
    s->sample++;
    int64_t ts = s->scan.last_ns;
    if (ts < q->ts_lo || (q->track != SQL_ANY && track != q->track) ||
        (q->id != SQL_ANY && s->sample != q->id))
        return 0;
    sql_val *r = c->row;
    sql_int(&r[K_ID], s->sample);
    sql_int(&r[K_TS], ts);
    sql_int(&r[K_TRACK_ID], track);
    r[K_VALUE].type = SQLITE_FLOAT;
    r[K_VALUE].u.d = value;
    int64_t argset = st->n_args ? TG_KM_ARGSET(s->scan.ordinal) : SQL_ANY;
    /* a value of a track a viewer trace declared: its args are the event's own fields */
    if ((st->what & TG_KSTEP_DECLARED) && s->model_ev &&
        tg_event_field_count(s->model_ev, TG_SCOPE_PAYLOAD))
        argset = s->scan.ordinal;
    sql_int_or_null(&r[K_ARG_SET_ID], argset);
    return 1;
}

/* Whether the event the scan is on carries samples: a counter event's fields, or the model's
 * value of a kernel counter event. */
static bool has_samples(const sql_scan *scan, const tg_event *ev)
{
    if (ev->cls && ev->cls->kind == TG_KIND_COUNTER)
        return true;
    const tg_kstep *st = tg_iter_kstep(scan->it);
    return st && (st->what & TG_KSTEP_COUNTER);
}

/* A counter event's numeric fields are samples, and so is each value of the kernel model's
 * counters (cpu_frequency, cpu_idle); every pass counts them all (whatever its constraints),
 * so a sample's ordinal is its id. */
static int counter_next(sql_cursor *c)
{
    struct event_scan *s = c->priv;
    const sql_query *q = &c->q;
    for (;;) {
        while (s->kmore < s->n_kmore) {
            const tg_kstep *st = tg_iter_kstep(s->scan.it);
            const tg_kcounter *k = &st->more_counters[s->kmore++];
            if (model_counter_row(c, s, k->track, k->value, st))
                return 0;
        }
        while (s->ev && s->field < s->n_fields) {
            size_t i = s->field++;
            tg_value v;
            double value;
            if (tg_event_field(s->ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !numeric(&v, &value))
                continue;
            s->sample++;
            const tg_ktrack *track =
                tg_kmodel_track(c->db->model, tg_kmodel_counter_track(c->db->model, s->ev, i));
            int64_t ts = tg_event_time_ns(s->ev);
            if (!track || ts < q->ts_lo || (q->track != SQL_ANY && track->id != q->track) ||
                (q->id != SQL_ANY && s->sample != q->id))
                continue;
            sql_val *r = c->row;
            sql_int(&r[K_ID], s->sample);
            sql_int(&r[K_TS], ts);
            sql_int(&r[K_TRACK_ID], track->id);
            r[K_VALUE].type = SQLITE_FLOAT;
            r[K_VALUE].u.d = track->scale ? value * track->scale : value;
            sql_null(&r[K_ARG_SET_ID]);
            return 0;
        }
        s->ev = NULL;
        const tg_event *ev = NULL;
        int rc = 0;
        if (!s->done && !(q->id != SQL_ANY && s->sample >= q->id))
            while ((rc = sql_scan_next(&s->scan, &ev)) > 0 && tg_event_time_ns(ev) <= q->ts_hi &&
                   !has_samples(&s->scan, ev))
                ;
        if (rc <= 0 || tg_event_time_ns(ev) > q->ts_hi) {
            s->done = c->eof = true;
            return rc < 0 ? rc : 0;
        }
        if (!(ev->cls && ev->cls->kind == TG_KIND_COUNTER)) {
            const tg_kstep *st = tg_iter_kstep(s->scan.it);
            s->model_ev = ev;
            s->kmore = 0;
            s->n_kmore = st->n_more_counters;
            if (model_counter_row(c, s, st->counter_track, st->value, st))
                return 0;
            continue;
        }
        s->ev = ev;
        s->field = 0;
        s->n_fields = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    }
}

const sql_table sql_table_counter = {
    .name = "counter",
    .columns = "id INTEGER, ts INTEGER, track_id INTEGER, value REAL, arg_set_id INTEGER",
    .n_cols = K_COUNT,
    .col_ts = K_TS,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = K_ID,
    .col_track = K_TRACK_ID,
    .col_argset = -1,
    .big = true,
    .ts_ordered = true,
    .filter = event_filter,
    .next = counter_next,
    .close = event_close,
};
