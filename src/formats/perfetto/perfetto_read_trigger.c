/* perfetto_read_trigger.c - trace triggers (a Trigger packet, or a clone_snapshot_trigger
 * packet of a snapshot's clone) as slices of the global track "Trace Triggers".
 *
 * trace_processor draws each trigger the service recorded as a slice of no duration named
 * by the trigger, on one track of no thread or process, with its producer's name and
 * trusted uid as the slice's args ("producer_name", "trusted_producer_uid"), each only
 * when the packet has it.  The track is made at the first trigger. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <string.h>

/* The key of the triggers' track among the trace's track uuids (apart from any a trace
 * declares: a TrackDescriptor's uuid is the producer's choice, this one is ours). */
#define PF_TRIGGER_TRACK_UUID 0x7219e55000000000ull

pf_track *pf_trigger_track(pf_trace *p)
{
    pf_track *k = pf_track_of(p, PF_TRIGGER_TRACK_UUID, true);
    if (k) {
        k->name = "Trace Triggers";
        k->type = "triggers";
    }
    return k;
}

int pf_read_trigger(tg_trace *t, const PerfettoRead__Trigger *tr, int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    pf_track *k = pf_trigger_track(p);
    if (!k)
        return TG_ERR_NOMEM;
    uint64_t name = pf_name_number(t, tr->trigger_name ? tr->trigger_name : "");
    if (name == UINT64_MAX)
        return TG_ERR_NOMEM;
    int rc = pf_slice_record(t, true, ts, k, name, offset);
    if (rc < 0)
        return rc;
    size_t n = (tr->producer_name != NULL) + tr->has_trusted_producer_uid;
    if (n) {
        pf_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
        tg_value *args = tg_arena_alloc(&t->arena, n * sizeof *args);
        if (!info || !args)
            return TG_ERR_NOMEM;
        memset(info, 0, sizeof *info);
        memset(args, 0, n * sizeof *args);
        if (tr->producer_name) {
            tg_value *v = &args[info->n_args++];
            v->type = TG_VAL_STRING;
            v->name = "producer_name";
            v->v.str.ptr = tg_arena_strdup(&t->arena, tr->producer_name);
            if (!v->v.str.ptr)
                return TG_ERR_NOMEM;
            v->v.str.len = strlen(v->v.str.ptr);
        }
        if (tr->has_trusted_producer_uid) {
            tg_value *v = &args[info->n_args++];
            v->type = TG_VAL_SINT;
            v->name = "trusted_producer_uid";
            v->v.s = tr->trusted_producer_uid;
            v->bits = 32;
            v->base = 10;
        }
        info->args = args;
        p->recs[p->n_recs - 1].slice = info;
    }
    return pf_slice_record(t, false, ts, k, name, offset);
}
