/* kernel_import.c - the importer families of the kernel model (kernel_import.h): which family
 * reads an event, and the state, tracks, slices and counters they share.
 *
 * Perfetto's trace_processor turns many kernel events into rows of their own beside the
 * scheduler's (a kprobe's instant, a CMA allocation's slice, a wakelock's span, a CPU's
 * utilization counters, a socket's TCP states).  Each family of such events is one file; here
 * is what they have in common, so that each stays a short statement of its rules.  A pass's
 * state (the keyed numbers and tracks, the extra counter values of the event at hand) lives in
 * its cursor, made at the first imported event: a pass behind the frontier finds the same
 * tracks the frontier made. */
#include "core/kernel_import.h"

#include "core/error_internal.h"

#include <stdlib.h>
#include <string.h>

enum { MORE_COUNTERS_MAX = 64, ARGS_MAX = 16, FLOWS_MAX = 4 };

struct km_import {
    tg_hash slots;  /* key -> a family's number */
    tg_hash tracks; /* key -> track id */
    tg_kcounter more[MORE_COUNTERS_MAX];
    size_t n_more;
    tg_value args[ARGS_MAX];
    tg_flow flows[FLOWS_MAX];
};

static const km_importer *const families[] = {
    &km_import_kprobe, &km_import_cma,          &km_import_wakesource, &km_import_cpu_util,
    &km_import_fs,     &km_import_net,          &km_import_adreno,     &km_import_v4l2,
    &km_import_cros,   &km_import_drm,          &km_import_memory,     &km_import_gpu_freq,
    &km_import_oom,    &km_import_virtio_video,
};

bool km_import_find(const char *base, uint8_t *family, uint8_t *member)
{
    for (size_t f = 0; f < sizeof families / sizeof *families; f++)
        for (size_t i = 0; families[f]->names[i]; i++)
            if (strcmp(families[f]->names[i], base) == 0) {
                *family = (uint8_t)f;
                *member = (uint8_t)i;
                return true;
            }
    return false;
}

int km_import_event(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts,
                    tg_kstep *step)
{
    if (!c->imp && !(c->imp = calloc(1, sizeof *c->imp)))
        return TG_ERR_NOMEM;
    c->imp->n_more = 0;
    if (step) {
        step->more_counters = c->imp->more;
        step->n_more_counters = 0;
        step->args = c->imp->args;
        step->n_args = 0;
        step->flows = c->imp->flows;
        step->n_flows = 0;
    }
    return families[k->family]->event(c, k->member, ev, ts, step);
}

void km_import_free(struct km_import *imp)
{
    if (!imp)
        return;
    tg_hash_free(&imp->slots);
    tg_hash_free(&imp->tracks);
    free(imp);
}

/* ---- fields ---- */

bool km_imp_int(const tg_event *ev, const char *name, int64_t *out)
{
    tg_value v;
    return tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, name, &v) == 0 && tg_value_int(&v, out);
}

size_t km_imp_text(const tg_event *ev, const char *name, const char **s)
{
    tg_value v;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, name, &v) < 0 ||
        (v.type != TG_VAL_STRING && !(v.type == TG_VAL_BYTES && (v.flags & TG_VALF_TEXT))))
        return 0;
    *s = v.v.str.ptr;
    return strnlen(v.v.str.ptr, v.v.str.len);
}

/* ---- keys and numbers ---- */

uint64_t km_imp_key(uint64_t seed, const void *bytes, size_t n)
{
    uint64_t h = seed ^ 0xcbf29ce484222325u;
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

uint64_t *km_imp_slot(tg_kcursor *c, uint64_t key)
{
    uint64_t *slot;
    return tg_hash_insert(&c->imp->slots, key, &slot) < 0 ? NULL : slot;
}

void km_imp_forget(tg_kcursor *c, uint64_t key) { tg_hash_remove(&c->imp->slots, key); }

const char *km_imp_name(tg_kcursor *c, const char *s, size_t n) { return km_intern(c->m, s, n); }

/* ---- tracks ---- */

int64_t km_imp_track(tg_kcursor *c, uint64_t key, const km_imp_how *how, const char *name, size_t n)
{
    uint64_t *slot;
    int added = tg_hash_insert(&c->imp->tracks, key, &slot);
    if (added < 0)
        return TG_ERR_NOMEM;
    if (!added)
        return (int64_t)*slot;
    const char *kept = km_at_frontier(c) ? km_intern(c->m, name, n) : NULL;
    if (km_at_frontier(c) && !kept)
        return TG_ERR_NOMEM;
    int64_t id = km_track_create(c, how->type, how->utid, how->cpu, kept);
    if (id < 0)
        return id;
    if (km_at_frontier(c)) {
        tg_ktrack *t = &c->m->tracks[id];
        t->type_name = how->type_name;
        t->is_counter = how->counter;
        t->upid = how->upid;
        t->unit = how->unit;
    }
    /* the insert above may have moved: look the key up again */
    if (tg_hash_insert(&c->imp->tracks, key, &slot) < 0)
        return TG_ERR_NOMEM;
    *slot = (uint64_t)id;
    return id;
}

int64_t km_imp_thread_track(tg_kcursor *c, int64_t utid)
{
    return utid >= 0 && (size_t)utid < c->m->n_threads ? c->m->threads[utid].track_id : -1;
}

/* ---- slices and counters ---- */

/* The number of slices open on track (this pass's). */
static uint64_t *depth_of(tg_kcursor *c, int64_t track)
{
    return km_imp_slot(c, km_imp_key_int(0x736c696365u, track));
}

/* The track holds a slice (a thread's track is a row of `track` only then). */
static void mark_used(tg_kcursor *c, int64_t track)
{
    if (km_at_frontier(c) && track >= 0 && (size_t)track < c->m->n_tracks)
        c->m->tracks[track].has_slices = true;
}

int km_imp_begin(tg_kcursor *c, tg_kstep *step, int64_t track, const char *name,
                 const char *category, int64_t ts)
{
    uint64_t *depth = depth_of(c, track);
    if (!depth)
        return TG_ERR_NOMEM;
    mark_used(c, track);
    int32_t d = (int32_t)*depth;
    (*depth)++;
    if (step) {
        step->what |= TG_KSTEP_SLICE_BEGIN;
        step->cpu = -1;
        step->slice_track = track;
        step->slice_name = name;
        step->slice_category = category;
        step->slice_depth = d;
        step->slice_begin_ts = ts;
    }
    return 0;
}

void km_imp_end(tg_kcursor *c, tg_kstep *step, int64_t track)
{
    uint64_t *depth = depth_of(c, track);
    if (!depth || !*depth)
        return; /* it began before the trace */
    int32_t d = (int32_t)--(*depth);
    if (step) {
        step->what |= TG_KSTEP_SLICE_END;
        step->cpu = -1;
        step->slice_track = track;
        step->slice_depth = d;
    }
}

int km_imp_whole(tg_kcursor *c, tg_kstep *step, int64_t track, const char *name,
                 const char *category, int64_t begin_ts, int64_t dur)
{
    uint64_t *depth = depth_of(c, track);
    if (!depth)
        return TG_ERR_NOMEM;
    mark_used(c, track);
    if (step) {
        step->what |= TG_KSTEP_SLICE_BEGIN | TG_KSTEP_SLICE_WHOLE;
        step->cpu = -1;
        step->slice_track = track;
        step->slice_name = name;
        step->slice_category = category;
        step->slice_depth = (int32_t)*depth;
        step->slice_begin_ts = begin_ts;
        step->slice_dur = dur;
    }
    return 0;
}

int km_imp_counter(tg_kcursor *c, tg_kstep *step, int64_t track, double value)
{
    if (!step)
        return 0;
    if (!(step->what & TG_KSTEP_COUNTER)) {
        step->what |= TG_KSTEP_COUNTER;
        step->cpu = -1;
        step->counter_track = track;
        step->value = value;
        return 0;
    }
    struct km_import *imp = c->imp;
    if (imp->n_more < MORE_COUNTERS_MAX) {
        imp->more[imp->n_more++] = (tg_kcounter){track, value};
        step->n_more_counters = imp->n_more;
    }
    return 0;
}

/* ---- args ---- */

static tg_value *next_arg(tg_kcursor *c, tg_kstep *step, const char *key)
{
    if (!step || step->n_args >= ARGS_MAX)
        return NULL;
    tg_value *v = &c->imp->args[step->n_args++];
    *v = (tg_value){.name = key};
    return v;
}

void km_imp_arg_int(tg_kcursor *c, tg_kstep *step, const char *key, int64_t value)
{
    tg_value *v = next_arg(c, step, key);
    if (v) {
        v->type = TG_VAL_SINT;
        v->bits = 64;
        v->v.s = value;
    }
}

int km_imp_arg_text(tg_kcursor *c, tg_kstep *step, const char *key, const char *s, size_t n)
{
    if (!step)
        return 0;
    const char *kept = km_intern(c->m, s, n);
    if (!kept)
        return TG_ERR_NOMEM;
    tg_value *v = next_arg(c, step, key);
    if (v) {
        v->type = TG_VAL_STRING;
        v->v.str.ptr = kept;
        v->v.str.len = n;
    }
    return 0;
}

void km_imp_flow(tg_kcursor *c, tg_kstep *step, uint64_t id, unsigned flags)
{
    if (step && step->n_flows < FLOWS_MAX)
        c->imp->flows[step->n_flows++] = (tg_flow){.id = id, .flags = flags};
}
