/* sql_internal.h - what the files of the SQL layer share: the database's state, the passes
 * over the events, the registry of threads, processes and tracks, and the virtual-table
 * machinery each table plugs into.
 *
 * The tables are SQLite virtual tables whose rows come from a pass over the merged events
 * (a scan), built as SQLite asks for the next row: nothing of the trace is copied into the
 * database.  Every pass starts at the first event and sees the same events in the same
 * order, so an event's place in that order (its ordinal) is its id in every table, and
 * the kernel model (core/kernel_model.h), which every pass feeds, numbers threads,
 * processes and tracks in the order the events create them: whichever pass first gets that
 * far writes them (the frontier), and every pass agrees on the numbers.  A stream has one read position, so a pass takes a set of its own from a
 * pool (the caller's set first, then the same paths opened again). */
#ifndef TG_SQL_INTERNAL_H
#define TG_SQL_INTERNAL_H

#include "core/consumer.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#define SQL_ANY INT64_MIN /* no constraint on an integer column */

typedef struct sql_db sql_db;
typedef struct sql_cursor sql_cursor;
typedef struct sql_index sql_index;

/* ---- one pass over the events (sql_scan.c) ---------------------------------------------- */

typedef struct sql_scan {
    sql_db *db;
    tg_set *set; /* taken from the pool */
    tg_iter *it;
    int64_t ordinal; /* of the event handed out last; -1 before the first */
    int64_t last_ns; /* time of the event handed out last, on the timeline */
    bool ended;      /* every event was read */
} sql_scan;

/* Starts a pass at the first event.  0, or a negative status with a message in db. */
int sql_scan_open(sql_db *db, sql_scan *s);
/* 1 with *ev (valid until the next call), 0 at the end, or a negative status. */
int sql_scan_next(sql_scan *s, const tg_event **ev);
/* Ends the pass: its damage joins the database's errors, its set goes back to the pool. */
void sql_scan_close(sql_scan *s);

/* ---- the registry: the model, the counts, the sched classes (sql_registry.c) ------------ */

/* What the tables need to know about an event class, by its set-wide number (the same in
 * every set of the pool). */
enum sql_role { SQL_ROLE_UNKNOWN = 0, SQL_ROLE_NONE, SQL_ROLE_SWITCH, SQL_ROLE_WAKEUP };
enum sql_field {
    SQL_F_PREV_TID, /* prev_pid | prev_tid */
    SQL_F_PREV_COMM,
    SQL_F_PREV_PRIO,
    SQL_F_PREV_STATE,
    SQL_F_NEXT_TID, /* next_pid | next_tid */
    SQL_F_NEXT_COMM,
    SQL_F_NEXT_PRIO,
    SQL_F_TID, /* sched_wakeup: pid | tid */
    SQL_F_COMM,
    SQL_F_COUNT
};
typedef struct sql_class {
    uint8_t role;              /* enum sql_role */
    int8_t field[SQL_F_COUNT]; /* payload index; -1 absent (valid once role is known) */
} sql_class;

/* Counts ev (the event at ordinal, at time ts on the timeline) for trace_bounds and stats:
 * every pass calls it for the event at the frontier (the first event no pass got to before).
 * 0. */
int sql_registry_see(sql_db *db, const tg_event *ev, int64_t ordinal, int64_t ts);
/* Reads every event once when no pass has (so the model holds every thread, process and
 * track).  0 or a negative status. */
int sql_registry_complete(sql_db *db);
/* The integer in payload field index of ev, or SQL_ANY (no such field, not an integer). */
int64_t sql_int_field(const tg_event *ev, int index);
/* The class's role and field places, found from its first event. */
const sql_class *sql_class_of(sql_db *db, const tg_event *ev);
int sql_registry_init(sql_db *db);
void sql_registry_free(sql_db *db);

/* ---- the database (sql_db.c) ------------------------------------------------------------ */

struct sql_pooled {
    tg_set *set;
    bool busy, used, owned, rereadable;
};

struct sql_db {
    sqlite3 *sqlite;
    tg_set *set; /* the caller's */
    const tg_filter *filter;
    const tg_options *opts;
    struct sql_pooled *pool;
    size_t n_pool, cap_pool;
    tg_error *errors; /* damage met by the passes, each message once */
    size_t n_errors;
    char *message; /* the last failure of a table, for SQLite */
    /* interned strings */
    char **strs;
    size_t n_strs, cap_strs;
    tg_hash str_index;
    /* the registry */
    int64_t seen;  /* events registered: the frontier */
    bool complete; /* a pass read every event */
    int64_t first_ns, last_ns, n_events, n_lost_events, lost_records, n_counter_samples;
    tg_kmodel *model; /* threads, processes, tracks: fed by every pass */
    sql_class *classes;
    size_t n_classes, cap_classes;
    /* the ftrace_event cursors on a row, for args lookups by arg_set_id */
    sql_cursor *live;
    sql_scan *arg_scan;        /* the pass args lookups read forward when no cursor has the event */
    const tg_event *arg_ev;    /* its event now */
    struct arg_set *arg_cache; /* the args EXTRACT_ARG flattened last */
    tg_buf *tmp;               /* scratch text */
    sql_index **indexes;       /* the lookups' indexes built so far (sql_index.c) */
    sql_cursor *scans;         /* the cursors scanning every row of a table read from events */
    size_t n_indexes, cap_indexes;
    struct sql_perf *perf; /* the perf.data tables' rows, once built (sql_perf.c) */
};

const char *sql_intern(sql_db *db, const char *s, size_t n); /* NULL when out of memory */
/* What the traces list of CPU cpu (the first trace that does), NULL nothing; the cpu table's
 * arg_set_id of its args is SQL_ARGSET_CPU_BIT | cpu. */
const tg_cpu_info *sql_cpu_info(sql_db *db, int64_t cpu);
#define SQL_ARGSET_CPU_BIT ((int64_t)1 << 41)
/* The arg_set_id of a trace's own arg set i (tg_trace_arg_set) of the set's trace trace. */
#define SQL_ARGSET_TRACE_BIT ((int64_t)1 << 43)
/* The arg_set_id of the args of the process upid (tg_kprocess.args). */
#define SQL_ARGSET_PROCESS_BIT ((int64_t)1 << 44)
#define SQL_ARGSET_TRACE(trace, i) (SQL_ARGSET_TRACE_BIT | (int64_t)(trace) << 24 | (int64_t)(i))
/* A track's dimension args: the ones its trace gave it, else those trace_processor gives a
 * thread's or process's track (utid, upid: into *own).  Their count; *dims points at them. */
size_t sql_track_dims(const tg_ktrack *t, tg_value *own, const tg_value **dims);
/* Whether the track table lists track t (not a thread's track that holds no slice). */
bool sql_track_listed(const tg_kmodel *m, const tg_ktrack *t);
/* The state of a database tg_sql_open made (NULL for another SQLite database). */
sql_db *sql_db_of(sqlite3 *sqlite);
/* Frees the state: the destructor of the module that owns it (sql_vtab.c). */
void sql_db_destroy(void *p);
tg_set *sql_pool_take(sql_db *db, tg_error **err);
void sql_pool_give(sql_db *db, tg_set *set);
/* Keeps the passes' damage, each message once. */
void sql_keep_errors(sql_db *db, const tg_error *list);
/* Keeps the message of a failure a table reports to SQLite (err's, which it frees, or the
 * status's) and returns status. */
int sql_fail(sql_db *db, int status, tg_error *err);

/* The name of a frame: its symbol, else its address as the tracer's tool prints it
 * ("<7f00ab>" for uftrace, "0x7f00ab" otherwise); interned. */
const char *sql_frame_name(sql_db *db, const tg_call *call);

/* ---- virtual tables (sql_vtab.c) --------------------------------------------------------- */

/* A column's value, ready for sqlite3_result_*. */
typedef struct sql_val {
    uint8_t type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
    bool copy;    /* the text must be copied (it lives in a record about to move) */
    int len;      /* text length, -1 NUL-terminated */
    union {
        int64_t i;
        double d;
        const char *s;
    } u;
} sql_val;

/* The constraints a scan was started with (inclusive ts bounds). */
typedef struct sql_query {
    int64_t ts_lo, ts_hi;
    char *name;                           /* NULL: any */
    int64_t cpu, utid, id, track, argset; /* SQL_ANY: any */
    bool empty;                           /* no row can match */
} sql_query;

typedef struct sql_table {
    const char *name;
    const char *columns; /* the column list of CREATE TABLE x(...) */
    int n_cols;
    /* the columns whose constraints the scan applies (-1 none) */
    int8_t col_ts, col_name, col_cpu, col_utid, col_id, col_track, col_argset;
    bool big;        /* rows come from a pass over the events */
    bool ts_ordered; /* rows come in (ts, id) order */
    int (*filter)(sql_cursor *c);
    int (*next)(sql_cursor *c); /* the next row into c->row, or c->eof */
    void (*close)(sql_cursor *c);
} sql_table;

#define SQL_MAX_COLS 24

/* A cursor's lookup through an index instead of its table's scan (sql_index.c). */
struct sql_lookup {
    sql_index *ix;          /* NULL: the cursor scans */
    size_t pos, end, other; /* in memory: the key's rows left, then the other keys' rows */
    size_t group;           /* a GROUP BY's walk: the group it is in (pos: the row) */
    bool in_order;          /* a scan read from the index: every row from pos, in row order */
    sqlite3_stmt *stmt;     /* spilled: the query of the key's rows */
};

struct sql_cursor {
    sqlite3_vtab_cursor base;
    sql_db *db;
    const sql_table *table;
    sql_query q;
    sql_val row[SQL_MAX_COLS];
    int64_t rowid;
    bool eof;
    void *priv; /* the table's, freed by its close */
    /* ftrace_event cursors on a row: the event, for args lookups */
    sql_cursor *next_live;
    const tg_event *live_ev;
    int64_t live_id;
    struct sql_lookup look;
    uint64_t cols;    /* the columns the statement reads (SQLite's colUsed; bit 63: 63 and up) */
    bool any_order;   /* the reader cannot see the rows' order (a per-name sum): a table may
                       * hand them out as they come instead of in id order */
    const char *plan; /* the lookup plan (idxStr) whose index plan_ix is */
    sql_index *plan_ix;
    /* a scan of every row (no constraint): the others of its table, so that an index built
     * while it runs keeps its columns too and it reads on from there (sql_index.c) */
    sql_cursor *next_scan;
    sql_index *adopt; /* that index, once built: the scan's next rows come from it */
};

static inline void sql_null(sql_val *v) { v->type = SQLITE_NULL; }
static inline void sql_int(sql_val *v, int64_t i)
{
    v->type = SQLITE_INTEGER;
    v->u.i = i;
}
static inline void sql_int_or_null(sql_val *v, int64_t i)
{
    if (i == SQL_ANY)
        v->type = SQLITE_NULL;
    else
        sql_int(v, i);
}
static inline void sql_text(sql_val *v, const char *s)
{
    if (!s) {
        v->type = SQLITE_NULL;
        return;
    }
    v->type = SQLITE_TEXT;
    v->u.s = s;
    v->len = -1;
    v->copy = false;
}

/* Whether the statement reads column col of the cursor's rows (a scan may leave the others
 * unset). */
static inline bool sql_col_used(const sql_cursor *c, int col)
{
    return c->cols >> (col < 63 ? col : 63) & 1;
}

/* Whether ts (an event's or a row's start) passes the query's bounds. */
static inline bool sql_ts_in(const sql_query *q, int64_t ts)
{
    return ts >= q->ts_lo && ts <= q->ts_hi;
}

/* The tables, one definition each in their files. */
extern const sql_table sql_table_slice, sql_table_ftrace_event, sql_table_counter, sql_table_args,
    sql_table_thread, sql_table_process, sql_table_thread_track, sql_table_counter_track,
    sql_table_trace, sql_table_stats, sql_table_sched_slice, sql_table_thread_state,
    sql_table_trace_bounds, sql_table_track, sql_table_cpu, sql_table_cpu_track,
    sql_table_process_track, sql_table_cpu_counter_track, sql_table_flow, sql_table_perf_sample,
    sql_table_stack_profile_callsite, sql_table_stack_profile_frame,
    sql_table_stack_profile_mapping, sql_table_process_counter_track, sql_table_metadata,
    sql_table_perf_session;

/* Frees the perf.data tables' rows (sql_perf.c), built on their first query. */
void sql_perf_free(sql_db *db);

/* The small tables' walk over records 0..n (sql_meta.c): the records of the cursor's scan,
 * or record id alone (a lookup; SQL_ANY: all).  sql_reg_next gives the next index, SIZE_MAX
 * at the end (c->eof set); sql_reg_close is their close. */
int sql_reg_filter(sql_cursor *c, size_t n, int64_t id);
size_t sql_reg_next(sql_cursor *c);
void sql_reg_close(sql_cursor *c);

/* The query that constrains nothing (no bounds, no equalities). */
void sql_query_all(sql_query *q);

/* ---- lookups by join columns (sql_index.c) ----------------------------------------------- */

/* The join columns of t (bit i: column i): id, utid, upid and every *_id, the columns an
 * equality looks up through an index, and the export indexes. */
uint64_t sql_join_columns(const sql_table *t);
/* The name of column col of t as its column list declares it (*n bytes), or NULL. */
const char *sql_column_name(const sql_table *t, int col, size_t *n);
/* The index of t on column key keeping at least the columns cols, built on first use (one
 * pass of the table); grouped: every row sorted by key (for a GROUP BY), else the rows for
 * lookups.  0 or a negative status with a message in db. */
int sql_index_get(sql_db *db, const sql_table *t, int key, uint64_t cols, bool grouped,
                  sql_index **out);
void sql_index_free_all(sql_db *db);
/* Starts c's lookup of the rows whose key equals v (NULL: every row, by key, equal keys
 * together); sql_lookup_next gives them (c->row, c->rowid, c->eof), a key's rows in scan
 * order; sql_lookup_end frees what the lookup holds.  0 or a negative status with a message
 * in db. */
int sql_lookup_start(sql_cursor *c, sql_index *ix, sqlite3_value *v);
int sql_lookup_next(sql_cursor *c);
void sql_lookup_end(sql_cursor *c);
/* An index of t in memory keeping at least the columns cols (any key), or NULL: its rows are
 * every row of t in scan order, so a scan of every row can read them instead of a pass. */
sql_index *sql_index_covering(sql_db *db, const sql_table *t, uint64_t cols);
/* Starts c's reading of every row of ix from row first on, in row order (a scan of every
 * row served by the index); sql_lookup_next gives them. */
void sql_lookup_rows_from(sql_cursor *c, sql_index *ix, size_t first);
/* c scans every row of its table: until it ends, an index of that table built keeps c's
 * columns too and c reads on from it.  sql_scan_unlist ends that. */
void sql_scan_list(sql_cursor *c);
void sql_scan_unlist(sql_cursor *c);

/* Registers every table as an eponymous virtual table of db.  SQLite's status. */
int sql_vtab_register(sql_db *db);
/* The list of tables, NULL-terminated (for the export). */
extern const sql_table *const sql_tables[];
/* lttng-analyses' answers (sql_analysis.c: analysis_cputop, ...), NULL-terminated: registered
 * beside the others, not exported (each scan runs its analysis over the events). */
extern const sql_table *const sql_analysis_tables[];

/* A statement that failed to prepare: SQLite's message as a usage error, with the nearest
 * table names when it names no table there is (sql_names.c). */
int sql_prepare_failed(struct sqlite3 *sqlite, tg_error **err);

/* ---- the per-name summary (sql_summary.c) ---------------------------------------------- */

/* When *st is a GROUP BY name over slice or ftrace_event of the summary's family, reads the
 * table once into a summary per name and puts in *st (finalizing the first) the statement
 * rewritten over it, with the same answers: true; else leaves *st (false).  After running a
 * statement routed so, sql_summary_end drops the summary. */
bool sql_summary_route(struct sqlite3 *sqlite, struct sqlite3_stmt **st);
void sql_summary_end(struct sqlite3 *sqlite);

/* ---- args (sql_args.c) ------------------------------------------------------------------- */

/* EXTRACT_ARG(arg_set_id, key) as a SQL function of db.  SQLite's status. */
int sql_args_register(sql_db *db);
/* TRACE_START() and TRACE_END() (Perfetto's): the first and last event's ts.  SQLite's status. */
int sql_meta_register(sql_db *db);
/* STR_SPLIT, REGEXP and HASH (sql_functions.c).  SQLite's status. */
int sql_functions_register(sql_db *db);
/* ancestor_slice(id) and descendant_slice(id) (sql_ancestry.c).  SQLite's status. */
int sql_ancestry_register(sql_db *db);
/* The event whose args set is argset: from a cursor on it, else a pass read forward to it.
 * NULL when there is none (or with *rc < 0 on failure). */
const tg_event *sql_args_event(sql_db *db, int64_t argset, int *rc);
void sql_args_cache_free(sql_db *db);

#endif
