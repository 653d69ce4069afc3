/* sql_vtab.c - the SQLite virtual-table module every table of the SQL layer plugs into.
 *
 * A table is a definition (sql_table: its columns, which of them its scan can constrain,
 * and three calls: filter, next, close); this file turns it into an eponymous virtual table.
 * xBestIndex hands the scan the constraints it applies (ts ranges; name, cpu, utid, id,
 * track_id, arg_set_id equalities) and leaves SQLite to check them again (omit is never
 * set), so a scan may apply a constraint loosely but never drops a row that matches.  Costs
 * steer the planner: a table read from the events costs a pass over them whatever its
 * constraints (so it is the outer loop of a join, and a small table is looked up inside
 * it), except an args lookup by arg_set_id, which reads the one event.  An equality on a
 * join column (id, utid, upid, *_id) that the scan cannot look up itself and whose value
 * comes from another table is a lookup through an index built on first use (sql_index.c):
 * a join costs two passes, not one per outer row; one when the outer loop scans every row of
 * the same table (the index keeps its columns, and it reads on from there). */
#include "sql/sql_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const sql_table *const sql_tables[] = {
    &sql_table_slice,
    &sql_table_thread,
    &sql_table_process,
    &sql_table_thread_track,
    &sql_table_counter,
    &sql_table_counter_track,
    &sql_table_sched_slice,
    &sql_table_thread_state,
    &sql_table_ftrace_event,
    &sql_table_args,
    &sql_table_trace,
    &sql_table_stats,
    &sql_table_trace_bounds,
    &sql_table_track,
    &sql_table_cpu,
    &sql_table_cpu_track,
    &sql_table_process_track,
    &sql_table_cpu_counter_track,
    &sql_table_process_counter_track,
    &sql_table_flow,
    &sql_table_perf_sample,
    &sql_table_stack_profile_callsite,
    &sql_table_stack_profile_frame,
    &sql_table_stack_profile_mapping,
    &sql_table_metadata,
    &sql_table_perf_session,
    NULL,
};

struct sql_module {
    sql_db *db;
    const sql_table *table;
    bool owner; /* frees the database's state with it */
};

struct sql_vtab {
    sqlite3_vtab base;
    sql_db *db;
    const sql_table *table;
    uint64_t join_cols; /* the columns an equality can look up through an index */
};

static void module_free(void *p)
{
    struct sql_module *m = p;
    if (m && m->owner)
        sql_db_destroy(m->db);
    free(m);
}

static int vt_connect(sqlite3 *sqlite, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    (void)argc;
    (void)argv;
    const struct sql_module *m = aux;
    char *ddl = sqlite3_mprintf("CREATE TABLE x(%s)", m->table->columns);
    int rc = ddl ? sqlite3_declare_vtab(sqlite, ddl) : SQLITE_NOMEM;
    sqlite3_free(ddl);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", m->table->name, sqlite3_errstr(rc));
        return rc;
    }
    struct sql_vtab *vt = sqlite3_malloc(sizeof *vt);
    if (!vt)
        return SQLITE_NOMEM;
    memset(vt, 0, sizeof *vt);
    vt->db = m->db;
    vt->table = m->table;
    vt->join_cols = sql_join_columns(m->table);
    *out = &vt->base;
    return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vtab)
{
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/* The constraint's code in idxStr: its column's role and the operator. */
static char constraint_code(const sql_table *t, int col, unsigned char op)
{
    if (col == t->col_ts)
        switch (op) {
        case SQLITE_INDEX_CONSTRAINT_GT: return 'a';
        case SQLITE_INDEX_CONSTRAINT_GE: return 'b';
        case SQLITE_INDEX_CONSTRAINT_LT: return 'c';
        case SQLITE_INDEX_CONSTRAINT_LE: return 'd';
        case SQLITE_INDEX_CONSTRAINT_EQ: return 'e';
        default: return 0;
        }
    if (op != SQLITE_INDEX_CONSTRAINT_EQ || col < 0)
        return 0;
    return col == t->col_name     ? 'n'
           : col == t->col_cpu    ? 'p'
           : col == t->col_utid   ? 'u'
           : col == t->col_id     ? 'i'
           : col == t->col_track  ? 't'
           : col == t->col_argset ? 's'
                                  : 0;
}

/* Whether the table's own scan answers the equality code as a lookup (not a pass). */
static bool native_lookup(const sql_table *t, char code)
{
    return code == 's' || (!t->big && (code == 'i' || code == 'u' || code == 't'));
}

/* The constraint an index lookup answers, or -1: an equality on a join column that the
 * table's scan does not look up itself, whose value comes from another table (a join; a
 * constant is one pass of a table that reads the events, as cheap as building the index)
 * or that is on a small table. */
static int index_candidate(const struct sql_vtab *vt, sqlite3_index_info *info)
{
    const sql_table *t = vt->table;
    int best = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (!k->usable || k->op != SQLITE_INDEX_CONSTRAINT_EQ || k->iColumn < 0)
            continue;
        if (native_lookup(t, constraint_code(t, k->iColumn, k->op)))
            return -1;
        if (k->iColumn >= SQL_MAX_COLS || !(vt->join_cols >> k->iColumn & 1))
            continue;
        sqlite3_value *rhs = NULL;
        if (t->big && sqlite3_vtab_rhs_value(info, i, &rhs) == SQLITE_OK)
            continue;
        if (best < 0 || k->iColumn == t->col_id)
            best = i;
    }
    return best;
}

/* A plan that looks rows up through the index on a join column: idxStr "#KEY:COLUMNS". */
static int index_plan(const struct sql_vtab *vt, sqlite3_index_info *info, int which)
{
    const sql_table *t = vt->table;
    int key = info->aConstraint[which].iColumn;
    uint64_t cols = info->colUsed;
    if (t->n_cols < 64)
        cols &= (1ull << t->n_cols) - 1;
    info->idxStr = sqlite3_mprintf("#%d:%llx", key, (unsigned long long)cols);
    if (!info->idxStr)
        return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    info->aConstraintUsage[which].argvIndex = 1;
    info->aConstraintUsage[which].omit = 0;
    /* on a table read from the events the first lookup costs a pass (building the index):
     * dearer than a lookup in a small table, so a join that scanned the events in its outer
     * loop still does, and far cheaper than a pass per row */
    info->estimatedCost = t->big ? 1e10 : 10;
    info->estimatedRows = key == t->col_id ? 1 : 10;
    if (key == t->col_id)
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    return SQLITE_OK;
}

/* Whether the rows of a GROUP BY of one column of a table read from the events, with no
 * constraint the scan applies, come grouped from an index sorted by that column: SQLite
 * then aggregates each group as it comes instead of sorting every row first. */
static bool group_plan(const struct sql_vtab *vt, sqlite3_index_info *info)
{
    const sql_table *t = vt->table;
    if (!t->big || info->nOrderBy != 1 || info->aOrderBy[0].iColumn < 0 ||
        info->aOrderBy[0].iColumn >= t->n_cols || sqlite3_vtab_distinct(info) != 1)
        return false;
    for (int i = 0; i < info->nConstraint; i++)
        if (info->aConstraint[i].usable &&
            constraint_code(t, info->aConstraint[i].iColumn, info->aConstraint[i].op))
            return false; /* a narrower pass, or a lookup */
    uint64_t cols = info->colUsed;
    if (t->n_cols < 64)
        cols &= (1ull << t->n_cols) - 1;
    info->idxStr = sqlite3_mprintf("@%d:%llx", info->aOrderBy[0].iColumn, (unsigned long long)cols);
    if (!info->idxStr)
        return false;
    info->needToFreeIdxStr = 1;
    info->orderByConsumed = 1;
    info->estimatedCost = 1e12;
    info->estimatedRows = (sqlite3_int64)1e7;
    return true;
}

static int vt_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
    const struct sql_vtab *vt = (struct sql_vtab *)vtab;
    const sql_table *t = vt->table;
    if (group_plan(vt, info))
        return SQLITE_OK;
    int which = index_candidate(vt, info);
    if (which >= 0) {
        int rc = index_plan(vt, info, which);
        if (rc != SQLITE_OK)
            return rc;
        if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
            ((t->ts_ordered && info->aOrderBy[0].iColumn == t->col_ts) ||
             ((t->ts_ordered || !t->big) && t->col_id >= 0 &&
              info->aOrderBy[0].iColumn == t->col_id)))
            info->orderByConsumed = 1; /* a lookup's rows come in scan order */
        return SQLITE_OK;
    }
    char codes[16];
    int n = 0;
    bool bounded = false, narrowed = false, lookup = false, by_id = false;
    for (int i = 0; i < info->nConstraint && n < 15; i++) {
        if (!info->aConstraint[i].usable)
            continue;
        char code = constraint_code(t, info->aConstraint[i].iColumn, info->aConstraint[i].op);
        if (!code)
            continue;
        codes[n++] = code;
        info->aConstraintUsage[i].argvIndex = n;
        info->aConstraintUsage[i].omit = 0;
        bounded |= code == 'c' || code == 'd' || code == 'e';
        narrowed |= code == 'n' || code == 'p' || code == 'u' || code == 't';
        lookup |= native_lookup(t, code);
        by_id |= code == 'i';
    }
    codes[n] = 0;
    /* the codes, then the columns the statement reads (the scan computes only those) */
    info->idxStr = sqlite3_mprintf("%s:%llx", codes, (unsigned long long)info->colUsed);
    if (!info->idxStr)
        return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    if (lookup) {
        info->estimatedCost = 10;
        info->estimatedRows = 10;
        if (by_id && !t->big)
            info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    } else if (t->big) {
        /* a pass over the events whatever the constraints; fewer rows for SQLite with them */
        info->estimatedCost = 1e12 * (bounded ? 0.5 : 1) * (narrowed ? 0.5 : 1);
        info->estimatedRows = (sqlite3_int64)(1e7 * (narrowed ? 0.1 : 1));
    } else {
        info->estimatedCost = 1000;
        info->estimatedRows = 1000;
    }
    /* rows already in the order asked */
    if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
        ((t->ts_ordered && info->aOrderBy[0].iColumn == t->col_ts) ||
         ((t->ts_ordered || !t->big) && t->col_id >= 0 && info->aOrderBy[0].iColumn == t->col_id)))
        info->orderByConsumed = 1;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
    struct sql_vtab *vt = (struct sql_vtab *)vtab;
    sql_cursor *c = calloc(1, sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    c->db = vt->db;
    c->table = vt->table;
    c->eof = true;
    c->cols = ~0ull;
    *out = &c->base;
    return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_scan_unlist(c);
    sql_lookup_end(c);
    if (c->table->close)
        c->table->close(c);
    free(c->q.name);
    free(c);
    return SQLITE_OK;
}

/* A failure of the table's scan, told to SQLite with the database's message. */
static int failed(sql_cursor *c, int status)
{
    sqlite3_vtab *vtab = c->base.pVtab;
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg =
        sqlite3_mprintf("%s", c->db->message ? c->db->message : "cannot read the trace");
    c->eof = true;
    return status == TG_ERR_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
}

/* An integer bound from a constraint's value: the first integer >= (up) or <= the value.
 * false when the value is not a number (SQLite checks such constraints itself). */
static bool int_bound(sqlite3_value *v, bool up, int64_t *out)
{
    int type = sqlite3_value_numeric_type(v);
    if (type == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(v);
        return true;
    }
    if (type != SQLITE_FLOAT)
        return false;
    double d = up ? ceil(sqlite3_value_double(v)) : floor(sqlite3_value_double(v));
    if (!(d > -9.2e18 && d < 9.2e18))
        return false;
    *out = (int64_t)d;
    return true;
}

static void set_eq(sql_query *q, int64_t *slot, sqlite3_value *v)
{
    int64_t lo, hi;
    if (sqlite3_value_type(v) == SQLITE_NULL) {
        q->empty = true;
        return;
    }
    if (!int_bound(v, true, &lo) || !int_bound(v, false, &hi))
        return;
    if (lo != hi || (*slot != SQL_ANY && *slot != lo))
        q->empty = true;
    *slot = lo;
}

void sql_query_all(sql_query *q)
{
    *q = (sql_query){.ts_lo = INT64_MIN,
                     .ts_hi = INT64_MAX,
                     .cpu = SQL_ANY,
                     .utid = SQL_ANY,
                     .id = SQL_ANY,
                     .track = SQL_ANY,
                     .argset = SQL_ANY};
}

static void read_constraints(sql_cursor *c, const char *codes, int argc, sqlite3_value **argv)
{
    sql_query *q = &c->q;
    free(q->name);
    sql_query_all(q);
    for (int i = 0; i < argc && codes && codes[i]; i++) {
        sqlite3_value *v = argv[i];
        int64_t x;
        if (sqlite3_value_type(v) == SQLITE_NULL) {
            q->empty = true; /* nothing compares with NULL */
            continue;
        }
        switch (codes[i]) {
        case 'a':
            if (int_bound(v, false, &x))
                q->ts_lo = x == INT64_MAX ? x : (x + 1 > q->ts_lo ? x + 1 : q->ts_lo);
            break;
        case 'b':
            if (int_bound(v, true, &x) && x > q->ts_lo)
                q->ts_lo = x;
            break;
        case 'c':
            if (int_bound(v, true, &x))
                q->ts_hi = x == INT64_MIN ? x : (x - 1 < q->ts_hi ? x - 1 : q->ts_hi);
            break;
        case 'd':
            if (int_bound(v, false, &x) && x < q->ts_hi)
                q->ts_hi = x;
            break;
        case 'e': {
            int64_t lo, hi;
            if (int_bound(v, true, &lo) && int_bound(v, false, &hi)) {
                if (lo > q->ts_lo)
                    q->ts_lo = lo;
                if (hi < q->ts_hi)
                    q->ts_hi = hi;
            }
            break;
        }
        case 'n':
            if (sqlite3_value_type(v) == SQLITE_TEXT) {
                const char *s = (const char *)sqlite3_value_text(v);
                if (q->name && s && strcmp(q->name, s) != 0)
                    q->empty = true;
                else if (!q->name && s)
                    q->name = strdup(s);
            }
            break;
        case 'p': set_eq(q, &q->cpu, v); break;
        case 'u': set_eq(q, &q->utid, v); break;
        case 'i': set_eq(q, &q->id, v); break;
        case 't': set_eq(q, &q->track, v); break;
        case 's': set_eq(q, &q->argset, v); break;
        default: break;
        }
    }
    if (q->ts_lo > q->ts_hi)
        q->empty = true;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx, const char *codes, int argc,
                     sqlite3_value **argv)
{
    (void)idx;
    sql_cursor *c = (sql_cursor *)cur;
    c->rowid = 0;
    c->eof = false;
    sql_scan_unlist(c);
    int key;
    unsigned long long cols;
    bool grouped = codes && codes[0] == '@' && argc == 0;
    if ((codes && codes[0] == '#' && argc == 1) || grouped) {
        int rc = 0;
        if (c->plan != codes) { /* the plan's index, found once per plan */
            if (sscanf(codes + 1, "%d:%llx", &key, &cols) != 2)
                return SQLITE_INTERNAL;
            rc = sql_index_get(c->db, c->table, key, cols, grouped, &c->plan_ix);
            c->plan = rc >= 0 ? codes : NULL;
        }
        if (rc >= 0)
            rc = sql_lookup_start(c, c->plan_ix, grouped ? NULL : argv[0]);
        if (rc >= 0)
            rc = sql_lookup_next(c);
        return rc < 0 ? failed(c, rc) : SQLITE_OK;
    }
    sql_lookup_end(c);
    read_constraints(c, codes, argc, argv);
    const char *used = codes ? strchr(codes, ':') : NULL;
    c->cols = used ? strtoull(used + 1, NULL, 16) : ~0ull;
    /* every row of a table read from the events: from an index that has them, else a pass
     * that reads on from an index built while it runs */
    bool every_row = c->table->big && used == codes;
    sql_index *ix = every_row ? sql_index_covering(c->db, c->table, c->cols) : NULL;
    if (ix) {
        if (c->table->close)
            c->table->close(c);
        sql_lookup_rows_from(c, ix, 0);
        int rc = sql_lookup_next(c);
        return rc < 0 ? failed(c, rc) : SQLITE_OK;
    }
    int rc = c->table->filter(c);
    if (rc < 0)
        return failed(c, rc);
    if (c->eof)
        return SQLITE_OK;
    rc = c->table->next(c);
    if (rc >= 0 && every_row && !c->eof)
        sql_scan_list(c);
    return rc < 0 ? failed(c, rc) : SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    if (c->adopt) { /* an index holds every row now: read on from there */
        sql_index *ix = c->adopt;
        sql_scan_unlist(c);
        if (c->table->close)
            c->table->close(c);
        sql_lookup_rows_from(c, ix, (size_t)c->rowid + 1);
    }
    if (c->look.ix) {
        int rc = sql_lookup_next(c);
        return rc < 0 ? failed(c, rc) : SQLITE_OK;
    }
    c->rowid++;
    int rc = c->table->next(c);
    if (c->eof)
        sql_scan_unlist(c);
    return rc < 0 ? failed(c, rc) : SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *cur) { return ((sql_cursor *)cur)->eof; }

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    const sql_val *v = &((sql_cursor *)cur)->row[i];
    switch (v->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, v->u.i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, v->u.d); break;
    case SQLITE_TEXT:
        sqlite3_result_text(ctx, v->u.s, v->len, v->copy ? SQLITE_TRANSIENT : SQLITE_STATIC);
        break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((sql_cursor *)cur)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module module = {
    .iVersion = 0,
    /* eponymous (`SELECT ... FROM slice` needs no CREATE), and created in the main schema by
     * tg_sql_open so that sqlite_schema and PRAGMA table_list show it */
    .xCreate = vt_connect,
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};

/* Each table also in the main schema (CREATE VIRTUAL TABLE slice USING slice(id INTEGER,
 * ...)), as sqlite3 shows a database's tables: an eponymous table is in no schema, so
 * sqlite_schema, PRAGMA table_list and sqlite3's .schema would not list it.  The scans are
 * the same; one statement in one transaction, so opening stays as quick. */
static int declare_tables(sqlite3 *sqlite)
{
    sqlite3_str *ddl = sqlite3_str_new(sqlite);
    sqlite3_str_appendall(ddl, "BEGIN;");
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; (pass ? sql_analysis_tables : sql_tables)[i]; i++) {
            const sql_table *t = (pass ? sql_analysis_tables : sql_tables)[i];
            sqlite3_str_appendf(ddl, "CREATE VIRTUAL TABLE main.%s USING %s(%s);", t->name, t->name,
                                t->columns);
        }
    sqlite3_str_appendall(ddl, "COMMIT;");
    char *sql = sqlite3_str_finish(ddl);
    if (!sql)
        return SQLITE_NOMEM;
    int rc = sqlite3_exec(sqlite, sql, NULL, NULL, NULL);
    sqlite3_free(sql);
    return rc;
}

int sql_vtab_register(sql_db *db)
{
    for (size_t i = 0; sql_tables[i]; i++) {
        struct sql_module *m = malloc(sizeof *m);
        if (!m) {
            if (i == 0)
                sql_db_destroy(db);
            return SQLITE_NOMEM;
        }
        *m = (struct sql_module){.db = db, .table = sql_tables[i], .owner = i == 0};
        /* on failure SQLite calls module_free itself (the first one frees the state) */
        int rc = sqlite3_create_module_v2(db->sqlite, sql_tables[i]->name, &module, m, module_free);
        if (rc != SQLITE_OK)
            return rc;
    }
    for (size_t i = 0; sql_analysis_tables[i]; i++) {
        struct sql_module *m = malloc(sizeof *m);
        if (!m)
            return SQLITE_NOMEM;
        *m = (struct sql_module){.db = db, .table = sql_analysis_tables[i]};
        int rc = sqlite3_create_module_v2(db->sqlite, sql_analysis_tables[i]->name, &module, m,
                                          module_free);
        if (rc != SQLITE_OK)
            return rc;
    }
    return declare_tables(db->sqlite);
}
