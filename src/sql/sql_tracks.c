/* sql_tracks.c - the tracks and CPUs of the kernel model as Perfetto's tables: track (every
 * track), thread_track, process_track, cpu_track (a CPU's slices: IRQs, softirqs),
 * counter_track (every counter track), cpu_counter_track (cpufreq, cpuidle),
 * process_counter_track (the counter tracks of a process and of no thread) and cpu.
 *
 * The model hands track ids out in one sequence, in the order the events make the tracks (a
 * thread's track when the thread is made, a counter or per-CPU track at its first value or
 * slice), so a track's id is its place in that sequence and every table of tracks is a walk
 * over one list with a type filter; a lookup by id reads one record.  Rows are complete once
 * a pass has read every event (the first scan reads the events once if no pass has). */
#include "sql/sql_internal.h"

/* Perfetto's track.type of each kind. */
static const char *type_name(tg_ktrack_type type)
{
    switch (type) {
    case TG_KTRACK_THREAD: return "thread_execution";
    case TG_KTRACK_COUNTER: return "thread_counter";
    case TG_KTRACK_CPU_IRQ: return "cpu_irq";
    case TG_KTRACK_CPU_SOFTIRQ: return "cpu_softirq";
    case TG_KTRACK_CPU_FREQ: return "cpu_frequency";
    case TG_KTRACK_CPU_IDLE: return "cpu_idle";
    case TG_KTRACK_CPU_COUNTER: return "cpu_counter";
    case TG_KTRACK_PROCESS: return "process";
    case TG_KTRACK_GLOBAL: return "global";
    }
    return NULL;
}

enum track_family {
    ANY_TRACK,
    THREAD_TRACK,
    PROCESS_TRACK,
    CPU_TRACK,
    COUNTER_TRACK,
    CPU_COUNTER,
    PROCESS_COUNTER
};

static bool in_family(const tg_ktrack *t, enum track_family f)
{
    switch (f) {
    case ANY_TRACK: return true;
    case THREAD_TRACK: return t->type == TG_KTRACK_THREAD;
    case PROCESS_TRACK: return t->type == TG_KTRACK_PROCESS;
    case CPU_TRACK: return !t->is_counter && t->cpu >= 0;
    case COUNTER_TRACK: return t->is_counter;
    case CPU_COUNTER: return t->is_counter && t->cpu >= 0;
    case PROCESS_COUNTER: return t->is_counter && t->upid >= 0 && t->utid < 0 && t->cpu < 0;
    }
    return false;
}

/* A thread's own track that holds none of its calls: trace_processor makes a thread's track
 * only for the slices on it, so it is no row. */
static bool is_unused_thread_track(const tg_kmodel *m, const tg_ktrack *t)
{
    if (t->type != TG_KTRACK_THREAD || t->has_slices || t->utid < 0)
        return false;
    const tg_kthread *thread = tg_kmodel_thread(m, t->utid);
    return thread && thread->track_id == t->id;
}

static int track_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, tg_kmodel_track_count(c->db->model), c->q.id);
}

/* The next track of the walk in the family (and of the query's thread), or NULL. */
static const tg_ktrack *next_of(sql_cursor *c, enum track_family f)
{
    for (;;) {
        size_t i = sql_reg_next(c);
        if (i == SIZE_MAX)
            return NULL;
        const tg_ktrack *t = tg_kmodel_track(c->db->model, (int64_t)i);
        if (in_family(t, f) && (c->q.utid == SQL_ANY || t->utid == c->q.utid) &&
            !is_unused_thread_track(c->db->model, t))
            return t;
    }
}

bool sql_track_listed(const tg_kmodel *m, const tg_ktrack *t)
{
    return !is_unused_thread_track(m, t);
}

size_t sql_track_dims(const tg_ktrack *t, tg_value *own, const tg_value **dims)
{
    *dims = t->dims;
    if (t->n_dims)
        return t->n_dims;
    bool thread = t->type == TG_KTRACK_THREAD && t->utid >= 0;
    if (!thread && !(t->type == TG_KTRACK_PROCESS && t->upid >= 0))
        return 0;
    *own = (tg_value){.name = thread ? "utid" : "upid",
                      .type = TG_VAL_SINT,
                      .v.s = thread ? t->utid : t->upid,
                      .bits = 64,
                      .base = 10};
    *dims = own;
    return 1;
}

static void put_id(sql_val *v, int64_t id) { sql_int_or_null(v, id >= 0 ? id : SQL_ANY); }

/* The columns every track table begins with: id, name, type, parent_id, source_arg_set_id,
 * machine_id. */
enum { K_ID, K_NAME, K_TYPE, K_PARENT, K_SOURCE_ARGS, K_MACHINE, K_COMMON };
#define COMMON_COLUMNS                                                                             \
    "id INTEGER, name TEXT, type TEXT, parent_id INTEGER, source_arg_set_id INTEGER, "             \
    "machine_id INTEGER, "

static void put_common(sql_val *v, const tg_ktrack *t)
{
    sql_int(&v[K_ID], t->id);
    sql_text(&v[K_NAME], t->name);
    sql_text(&v[K_TYPE], t->type_name ? t->type_name : type_name(t->type));
    put_id(&v[K_PARENT], t->parent_id);
    sql_int_or_null(&v[K_SOURCE_ARGS], t->n_source_args ? TG_KM_TRACK_ARGSET(t->id, 1) : SQL_ANY);
    put_id(&v[K_MACHINE], t->machine_id);
}

/* The arg set of the dimensions a viewer trace gave the track (sql_args.c finds it). */
static void put_dimension_args(sql_val *v, const tg_ktrack *t)
{
    tg_value own;
    const tg_value *dims;
    sql_int_or_null(v, sql_track_dims(t, &own, &dims) ? TG_KM_TRACK_ARGSET(t->id, 0) : SQL_ANY);
}

#define TRACK_TABLE(table, n, utid_col, next_fn)                                                   \
    .name = table, .n_cols = n, .col_ts = -1, .col_name = -1, .col_cpu = -1, .col_utid = utid_col, \
    .col_id = K_ID, .col_track = -1, .col_argset = -1, .filter = track_filter, .next = next_fn,    \
    .close = sql_reg_close

/* ---- track: every track ---------------------------------------------------------------------- */

enum { TR_DIMENSION_ARGS = K_COMMON, TR_EVENT_TYPE, TR_UNIT, TR_UTID, TR_UPID, TR_CPU, TR_COUNT };

static int track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, ANY_TRACK);
    if (!t)
        return 0;
    sql_val *v = c->row;
    put_common(v, t);
    put_dimension_args(&v[TR_DIMENSION_ARGS], t);
    sql_text(&v[TR_EVENT_TYPE], t->is_counter ? "counter" : "slice");
    sql_text(&v[TR_UNIT], t->unit);
    put_id(&v[TR_UTID], t->utid);
    put_id(&v[TR_UPID], t->upid);
    put_id(&v[TR_CPU], t->cpu);
    return 0;
}

const sql_table sql_table_track = {
    .columns = COMMON_COLUMNS "dimension_arg_set_id INTEGER, event_type TEXT, counter_unit TEXT, "
                              "utid INTEGER, upid INTEGER, cpu INTEGER",
    TRACK_TABLE("track", TR_COUNT, TR_UTID, track_next)};

/* ---- thread_track, process_track, cpu_track --------------------------------------------------- */

enum { TT_UTID = K_COMMON, TT_COUNT };

static int thread_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, THREAD_TRACK);
    if (!t)
        return 0;
    put_common(c->row, t);
    sql_int(&c->row[TT_UTID], t->utid);
    return 0;
}

const sql_table sql_table_thread_track = {
    .columns = COMMON_COLUMNS "utid INTEGER",
    TRACK_TABLE("thread_track", TT_COUNT, TT_UTID, thread_track_next)};

enum { PT_UPID = K_COMMON, PT_COUNT };

static int process_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, PROCESS_TRACK);
    if (!t)
        return 0;
    put_common(c->row, t);
    put_id(&c->row[PT_UPID], t->upid);
    return 0;
}

const sql_table sql_table_process_track = {
    .columns = COMMON_COLUMNS "upid INTEGER",
    TRACK_TABLE("process_track", PT_COUNT, -1, process_track_next)};

enum { CK_CPU = K_COMMON, CK_COUNT };

static int cpu_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, CPU_TRACK);
    if (!t)
        return 0;
    put_common(c->row, t);
    sql_int(&c->row[CK_CPU], t->cpu);
    return 0;
}

const sql_table sql_table_cpu_track = {.columns = COMMON_COLUMNS "cpu INTEGER",
                                       TRACK_TABLE("cpu_track", CK_COUNT, -1, cpu_track_next)};

/* ---- counter_track, cpu_counter_track ------------------------------------------------------ */

enum { CT_DIMENSION_ARGS = K_COMMON, CT_UNIT, CT_DESCRIPTION, CT_UTID, CT_COUNT };

static int counter_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, COUNTER_TRACK);
    if (!t)
        return 0;
    sql_val *v = c->row;
    put_common(v, t);
    put_dimension_args(&v[CT_DIMENSION_ARGS], t);
    sql_text(&v[CT_UNIT], t->unit);
    sql_null(&v[CT_DESCRIPTION]);
    put_id(&v[CT_UTID], t->utid);
    return 0;
}

const sql_table sql_table_counter_track = {
    .columns = COMMON_COLUMNS "dimension_arg_set_id INTEGER, unit TEXT, description TEXT, "
                              "utid INTEGER",
    TRACK_TABLE("counter_track", CT_COUNT, CT_UTID, counter_track_next)};

enum { CC_UNIT = K_COMMON, CC_DESCRIPTION, CC_CPU, CC_COUNT };

static int cpu_counter_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, CPU_COUNTER);
    if (!t)
        return 0;
    sql_val *v = c->row;
    put_common(v, t);
    sql_text(&v[CC_UNIT], t->unit);
    sql_null(&v[CC_DESCRIPTION]);
    sql_int(&v[CC_CPU], t->cpu);
    return 0;
}

const sql_table sql_table_cpu_counter_track = {
    .columns = COMMON_COLUMNS "unit TEXT, description TEXT, cpu INTEGER",
    TRACK_TABLE("cpu_counter_track", CC_COUNT, -1, cpu_counter_track_next)};

enum { PC_UNIT = K_COMMON, PC_DESCRIPTION, PC_UPID, PC_COUNT };

static int process_counter_track_next(sql_cursor *c)
{
    const tg_ktrack *t = next_of(c, PROCESS_COUNTER);
    if (!t)
        return 0;
    sql_val *v = c->row;
    put_common(v, t);
    sql_text(&v[PC_UNIT], t->unit);
    sql_null(&v[PC_DESCRIPTION]);
    sql_int(&v[PC_UPID], t->upid);
    return 0;
}

const sql_table sql_table_process_counter_track = {
    .columns = COMMON_COLUMNS "unit TEXT, description TEXT, upid INTEGER",
    TRACK_TABLE("process_counter_track", PC_COUNT, -1, process_counter_track_next)};

/* ---- cpu: the CPUs events were on, and those the traces list (tg_cpu_info) ---------------- */

const tg_cpu_info *sql_cpu_info(sql_db *db, int64_t cpu)
{
    for (size_t t = 0; t < tg_set_trace_count(db->set); t++) {
        const tg_trace *trace = tg_set_trace(db->set, t);
        for (size_t i = 0; i < tg_trace_cpu_info_count(trace); i++)
            if (tg_trace_cpu_info(trace, i)->cpu == cpu)
                return tg_trace_cpu_info(trace, i);
    }
    return NULL;
}

enum {
    CPU_ID,
    CPU_UCPU,
    CPU_CPU,
    CPU_CLUSTER,
    CPU_PROCESSOR,
    CPU_MACHINE,
    CPU_CAPACITY,
    CPU_ARGS,
    CPU_COUNT
};

static int cpu_filter(sql_cursor *c)
{
    int rc = sql_registry_complete(c->db);
    return rc < 0 ? rc : sql_reg_filter(c, tg_kmodel_cpu_count(c->db->model), c->q.id);
}

static int cpu_next(sql_cursor *c)
{
    size_t i = sql_reg_next(c);
    if (i == SIZE_MAX)
        return 0;
    sql_val *v = c->row;
    sql_int(&v[CPU_ID], (int64_t)i);
    sql_int(&v[CPU_UCPU], (int64_t)i);
    int32_t cpu = tg_kmodel_cpu(c->db->model, i);
    const tg_cpu_info *info = sql_cpu_info(c->db, cpu);
    sql_int(&v[CPU_CPU], cpu);
    sql_int(&v[CPU_CLUSTER], info && info->cluster_id >= 0 ? info->cluster_id : 0);
    sql_null(&v[CPU_PROCESSOR]);
    if (info && info->processor)
        sql_text(&v[CPU_PROCESSOR], info->processor);
    sql_null(&v[CPU_MACHINE]);
    sql_int_or_null(&v[CPU_CAPACITY], info && info->capacity >= 0 ? info->capacity : SQL_ANY);
    sql_int_or_null(&v[CPU_ARGS], info && info->n_args ? SQL_ARGSET_CPU_BIT | cpu : SQL_ANY);
    return 0;
}

const sql_table sql_table_cpu = {
    .name = "cpu",
    .columns = "id INTEGER, ucpu INTEGER, cpu INTEGER, cluster_id INTEGER, processor TEXT, "
               "machine_id INTEGER, capacity INTEGER, arg_set_id INTEGER",
    .n_cols = CPU_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = CPU_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = cpu_filter,
    .next = cpu_next,
    .close = sql_reg_close,
};
