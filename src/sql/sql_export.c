/* sql_export.c - `convert --to sqlite`: the SQL tables written as real tables of an SQLite
 * database file, which any sqlite3 opens (the counterpart of trace_processor's export).
 *
 * The file is an SQLite database attached to the tables' in-memory database; each table is
 * created there with the columns it declares and filled by INSERT ... SELECT * from the
 * virtual table, in one transaction without a journal (a failed export leaves no file, so
 * there is nothing to roll back to).  It is written under a temporary name beside the
 * output and renamed at the end, as the directory writers do; damage in the input refuses
 * the output, as they do: a database that looks whole but lacks events would mislead. */
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
    }
    TG_TRY(exec(db, sqlite3_mprintf("COMMIT"), tmp, err));
    return exec(db, sqlite3_mprintf("DETACH out"), tmp, err);
}

static int export_sqlite(tg_set *set, const tg_filter *f, const tg_options *opts, const char *path,
                         tg_error **err)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        return tg_err(err, TG_ERR_USAGE, "%s: already exists; not overwriting it", path);
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= sizeof tmp)
        return tg_err(err, TG_ERR_USAGE, "%s: path too long", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return tg_err(err, TG_ERR_IO, "%s: cannot create a temporary file: %s", tmp,
                      strerror(errno));
    fchmod(fd, 0644); /* as the other outputs, not mkstemp's 0600 */
    close(fd);        /* an empty file is an empty database to SQLite */
    sqlite3 *db = NULL;
    int rc = tg_sql_open(set, f, opts, &db, err);
    if (rc >= 0) {
        rc = fill(db, tmp, err);
        const tg_error *damage = tg_sql_errors(db);
        if (rc >= 0 && damage) {
            /* damage in the input: the output would look whole but lack events; refuse it */
            for (const tg_error *e = damage; e; e = tg_error_next(e))
                tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
            rc = TG_ERR_FORMAT;
        }
        tg_sql_close(db);
    }
    if (rc >= 0 && rename(tmp, path) < 0)
        rc = tg_err(err, TG_ERR_IO, "%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
    if (rc < 0) {
        unlink(tmp);
        tg_err_wrap(err, "%s: nothing written", path);
    }
    return rc < 0 ? rc : 0;
}

TG_CONVERTER(sqlite) = {.name = "sqlite", .convert_file = export_sqlite};
