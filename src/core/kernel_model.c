/* kernel_model.c - the kernel model's tables: threads, processes, tracks and CPUs, numbered
 * in the order the events create them (see kernel_model.h).
 *
 * Several passes may read the same events at once (the SQL tables' scans), each through its
 * own cursor.  The tables are written by the pass that got farthest only (the frontier: its
 * cursor has fed as many events as the model has seen); a pass behind it makes the same
 * creations in the same order and finds, for its k-th thread, the record the frontier made
 * as its k-th, so every pass agrees on every number without reading what the frontier
 * learnt later.  Names are kept once each (a hash of their texts), so renames on every
 * sched_switch cost a lookup, not memory. */
#include "core/kernel_internal.h"

#include "core/format_api.h"
#include "core/grow.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ---------------------------------------------------------------------------------- */

struct name_key {
    const tg_kmodel *m;
    const char *s;
    size_t n;
};

static int name_eq(const void *ctx, uint64_t value)
{
    const struct name_key *k = ctx;
    const char *c = k->m->strs[value];
    return strncmp(c, k->s, k->n) == 0 && c[k->n] == 0;
}

const char *km_intern(tg_kmodel *m, const char *s, size_t n)
{
    uint64_t h = tg_hash_bytes(s, n);
    const struct name_key key = {m, s, n};
    const uint64_t *found = tg_hash_find_by(&m->str_index, h, name_eq, &key);
    if (found)
        return m->strs[*found];
    if (tg_grow(&m->strs, &m->cap_strs, m->n_strs + 1, sizeof *m->strs) < 0)
        return NULL;
    char *copy = malloc(n + 1);
    uint64_t *value;
    if (!copy || tg_hash_add(&m->str_index, h, &value) < 0) {
        free(copy);
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = 0;
    *value = m->n_strs;
    m->strs[m->n_strs++] = copy;
    return copy;
}

/* ---- creations ------------------------------------------------------------------------------ */

int64_t km_track_create(tg_kcursor *c, tg_ktrack_type type, int64_t utid, int32_t cpu,
                        const char *name)
{
    tg_kmodel *m = c->m;
    int64_t id = (int64_t)c->n_tracks;
    if (c->n_tracks < m->n_tracks) {
        c->n_tracks++;
        return id;
    }
    if (tg_grow(&m->tracks, &m->cap_tracks, m->n_tracks + 1, sizeof *m->tracks) < 0)
        return TG_ERR_NOMEM;
    tg_ktrack *t = &m->tracks[m->n_tracks++];
    *t = (tg_ktrack){.id = id,
                     .type = type,
                     .name = name,
                     .utid = utid,
                     .upid = -1,
                     .cpu = cpu,
                     .is_counter = type != TG_KTRACK_THREAD && type != TG_KTRACK_PROCESS &&
                                   type != TG_KTRACK_GLOBAL && type != TG_KTRACK_CPU_IRQ &&
                                   type != TG_KTRACK_CPU_SOFTIRQ,
                     .parent_id = -1,
                     .machine_id = -1};
    c->n_tracks++;
    return id;
}

int64_t km_thread_create(tg_kcursor *c, int64_t tid)
{
    tg_kmodel *m = c->m;
    int64_t utid = (int64_t)c->n_threads;
    bool made = c->n_threads >= m->n_threads;
    if (made) {
        if (tg_grow(&m->threads, &m->cap_threads, m->n_threads + 1, sizeof *m->threads) < 0)
            return TG_ERR_NOMEM;
        m->threads[m->n_threads++] = (tg_kthread){.tid = tid,
                                                  .upid = -1,
                                                  .track_id = -1,
                                                  .start_ts = TG_KM_NONE,
                                                  .end_ts = TG_KM_NONE,
                                                  .is_idle = tid == 0};
    }
    c->n_threads++;
    int64_t track = km_track_create(c, TG_KTRACK_THREAD, utid, -1, NULL);
    if (track < 0)
        return track;
    if (made)
        m->threads[utid].track_id = track;
    if (tg_grow_zeroed(&c->flags, &c->n_flags, &c->cap_flags, (size_t)utid + 1, 1) < 0)
        return TG_ERR_NOMEM;
    uint64_t *slot;
    if (tg_hash_insert(&c->utid_by_tid, (uint64_t)tid, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)utid;
    if (km_at_frontier(c)) {
        if (tg_hash_insert(&m->utid_by_tid, (uint64_t)tid, &slot) < 0)
            return TG_ERR_NOMEM;
        *slot = (uint64_t)utid;
    }
    c->last_tid = -2; /* the cached lookup may name the thread this one replaces */
    return utid;
}

int64_t km_process_create(tg_kcursor *c, int64_t pid)
{
    tg_kmodel *m = c->m;
    int64_t upid = (int64_t)c->n_procs;
    if (c->n_procs >= m->n_procs) {
        if (tg_grow(&m->procs, &m->cap_procs, m->n_procs + 1, sizeof *m->procs) < 0)
            return TG_ERR_NOMEM;
        m->procs[m->n_procs++] = (tg_kprocess){
            .pid = pid, .parent_upid = -1, .start_ts = TG_KM_NONE, .end_ts = TG_KM_NONE};
    }
    c->n_procs++;
    uint64_t *slot;
    if (tg_hash_insert(&c->upid_by_pid, (uint64_t)pid, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)upid;
    if (km_at_frontier(c)) {
        if (tg_hash_insert(&m->upid_by_pid, (uint64_t)pid, &slot) < 0)
            return TG_ERR_NOMEM;
        *slot = (uint64_t)upid;
    }
    return upid;
}

int km_cpu_seen(tg_kmodel *m, int32_t cpu)
{
    size_t lo = 0, hi = m->n_cpus;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->cpus[mid] == cpu)
            return 0;
        if (m->cpus[mid] < cpu)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (tg_grow(&m->cpus, &m->cap_cpus, m->n_cpus + 1, sizeof *m->cpus) < 0)
        return TG_ERR_NOMEM;
    memmove(&m->cpus[lo + 1], &m->cpus[lo], (m->n_cpus - lo) * sizeof *m->cpus);
    m->cpus[lo] = cpu;
    m->n_cpus++;
    return 0;
}

/* ---- the model -------------------------------------------------------------------------------- */

/* The process of pid a cursor knows, else a new one. */
static int64_t listed_process_of(tg_kcursor *c, int64_t pid)
{
    const uint64_t *p = tg_hash_find(&c->upid_by_pid, (uint64_t)pid);
    return p ? (int64_t)*p : km_process_create(c, pid);
}

/* A process listed without a thread (Perfetto's generic process tree): its parent first
 * (made when unknown, as trace_processor makes both), then it, named and with its command
 * line.  The upid or TG_ERR_NOMEM. */
static int64_t listed_process(tg_kcursor *c, const tg_task_info *task)
{
    tg_kmodel *m = c->m;
    int64_t parent = task->ppid >= 0 ? listed_process_of(c, task->ppid) : -1;
    int64_t upid = parent < -1 ? parent : listed_process_of(c, task->pid);
    if (upid < 0)
        return upid;
    tg_kprocess *pr = &m->procs[upid];
    const char *name = task->process_name ? task->process_name : task->name;
    if (name && name[0] && !pr->name)
        pr->name = km_intern(m, name, strlen(name));
    if (task->cmdline && task->cmdline[0] && !pr->cmdline)
        pr->cmdline = km_intern(m, task->cmdline, strlen(task->cmdline));
    if (task->n_process_args && !pr->n_args) {
        pr->args = task->process_args;
        pr->n_args = task->n_process_args;
    }
    if (parent >= 0 && parent != upid && pr->parent_upid < 0)
        pr->parent_upid = parent;
    return upid;
}

/* Whether trace t lists a tid more than once (tg_task_info.new_thread): its events and
 * tracks then name their thread by its listed task. */
static bool lists_reused_tids(const tg_trace *t)
{
    for (size_t k = 0; k < tg_trace_task_count(t); k++)
        if (tg_trace_task(t, k)->new_thread)
            return true;
    return false;
}

/* Room for trace i's task -> utid map of n tasks (m->task_utids[i], all -1). */
static int task_utids_room(tg_kmodel *m, size_t i, size_t n)
{
    if (!m->task_utids) {
        m->n_task_traces = tg_set_trace_count(m->set);
        if (!(m->task_utids = calloc(m->n_task_traces, sizeof *m->task_utids)))
            return TG_ERR_NOMEM;
    }
    if (!(m->task_utids[i] = malloc((n ? n : 1) * sizeof *m->task_utids[i])))
        return TG_ERR_NOMEM;
    for (size_t k = 0; k < n; k++)
        m->task_utids[i][k] = -1;
    return 0;
}

/* The idle task (utid 0, upid 0: pid 0, as Perfetto numbers them), then the tasks each trace
 * lists, made by a cursor of the model's own before any event. */
static int add_listed_tasks(tg_kmodel *m)
{
    tg_kcursor *c = tg_kcursor_new(m);
    if (!c)
        return TG_ERR_NOMEM;
    int rc = 0;
    int64_t utid = km_thread_create(c, 0), upid = utid < 0 ? utid : km_process_create(c, 0);
    if (utid < 0 || upid < 0)
        rc = TG_ERR_NOMEM;
    else {
        m->threads[0].upid = 0;
        m->threads[0].is_main_thread = true;
    }
    for (size_t i = 0; rc == 0 && i < tg_set_trace_count(m->set); i++) {
        const tg_trace *t = tg_set_trace(m->set, i);
        const tg_process_info *attr = tg_trace_process(t);
        int64_t *task_utids = NULL;
        if (lists_reused_tids(t) && (rc = task_utids_room(m, i, tg_trace_task_count(t))) == 0)
            task_utids = m->task_utids[i];
        for (size_t k = 0; rc == 0 && k < tg_trace_cpu_info_count(t); k++)
            rc = km_cpu_seen(m, (int32_t)tg_trace_cpu_info(t, k)->cpu); /* the cpu table's */
        for (size_t k = 0; rc == 0 && k < tg_trace_task_count(t); k++) {
            const tg_task_info *task = tg_trace_task(t, k);
            if (task->tid == 0 && task->name && task->name[0] && !m->threads[0].name)
                m->threads[0].name = km_intern(m, task->name, strlen(task->name));
            if (task->process_only) {
                if (task->pid >= 0 && (upid = listed_process(c, task)) < 0)
                    rc = (int)upid;
                continue;
            }
            const uint64_t *known = task->tid >= 0 && !task->new_thread
                                        ? tg_hash_find(&c->utid_by_tid, (uint64_t)task->tid)
                                        : NULL;
            if (task_utids)
                task_utids[k] = known ? (int64_t)*known : -1;
            if (task->tid < 0 || known)
                continue;
            if ((utid = km_thread_create(c, task->tid)) < 0) {
                rc = (int)utid;
                break;
            }
            if (task_utids)
                task_utids[k] = utid;
            tg_kthread *th = &m->threads[utid];
            if (task->name && task->name[0])
                th->name = km_intern(m, task->name, strlen(task->name));
            th->is_idle = th->is_idle || task->idle;
            if (task->pid < 0)
                continue;
            const uint64_t *p =
                task->new_process ? NULL : tg_hash_find(&c->upid_by_pid, (uint64_t)task->pid);
            upid = p ? (int64_t)*p : km_process_create(c, task->pid);
            if (upid < 0) {
                rc = (int)upid;
                break;
            }
            th->upid = upid;
            th->is_main_thread = task->main_thread ? task->main_thread > 0 : task->pid == task->tid;
            tg_kprocess *pr = &m->procs[upid];
            if (attr && attr->pid == task->pid) {
                if (attr->name && attr->name[0] && !pr->name)
                    pr->name = km_intern(m, attr->name, strlen(attr->name));
                if (attr->cmdline && attr->cmdline[0] && !pr->cmdline)
                    pr->cmdline = km_intern(m, attr->cmdline, strlen(attr->cmdline));
            }
            if (task->process_name && task->process_name[0] && !pr->name)
                pr->name = km_intern(m, task->process_name, strlen(task->process_name));
            if (task->cmdline && task->cmdline[0] && !pr->cmdline)
                pr->cmdline = km_intern(m, task->cmdline, strlen(task->cmdline));
            if (task->n_process_args && !pr->n_args) {
                pr->args = task->process_args;
                pr->n_args = task->n_process_args;
            }
            if (task->process_started && pr->start_ts == TG_KM_NONE)
                pr->start_ts = task->process_start_ns;
            if (!pr->name && th->is_main_thread)
                pr->name = th->name;
            if (task->ppid >= 0 && pr->parent_upid < 0) {
                const uint64_t *pp = tg_hash_find(&c->upid_by_pid, (uint64_t)task->ppid);
                if (pp)
                    pr->parent_upid = (int64_t)*pp;
            }
        }
    }
    if (rc == 0)
        rc = km_declared_tracks_create(c);
    m->n_init_threads = m->n_threads;
    m->n_init_procs = m->n_procs;
    m->n_init_tracks = m->n_tracks;
    tg_kcursor_free(c);
    return rc;
}

size_t km_trace_number(const tg_kmodel *m, const tg_trace *t)
{
    const tg_set *set = t->set ? t->set : m->set;
    size_t n = tg_set_trace_count(set);
    if (n != tg_set_trace_count(m->set))
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (tg_set_trace(set, i) == t)
            return i;
    return SIZE_MAX;
}

int64_t km_listed_utid(const tg_kmodel *m, const tg_trace *t, size_t k)
{
    size_t i = km_trace_number(m, t);
    if (i >= m->n_task_traces)
        return -1;
    return m->task_utids[i] && k < tg_trace_task_count(t) ? m->task_utids[i][k] : -1;
}

tg_kmodel *tg_kmodel_new(tg_set *set)
{
    tg_kmodel *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->set = set;
    if (add_listed_tasks(m) < 0) {
        tg_kmodel_free(m);
        return NULL;
    }
    return m;
}

void tg_kmodel_free(tg_kmodel *m)
{
    if (!m)
        return;
    free(m->threads);
    free(m->procs);
    free(m->tracks);
    free(m->cpus);
    tg_hash_free(&m->utid_by_tid);
    tg_hash_free(&m->upid_by_pid);
    tg_hash_free(&m->ctrack_by_key);
    for (size_t i = 0; i < m->n_strs; i++)
        free(m->strs[i]);
    free(m->strs);
    tg_hash_free(&m->str_index);
    free(m->classes);
    for (size_t i = 0; i < m->n_decl_traces; i++)
        free(m->decl_ids[i]);
    free(m->decl_ids);
    for (size_t i = 0; i < m->n_task_traces; i++)
        free(m->task_utids[i]);
    free(m->task_utids);
    free(m);
}

size_t tg_kmodel_thread_count(const tg_kmodel *m) { return m->n_threads; }
size_t tg_kmodel_process_count(const tg_kmodel *m) { return m->n_procs; }
size_t tg_kmodel_track_count(const tg_kmodel *m) { return m->n_tracks; }
size_t tg_kmodel_cpu_count(const tg_kmodel *m) { return m->n_cpus; }
bool tg_kmodel_complete(const tg_kmodel *m) { return m->complete; }

const tg_kthread *tg_kmodel_thread(const tg_kmodel *m, int64_t utid)
{
    return utid >= 0 && (uint64_t)utid < m->n_threads ? &m->threads[utid] : NULL;
}

const tg_kprocess *tg_kmodel_process(const tg_kmodel *m, int64_t upid)
{
    return upid >= 0 && (uint64_t)upid < m->n_procs ? &m->procs[upid] : NULL;
}

const tg_ktrack *tg_kmodel_track(const tg_kmodel *m, int64_t id)
{
    return id >= 0 && (uint64_t)id < m->n_tracks ? &m->tracks[id] : NULL;
}

int32_t tg_kmodel_cpu(const tg_kmodel *m, size_t i) { return i < m->n_cpus ? m->cpus[i] : -1; }

int64_t tg_kmodel_utid_of_tid(const tg_kmodel *m, int64_t tid)
{
    const uint64_t *v = tg_hash_find(&m->utid_by_tid, (uint64_t)tid);
    return v ? (int64_t)*v : -1;
}

int64_t tg_kmodel_upid_of_pid(const tg_kmodel *m, int64_t pid)
{
    const uint64_t *v = tg_hash_find(&m->upid_by_pid, (uint64_t)pid);
    return v ? (int64_t)*v : -1;
}

int64_t tg_kmodel_pid_of(const tg_kmodel *m, int64_t utid)
{
    const tg_kthread *t = tg_kmodel_thread(m, utid);
    return t && t->upid >= 0 ? m->procs[t->upid].pid : -1;
}
