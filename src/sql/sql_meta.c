/* sql_meta.c - the small tables read from the kernel model and the registry: thread,
 * process, trace_bounds (with TRACE_START() and TRACE_END()), and traceglot's own trace and
 * stats (the tracks and CPUs: sql_tracks.c).
 *
 * Their rows are the registry's records (sql_registry.c), complete once a pass has read every
 * event: the first scan of one of these tables reads the events once if no pass has, so
 * every thread, process and track of the trace is listed with the numbers every other table
 * uses.  A lookup by id (utid, upid, track id) reads one record. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* The records a scan of a registry table walks: i in [i, end). */
struct reg_cursor {
    size_t i, end;
};

/* Starts a walk over n records, or over record id alone (a lookup; SQL_ANY: all). */
int sql_reg_filter(sql_cursor *c, size_t n, int64_t id)
{
    if (!c->priv && !(c->priv = calloc(1, sizeof(struct reg_cursor))))
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    struct reg_cursor *r = c->priv;
    r->i = 0;
    r->end = n;
    if (id != SQL_ANY) {
        r->i = id >= 0 && (uint64_t)id < n ? (size_t)id : n;
        r->end = r->i < n ? r->i + 1 : n;
    }
    return 0;
}

void sql_reg_close(sql_cursor *c)
{
    free(c->priv);
    c->priv = NULL;
}

/* The next record index, or SIZE_MAX at the end. */
size_t sql_reg_next(sql_cursor *c)
{
    struct reg_cursor *r = c->priv;
    if (r->i >= r->end) {
        c->eof = true;
        return SIZE_MAX;
    }
    return r->i++;
}

/* ---- thread ------------------------------------------------------------------------------ */

enum {
    T_UTID,
    T_TID,
    T_NAME,
    T_START_TS,
    T_END_TS,
    T_UPID,
    T_IS_MAIN,
    T_IS_IDLE,
    T_MACHINE,
    T_ARGS,
    T_ID, /* Perfetto's other name of utid */
    T_COUNT
};

static int thread_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, tg_kmodel_thread_count(c->db->model), c->q.id);
}

static int thread_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const tg_kmodel *m = c->db->model;
    const tg_kthread *t = tg_kmodel_thread(m, (int64_t)i);
    const tg_kprocess *p = tg_kmodel_process(m, t->upid);
    sql_val *v = c->row;
    sql_int(&v[T_UTID], (int64_t)i);
    sql_int(&v[T_TID], t->tid);
    /* a thread that never named itself shows its process's name (clone gives it its
     * creator's), as the Perfetto writer names it */
    sql_text(&v[T_NAME], t->name ? t->name : p ? p->name : NULL);
    sql_int_or_null(&v[T_START_TS], t->start_ts);
    sql_int_or_null(&v[T_END_TS], t->end_ts);
    sql_int_or_null(&v[T_UPID], t->upid >= 0 ? t->upid : SQL_ANY);
    sql_int_or_null(&v[T_IS_MAIN], p ? t->is_main_thread : SQL_ANY);
    sql_int(&v[T_IS_IDLE], t->is_idle);
    sql_null(&v[T_MACHINE]);
    sql_null(&v[T_ARGS]);
    sql_int(&v[T_ID], (int64_t)i);
    return 0;
}

const sql_table sql_table_thread = {
    .name = "thread",
    .columns = "utid INTEGER, tid INTEGER, name TEXT, start_ts INTEGER, end_ts INTEGER, "
               "upid INTEGER, is_main_thread INTEGER, is_idle INTEGER, machine_id INTEGER, "
               "arg_set_id INTEGER, id INTEGER",
    .n_cols = T_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = T_UTID,
    .col_track = -1,
    .col_argset = -1,
    .filter = thread_filter,
    .next = thread_next,
    .close = sql_reg_close,
};

/* ---- process ------------------------------------------------------------------------------ */

enum {
    P_UPID,
    P_PID,
    P_NAME,
    P_START_TS,
    P_END_TS,
    P_PARENT_UPID,
    P_UID,
    P_ANDROID_APPID,
    P_ANDROID_USER_ID,
    P_CMDLINE,
    P_ARGS,
    P_MACHINE,
    P_ID, /* Perfetto's other name of upid */
    P_COUNT
};

static int process_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, tg_kmodel_process_count(c->db->model), c->q.id);
}

static int process_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const tg_kprocess *p = tg_kmodel_process(c->db->model, (int64_t)i);
    sql_val *v = c->row;
    sql_int(&v[P_UPID], (int64_t)i);
    sql_int(&v[P_PID], p->pid);
    sql_text(&v[P_NAME], p->name);
    sql_int_or_null(&v[P_START_TS], p->start_ts);
    sql_int_or_null(&v[P_END_TS], p->end_ts);
    sql_int_or_null(&v[P_PARENT_UPID], p->parent_upid >= 0 ? p->parent_upid : SQL_ANY);
    for (int k = P_UID; k <= P_ANDROID_USER_ID; k++)
        sql_null(&v[k]);
    sql_text(&v[P_CMDLINE], p->cmdline);
    sql_int_or_null(&v[P_ARGS], p->n_args ? SQL_ARGSET_PROCESS_BIT | (int64_t)i : SQL_ANY);
    sql_null(&v[P_MACHINE]);
    sql_int(&v[P_ID], (int64_t)i);
    return 0;
}

const sql_table sql_table_process = {
    .name = "process",
    .columns = "upid INTEGER, pid INTEGER, name TEXT, start_ts INTEGER, end_ts INTEGER, "
               "parent_upid INTEGER, uid INTEGER, android_appid INTEGER, android_user_id INTEGER, "
               "cmdline TEXT, arg_set_id INTEGER, machine_id INTEGER, id INTEGER",
    .n_cols = P_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = P_UPID,
    .col_track = -1,
    .col_argset = -1,
    .filter = process_filter,
    .next = process_next,
    .close = sql_reg_close,
};

/* ---- trace: one row per trace of the set ---------------------------------------------------- */

enum { TR_ID, TR_PATH, TR_FORMAT, TR_VERSION, TR_CLOCK, TR_HOST, TR_SHIFT, TR_TRACER, TR_COUNT };

static int trace_filter(sql_cursor *c)
{
    return sql_reg_filter(c, tg_set_trace_count(c->db->set), c->q.id);
}

static int trace_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const tg_trace *t = tg_set_trace(c->db->set, i);
    const tg_host_info *host = tg_trace_host(t);
    const tg_tracer_info *tracer = tg_trace_tracer(t);
    sql_val *v = c->row;
    sql_int(&v[TR_ID], (int64_t)i);
    sql_text(&v[TR_PATH], tg_trace_path(t));
    sql_text(&v[TR_FORMAT], tg_trace_format(t));
    sql_text(&v[TR_VERSION], tg_trace_version(t));
    sql_text(&v[TR_CLOCK], tg_trace_clock_domain(t));
    sql_text(&v[TR_HOST], host ? host->hostname : NULL);
    sql_int(&v[TR_SHIFT], tg_trace_shift_ns(t));
    sql_text(&v[TR_TRACER], tracer ? tracer->name : NULL);
    return 0;
}

const sql_table sql_table_trace = {
    .name = "trace",
    .columns = "id INTEGER, path TEXT, format TEXT, version TEXT, clock TEXT, host TEXT, "
               "shift_ns INTEGER, tracer TEXT",
    .n_cols = TR_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = TR_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = trace_filter,
    .next = trace_next,
    .close = sql_reg_close,
};

/* ---- stats: what reading the events counted -------------------------------------------------- */

enum { S_NAME, S_IDX, S_SEVERITY, S_SOURCE, S_VALUE, S_DESCRIPTION, S_MACHINE, S_TRACE, S_COUNT };

static const struct {
    const char *name, *severity, *source, *description;
} stat_rows[] = {
    {"events", "info", "trace",
     "events read, after the filters (not the lost-records markers, as traceglot stats)"},
    {"lost_event_records", "data_loss", "trace", "records saying the tracer lost events"},
    {"lost_events", "data_loss", "trace", "events the tracer lost, as its records count them"},
    {"read_errors", "error", "analysis", "damage met while reading (see the error messages)"},
    {"threads", "info", "analysis", "rows of the thread table"},
    {"processes", "info", "analysis", "rows of the process table"},
    {"traces", "info", "analysis", "traces read together"},
};

enum { N_OWN_STATS = sizeof stat_rows / sizeof *stat_rows };

static bool same_stat(const tg_trace_stat *a, const tg_trace_stat *b)
{
    return a->idx == b->idx && strcmp(a->name, b->name) == 0;
}

/* Whether trace i's stat j is the first of its name and index in the set (one row each). */
static bool first_of_name(const tg_set *set, size_t i, size_t j)
{
    const tg_trace_stat *st = tg_trace_stat_at(tg_set_trace(set, i), j);
    for (size_t a = 0; a <= i; a++) {
        const tg_trace *t = tg_set_trace(set, a);
        for (size_t b = 0; b < (a == i ? j : tg_trace_stat_count(t)); b++)
            if (same_stat(tg_trace_stat_at(t, b), st))
                return false;
    }
    return true;
}

/* The k-th distinct name the readers counted, with its value summed over the traces. */
static const tg_trace_stat *reader_stat(const tg_set *set, size_t k, int64_t *sum)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t j = 0; j < tg_trace_stat_count(t); j++) {
            if (!first_of_name(set, i, j) || k--)
                continue;
            const tg_trace_stat *st = tg_trace_stat_at(t, j);
            *sum = 0;
            for (size_t a = i; a < tg_set_trace_count(set); a++) {
                const tg_trace *u = tg_set_trace(set, a);
                for (size_t b = 0; b < tg_trace_stat_count(u); b++)
                    if (same_stat(tg_trace_stat_at(u, b), st))
                        *sum += tg_trace_stat_at(u, b)->value;
            }
            return st;
        }
    }
    return NULL;
}

static int stats_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    if (rc < 0)
        return rc;
    size_t n = N_OWN_STATS;
    const tg_set *set = c->db->set;
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        for (size_t j = 0; j < tg_trace_stat_count(tg_set_trace(set, i)); j++)
            n += first_of_name(set, i, j);
    return sql_reg_filter(c, n, SQL_ANY);
}

/* A row of what a reader counted: trace_processor's own stat. */
static void reader_stat_row(sql_val *v, const tg_trace_stat *st, int64_t value)
{
    sql_text(&v[S_NAME], st->name);
    if (st->idx >= 0)
        sql_int(&v[S_IDX], st->idx);
    else
        sql_null(&v[S_IDX]);
    sql_text(&v[S_SEVERITY], st->severity);
    sql_text(&v[S_SOURCE], st->source ? st->source : "trace");
    sql_int(&v[S_VALUE], value);
    sql_text(&v[S_DESCRIPTION], st->description
                                    ? st->description
                                    : "counted by the reader as trace_processor counts it");
    sql_null(&v[S_MACHINE]); /* a stat of the whole trace (trace_processor's global scope) */
    sql_null(&v[S_TRACE]);
}

static int stats_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    const sql_db *db = c->db;
    if (i >= N_OWN_STATS) {
        int64_t sum = 0;
        const tg_trace_stat *st = reader_stat(db->set, i - N_OWN_STATS, &sum);
        if (!st)
            return 0;
        reader_stat_row(c->row, st, sum);
        return 0;
    }
    /* a record saying the tracer lost events is no event (tg_class_counts_run's rule) */
    const int64_t values[] = {db->n_events - db->n_lost_events,
                              db->n_lost_events,
                              db->lost_records,
                              (int64_t)db->n_errors,
                              (int64_t)tg_kmodel_thread_count(db->model),
                              (int64_t)tg_kmodel_process_count(db->model),
                              (int64_t)tg_set_trace_count(db->set)};
    sql_val *v = c->row;
    sql_text(&v[S_NAME], stat_rows[i].name);
    sql_null(&v[S_IDX]);
    sql_text(&v[S_SEVERITY], stat_rows[i].severity);
    sql_text(&v[S_SOURCE], stat_rows[i].source);
    sql_int(&v[S_VALUE], values[i]);
    sql_text(&v[S_DESCRIPTION], stat_rows[i].description);
    sql_null(&v[S_MACHINE]);
    sql_null(&v[S_TRACE]);
    return 0;
}

const sql_table sql_table_stats = {
    .name = "stats",
    .columns =
        "name TEXT, idx INTEGER, severity TEXT, source TEXT, value INTEGER, description TEXT, "
        "machine_id INTEGER, trace_id INTEGER",
    .n_cols = S_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = -1,
    .col_track = -1,
    .col_argset = -1,
    .filter = stats_filter,
    .next = stats_next,
    .close = sql_reg_close,
};

/* ---- trace_bounds, TRACE_START(), TRACE_END(): the first and last event ---------------------- */

enum { B_START_TS, B_END_TS, B_COUNT };

static int bounds_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, c->db->n_events ? 1 : 0, SQL_ANY);
}

static int bounds_next(sql_cursor *c)
{
    if (sql_reg_next(c) == SIZE_MAX)
        return 0;
    sql_int(&c->row[B_START_TS], c->db->first_ns);
    sql_int(&c->row[B_END_TS], c->db->last_ns);
    return 0;
}

const sql_table sql_table_trace_bounds = {
    .name = "trace_bounds",
    .columns = "start_ts INTEGER, end_ts INTEGER",
    .n_cols = B_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = -1,
    .col_track = -1,
    .col_argset = -1,
    .filter = bounds_filter,
    .next = bounds_next,
    .close = sql_reg_close,
};

/* The first (end false) or last event's ts, after the census; NULL without events. */
static void bound(sqlite3_context *ctx, bool end)
{
    sql_db *db = sqlite3_user_data(ctx);
    if (sql_registry_complete(db) < 0)
        sqlite3_result_error(ctx, db->message ? db->message : "cannot read the trace", -1);
    else if (!db->n_events)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int64(ctx, end ? db->last_ns : db->first_ns);
}

static void trace_start_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    bound(ctx, false);
}

static void trace_end_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    bound(ctx, true);
}

/* TRACE_DUR(): TRACE_END() - TRACE_START(), as Perfetto defines it. */
static void trace_dur_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sql_db *db = sqlite3_user_data(ctx);
    if (sql_registry_complete(db) < 0)
        sqlite3_result_error(ctx, db->message ? db->message : "cannot read the trace", -1);
    else if (!db->n_events)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_int64(ctx, db->last_ns - db->first_ns);
}

int sql_meta_register(sql_db *db)
{
    int rc = sqlite3_create_function(db->sqlite, "TRACE_START", 0, SQLITE_UTF8, db, trace_start_fn,
                                     NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db->sqlite, "TRACE_END", 0, SQLITE_UTF8, db, trace_end_fn,
                                     NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db->sqlite, "TRACE_DUR", 0, SQLITE_UTF8, db, trace_dur_fn,
                                     NULL, NULL);
    return rc;
}
