/* sql_db.c - the SQL database of a trace set: tg_sql_open, tg_sql_errors, tg_sql_close, and
 * what every table shares through it (the pool of sets the passes read, interned strings,
 * the damage the passes met).
 *
 * The database is SQLite's in-memory database with the tables registered as eponymous
 * virtual tables, so `SELECT ... FROM slice` needs no CREATE.  traceglot's state hangs on
 * the first module's client data: SQLite frees it when the connection closes, however the
 * caller closes it.  The public calls that take only the sqlite3 handle find the state
 * through a function registered with it as its user data. */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQL_STATE_FN "__traceglot_state"

struct intern_key {
    const sql_db *db;
    const char *s;
    size_t n;
};

static int intern_eq(const void *ctx, uint64_t value)
{
    const struct intern_key *k = ctx;
    const char *c = k->db->strs[value];
    return strncmp(c, k->s, k->n) == 0 && c[k->n] == 0;
}

const char *sql_intern(sql_db *db, const char *s, size_t n)
{
    uint64_t h = tg_hash_bytes(s, n);
    const struct intern_key key = {db, s, n};
    const uint64_t *found = tg_hash_find_by(&db->str_index, h, intern_eq, &key);
    if (found)
        return db->strs[*found];
    if (tg_grow(&db->strs, &db->cap_strs, db->n_strs + 1, sizeof *db->strs) < 0)
        return NULL;
    char *copy = malloc(n + 1);
    uint64_t *value;
    if (!copy || tg_hash_add(&db->str_index, h, &value) < 0) {
        free(copy);
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = 0;
    *value = db->n_strs;
    db->strs[db->n_strs++] = copy;
    return copy;
}

const char *sql_frame_name(sql_db *db, const tg_call *call)
{
    if (call->name)
        return call->name;
    const tg_tracer_info *tracer = call->trace ? tg_trace_tracer(call->trace) : NULL;
    bool uftrace = tracer && tracer->name && strcmp(tracer->name, "uftrace") == 0;
    char text[32];
    int n =
        snprintf(text, sizeof text, uftrace ? "<%llx>" : "0x%llx", (unsigned long long)call->addr);
    return sql_intern(db, text, (size_t)n);
}

/* ---- the pool of sets ---------------------------------------------------------------------- */

tg_set *sql_pool_take(sql_db *db, tg_error **err)
{
    for (size_t i = 0; i < db->n_pool; i++) {
        struct sql_pooled *p = &db->pool[i];
        if (p->busy || (p->used && !p->rereadable))
            continue;
        p->busy = p->used = true;
        return p->set;
    }
    /* a set read once and idle is opened again in its place */
    for (size_t i = 0; i < db->n_pool; i++) {
        struct sql_pooled *p = &db->pool[i];
        if (p->busy || !p->owned)
            continue;
        tg_set *set = tg_set_reopen(db->set, err);
        if (!set)
            return NULL;
        tg_close(p->set);
        *p = (struct sql_pooled){.set = set,
                                 .busy = true,
                                 .used = true,
                                 .owned = true,
                                 .rereadable = tg_set_rereadable(set)};
        return set;
    }
    if (tg_grow(&db->pool, &db->cap_pool, db->n_pool + 1, sizeof *db->pool) < 0) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    tg_set *set = tg_set_reopen(db->set, err);
    if (!set)
        return NULL;
    db->pool[db->n_pool++] = (struct sql_pooled){.set = set,
                                                 .busy = true,
                                                 .used = true,
                                                 .owned = true,
                                                 .rereadable = tg_set_rereadable(set)};
    return set;
}

void sql_pool_give(sql_db *db, tg_set *set)
{
    for (size_t i = 0; i < db->n_pool; i++)
        if (db->pool[i].set == set)
            db->pool[i].busy = false;
}

/* ---- errors ---------------------------------------------------------------------------------- */

#define SQL_MAX_ERRORS 100

void sql_keep_errors(sql_db *db, const tg_error *list)
{
    for (const tg_error *e = list; e; e = tg_error_next(e)) {
        const char *m = tg_error_message(e);
        bool known = false;
        for (const tg_error *k = db->errors; k && !known; k = tg_error_next(k))
            known = strcmp(tg_error_message(k), m) == 0;
        if (known || db->n_errors >= SQL_MAX_ERRORS)
            continue;
        tg_error *copy = NULL;
        tg_err(&copy, tg_error_status(e), "%s", m);
        if (copy) {
            tg_err_append(&db->errors, copy);
            db->n_errors++;
        }
    }
}

int sql_fail(sql_db *db, int status, tg_error *err)
{
    free(db->message);
    const char *m = err ? tg_error_message(err) : status == TG_ERR_NOMEM ? "out of memory" : NULL;
    db->message = strdup(m ? m : "cannot read the trace");
    tg_error_free(err);
    return status;
}

/* ---- opening and closing ----------------------------------------------------------------- */

static void db_free(void *p)
{
    sql_db *db = p;
    if (!db)
        return;
    if (db->arg_scan) {
        sql_scan_close(db->arg_scan);
        free(db->arg_scan);
    }
    sql_args_cache_free(db);
    sql_index_free_all(db);
    for (size_t i = 0; i < db->n_pool; i++)
        if (db->pool[i].owned)
            tg_close(db->pool[i].set);
    free(db->pool);
    tg_error_free(db->errors);
    free(db->message);
    sql_registry_free(db);
    sql_perf_free(db);
    for (size_t i = 0; i < db->n_strs; i++)
        free(db->strs[i]);
    free(db->strs);
    tg_hash_free(&db->str_index);
    tg_buf_free(db->tmp);
    free(db);
}

static void state_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_int64(ctx, (sqlite3_int64)(intptr_t)sqlite3_user_data(ctx));
}

sql_db *sql_db_of(sqlite3 *sqlite)
{
    sqlite3_stmt *st = NULL;
    sql_db *db = NULL;
    if (sqlite &&
        sqlite3_prepare_v2(sqlite, "SELECT " SQL_STATE_FN "()", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        db = (sql_db *)(intptr_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return db;
}

/* The sql command's options: read by the CLI (cmd_sql.c), which runs the queries on the
 * database tg_sql_open makes. */
TG_OPTIONS(sql) = {
    "sql",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"query", TG_OPT_TEXTS, NULL,
         "run SQL (Perfetto's tables: slice, thread, ftrace_event, args, ...); @FILE reads it "
         "from FILE; repeatable",
         "SQL", NULL, 0, 0, 'q'},
        {"format", TG_OPT_CHOICE, "table",
         "rows as table, csv (as sqlite3 -csv -header), json (one document per run), list (as "
         "sqlite3 -list), perfetto (as trace_processor_shell -Q)",
         "FORMAT", "table|csv|json|list|perfetto"},
        {"symfs", TG_OPT_TEXT, NULL,
         "perf's --symfs: look for the files perf.data maps under DIR (stack_profile_frame)",
         "DIR"},
        {"kallsyms", TG_OPT_TEXT, NULL,
         "perf's --kallsyms: the kernel's symbols of perf.data files from FILE", "FILE"},
        {"buildid-dir", TG_OPT_TEXT, NULL, "perf's --buildid-dir: the build-id cache", "DIR"},
        {0},
    },
};

int tg_sql_open(tg_set *set, const tg_filter *f, const tg_options *opts, struct sqlite3 **out,
                tg_error **err)
{
    *out = NULL;
    /* the sqlite converter opens it with its own options (convert's output) */
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "sql", "filter", "convert", err));
    sql_db *db = calloc(1, sizeof *db);
    if (!db || !(db->tmp = tg_buf_new()) ||
        tg_grow(&db->pool, &db->cap_pool, 1, sizeof *db->pool) < 0) {
        db_free(db);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    db->set = set;
    db->filter = f;
    db->opts = opts;
    db->pool[db->n_pool++] = (struct sql_pooled){.set = set, .rereadable = tg_set_rereadable(set)};
    if (sql_registry_init(db) < 0) {
        db_free(db);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    sqlite3 *sqlite = NULL;
    int rc = sqlite3_open_v2(":memory:", &sqlite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        db_free(db);
        int status = tg_err(err, rc == SQLITE_NOMEM ? TG_ERR_NOMEM : TG_ERR_IO,
                            "cannot open an SQLite database: %s",
                            sqlite ? sqlite3_errmsg(sqlite) : sqlite3_errstr(rc));
        sqlite3_close(sqlite);
        return status;
    }
    db->sqlite = sqlite;
    /* the first module owns the state from here on: closing the connection frees it */
    rc = sql_vtab_register(db);
    if (rc != SQLITE_OK) {
        int status =
            tg_err(err, TG_ERR_NOMEM, "cannot register the tables: %s", sqlite3_errmsg(sqlite));
        sqlite3_close_v2(sqlite);
        return status;
    }
    rc = sqlite3_create_function(sqlite, SQL_STATE_FN, 0, SQLITE_UTF8, db, state_fn, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sql_args_register(db);
    if (rc == SQLITE_OK)
        rc = sql_meta_register(db);
    if (rc == SQLITE_OK)
        rc = sql_functions_register(db);
    if (rc == SQLITE_OK)
        rc = sql_ancestry_register(db);
    /* Perfetto's other names for the same rows, as views of the connection */
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(sqlite,
                          "CREATE TEMP VIEW raw AS SELECT * FROM ftrace_event;"
                          "CREATE TEMP VIEW sched AS SELECT *, ts + dur AS ts_end FROM sched_slice;"
                          "CREATE TEMP VIEW counters AS SELECT c.*, t.name, t.unit FROM counter c "
                          "JOIN counter_track t ON c.track_id = t.id;"
                          "CREATE TEMP VIEW instant AS SELECT ts, track_id, name, arg_set_id "
                          "FROM slice WHERE dur = 0;"
                          /* Perfetto's stdlib view (slices.with_context) less slice.type */
                          "CREATE TEMP VIEW thread_slice AS SELECT slice.id, slice.ts, slice.dur, "
                          "slice.category, slice.name, slice.track_id, thread_track.name AS "
                          "track_name, thread.name AS thread_name, thread.utid, thread.tid, "
                          "thread.is_main_thread, process.name AS process_name, process.upid, "
                          "process.pid, slice.depth, slice.parent_id, slice.arg_set_id, "
                          "slice.thread_ts, slice.thread_dur FROM slice JOIN thread_track ON "
                          "slice.track_id = thread_track.id JOIN thread USING (utid) LEFT JOIN "
                          "process USING (upid);",
                          NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int status =
            tg_err(err, TG_ERR_NOMEM, "cannot register the functions: %s", sqlite3_errmsg(sqlite));
        sqlite3_close_v2(sqlite);
        return status;
    }
    *out = sqlite;
    return 0;
}

void sql_db_destroy(void *p) { db_free(p); }

const tg_error *tg_sql_errors(struct sqlite3 *sqlite)
{
    sql_db *db = sql_db_of(sqlite);
    return db ? db->errors : NULL;
}

void tg_sql_close(struct sqlite3 *sqlite)
{
    if (sqlite)
        sqlite3_close_v2(sqlite);
}
