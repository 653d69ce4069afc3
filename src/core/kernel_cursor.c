/* kernel_cursor.c - one pass over the merged events through the kernel model: each event
 * gets its thread, and what it says about tasks goes into the tables (see kernel_model.h).
 *
 * A pass decides what to create from what it has seen itself only (its tid -> utid and
 * pid -> upid maps, which threads were freed, which listed tasks it has met), never from the
 * tables, which the frontier may have taken further: so a pass behind the frontier makes the
 * same creations in the same order and lands on the same numbers.  The tables' attributes
 * (names, times, processes of threads) are written at the frontier only. */
#include "core/kernel_internal.h"
#include "core/kernel_import.h"

#include "core/error_internal.h"
#include "core/format_api.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

enum { COMM_MAX = 15 }; /* TASK_COMM_LEN - 1: what the kernel keeps of a name */

tg_kcursor *tg_kcursor_new(tg_kmodel *m)
{
    tg_kcursor *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->m = m;
    c->last_tid = -2;
    c->n_threads = m->n_init_threads;
    c->n_procs = m->n_init_procs;
    c->n_tracks = m->n_init_tracks;
    bool ok = tg_grow_zeroed(&c->flags, &c->n_flags, &c->cap_flags,
                             m->n_init_threads ? m->n_init_threads : 1, 1) == 0;
    for (size_t u = 0; ok && u < m->n_init_threads; u++) {
        uint64_t *slot;
        ok = tg_hash_insert(&c->utid_by_tid, (uint64_t)m->threads[u].tid, &slot) >= 0;
        if (ok)
            *slot = u;
        c->flags[u] = u ? KM_FRESH : 0;
    }
    for (size_t p = 0; ok && p < m->n_init_procs; p++) {
        uint64_t *slot;
        ok = tg_hash_insert(&c->upid_by_pid, (uint64_t)m->procs[p].pid, &slot) >= 0;
        if (ok)
            *slot = p;
    }
    if (!ok) {
        tg_kcursor_free(c);
        return NULL;
    }
    return c;
}

void tg_kcursor_free(tg_kcursor *c)
{
    if (!c)
        return;
    tg_hash_free(&c->utid_by_tid);
    tg_hash_free(&c->upid_by_pid);
    tg_hash_free(&c->ctrack_by_key);
    free(c->flags);
    free(c->cpu);
    free(c->decl_open);
    km_import_free(c->imp);
    free(c);
}

void tg_kcursor_finish(tg_kcursor *c)
{
    if (km_at_frontier(c))
        c->m->complete = true;
}

/* ---- fields ---------------------------------------------------------------------------------- */

int64_t km_int_field(const tg_event *ev, int index)
{
    tg_value v;
    int64_t x;
    return index >= 0 && tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)index, &v) == 0 &&
                   tg_value_int(&v, &x)
               ? x
               : -1;
}

/* A text field's bytes up to its NUL (*s), or 0 when it is none. */
static size_t text_field(const tg_event *ev, tg_scope scope, int index, const char *name,
                         const char **s)
{
    tg_value v;
    int rc = index >= 0 ? tg_event_field(ev, scope, (size_t)index, &v)
             : name     ? tg_event_field_by_name(ev, scope, name, &v)
                        : -1;
    if (rc < 0 ||
        (v.type != TG_VAL_STRING && !(v.type == TG_VAL_BYTES && (v.flags & TG_VALF_TEXT))))
        return 0;
    *s = v.v.str.ptr;
    return strnlen(v.v.str.ptr, v.v.str.len);
}

/* ---- threads and processes ------------------------------------------------------------------- */

/* The thread of tid now: the live one this pass knows, else a new one (fresh: a fork, or a
 * tid met again after its thread was freed). */
static int64_t thread_of(tg_kcursor *c, int64_t tid, bool fork)
{
    if (tid == c->last_tid && !fork)
        return c->last_utid;
    const uint64_t *found = tg_hash_find(&c->utid_by_tid, (uint64_t)tid);
    int64_t utid;
    if (found && !(c->flags[*found] & KM_DEAD) && (!fork || (c->flags[*found] & KM_FRESH)) &&
        !(fork && tid == 0)) {
        utid = (int64_t)*found;
        c->flags[utid] &= (uint8_t)~KM_FRESH;
    } else if ((utid = km_thread_create(c, tid)) < 0) {
        return utid;
    }
    c->last_tid = tid;
    c->last_utid = utid;
    return utid;
}

/* The thread of the listed task ev names (a trace listing a tid more than once: which of
 * them its track's descriptor named), -1 when it names none. */
static int64_t listed_thread(tg_kcursor *c, const tg_event *ev)
{
    if (!ev->stream || !ev->stream->ops->task)
        return -1;
    int64_t k = ev->stream->ops->task(ev);
    int64_t utid = k >= 0 ? km_listed_utid(c->m, ev->stream->trace, (size_t)k) : -1;
    if (utid >= 0 && (size_t)utid < c->n_flags)
        c->flags[utid] &= (uint8_t)~KM_FRESH;
    return utid;
}

int64_t km_imp_utid_of_tid(tg_kcursor *c, int64_t tid) { return thread_of(c, tid, false); }

/* The process of pid now, created when this pass knows none (fork: a new one always, but
 * for a listed one it has not met). */
static int64_t process_of(tg_kcursor *c, int64_t pid, bool fork)
{
    const uint64_t *found = tg_hash_find(&c->upid_by_pid, (uint64_t)pid);
    if (found && (!fork || (*found < c->m->n_init_procs && *found != 0)))
        return (int64_t)*found;
    return km_process_create(c, pid);
}

static void name_thread(tg_kcursor *c, int64_t utid, const char *s, size_t n)
{
    tg_kmodel *m = c->m;
    tg_kthread *t = &m->threads[utid];
    if (!n || (t->name && strncmp(t->name, s, n) == 0 && t->name[n] == 0))
        return;
    const char *name = km_intern(m, s, n);
    if (!name)
        return;
    t->name = name;
    if (t->upid >= 0 && t->is_main_thread)
        m->procs[t->upid].name = name;
}

/* Puts a thread in a process (at the frontier). */
static void join_process(tg_kcursor *c, int64_t utid, int64_t upid)
{
    tg_kmodel *m = c->m;
    tg_kthread *t = &m->threads[utid];
    tg_kprocess *p = &m->procs[upid];
    t->upid = upid;
    t->is_main_thread = p->pid == t->tid;
    if (t->is_main_thread && t->name)
        p->name = t->name;
}

/* The thread a field names, named by another field (at the frontier). */
static int64_t named_thread(tg_kcursor *c, const tg_event *ev, int tid_at, int comm_at)
{
    int64_t tid = km_int_field(ev, tid_at);
    if (tid < 0)
        return -1;
    int64_t utid = thread_of(c, tid, false);
    const char *s;
    size_t n;
    if (utid >= 0 && km_at_frontier(c) && comm_at >= 0 &&
        (n = text_field(ev, TG_SCOPE_PAYLOAD, comm_at, NULL, &s)))
        name_thread(c, utid, s, n);
    return utid;
}

static void end_thread(tg_kcursor *c, int64_t utid, int64_t ts, int8_t how)
{
    if (!km_at_frontier(c))
        return;
    tg_kmodel *m = c->m;
    tg_kthread *t = &m->threads[utid];
    if (t->ended > how)
        return;
    t->end_ts = ts;
    t->ended = how;
    if (t->upid >= 0 && t->is_main_thread) {
        m->procs[t->upid].end_ts = ts;
        m->procs[t->upid].ended = how;
    }
}

static int see_fork(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts, int64_t utid)
{
    tg_kmodel *m = c->m;
    int64_t parent_tid = km_int_field(ev, k->field[KM_PARENT_TID]);
    int64_t parent = parent_tid >= 0 ? thread_of(c, parent_tid, false) : utid;
    int64_t tid = km_int_field(ev, k->field[KM_CHILD_TID]);
    int64_t pid = km_int_field(ev, k->field[KM_CHILD_PID]);
    if (parent < -1 || tid < 0)
        return parent < -1 ? (int)parent : 0;
    int64_t child = thread_of(c, tid, true);
    if (child < 0)
        return (int)child;
    int64_t upid = -1;
    if (pid >= 0 && (upid = process_of(c, pid, pid == tid)) < 0)
        return (int)upid;
    if (!km_at_frontier(c))
        return 0;
    tg_kthread *t = &m->threads[child];
    t->start_ts = ts;
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_PAYLOAD, k->field[KM_CHILD_COMM], NULL, &s);
    if (n)
        name_thread(c, child, s, n);
    else if (parent >= 0 && m->threads[parent].name)
        t->name = m->threads[parent].name; /* a clone has its creator's name */
    if (upid < 0)
        return 0;
    tg_kprocess *p = &m->procs[upid];
    if (pid == tid) {
        p->start_ts = ts;
        p->parent_upid = parent >= 0 ? m->threads[parent].upid : -1;
        if (parent >= 0 && m->threads[parent].upid >= 0 && !p->cmdline)
            p->cmdline = m->procs[m->threads[parent].upid].cmdline;
    }
    join_process(c, child, upid);
    return 0;
}

static int see_statedump(tg_kcursor *c, const km_class *k, const tg_event *ev)
{
    tg_kmodel *m = c->m;
    int64_t tid = km_int_field(ev, k->field[KM_TID]), pid = km_int_field(ev, k->field[KM_PID]);
    int64_t ppid = km_int_field(ev, k->field[KM_PPID]);
    if (tid < 0)
        return 0;
    int64_t utid = thread_of(c, tid, false);
    int64_t upid = pid >= 0 ? process_of(c, pid, false) : -1;
    int64_t parent = ppid >= 0 && pid != 0 ? process_of(c, ppid, false) : -1;
    if (utid < 0 || upid < -1 || parent < -1)
        return TG_ERR_NOMEM;
    if (!km_at_frontier(c))
        return 0;
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_PAYLOAD, k->field[KM_COMM], NULL, &s);
    if (n)
        name_thread(c, utid, s, n);
    if (upid >= 0) {
        join_process(c, utid, upid);
        if (parent >= 0 && parent != upid)
            m->procs[upid].parent_upid = parent;
    }
    return 0;
}

static void see_exec(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t utid)
{
    tg_kmodel *m = c->m;
    int64_t tid = km_int_field(ev, k->field[KM_TID]);
    if (tid >= 0)
        utid = thread_of(c, tid, false);
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_PAYLOAD, k->field[KM_FILENAME], NULL, &s);
    if (utid < 0 || !n || !km_at_frontier(c))
        return;
    const char *base = s + n;
    while (base > s && base[-1] != '/')
        base--;
    size_t bn = n - (size_t)(base - s);
    name_thread(c, utid, base, bn < COMM_MAX ? bn : COMM_MAX);
    tg_kthread *t = &m->threads[utid];
    if (t->upid >= 0) {
        tg_kprocess *p = &m->procs[t->upid];
        p->cmdline = km_intern(m, s, n);
        p->name = km_intern(m, base, bn);
    }
}

/* A state given by its name (a JSON trace's thread_state): the number of the names the
 * told states show as (sql_sched.c), TG_KTASK_OTHER for another name, TG_KTASK_OVER for
 * none (the state before has ended). */
static int64_t state_of_name(const char *s, size_t n)
{
    static const char *const names[] = {"Created", "R", "Running", "S", "D", "T", "Z", "X"};
    if (!n)
        return TG_KTASK_OVER;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return TG_KTASK_CREATED + (int64_t)i;
    return TG_KTASK_OTHER;
}

/* A task's own state (Perfetto's generic kernel events, a JSON trace's thread_state), as
 * trace_processor reads it: CREATED makes a new thread (started then), DESTROYED ends the
 * thread (a later event of its tid is a new thread), any other state names the thread of the
 * tid (made when unknown).  The state is a number (GenericKernelTaskStateEvent's) or a name,
 * kept as the task gave it, with what a name may come with (io_wait, blocked_function).  The
 * Perfetto reader has dropped the events trace_processor rejects (out of order); what the
 * state does to thread_state and sched_slice is the step's. */
static int see_task_state(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts,
                          tg_kstep *step)
{
    int64_t tid = km_int_field(ev, k->field[KM_TID]);
    int64_t state = km_int_field(ev, k->field[KM_STATE]);
    int64_t cpu = km_int_field(ev, k->field[KM_CPU_ID]);
    const char *state_name = NULL;
    tg_value v;
    bool named = k->field[KM_STATE] >= 0 &&
                 tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)k->field[KM_STATE], &v) == 0 &&
                 v.type == TG_VAL_STRING;
    if (named) {
        size_t n = strnlen(v.v.str.ptr, v.v.str.len);
        state = state_of_name(v.v.str.ptr, n);
        if (n && !(state_name = km_intern(c->m, v.v.str.ptr, n)))
            return TG_ERR_NOMEM;
    }
    if (tid < 0 || state < TG_KTASK_CREATED || state > TG_KTASK_OVER ||
        (!named && state > TG_KTASK_DESTROYED))
        return 0;
    const uint64_t *found = tg_hash_find(&c->utid_by_tid, (uint64_t)tid);
    bool known = found && !(c->flags[*found] & KM_DEAD);
    int64_t utid = state == TG_KTASK_CREATED ? km_thread_create(c, tid) : thread_of(c, tid, false);
    if (utid < 0)
        return (int)utid;
    bool front = km_at_frontier(c);
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_PAYLOAD, k->field[KM_COMM], NULL, &s);
    if (front && n && (state != TG_KTASK_DESTROYED || !known))
        name_thread(c, utid, s, n);
    if (front && state == TG_KTASK_CREATED)
        c->m->threads[utid].start_ts = ts;
    if (state == TG_KTASK_DESTROYED) {
        end_thread(c, utid, ts, 2);
        c->flags[utid] |= KM_DEAD;
        c->last_tid = -2;
    }
    if (cpu > 1 << 20 || (cpu < 0 && !named))
        cpu = 0;
    if (state == TG_KTASK_RUNNING && cpu >= 0) {
        TG_TRY(km_cpu_room(c, (int)cpu));
        if (!c->cpu[cpu].seen && front)
            TG_TRY(km_cpu_seen(c->m, (int32_t)cpu));
        c->cpu[cpu].seen = true;
    }
    if (step) {
        int64_t prio = km_int_field(ev, k->field[KM_PRIO]);
        step->what |= TG_KSTEP_TASK_STATE;
        step->task_utid = utid;
        step->task_tid = tid;
        step->task_state = (int32_t)state;
        step->task_cpu = (int32_t)cpu;
        step->task_prio = (int32_t)prio;
        step->task_state_name = state_name;
        step->task_io_wait = -1;
        step->task_blocked_function = NULL;
        int64_t io_wait = km_int_field(ev, k->field[KM_IO_WAIT]);
        if (named && io_wait >= 0)
            step->task_io_wait = io_wait != 0;
        if (named &&
            (n = text_field(ev, TG_SCOPE_PAYLOAD, k->field[KM_BLOCKED_FUNCTION], NULL, &s)) &&
            !(step->task_blocked_function = km_intern(c->m, s, n)))
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* ---- counters of threads (uftrace's read:* records) ------------------------------------------ */

static uint64_t counter_key(int64_t utid, const tg_event *ev, size_t i)
{
    return ((uint64_t)(utid + 1) << 32) | ((uint64_t)(ev->cls->number & 0xffffff) << 8) | i;
}

static int see_counter(tg_kcursor *c, const tg_event *ev, int64_t utid)
{
    tg_kmodel *m = c->m;
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 256; i++) {
        uint64_t key = counter_key(utid, ev, i);
        if (tg_hash_find(&c->ctrack_by_key, key))
            continue;
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0 ||
            (v.type != TG_VAL_SINT && v.type != TG_VAL_UINT && v.type != TG_VAL_FLOAT))
            continue;
        bool front = km_at_frontier(c);
        const char *name = NULL;
        if (front) {
            size_t cn = strlen(ev->cls->name), fn = strlen(v.name ? v.name : "value");
            char *text = malloc(cn + fn + 2);
            if (!text)
                return TG_ERR_NOMEM;
            memcpy(text, ev->cls->name, cn);
            text[cn] = ' ';
            memcpy(text + cn + 1, v.name ? v.name : "value", fn + 1);
            name = km_intern(m, text, cn + fn + 1);
            free(text);
        }
        int64_t id = km_track_create(c, TG_KTRACK_COUNTER, utid, -1, name);
        uint64_t *slot;
        if (id < 0 || tg_hash_insert(&c->ctrack_by_key, key, &slot) < 0)
            return TG_ERR_NOMEM;
        *slot = (uint64_t)id;
        if (!front)
            continue;
        tg_ktrack *t = &m->tracks[id];
        t->parent_id = m->threads[utid].track_id;
        if (v.flags & TG_VALF_KIB) {
            t->unit = "bytes";
            t->scale = 1024;
        }
        if (tg_hash_insert(&m->ctrack_by_key, key, &slot) < 0)
            return TG_ERR_NOMEM;
        *slot = (uint64_t)id;
    }
    return 0;
}

int64_t tg_kmodel_counter_track(const tg_kmodel *m, const tg_event *ev, size_t i)
{
    if (ev->utid < 0)
        return -1;
    const uint64_t *id = tg_hash_find(&m->ctrack_by_key, counter_key(ev->utid, ev, i));
    return id ? (int64_t)*id : -1;
}

/* Whether the pid the trace gives its events is a process id: not trace.dat's common_pid,
 * which is the thread's. */
static bool pid_is_process(tg_kcursor *c, const tg_event *ev)
{
    const tg_trace *t = ev->stream ? tg_stream_trace(ev->stream) : NULL;
    if (t != c->last_trace) {
        const char *format = t ? tg_trace_format(t) : NULL;
        c->last_trace = t;
        c->pid_is_process = !format || strcmp(format, "ftrace") != 0;
    }
    return c->pid_is_process;
}

/* Whether ev came from an interrupt: trace.dat's common_flags (TRACE_FLAG_HARDIRQ 0x08,
 * TRACE_FLAG_SOFTIRQ 0x10), else an IRQ or softirq slice open on its CPU, -1 unknown. */
static int8_t irq_context(const tg_kcursor *c, const tg_event *ev)
{
    tg_value v;
    if (tg_event_field_by_name(ev, TG_SCOPE_COMMON, "common_flags", &v) == 0 &&
        (v.type == TG_VAL_UINT || v.type == TG_VAL_SINT))
        return (v.v.u & 0x18) != 0;
    if (ev->cpu < 0 || (size_t)ev->cpu >= c->n_cpu)
        return -1;
    const km_cpu *pc = &c->cpu[ev->cpu];
    if (pc->track[KM_CPU_IRQ] < 0 && pc->track[KM_CPU_SOFTIRQ] < 0)
        return -1; /* no interrupt seen on it yet: the trace may record none */
    return pc->depth[0] || pc->depth[1];
}

/* ---- an event --------------------------------------------------------------------------------- */

int km_cpu_room(tg_kcursor *c, int cpu)
{
    if ((size_t)cpu < c->n_cpu)
        return 0;
    size_t n = c->n_cpu;
    if (tg_grow(&c->cpu, &c->cap_cpu, (size_t)cpu + 1, sizeof *c->cpu) < 0)
        return TG_ERR_NOMEM;
    for (size_t i = n; i <= (size_t)cpu; i++) {
        memset(&c->cpu[i], 0, sizeof c->cpu[i]);
        c->cpu[i].utid = -1;
        c->cpu[i].tid = -1;
        for (int k = 0; k < KM_CPU_KINDS; k++)
            c->cpu[i].track[k] = -1;
    }
    c->n_cpu = (size_t)cpu + 1;
    return 0;
}

/* The tables' record of the event's thread and process: first and last events. */
static void see_times(tg_kcursor *c, int64_t utid, int64_t ts)
{
    tg_kmodel *m = c->m;
    tg_kthread *t = &m->threads[utid];
    if (t->start_ts == TG_KM_NONE)
        t->start_ts = ts;
    if (!t->ended)
        t->end_ts = ts;
    if (t->upid >= 0) {
        tg_kprocess *p = &m->procs[t->upid];
        if (p->start_ts == TG_KM_NONE)
            p->start_ts = ts;
        if (!p->ended)
            p->end_ts = ts;
    }
}

/* A thread's first event: LTTng's procname context names it when nothing else has. */
static void name_by_context(tg_kcursor *c, int64_t utid, const tg_event *ev)
{
    const char *s;
    size_t n = text_field(ev, TG_SCOPE_STREAM_CONTEXT, -1, "procname", &s);
    if (!n)
        n = text_field(ev, TG_SCOPE_EVENT_CONTEXT, -1, "procname", &s);
    if (n)
        name_thread(c, utid, s, n);
}

int tg_kcursor_feed(tg_kcursor *c, tg_event *ev, int64_t ts, tg_kstep *step)
{
    tg_kmodel *m = c->m;
    bool front = km_at_frontier(c);
    const km_class *k = km_class_of(m, ev);
    int cpu = ev->cpu;
    if (step) {
        step->what = 0;
        step->n_more_counters = 0;
        step->n_args = 0;
        step->n_flows = 0;
    }
    if (cpu >= 0 && ((size_t)cpu >= c->n_cpu || !c->cpu[cpu].seen)) {
        TG_TRY(km_cpu_room(c, cpu));
        c->cpu[cpu].seen = true;
        if (front)
            TG_TRY(km_cpu_seen(m, cpu));
    }
    int64_t tid = ev->tid;
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind == TG_KIND_LOST || kind >= TG_KIND_STREAM_BEGIN) {
        /* records lost, a stream's structure: a thread's only where the trace says so (uftrace's
         * lost records are a thread's: the call-stack builder ends its frames there) */
        int64_t lost_utid = tid >= 0 && kind == TG_KIND_LOST ? thread_of(c, tid, false) : -1;
        if (lost_utid < -1)
            return (int)lost_utid;
        ev->utid = (int32_t)lost_utid;
        c->fed++;
        if (front)
            m->seen = c->fed;
        return 0;
    }
    if (tid < 0) {
        if (k->role == KM_ROLE_SWITCH)
            tid = km_int_field(ev, k->field[KM_PREV_TID]);
        else if (cpu >= 0)
            tid = c->cpu[cpu].tid;
        if (tid >= 0)
            ev->tid = (int32_t)tid;
    }
    int64_t utid = -1;
    /* a trace listing a tid more than once (rare): its listed task names the thread */
    if (__builtin_expect(m->task_utids != NULL, 0) && (utid = listed_thread(c, ev)) >= 0 && tid < 0)
        ev->tid = (int32_t)(tid = m->threads[utid].tid);
    if (utid < 0)
        utid = tid >= 0 ? thread_of(c, tid, false) : -1;
    if (utid < -1)
        return (int)utid;
    ev->utid = (int32_t)utid;
    if (utid >= 0 && ev->pid >= 0 && pid_is_process(c, ev)) {
        int64_t upid = process_of(c, ev->pid, false); /* the same creation in every pass */
        if (upid < 0)
            return (int)upid;
        if (front && m->threads[utid].upid < 0)
            join_process(c, utid, upid);
    }
    if (utid >= 0 && front) {
        if (m->threads[utid].start_ts == TG_KM_NONE && !m->threads[utid].name)
            name_by_context(c, utid, ev);
        see_times(c, utid, ts);
    }
    if (utid >= 0 && ev->pid < 0 && m->threads[utid].upid >= 0)
        ev->pid = (int32_t)m->procs[m->threads[utid].upid].pid;
    int rc = m->n_decl ? km_declared_slice(c, ev, ts, step) : 0;
    if (rc < 0)
        return rc;
    /* a call's entry or exit: the thread's track holds a slice (once for a run of the
     * thread's events: the check is on every function event's path) */
    if (rc == 0 && front && utid >= 0 && utid + 1 != c->slices_utid1 && ev->cls &&
        (ev->cls->kind == TG_KIND_FUNC_ENTRY || ev->cls->kind == TG_KIND_FUNC_EXIT)) {
        int64_t track = m->threads[utid].track_id;
        if (track >= 0) {
            m->tracks[track].has_slices = true;
            c->slices_utid1 = utid + 1;
        }
    }
    int64_t a, b;
    switch (k->role) {
    case KM_ROLE_NONE: break;
    case KM_ROLE_SWITCH:
        a = named_thread(c, ev, k->field[KM_PREV_TID], k->field[KM_PREV_COMM]);
        b = named_thread(c, ev, k->field[KM_NEXT_TID], k->field[KM_NEXT_COMM]);
        if (a < -1 || b < -1)
            return TG_ERR_NOMEM;
        if (cpu >= 0) {
            c->cpu[cpu].utid = b;
            c->cpu[cpu].tid = (int32_t)km_int_field(ev, k->field[KM_NEXT_TID]);
        }
        if (step) {
            step->what = TG_KSTEP_SWITCH;
            step->prev_utid = a;
            step->next_utid = b;
        }
        break;
    case KM_ROLE_WAKEUP:
        a = named_thread(c, ev, k->field[KM_TID], k->field[KM_COMM]);
        if (a < -1)
            return (int)a;
        if (step) {
            step->what = TG_KSTEP_WAKEUP;
            step->woken_utid = a;
            step->irq_context = irq_context(c, ev);
        }
        break;
    case KM_ROLE_BLOCKED:
        a = named_thread(c, ev, k->field[KM_TID], -1);
        if (a < -1)
            return (int)a;
        if (step && a >= 0) {
            int64_t io_wait = km_int_field(ev, k->field[KM_IO_WAIT]);
            step->what = TG_KSTEP_BLOCKED;
            step->blocked_utid = a;
            step->io_wait = (int8_t)(io_wait < 0 ? -1 : io_wait != 0);
        }
        break;
    case KM_ROLE_FORK: TG_TRY(see_fork(c, k, ev, ts, utid)); break;
    case KM_ROLE_EXEC: see_exec(c, k, ev, utid); break;
    case KM_ROLE_EXIT:
    case KM_ROLE_FREE:
        a = k->field[KM_TID] >= 0 ? named_thread(c, ev, k->field[KM_TID], -1) : utid;
        if (a < -1)
            return (int)a;
        if (a >= 0) {
            end_thread(c, a, ts, k->role == KM_ROLE_FREE ? 2 : 1);
            if (k->role == KM_ROLE_FREE) {
                c->flags[a] |= KM_DEAD;
                c->last_tid = -2;
            }
        }
        break;
    case KM_ROLE_RENAME:
        if (named_thread(c, ev, k->field[KM_TID], k->field[KM_COMM]) < -1)
            return TG_ERR_NOMEM;
        break;
    case KM_ROLE_STATEDUMP: TG_TRY(see_statedump(c, k, ev)); break;
    case KM_ROLE_TASK_STATE: TG_TRY(see_task_state(c, k, ev, ts, step)); break;
    case KM_ROLE_TASK_NAME:
        if (utid >= 0 && front) {
            const char *s;
            size_t n = text_field(ev, TG_SCOPE_PAYLOAD, -1, "comm", &s);
            if (n)
                name_thread(c, utid, s, n);
        }
        break;
    case KM_ROLE_IMPORTED: TG_TRY(km_import_event(c, k, ev, ts, step)); break;
    case KM_ROLE_COUNTER:
        if (utid >= 0)
            TG_TRY(see_counter(c, ev, utid));
        break;
    default: /* IRQs, softirqs, CPU counters */ TG_TRY(km_cpu_event(c, k, ev, ts, step)); break;
    }
    c->fed++;
    if (front)
        m->seen = c->fed;
    return 0;
}
