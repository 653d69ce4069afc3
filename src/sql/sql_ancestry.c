/* sql_ancestry.c - Perfetto's table-valued functions over the slice tree: ancestor_slice(id)
 * and descendant_slice(id), each an eponymous virtual table with the slice table's columns
 * and a hidden start_id column that the call's argument constrains.
 *
 * They answer as trace_processor does: ancestor_slice(id) is the slices on id's parent chain,
 * the root first (ascending id); descendant_slice(id) is every slice on id's track that begins
 * within it (ts from its ts to its end, or to the end of the trace when it did not end) at a
 * greater depth, in id order.  A NULL id gives no rows; an id no slice has is an error
 * ("no row with id N"), as is an argument that is not an integer.
 *
 * The rows are the slice table's own: each function runs statements over `slice` on the same
 * connection, its id and track_id equalities bound as parameters, so they are lookups through
 * the index the slice table builds on first use (sql_index.c) rather than passes over the
 * events; a call costs its chain's lookups, or one lookup of its track's rows. */
#include "sql/sql_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which function a module is. */
static const bool is_ancestors = false, is_descendants = true;

struct ancestry_vtab {
    sqlite3_vtab base;
    sqlite3 *sqlite;
    bool descendants;
    int n_cols; /* the slice table's; start_id is column n_cols */
};

struct ancestry_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *probe; /* the start slice: parent_id (ancestors) or ts, dur, track_id, depth */
    sqlite3_stmt *rows;  /* the rows handed out: by id (ancestors) or of a track */
    int64_t start;
    int64_t *chain; /* ancestors: their ids, root first */
    size_t n_chain, cap_chain, at;
    sqlite3_int64 rowid;
    bool eof;
};

static int ancestry_connect(sqlite3 *sqlite, void *aux, int argc, const char *const *argv,
                            sqlite3_vtab **out, char **err)
{
    (void)argc;
    (void)argv;
    char *ddl =
        sqlite3_mprintf("CREATE TABLE x(%s, start_id INTEGER HIDDEN)", sql_table_slice.columns);
    int rc = ddl ? sqlite3_declare_vtab(sqlite, ddl) : SQLITE_NOMEM;
    sqlite3_free(ddl);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errstr(rc));
        return rc;
    }
    struct ancestry_vtab *vt = sqlite3_malloc(sizeof *vt);
    if (!vt)
        return SQLITE_NOMEM;
    memset(vt, 0, sizeof *vt);
    vt->sqlite = sqlite;
    vt->descendants = *(const bool *)aux;
    vt->n_cols = sql_table_slice.n_cols;
    *out = &vt->base;
    return SQLITE_OK;
}

static int ancestry_disconnect(sqlite3_vtab *vtab)
{
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/* The one plan: start_id = the argument (unusable in one join order: SQLite tries another).
 * A call without the argument is told so, rather than SQLite's "no query solution". */
static int ancestry_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)vtab;
    bool later = false; /* the argument comes from a table not yet read in this order */
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (k->iColumn != vt->n_cols || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        if (!k->usable) {
            later = true;
            continue;
        }
        info->aConstraintUsage[i].argvIndex = 1;
        info->aConstraintUsage[i].omit = 1;
        info->estimatedCost = vt->descendants ? 1000 : 10;
        info->estimatedRows = vt->descendants ? 100 : 10;
        return SQLITE_OK;
    }
    if (later)
        return SQLITE_CONSTRAINT;
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s needs the slice's id: %s(ID)",
                                    vt->descendants ? "descendant_slice" : "ancestor_slice",
                                    vt->descendants ? "descendant_slice" : "ancestor_slice");
    return SQLITE_ERROR;
}

static int ancestry_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    (void)vtab;
    struct ancestry_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    c->eof = true;
    *out = &c->base;
    return SQLITE_OK;
}

static int ancestry_close(sqlite3_vtab_cursor *cur)
{
    struct ancestry_cursor *c = (struct ancestry_cursor *)cur;
    sqlite3_finalize(c->probe);
    sqlite3_finalize(c->rows);
    free(c->chain);
    free(c);
    return SQLITE_OK;
}

/* A failure told to SQLite: msg, or the connection's last message when msg is NULL. */
static int fail(struct ancestry_cursor *c, int rc, const char *msg)
{
    sqlite3_vtab *vtab = c->base.pVtab;
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)vtab;
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s", msg ? msg : sqlite3_errmsg(vt->sqlite));
    c->eof = true;
    return rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_ERROR : rc;
}

static int prepare(struct ancestry_cursor *c, sqlite3_stmt **st, const char *sql)
{
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)c->base.pVtab;
    if (*st) {
        sqlite3_reset(*st);
        sqlite3_clear_bindings(*st);
        return SQLITE_OK;
    }
    return sqlite3_prepare_v2(vt->sqlite, sql, -1, st, NULL);
}

/* Steps c->rows to its next row: eof at the end. */
static int step_rows(struct ancestry_cursor *c)
{
    int rc = sqlite3_step(c->rows);
    if (rc == SQLITE_ROW)
        return SQLITE_OK;
    c->eof = true;
    return rc == SQLITE_DONE ? SQLITE_OK : fail(c, rc, NULL);
}

/* The row of the next ancestor of the chain. */
static int next_ancestor(struct ancestry_cursor *c)
{
    if (c->at >= c->n_chain) {
        c->eof = true;
        return SQLITE_OK;
    }
    int rc = prepare(c, &c->rows, "SELECT * FROM slice WHERE id = ?1");
    if (rc != SQLITE_OK)
        return fail(c, rc, NULL);
    sqlite3_bind_int64(c->rows, 1, c->chain[c->at++]);
    rc = step_rows(c);
    if (rc == SQLITE_OK && c->eof)
        return fail(c, SQLITE_ERROR, "ancestor_slice: a parent_id names no slice");
    return rc;
}

static int start_ancestors(struct ancestry_cursor *c)
{
    int rc = prepare(c, &c->probe, "SELECT parent_id FROM slice WHERE id = ?1");
    if (rc != SQLITE_OK)
        return fail(c, rc, NULL);
    int64_t id = c->start;
    for (bool first = true;; first = false) {
        sqlite3_reset(c->probe);
        sqlite3_bind_int64(c->probe, 1, id);
        rc = sqlite3_step(c->probe);
        if (rc == SQLITE_DONE && first) {
            char msg[64];
            snprintf(msg, sizeof msg, "no row with id %lld", (long long)id);
            return fail(c, SQLITE_ERROR, msg);
        }
        if (rc != SQLITE_ROW)
            return rc == SQLITE_DONE ? fail(c, SQLITE_ERROR, "a parent_id names no slice")
                                     : fail(c, rc, NULL);
        if (sqlite3_column_type(c->probe, 0) == SQLITE_NULL)
            break;
        int64_t parent = sqlite3_column_int64(c->probe, 0);
        /* a parent begins before its child: ids only go down, so the walk ends */
        if (parent >= id)
            return fail(c, SQLITE_ERROR, "a slice's parent_id is not below its id");
        if (tg_grow(&c->chain, &c->cap_chain, c->n_chain + 1, sizeof *c->chain) < 0)
            return fail(c, SQLITE_NOMEM, "out of memory");
        c->chain[c->n_chain++] = parent;
        id = parent;
    }
    sqlite3_reset(c->probe);
    for (size_t i = 0; i < c->n_chain / 2; i++) { /* root first */
        int64_t t = c->chain[i];
        c->chain[i] = c->chain[c->n_chain - 1 - i];
        c->chain[c->n_chain - 1 - i] = t;
    }
    return next_ancestor(c);
}

static int start_descendants(struct ancestry_cursor *c)
{
    int rc = prepare(c, &c->probe, "SELECT ts, dur, track_id, depth FROM slice WHERE id = ?1");
    if (rc != SQLITE_OK)
        return fail(c, rc, NULL);
    sqlite3_bind_int64(c->probe, 1, c->start);
    rc = sqlite3_step(c->probe);
    if (rc == SQLITE_DONE) {
        char msg[64];
        snprintf(msg, sizeof msg, "no row with id %lld", (long long)c->start);
        return fail(c, SQLITE_ERROR, msg);
    }
    if (rc != SQLITE_ROW)
        return fail(c, rc, NULL);
    int64_t ts = sqlite3_column_int64(c->probe, 0), dur = sqlite3_column_int64(c->probe, 1);
    int64_t depth = sqlite3_column_int64(c->probe, 3);
    bool no_track = sqlite3_column_type(c->probe, 2) == SQLITE_NULL;
    int64_t track = sqlite3_column_int64(c->probe, 2);
    sqlite3_reset(c->probe);
    if (no_track) {
        c->eof = true;
        return SQLITE_OK;
    }
    rc = prepare(c, &c->rows,
                 "SELECT * FROM slice WHERE track_id = ?1 AND ts >= ?2 AND ts <= ?3 AND depth > ?4 "
                 "ORDER BY id");
    if (rc != SQLITE_OK)
        return fail(c, rc, NULL);
    sqlite3_bind_int64(c->rows, 1, track);
    sqlite3_bind_int64(c->rows, 2, ts);
    sqlite3_bind_int64(c->rows, 3, dur >= 0 && ts <= INT64_MAX - dur ? ts + dur : INT64_MAX);
    sqlite3_bind_int64(c->rows, 4, depth);
    return step_rows(c);
}

static int ancestry_filter(sqlite3_vtab_cursor *cur, int idx, const char *idx_str, int argc,
                           sqlite3_value **argv)
{
    (void)idx;
    (void)idx_str;
    struct ancestry_cursor *c = (struct ancestry_cursor *)cur;
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)cur->pVtab;
    c->eof = false;
    c->rowid = 0;
    c->n_chain = c->at = 0;
    if (c->rows)
        sqlite3_reset(c->rows);
    if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        c->eof = true; /* nothing has a NULL id */
        return SQLITE_OK;
    }
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER)
        return fail(c, SQLITE_ERROR, "start id should be an integer.");
    c->start = sqlite3_value_int64(argv[0]);
    return vt->descendants ? start_descendants(c) : start_ancestors(c);
}

static int ancestry_next(sqlite3_vtab_cursor *cur)
{
    struct ancestry_cursor *c = (struct ancestry_cursor *)cur;
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)cur->pVtab;
    c->rowid++;
    return vt->descendants ? step_rows(c) : next_ancestor(c);
}

static int ancestry_eof(sqlite3_vtab_cursor *cur) { return ((struct ancestry_cursor *)cur)->eof; }

static int ancestry_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    struct ancestry_cursor *c = (struct ancestry_cursor *)cur;
    const struct ancestry_vtab *vt = (const struct ancestry_vtab *)cur->pVtab;
    if (i >= vt->n_cols)
        sqlite3_result_int64(ctx, c->start);
    else
        sqlite3_result_value(ctx, sqlite3_column_value(c->rows, i));
    return SQLITE_OK;
}

static int ancestry_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((struct ancestry_cursor *)cur)->rowid;
    return SQLITE_OK;
}

/* Eponymous only (no xCreate): used as a function, never made with CREATE VIRTUAL TABLE. */
static const sqlite3_module ancestry_module = {
    .iVersion = 0,
    .xConnect = ancestry_connect,
    .xBestIndex = ancestry_best_index,
    .xDisconnect = ancestry_disconnect,
    .xOpen = ancestry_open,
    .xClose = ancestry_close,
    .xFilter = ancestry_filter,
    .xNext = ancestry_next,
    .xEof = ancestry_eof,
    .xColumn = ancestry_column,
    .xRowid = ancestry_rowid,
};

int sql_ancestry_register(sql_db *db)
{
    int rc = sqlite3_create_module_v2(db->sqlite, "ancestor_slice", &ancestry_module,
                                      (void *)&is_ancestors, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_module_v2(db->sqlite, "descendant_slice", &ancestry_module,
                                      (void *)&is_descendants, NULL);
    return rc;
}
