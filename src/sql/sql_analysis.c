/* sql_analysis.c - lttng-analyses' answers as SQL tables: analysis_cputop,
 * analysis_cputop_cpu, analysis_schedstats, analysis_schedlog, analysis_irqstats,
 * analysis_irqlog, analysis_syscallstats, analysis_iolatencytop, analysis_iolog,
 * analysis_iolatencystats, analysis_iolatencyfreq and analysis_iousage_process, _file,
 * _block, _disk, _netif (traceglot's own names, apart from Perfetto's), so that
 * `traceglot sql` and `traceglot fleet` ask them over many traces.
 *
 * A scan runs the analysis (tg_analyze, its LAMI form, every row: --limit 0, or the largest
 * limit for the I/O ones, whose --limit 0 still shows a row) over a set of the
 * pool and turns the chosen result table's rows into columns: a process cell gives its tid,
 * pid and name, an IRQ its kind, number and name, a time range its begin and end, the others
 * their value; lttng-analyses' unknown values and empty cells are NULL.  The numbers are the
 * ones `traceglot analyze NAME --format json` prints.  These tables are not exported by
 * `convert --to sqlite` (each costs a pass over the events). */
#include "sql/sql_internal.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How an analysis' table becomes columns: the LAMI cells in order, one letter each:
 * p process (tid, pid, name), i irq (hard, nr, name), t time range (begin, end), c cpu, y
 * syscall, disk or interface name, f path, d fd, o a value or else a name, v a value; and
 * what the first column is, from the table's title: the thread (TITLE_TID: the per-thread
 * tables of syscallstats), the subtitle in brackets (TITLE_SUB: "read", "disk: sda") or the
 * table's class (TITLE_CLASS). */
enum title_column { TITLE_NONE, TITLE_TID, TITLE_SUB, TITLE_CLASS };

struct analysis_def {
    const char *analysis, *lami_class, *cells;
    enum title_column title;
    const char *limit; /* NULL: "0" */
};

struct analysis_rows {
    json_object *doc;
    json_object **tables; /* the chosen tables' data arrays */
    size_t n_tables, table, row;
};

static int cells_width(char cell) { return cell == 'p' || cell == 'i' ? 3 : cell == 't' ? 2 : 1; }

static const struct analysis_def *def_of(const sql_table *t);

/* name is one of the classes "a|b" */
static bool class_is(const char *classes, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = classes; p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0)
            return true;
        p = bar ? bar + 1 : NULL;
    }
    return false;
}

static int analysis_filter(sql_cursor *c)
{
    const struct analysis_def *d = def_of(c->table);
    struct analysis_rows *r = c->priv;
    if (!r && !(r = c->priv = calloc(1, sizeof *r)))
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    json_object_put(r->doc);
    free(r->tables);
    memset(r, 0, sizeof *r);
    if (c->q.empty) {
        c->eof = true;
        return 0;
    }
    tg_error *err = NULL;
    tg_set *set = sql_pool_take(c->db, &err);
    if (!set)
        return sql_fail(c->db, err ? tg_error_status(err) : TG_ERR_NOMEM, err);
    tg_options *o = tg_options_new();
    tg_buf *out = tg_buf_new();
    int rc = o && out ? 0 : TG_ERR_NOMEM;
    if (rc == 0 && (tg_options_set(o, "format", "json") < 0 ||
                    tg_options_set(o, "limit", d->limit ? d->limit : "0") < 0))
        rc = TG_ERR_NOMEM;
    if (rc == 0)
        rc = tg_analyze(set, d->analysis, o, out, &err);
    sql_pool_give(c->db, set);
    tg_options_free(o);
    if (rc == 0 && !(r->doc = json_tokener_parse(tg_buf_data(out))))
        rc = TG_ERR_NOMEM;
    tg_buf_free(out);
    if (rc < 0)
        return sql_fail(c->db, rc, err);
    tg_error_free(err);
    json_object *results = json_object_object_get(r->doc, "results");
    size_t n = results ? json_object_array_length(results) : 0;
    r->tables = calloc(n + 1, sizeof *r->tables);
    if (!r->tables)
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    for (size_t i = 0; i < n; i++) {
        json_object *t = json_object_array_get_idx(results, i);
        json_object *cls = json_object_object_get(t, "class");
        const char *name = json_object_is_type(cls, json_type_string)
                               ? json_object_get_string(cls)
                               : json_object_get_string(json_object_object_get(cls, "inherit"));
        if (name && class_is(d->lami_class, name))
            r->tables[r->n_tables++] = t;
    }
    c->eof = false;
    return 0;
}

static void put_value(sql_val *v, json_object *cell, const char *key)
{
    json_object *x = cell ? json_object_object_get(cell, key) : NULL;
    if (!x)
        sql_null(v);
    else if (json_object_is_type(x, json_type_int))
        sql_int(v, json_object_get_int64(x));
    else if (json_object_is_type(x, json_type_boolean))
        sql_int(v, json_object_get_boolean(x));
    else if (json_object_is_type(x, json_type_double)) {
        v->type = SQLITE_FLOAT;
        v->u.d = json_object_get_double(x);
    } else
        sql_text(v, json_object_get_string(x));
}

static int analysis_next(sql_cursor *c)
{
    const struct analysis_def *d = def_of(c->table);
    struct analysis_rows *r = c->priv;
    for (;;) {
        if (r->table >= r->n_tables) {
            c->eof = true;
            return 0;
        }
        json_object *data = json_object_object_get(r->tables[r->table], "data");
        if (r->row < json_object_array_length(data))
            break;
        r->table++;
        r->row = 0;
    }
    json_object *t = r->tables[r->table];
    json_object *row = json_object_array_get_idx(json_object_object_get(t, "data"), r->row++);
    int col = 0;
    if (d->title != TITLE_NONE) {
        json_object *cls = json_object_object_get(t, "class");
        const char *title = json_object_get_string(json_object_object_get(cls, "title"));
        const char *p = title ? strstr(title, "TID: ") : NULL;
        const char *open = title ? strrchr(title, '[') : NULL;
        size_t n = open ? strlen(open) : 0;
        if (d->title == TITLE_TID && p)
            sql_int(&c->row[col], strtoll(p + 5, NULL, 10));
        else if (d->title == TITLE_SUB && n >= 2 && open[n - 1] == ']') {
            char sub[256];
            snprintf(sub, sizeof sub, "%.*s", (int)(n - 2), open + 1);
            sql_text(&c->row[col], sub);
        } else if (d->title == TITLE_CLASS)
            sql_text(&c->row[col],
                     json_object_is_type(cls, json_type_string)
                         ? json_object_get_string(cls)
                         : json_object_get_string(json_object_object_get(cls, "inherit")));
        else
            sql_null(&c->row[col]);
        col++;
    }
    for (size_t k = 0; d->cells[k]; k++) {
        json_object *cell = json_object_array_get_idx(row, k);
        const char *cls =
            cell ? json_object_get_string(json_object_object_get(cell, "class")) : NULL;
        if (cls && strcmp(cls, "unknown") == 0)
            cell = NULL;
        switch (d->cells[k]) {
        case 'p':
            put_value(&c->row[col], cell, "tid");
            put_value(&c->row[col + 1], cell, "pid");
            put_value(&c->row[col + 2], cell, "name");
            break;
        case 'i':
            put_value(&c->row[col], cell, "hard");
            put_value(&c->row[col + 1], cell, "nr");
            put_value(&c->row[col + 2], cell, "name");
            break;
        case 't':
            put_value(&c->row[col], cell ? json_object_object_get(cell, "begin") : NULL, "value");
            put_value(&c->row[col + 1], cell ? json_object_object_get(cell, "end") : NULL, "value");
            break;
        case 'c': put_value(&c->row[col], cell, "id"); break;
        case 'y': put_value(&c->row[col], cell, "name"); break;
        case 'f': put_value(&c->row[col], cell, "path"); break;
        case 'd': put_value(&c->row[col], cell, "fd"); break;
        case 'o':
            put_value(&c->row[col], cell,
                      cell && json_object_object_get(cell, "value") ? "value" : "name");
            break;
        default: put_value(&c->row[col], cell, "value"); break;
        }
        col += cells_width(d->cells[k]);
    }
    c->rowid++;
    return 0;
}

static void analysis_close(sql_cursor *c)
{
    struct analysis_rows *r = c->priv;
    if (r) {
        json_object_put(r->doc);
        free(r->tables);
        free(r);
    }
    c->priv = NULL;
}

#define PROC(x) #x "_tid INTEGER, " #x "_pid INTEGER, " #x "_name TEXT"
#define DUR_STATS "count INTEGER, min REAL, avg REAL, max REAL, stdev REAL"

#define ANALYSIS_TABLE(id, cols, n)                                                                \
    const sql_table sql_table_analysis_##id = {                                                    \
        .name = "analysis_" #id,                                                                   \
        .columns = cols,                                                                           \
        .n_cols = n,                                                                               \
        .col_ts = -1,                                                                              \
        .col_name = -1,                                                                            \
        .col_cpu = -1,                                                                             \
        .col_utid = -1,                                                                            \
        .col_id = -1,                                                                              \
        .col_track = -1,                                                                           \
        .col_argset = -1,                                                                          \
        .filter = analysis_filter,                                                                 \
        .next = analysis_next,                                                                     \
        .close = analysis_close,                                                                   \
    }

ANALYSIS_TABLE(cputop, PROC(thread) ", migrations INTEGER, priorities TEXT, usage REAL", 6);
ANALYSIS_TABLE(cputop_cpu, "cpu INTEGER, usage REAL", 2);
ANALYSIS_TABLE(schedstats, PROC(thread) ", " DUR_STATS ", priorities TEXT", 9);
ANALYSIS_TABLE(schedlog,
               "wakeup_ts INTEGER, switch_ts INTEGER, latency INTEGER, prio INTEGER, "
               "cpu INTEGER, " PROC(wakee) ", " PROC(waker),
               11);
ANALYSIS_TABLE(irqstats,
               "hard INTEGER, nr INTEGER, name TEXT, " DUR_STATS
               ", raise_count INTEGER, raise_min REAL, raise_avg REAL, raise_max REAL, "
               "raise_stdev REAL",
               13);
ANALYSIS_TABLE(irqlog,
               "ts INTEGER, end_ts INTEGER, raised_ts INTEGER, cpu INTEGER, hard INTEGER, "
               "nr INTEGER, name TEXT",
               7);
ANALYSIS_TABLE(syscallstats, "tid INTEGER, syscall TEXT, " DUR_STATS ", return_values TEXT", 8);
#define IO_CALL                                                                                    \
    "ts INTEGER, end_ts INTEGER, out_of_range INTEGER, duration INTEGER, syscall TEXT, "           \
    "size INTEGER, tid INTEGER, pid INTEGER, name TEXT, path TEXT, fd INTEGER"
ANALYSIS_TABLE(iolatencytop, "category TEXT, " IO_CALL, 12);
ANALYSIS_TABLE(iolog, IO_CALL, 11);
ANALYSIS_TABLE(iolatencystats, "object TEXT, " DUR_STATS, 6);
ANALYSIS_TABLE(iolatencyfreq, "category TEXT, lower REAL, upper REAL, count INTEGER", 4);
ANALYSIS_TABLE(iousage_process,
               "direction TEXT, tid INTEGER, pid INTEGER, name TEXT, size INTEGER, "
               "disk_size INTEGER, net_size INTEGER, unknown_size INTEGER",
               8);
ANALYSIS_TABLE(iousage_file, "direction TEXT, path TEXT, size INTEGER, fd_owners TEXT", 4);
ANALYSIS_TABLE(iousage_block, "direction TEXT, tid INTEGER, pid INTEGER, name TEXT, size INTEGER",
               5);
ANALYSIS_TABLE(iousage_disk, "metric TEXT, disk TEXT, value REAL", 3);
ANALYSIS_TABLE(iousage_netif, "direction TEXT, netif TEXT, size INTEGER", 3);

#define IO_ALL "1000000000" /* the I/O analyses' --limit for every row */

/* the cells of each table, in the order of sql_analysis_tables */
static const struct analysis_def defs[] = {
    {"cputop", "per-process", "pvvv", TITLE_NONE, NULL},
    {"cputop", "per-cpu", "cv", TITLE_NONE, NULL},
    {"schedstats", "per_tid_stats", "pvvvvvv", TITLE_NONE, NULL},
    {"schedlog", "log", "vvvvcpp", TITLE_NONE, NULL},
    {"irqstats", "hard-stats|soft-stats", "ivvvvvvvvvv", TITLE_NONE, NULL},
    {"irqlog", "log", "tvci", TITLE_NONE, NULL},
    {"syscallstats", "per-tid", "yvvvvvv", TITLE_TID, NULL},
    {"iolatencytop", "top-syscall", "tvvyvpfd", TITLE_SUB, IO_ALL},
    {"iolog", "log", "tvvyvpfd", TITLE_NONE, IO_ALL},
    {"iolatencystats", "syscall-latency-stats|disk-latency-stats", "ovvvvv", TITLE_NONE, IO_ALL},
    {"iolatencyfreq", "freq", "vvv", TITLE_SUB, IO_ALL},
    {"iousagetop", "per-process-top", "pvvvv", TITLE_SUB, IO_ALL},
    {"iousagetop", "per-file-top", "fvv", TITLE_SUB, IO_ALL},
    {"iousagetop", "per-process-top-block", "pv", TITLE_SUB, IO_ALL},
    {"iousagetop", "per-disk-top-sector|per-disk-top-request|per-disk-top-rps", "yv", TITLE_CLASS,
     IO_ALL},
    {"iousagetop", "per-netif-top", "yv", TITLE_SUB, IO_ALL},
};

const sql_table *const sql_analysis_tables[] = {
    &sql_table_analysis_cputop,
    &sql_table_analysis_cputop_cpu,
    &sql_table_analysis_schedstats,
    &sql_table_analysis_schedlog,
    &sql_table_analysis_irqstats,
    &sql_table_analysis_irqlog,
    &sql_table_analysis_syscallstats,
    &sql_table_analysis_iolatencytop,
    &sql_table_analysis_iolog,
    &sql_table_analysis_iolatencystats,
    &sql_table_analysis_iolatencyfreq,
    &sql_table_analysis_iousage_process,
    &sql_table_analysis_iousage_file,
    &sql_table_analysis_iousage_block,
    &sql_table_analysis_iousage_disk,
    &sql_table_analysis_iousage_netif,
    NULL,
};

static const struct analysis_def *def_of(const sql_table *t)
{
    for (size_t i = 0; sql_analysis_tables[i]; i++)
        if (sql_analysis_tables[i] == t)
            return &defs[i];
    return &defs[0];
}
