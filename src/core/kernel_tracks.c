/* kernel_tracks.c - the tracks a viewer trace declared apart from its threads' calls
 * (tg_track_decl: Perfetto's process and global TrackDescriptors, Chrome JSON's async
 * tracks), and the slices on them.
 *
 * trace_processor keeps a track event on the track it names: a process's track, a named
 * track of no one, a child of a thread's track; slices nest per track, not per thread.  The
 * model makes one track per declaration with the listed tasks (so every pass numbers them
 * alike and a track with no slice is still a row of `track`), the thread or process it
 * belongs to made with it when the tasks did not list it.  A pass keeps the slices open on
 * each (their names, for the end) and says what each event does as a step.  A declaration
 * may be a counter track (a Perfetto data source's, a TrackEvent counter): its events are
 * values (tg_stream_ops.counter_value), a counter step each. */
#include "core/format_api.h"
#include "core/grow.h"
#include "core/kernel_internal.h"

#include <stdlib.h>
#include <string.h>

struct km_decl_open {
    int depth; /* slices open, past KM_OPEN_MAX too */
    km_open open[KM_OPEN_MAX];
};

static int64_t utid_for(tg_kcursor *c, int64_t tid)
{
    const uint64_t *u = tg_hash_find(&c->utid_by_tid, (uint64_t)tid);
    return u ? (int64_t)*u : km_thread_create(c, tid);
}

/* The thread of trace t's declaration d: its listed task's, else tid's now. */
static int64_t decl_utid(tg_kcursor *c, const tg_trace *t, const tg_track_decl *d)
{
    int64_t utid = d->has_task ? km_listed_utid(c->m, t, d->task) : -1;
    return utid >= 0 ? utid : utid_for(c, d->tid);
}

static int64_t upid_for(tg_kcursor *c, int64_t pid)
{
    const uint64_t *p = tg_hash_find(&c->upid_by_pid, (uint64_t)pid);
    return p ? (int64_t)*p : km_process_create(c, pid);
}

/* The process of trace t's declaration d: its listed task's, else pid's now. */
static int64_t decl_upid(tg_kcursor *c, const tg_trace *t, const tg_track_decl *d)
{
    int64_t utid = d->has_task ? km_listed_utid(c->m, t, d->task) : -1;
    int64_t upid = utid >= 0 ? c->m->threads[utid].upid : -1;
    return upid >= 0 ? upid : upid_for(c, d->pid);
}

/* The track of trace t's declaration k (its parent made first: ids follow the declarations,
 * a parent declared after its child is made with it). */
static int64_t make_one(tg_kcursor *c, const tg_trace *t, size_t k, int64_t *ids, int guard)
{
    if (ids[k] != -1)
        return ids[k];
    const tg_track_decl *d = &t->tracks[k];
    tg_kmodel *m = c->m;
    int64_t parent = -1;
    if (d->parent >= 0 && (size_t)d->parent < t->n_tracks && guard < 64)
        parent = make_one(c, t, (size_t)d->parent, ids, guard + 1);
    if (parent < -1)
        return parent;
    int64_t utid = -1, upid = -1;
    if (d->tid >= 0 && (utid = decl_utid(c, t, d)) < 0)
        return utid;
    if (d->tid < 0 && d->pid >= 0 && (upid = decl_upid(c, t, d)) < 0)
        return upid;
    tg_ktrack_type type = utid >= 0   ? TG_KTRACK_THREAD
                          : upid >= 0 ? TG_KTRACK_PROCESS
                                      : TG_KTRACK_GLOBAL;
    const char *name = d->name ? km_intern(m, d->name, strlen(d->name)) : NULL;
    const char *type_name = d->type ? km_intern(m, d->type, strlen(d->type)) : NULL;
    if ((d->name && !name) || (d->type && !type_name))
        return TG_ERR_NOMEM;
    int64_t id = km_track_create(c, type, utid, -1, name);
    if (id < 0)
        return id;
    tg_ktrack *k_track = &m->tracks[id];
    k_track->upid = upid;
    k_track->type_name = type_name;
    k_track->parent_id = parent >= 0 ? parent : utid >= 0 ? m->threads[utid].track_id : -1;
    if (d->counter) {
        k_track->is_counter = true;
        k_track->unit = d->unit ? km_intern(m, d->unit, strlen(d->unit)) : NULL;
        if (d->unit && !k_track->unit)
            return TG_ERR_NOMEM;
        k_track->parent_id = parent; /* a counter is no child of its thread's calls */
        if (utid >= 0)
            k_track->type = TG_KTRACK_COUNTER;
    }
    k_track->machine_id = d->has_machine ? d->machine : -1;
    k_track->dims = d->dims;
    k_track->n_dims = d->dims ? d->n_dims : 0;
    k_track->source_args = d->source_args;
    k_track->n_source_args = d->source_args ? d->n_source_args : 0;
    ids[k] = id;
    return id;
}

int km_declared_tracks_create(tg_kcursor *c)
{
    tg_kmodel *m = c->m;
    size_t n = tg_set_trace_count(m->set);
    if (!n)
        return 0;
    if (!(m->decl_ids = calloc(n, sizeof *m->decl_ids)))
        return TG_ERR_NOMEM;
    m->n_decl_traces = n;
    /* the threads and processes the declarations name first, so the tracks are contiguous */
    for (size_t i = 0; i < n; i++) {
        const tg_trace *t = tg_set_trace(m->set, i);
        for (size_t k = 0; k < t->n_tracks; k++) {
            int64_t rc = t->tracks[k].tid >= 0   ? decl_utid(c, t, &t->tracks[k])
                         : t->tracks[k].pid >= 0 ? decl_upid(c, t, &t->tracks[k])
                                                 : 0;
            if (rc < 0)
                return (int)rc;
        }
    }
    m->first_decl = (int64_t)c->n_tracks;
    for (size_t i = 0; i < n; i++) {
        const tg_trace *t = tg_set_trace(m->set, i);
        int64_t *ids = malloc((t->n_tracks ? t->n_tracks : 1) * sizeof *ids);
        if (!ids)
            return TG_ERR_NOMEM;
        m->decl_ids[i] = ids;
        for (size_t k = 0; k < t->n_tracks; k++)
            ids[k] = -1;
        for (size_t k = 0; k < t->n_tracks; k++) {
            int64_t rc = make_one(c, t, k, ids, 0);
            if (rc < 0)
                return (int)rc;
        }
    }
    m->n_decl = (int64_t)c->n_tracks - m->first_decl;
    return 0;
}

/* A value of a declared counter track (id): a counter step. */
static int declared_counter(const tg_event *ev, int64_t id, tg_kstep *step)
{
    double value;
    if (!ev->stream->ops->counter_value || !ev->stream->ops->counter_value(ev, &value))
        return 0;
    if (step) {
        step->what |= TG_KSTEP_COUNTER | TG_KSTEP_DECLARED;
        step->cpu = -1;
        step->counter_track = id;
        step->value = value;
    }
    return 1;
}

int km_declared_slice(tg_kcursor *c, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    tg_kmodel *m = c->m;
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (!m->n_decl ||
        (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT && kind != TG_KIND_GENERIC) ||
        !ev->stream || !ev->stream->ops->track)
        return 0;
    int64_t k = ev->stream->ops->track(ev);
    if (k < 0)
        return 0;
    size_t i = km_trace_number(m, ev->stream->trace);
    if (i >= m->n_decl_traces)
        return 0;
    if ((size_t)k >= ev->stream->trace->n_tracks)
        return 0;
    int64_t id = m->decl_ids[i][k];
    if (id < m->first_decl || id >= m->first_decl + m->n_decl)
        return 0;
    if (m->tracks[id].is_counter || kind == TG_KIND_GENERIC)
        return m->tracks[id].is_counter ? declared_counter(ev, id, step) : 0;
    if (!c->decl_open && !(c->decl_open = calloc((size_t)m->n_decl, sizeof *c->decl_open)))
        return TG_ERR_NOMEM;
    struct km_decl_open *o = &c->decl_open[id - m->first_decl];
    if (step) {
        step->what |= TG_KSTEP_DECLARED;
        step->cpu = -1;
        step->slice_track = id;
    }
    if (kind == TG_KIND_FUNC_EXIT) {
        if (!o->depth)
            return 1; /* an end without a beginning ends nothing */
        int depth = --o->depth;
        if (step && depth < KM_OPEN_MAX) {
            step->what |= TG_KSTEP_SLICE_END;
            step->slice_name = o->open[depth].name;
            step->slice_category = NULL;
            step->slice_depth = depth;
            step->slice_begin_ts = o->open[depth].ts;
        }
        return 1;
    }
    const char *name = ev->stream->ops->func_name ? ev->stream->ops->func_name(ev) : NULL;
    int depth = o->depth;
    if (depth < KM_OPEN_MAX)
        o->open[depth] = (km_open){ts, name};
    if (depth < INT32_MAX)
        o->depth++;
    if (step) {
        step->what |= TG_KSTEP_SLICE_BEGIN;
        step->slice_name = name;
        step->slice_category =
            ev->stream->ops->func_category ? ev->stream->ops->func_category(ev) : NULL;
        step->slice_depth = depth;
        step->slice_begin_ts = ts;
    }
    return 1;
}
