/* sql_export.c - `convert --to sqlite`: the SQL tables written as real tables of an SQLite
 * database file, which any sqlite3 opens (the counterpart of trace_processor's export).
 *
 * The file is an SQLite database attached to the tables' in-memory database; each table is
 * created there with the columns it declares and filled by INSERT ... SELECT * from the
 * virtual table, with an index on each join column (id, utid, upid, *_id) and the views of
 * the connection (raw, sched, counters, ...) beside them, in one transaction without a journal (a failed export leaves no file, so
 * there is nothing to roll back to).  path is the temporary file tg_convert_to made (renamed
 * when whole, removed on failure, as every output); damage in the input refuses the output,
 * as the directory writers do: a database that looks whole but lacks events would mislead. */
#include "sql/sql_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Runs one statement of SQL text made with sqlite3_mprintf (freed here). */
static int exec(sqlite3 *db, char *sql, const char *path, tg_error **err)
{
    if (!sql)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    sqlite3_free(sql);
    if (rc == SQLITE_OK)
        return 0;
    int status = tg_err(err, rc == SQLITE_NOMEM ? TG_ERR_NOMEM : TG_ERR_IO, "%s: %s", path,
                        msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return status;
}

/* An index on each join column of t (id, utid, upid, *_id), so that sqlite3 joins the
 * tables as fast as traceglot's lookups do. */
static int join_indexes(sqlite3 *db, const sql_table *t, const char *tmp, tg_error **err)
{
    uint64_t cols = sql_join_columns(t);
    for (int col = 0; col < t->n_cols && col < 64; col++) {
        size_t n;
        const char *name = sql_column_name(t, col, &n);
        if (!(cols >> col & 1) || !name)
            continue;
        TG_TRY(exec(db,
                    sqlite3_mprintf("CREATE INDEX out.%s__%.*s ON %s(%.*s)", t->name, (int)n, name,
                                    t->name, (int)n, name),
                    tmp, err));
    }
    return 0;
}

/* The views of the connection (raw, sched, counters, ...) made again in the file. */
static int views(sqlite3 *db, const char *tmp, tg_error **err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(
        db, "SELECT sql FROM temp.sqlite_master WHERE type = 'view' ORDER BY rowid", -1, &st, NULL);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(st, 0);
        const char *rest = sql ? strstr(sql, " VIEW ") : NULL;
        if (rest && exec(db, sqlite3_mprintf("CREATE VIEW out.%s", rest + 6), tmp, err) < 0)
            rc = SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : TG_ERR_IO;
}

static int fill(sqlite3 *db, const char *tmp, tg_error **err)
{
    TG_TRY(exec(db, sqlite3_mprintf("ATTACH %Q AS out", tmp), tmp, err));
    TG_TRY(exec(db, sqlite3_mprintf("PRAGMA out.journal_mode = OFF; PRAGMA out.synchronous = OFF"),
                tmp, err));
    TG_TRY(exec(db, sqlite3_mprintf("BEGIN"), tmp, err));
    for (size_t i = 0; sql_tables[i]; i++) {
        const sql_table *t = sql_tables[i];
        TG_TRY(exec(db, sqlite3_mprintf("CREATE TABLE out.%s(%s)", t->name, t->columns), tmp, err));
        TG_TRY(exec(db,
                    sqlite3_mprintf("INSERT INTO out.%s SELECT * FROM main.%s", t->name, t->name),
                    tmp, err));
        TG_TRY(join_indexes(db, t, tmp, err));
    }
    TG_TRY(views(db, tmp, err));
    TG_TRY(exec(db, sqlite3_mprintf("COMMIT"), tmp, err));
    return exec(db, sqlite3_mprintf("DETACH out"), tmp, err);
}

static int export_sqlite(tg_set *set, const tg_filter *f, const tg_options *opts, const char *path,
                         tg_error **err)
{
    sqlite3 *db = NULL;
    int rc = tg_sql_open(set, f, opts, &db, err);
    if (rc >= 0) {
        rc = fill(db, path, err);
        const tg_error *damage = tg_sql_errors(db);
        if (rc >= 0 && damage) {
            /* damage in the input: the output would look whole but lack events; refuse it */
            for (const tg_error *e = damage; e; e = tg_error_next(e))
                tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
            rc = TG_ERR_FORMAT;
        }
        tg_sql_close(db);
    }
    return rc < 0 ? rc : 0;
}

TG_CONVERTER(sqlite) = {.name = "sqlite", .convert_file = export_sqlite};
