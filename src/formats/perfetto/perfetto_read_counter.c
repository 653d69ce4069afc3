/* perfetto_read_counter.c - counter tracks and their values, for the data sources that
 * give counters (system stats, power rails, energy estimates, per-UID CPU time, system
 * properties, TrackEvent counters).
 *
 * trace_processor makes a data source's counter track from a blueprint: a type ("diskstat",
 * "cpu_idle_state"), the dimensions that tell its tracks apart (a device, a CPU), a name
 * and a unit; the same type and dimensions find the same track again.  Here such a track
 * is a pf_track kept by a hash of its type, owner and dimensions (apart from the trace's
 * own track uuids), declared to core with the other tracks (pf_declare_tracks) as a counter
 * track; each value is a record of the "counter" class on it, which the kernel model turns
 * into a row of `counter` (tg_stream_ops.counter_value). */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

struct pf_probe_state {
    tg_hash slot_by_key; /* key -> index of its first value in values */
    int64_t *values;
    size_t n_values, cap_values;
};

struct pf_probe_state *pf_probe_state_of(pf_trace *p)
{
    if (!p->probes)
        p->probes = calloc(1, sizeof *p->probes);
    return p->probes;
}

void pf_probe_state_free(pf_trace *p)
{
    if (!p->probes)
        return;
    tg_hash_free(&p->probes->slot_by_key);
    free(p->probes->values);
    free(p->probes);
    p->probes = NULL;
}

int64_t *pf_probe_previous(pf_trace *p, uint64_t key, size_t n, bool *fresh)
{
    struct pf_probe_state *ps = pf_probe_state_of(p);
    if (!ps)
        return NULL;
    uint64_t *slot = tg_hash_find(&ps->slot_by_key, key);
    *fresh = !slot;
    if (!slot) {
        if (tg_grow_zeroed(&ps->values, &ps->n_values, &ps->cap_values, ps->n_values + n,
                           sizeof *ps->values) < 0 ||
            tg_hash_insert(&ps->slot_by_key, key, &slot) < 0)
            return NULL;
        *slot = ps->n_values - n;
    }
    return &ps->values[*slot];
}

bool pf_value_text(tg_trace *t, tg_value *v, const char *name, const char *text, size_t len)
{
    char *copy = tg_arena_strndup(&t->arena, text ? text : "", text ? len : 0);
    if (!copy)
        return false;
    *v = (tg_value){.name = name, .type = TG_VAL_STRING, .v.str = {copy, strlen(copy)}};
    return true;
}

/* A copy of n values in the arena (their strings are in the arena or static already; the
 * names are static), NULL when out of memory. */
static tg_value *copy_values(tg_trace *t, const tg_value *v, size_t n)
{
    tg_value *copy = tg_arena_alloc(&t->arena, n * sizeof *copy);
    if (copy)
        memcpy(copy, v, n * sizeof *copy);
    return copy;
}

/* FNV-1a over bytes, continued from h. */
static uint64_t mix(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint64_t pf_counter_key(uint64_t seed, const void *bytes, size_t n)
{
    return mix(seed ? seed : 0xcbf29ce484222325ull, bytes, n);
}

int pf_packet_machine(pf_trace *p, const PerfettoRead__TracePacket *pk)
{
    p->packet_machine = 0;
    if (!pk->has_machine_id || !pk->machine_id)
        return 0;
    size_t i = 0;
    while (i < p->n_machines && p->machines[i] != pk->machine_id)
        i++;
    if (i == p->n_machines) {
        if (i >= 4096)
            return 0; /* more machines than a trace has: the host's */
        if (tg_grow(&p->machines, &p->cap_machines, i + 1, sizeof *p->machines) < 0)
            return TG_ERR_NOMEM;
        p->machines[p->n_machines++] = pk->machine_id;
    }
    p->packet_machine = (int64_t)i + 1;
    return 0;
}

static uint64_t key_of(const pf_counter_how *how, int64_t machine)
{
    uint64_t h = mix(0xcbf29ce484222325ull, how->type, strlen(how->type) + 1);
    h = mix(h, &machine, sizeof machine);
    h = mix(h, &how->pid, sizeof how->pid);
    h = mix(h, &how->tid, sizeof how->tid);
    h = mix(h, &how->slices, sizeof how->slices);
    for (size_t i = 0; i < how->n_dims; i++) {
        const tg_value *v = &how->dims[i];
        h = mix(h, v->name ? v->name : "", v->name ? strlen(v->name) + 1 : 1);
        if (v->type == TG_VAL_STRING)
            h = mix(h, v->v.str.ptr, v->v.str.len + 1);
        else
            h = mix(h, &v->v.u, sizeof v->v.u);
    }
    /* a track named apart from its dimensions (atrace's, a property's) by its name too */
    return how->n_dims || !how->name ? h : mix(h, how->name, strlen(how->name) + 1);
}

int64_t pf_counter_track(tg_trace *t, const pf_counter_how *how)
{
    pf_trace *p = t->priv;
    uint64_t key = key_of(how, p->packet_machine), *slot = tg_hash_find(&p->counter_by_key, key);
    if (slot)
        return (int64_t)*slot;
    if (tg_grow(&p->tracks, &p->cap_tracks, p->n_tracks + 1, sizeof *p->tracks) < 0 ||
        tg_hash_insert(&p->counter_by_key, key, &slot) < 0)
        return TG_ERR_NOMEM;
    pf_track k = {.uuid = key,
                  .pid = how->pid,
                  .tid = how->tid,
                  .decl = -1,
                  .first_slice = UINT64_MAX,
                  .counter = !how->slices,
                  .machine = p->packet_machine,
                  .n_dims = how->n_dims,
                  .n_source_args = how->n_source_args};
    k.name = how->name ? tg_arena_strdup(&t->arena, how->name) : NULL;
    k.type = tg_arena_strdup(&t->arena, how->type);
    k.unit = how->unit ? tg_arena_strdup(&t->arena, how->unit) : NULL;
    k.dims = how->n_dims ? copy_values(t, how->dims, how->n_dims) : NULL;
    k.source_args =
        how->n_source_args ? copy_values(t, how->source_args, how->n_source_args) : NULL;
    if ((how->name && !k.name) || !k.type || (how->unit && !k.unit) || (how->n_dims && !k.dims) ||
        (how->n_source_args && !k.source_args))
        return TG_ERR_NOMEM;
    *slot = p->n_tracks;
    p->tracks[p->n_tracks] = k;
    return (int64_t)p->n_tracks++;
}

int pf_counter_record(tg_trace *t, int64_t ts, int64_t k, double value, const tg_value *args,
                      size_t n, uint64_t offset)
{
    pf_trace *p = t->priv;
    if (!p->counter &&
        !(p->counter = tg_trace_add_class(t, "counter", t->n_classes, TG_KIND_GENERIC)))
        return TG_ERR_NOMEM;
    pf_slice_info *info = NULL;
    if (n) {
        info = tg_arena_alloc(&t->arena, sizeof *info);
        if (!info || !(info->args = copy_values(t, args, n)))
            return TG_ERR_NOMEM;
        *info = (pf_slice_info){.args = info->args, .n_args = n};
    }
    pf_record *r = pf_add_record(p);
    if (!r)
        return TG_ERR_NOMEM;
    r->ts = ts;
    r->cls = p->counter;
    r->cpu = -1;
    r->pid = p->tracks[k].pid;
    r->tid = p->tracks[k].tid >= 0 ? p->tracks[k].tid : 0;
    r->track = (int32_t)k;
    r->value = value;
    r->offset = offset;
    r->slice = info;
    return 0;
}
