/* sql_registry.c - the threads, processes and tracks the SQL tables number (utid, upid,
 * track ids), and what the tables need to know about each event class.
 *
 * Perfetto numbers threads and processes (utid, upid) and tracks in the order it meets
 * them; so does this registry, in the order of the merged events.  Every pass reads the
 * same events in the same order and calls sql_registry_see for each; only the pass at the
 * frontier (the first to get that far) registers anything, so the numbers do not depend on
 * which table was read first or how far.  Before any event: utid 0 and upid 0 (the idle
 * task, pid 0, as in Perfetto), then the tasks each trace lists (uftrace's task.txt), so a
 * task no event names is still a thread with its name.
 *
 * Names follow the Perfetto writer: a thread is named by LTTng's procname context at its
 * first event, else by the task the trace lists; later by a task-name event (uftrace's COMM
 * records) or the kernel's sched_switch/sched_wakeup comm fields.  A process is named by the
 * trace's process attribute, else by its main thread.  Memory follows the threads, processes
 * and counter tracks, never the events. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- classes ------------------------------------------------------------------------------- */

/* The class name without its system or provider ("sched_switch" of "sched:sched_switch"). */
static const char *base_name(const char *name)
{
    const char *p = strrchr(name, ':');
    const char *q = strrchr(name, '.');
    if (q && (!p || q > p))
        p = q;
    return p ? p + 1 : name;
}

static enum sql_role role_of_name(const char *name)
{
    const char *b = base_name(name);
    if (strcmp(b, "sched_switch") == 0 || strcmp(b, "sched_schedule") == 0)
        return SQL_ROLE_SWITCH;
    if (strcmp(b, "sched_wakeup") == 0 || strcmp(b, "sched_wakeup_new") == 0 ||
        strcmp(b, "sched_waking") == 0 || strcmp(b, "sched_try_wakeup") == 0 ||
        strcmp(b, "sched_wakeup_new_task") == 0)
        return SQL_ROLE_WAKEUP;
    return SQL_ROLE_NONE;
}

static const struct {
    enum sql_field f;
    const char *a, *b; /* the field's names: ftrace's, LTTng's */
} field_names[] = {
    {SQL_F_PREV_TID, "prev_pid", "prev_tid"},
    {SQL_F_PREV_COMM, "prev_comm", NULL},
    {SQL_F_PREV_PRIO, "prev_prio", NULL},
    {SQL_F_PREV_STATE, "prev_state", NULL},
    {SQL_F_NEXT_TID, "next_pid", "next_tid"},
    {SQL_F_NEXT_COMM, "next_comm", NULL},
    {SQL_F_NEXT_PRIO, "next_prio", NULL},
    {SQL_F_TID, "pid", "tid"},
    {SQL_F_COMM, "comm", NULL},
};

const sql_class *sql_class_of(sql_db *db, const tg_event *ev)
{
    static const sql_class none = {.role = SQL_ROLE_NONE};
    if (!ev->cls)
        return &none;
    size_t n = ev->cls->number;
    if (n >= db->n_classes && tg_grow_zeroed(&db->classes, &db->n_classes, &db->cap_classes, n + 1,
                                             sizeof *db->classes) < 0)
        return &none;
    sql_class *c = &db->classes[n];
    if (c->role != SQL_ROLE_UNKNOWN)
        return c;
    c->role = (uint8_t)role_of_name(ev->cls->name);
    for (size_t k = 0; k < SQL_F_COUNT; k++)
        c->field[k] = -1;
    if (c->role == SQL_ROLE_NONE)
        return c;
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 127; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 || !v.name)
            continue;
        for (size_t k = 0; k < sizeof field_names / sizeof *field_names; k++)
            if (strcmp(v.name, field_names[k].a) == 0 ||
                (field_names[k].b && strcmp(v.name, field_names[k].b) == 0))
                c->field[field_names[k].f] = (int8_t)i;
    }
    return c;
}

/* ---- processes and threads ------------------------------------------------------------------ */

static int64_t process_add(sql_db *db, int64_t pid, const tg_trace *trace)
{
    const uint64_t *found = tg_hash_find(&db->proc_by_pid, (uint64_t)pid);
    if (found)
        return (int64_t)*found;
    if (tg_grow(&db->procs, &db->cap_procs, db->n_procs + 1, sizeof *db->procs) < 0)
        return TG_ERR_NOMEM;
    int64_t upid = tg_hash_add_index(&db->proc_by_pid, (uint64_t)pid);
    if (upid < 0)
        return upid;
    sql_process *p = &db->procs[db->n_procs++];
    *p = (sql_process){.pid = pid, .ppid = -1, .start_ts = SQL_ANY, .end_ts = SQL_ANY};
    const tg_process_info *attr = trace ? tg_trace_process(trace) : NULL;
    if (attr && attr->pid == pid) {
        if (attr->name && attr->name[0])
            p->name = sql_intern(db, attr->name, strlen(attr->name));
        if (attr->cmdline && attr->cmdline[0])
            p->cmdline = sql_intern(db, attr->cmdline, strlen(attr->cmdline));
    }
    const tg_task_info *task = trace ? tg_trace_task_find(trace, pid) : NULL;
    if (!p->name && task && task->name && task->name[0])
        p->name = sql_intern(db, task->name, strlen(task->name));
    if (task)
        p->ppid = task->ppid;
    return upid;
}

/* A thread's name; the main thread's names its process too, unless the trace named it. */
static void name_thread(sql_db *db, sql_thread *t, const char *s, size_t n)
{
    if (!n || (t->name && strncmp(t->name, s, n) == 0 && t->name[n] == 0))
        return;
    const char *name = sql_intern(db, s, n);
    if (!name)
        return;
    t->name = name;
    if (t->upid >= 0 && db->procs[t->upid].pid == t->tid)
        db->procs[t->upid].name = name;
}

static void set_process(sql_db *db, sql_thread *t, int64_t pid, const tg_trace *trace)
{
    int64_t upid = process_add(db, pid, trace);
    if (upid < 0)
        return;
    t->upid = upid;
    sql_process *p = &db->procs[upid];
    if (!p->name && pid == t->tid && t->name)
        p->name = t->name;
}

/* The thread's index, registered when new (named by the task the trace lists). */
static int64_t thread_add(sql_db *db, int64_t tid, const tg_trace *trace)
{
    const uint64_t *found = tg_hash_find(&db->thread_by_tid, (uint64_t)tid);
    if (found)
        return (int64_t)*found;
    if (tg_grow(&db->threads, &db->cap_threads, db->n_threads + 1, sizeof *db->threads) < 0)
        return TG_ERR_NOMEM;
    int64_t utid = tg_hash_add_index(&db->thread_by_tid, (uint64_t)tid);
    if (utid < 0)
        return utid;
    sql_thread *t = &db->threads[db->n_threads++];
    *t = (sql_thread){
        .tid = tid, .upid = -1, .track_id = db->n_tracks++, .start_ts = SQL_ANY, .end_ts = SQL_ANY};
    const tg_task_info *task = trace ? tg_trace_task_find(trace, tid) : NULL;
    if (task && task->name && task->name[0])
        t->name = sql_intern(db, task->name, strlen(task->name));
    if (task && task->pid >= 0)
        set_process(db, t, task->pid, trace);
    return utid;
}

int64_t sql_utid_of(sql_db *db, int64_t tid)
{
    if (db->last_thread < db->n_threads && db->threads[db->last_thread].tid == tid)
        return (int64_t)db->last_thread;
    const uint64_t *found = tg_hash_find(&db->thread_by_tid, (uint64_t)tid);
    if (!found)
        return SQL_ANY;
    db->last_thread = (size_t)*found;
    return (int64_t)*found;
}

int sql_registry_init(sql_db *db)
{
    /* the idle task, as Perfetto's utid 0 and upid 0 */
    if (thread_add(db, 0, NULL) < 0)
        return TG_ERR_NOMEM;
    set_process(db, &db->threads[0], 0, NULL);
    for (size_t i = 0; i < tg_set_trace_count(db->set); i++) {
        const tg_trace *trace = tg_set_trace(db->set, i);
        for (size_t k = 0; k < tg_trace_task_count(trace); k++) {
            const tg_task_info *task = tg_trace_task(trace, k);
            if (task->tid >= 0 && thread_add(db, task->tid, trace) < 0)
                return TG_ERR_NOMEM;
        }
    }
    return 0;
}

void sql_registry_free(sql_db *db)
{
    free(db->threads);
    tg_hash_free(&db->thread_by_tid);
    free(db->procs);
    tg_hash_free(&db->proc_by_pid);
    free(db->ctracks);
    tg_hash_free(&db->ctrack_by_key);
    free(db->classes);
}

/* ---- what an event tells ---------------------------------------------------------------------- */

/* A text field's bytes (up to its NUL), or 0 when it is none. */
static size_t text_field(const tg_event *ev, tg_scope scope, int index, const char *name,
                         const char **s)
{
    tg_value v;
    int rc = index >= 0 ? tg_event_field(ev, scope, (size_t)index, &v)
                        : tg_event_field_by_name(ev, scope, name, &v);
    if (rc < 0 ||
        (v.type != TG_VAL_STRING && !(v.type == TG_VAL_BYTES && (v.flags & TG_VALF_TEXT))))
        return 0;
    *s = v.v.str.ptr;
    return strnlen(v.v.str.ptr, v.v.str.len);
}

int64_t sql_int_field(const tg_event *ev, int index)
{
    tg_value v;
    if (index < 0 || tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)index, &v) < 0)
        return SQL_ANY;
    return v.type == TG_VAL_SINT ? v.v.s : v.type == TG_VAL_UINT ? (int64_t)v.v.u : SQL_ANY;
}

/* The thread a sched event names (its tid field) is registered, and named by the event's
 * comm field when it has one. */
static int name_from_fields(sql_db *db, const tg_event *ev, int tid_index, int comm_index)
{
    int64_t tid = sql_int_field(ev, tid_index);
    if (tid == SQL_ANY || tid < 0)
        return 0;
    int64_t utid = thread_add(db, tid, tg_event_trace(ev));
    if (utid < 0)
        return (int)utid;
    const char *s;
    size_t n;
    if (comm_index >= 0 && (n = text_field(ev, TG_SCOPE_PAYLOAD, comm_index, NULL, &s)))
        name_thread(db, &db->threads[utid], s, n);
    return 0;
}

/* A thread's first event: LTTng's procname context names it. */
static void name_at_first_event(sql_db *db, sql_thread *t, const tg_event *ev)
{
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_STREAM_CONTEXT, -1, "procname", &s);
    if (!n)
        n = text_field(ev, TG_SCOPE_EVENT_CONTEXT, -1, "procname", &s);
    if (n)
        name_thread(db, t, s, n);
}

static int see_counter(sql_db *db, const tg_event *ev, int64_t utid)
{
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 256; i++) {
        uint64_t key =
            ((uint64_t)(utid + 1) << 32) | ((uint64_t)(ev->cls->number & 0xffffff) << 8) | i;
        if (tg_hash_find(&db->ctrack_by_key, key))
            continue;
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 ||
            (v.type != TG_VAL_SINT && v.type != TG_VAL_UINT && v.type != TG_VAL_FLOAT))
            continue;
        if (tg_grow(&db->ctracks, &db->cap_ctracks, db->n_ctracks + 1, sizeof *db->ctracks) < 0)
            return TG_ERR_NOMEM;
        uint64_t *index;
        TG_TRY(tg_hash_add(&db->ctrack_by_key, key, &index));
        *index = db->n_ctracks;
        tg_buf_reset(db->tmp);
        tg_buf_puts(db->tmp, ev->cls->name);
        tg_buf_putc(db->tmp, ' ');
        tg_buf_puts(db->tmp, v.name ? v.name : "value");
        sql_ctrack *c = &db->ctracks[db->n_ctracks++];
        *c = (sql_ctrack){.id = db->n_tracks++,
                          .utid = utid,
                          .name = sql_intern(db, tg_buf_data(db->tmp), tg_buf_len(db->tmp)),
                          .kib = (v.flags & TG_VALF_KIB) != 0};
        if (c->kib)
            c->unit = "bytes";
    }
    return 0;
}

const sql_ctrack *sql_ctrack_of(sql_db *db, const tg_event *ev, size_t i)
{
    int64_t utid = ev->tid >= 0 ? sql_utid_of(db, ev->tid) : SQL_ANY;
    uint64_t key = ((uint64_t)(utid == SQL_ANY ? 0 : utid + 1) << 32) |
                   ((uint64_t)(ev->cls->number & 0xffffff) << 8) | i;
    const uint64_t *index = tg_hash_find(&db->ctrack_by_key, key);
    return index ? &db->ctracks[*index] : NULL;
}

int sql_registry_see(sql_db *db, const tg_event *ev, int64_t ordinal, int64_t ts)
{
    db->seen = ordinal + 1;
    if (db->n_events++ == 0)
        db->first_ns = ts;
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind == TG_KIND_LOST) {
        db->n_lost_events++;
        db->lost_records += (int64_t)ev->lost;
    }
    int64_t utid = SQL_ANY;
    if (ev->tid >= 0) {
        utid = sql_utid_of(db, ev->tid);
        if (utid == SQL_ANY) {
            utid = thread_add(db, ev->tid, tg_event_trace(ev));
            if (utid < 0)
                return (int)utid;
            db->last_thread = (size_t)utid;
        }
        sql_thread *t = &db->threads[utid];
        if (t->start_ts == SQL_ANY) {
            t->start_ts = ts;
            name_at_first_event(db, t, ev);
        }
        t->end_ts = ts;
        if (t->upid < 0 && ev->pid >= 0)
            set_process(db, t, ev->pid, tg_event_trace(ev));
        if (t->upid >= 0) {
            sql_process *p = &db->procs[t->upid];
            if (p->start_ts == SQL_ANY)
                p->start_ts = ts;
            p->end_ts = ts;
        }
    }
    if (kind == TG_KIND_TASK_NAME && utid != SQL_ANY) {
        const char *s;
        size_t n = text_field(ev, TG_SCOPE_PAYLOAD, -1, "comm", &s);
        if (n)
            name_thread(db, &db->threads[utid], s, n);
    } else if (kind == TG_KIND_COUNTER && utid != SQL_ANY) {
        TG_TRY(see_counter(db, ev, utid));
    } else if (kind == TG_KIND_GENERIC) {
        const sql_class *c = sql_class_of(db, ev);
        if (c->role == SQL_ROLE_SWITCH) {
            TG_TRY(name_from_fields(db, ev, c->field[SQL_F_PREV_TID], c->field[SQL_F_PREV_COMM]));
            TG_TRY(name_from_fields(db, ev, c->field[SQL_F_NEXT_TID], c->field[SQL_F_NEXT_COMM]));
        } else if (c->role == SQL_ROLE_WAKEUP) {
            TG_TRY(name_from_fields(db, ev, c->field[SQL_F_TID], c->field[SQL_F_COMM]));
        }
    }
    return 0;
}

int sql_registry_complete(sql_db *db)
{
    if (db->complete)
        return 0;
    sql_scan s;
    int rc = sql_scan_open(db, &s);
    if (rc < 0)
        return rc;
    const tg_event *ev;
    /* behind the frontier there is nothing to do: skip to it */
    while ((rc = sql_scan_next(&s, &ev)) > 0)
        ;
    sql_scan_close(&s);
    return rc;
}
