/* perfetto_read_track_counter.c - TrackEvent counters: a TrackDescriptor with a counter
 * description declares a counter track, and a TYPE_COUNTER event gives it a value.
 *
 * As trace_processor reads them, the descriptor says the unit (its unit_name, else the
 * builtin unit's "ns", "count", "bytes"), a multiplier every value is scaled by, and
 * whether the values are increments: an incremental counter's value is the running sum of
 * its sequence's events since the sequence's incremental state was last cleared, so two
 * sequences writing to the same track each keep their own sum. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <string.h>

int pf_read_counter_descriptor(tg_trace *t, pf_track *k, const PerfettoRead__CounterDescriptor *c)
{
    k->counter = true;
    k->incremental = c->has_is_incremental && c->is_incremental;
    k->multiplier = c->has_unit_multiplier && c->unit_multiplier ? c->unit_multiplier : 1;
    const char *unit = c->unit_name;
    if (!unit && c->has_unit) {
        switch (c->unit) {
        case PERFETTO_READ__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS: unit = "ns"; break;
        case PERFETTO_READ__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT: unit = "count"; break;
        case PERFETTO_READ__COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES: unit = "bytes"; break;
        default: break;
        }
    }
    if (unit && !(k->unit = tg_arena_strdup(&t->arena, unit)))
        return TG_ERR_NOMEM;
    return 0;
}

int pf_track_event_counter(tg_trace *t, const PerfettoRead__TrackEvent *e, pf_track *k,
                           const pf_sequence *s, int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    if (!k || !k->counter)
        return 0; /* a value for no counter track: trace_processor drops it too */
    double value;
    switch (e->counter_value_field_case) {
    case PERFETTO_READ__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE:
        value = (double)e->counter_value * (double)k->multiplier;
        break;
    case PERFETTO_READ__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE:
        value = e->double_counter_value * (double)k->multiplier;
        break;
    default: value = 0; break;
    }
    if (k->incremental) {
        uint64_t parts[3] = {s->id, s->generation, k->uuid};
        bool fresh;
        int64_t *sum =
            pf_probe_previous(p, pf_counter_key(0x696e6372, parts, sizeof parts), 1, &fresh);
        if (!sum)
            return TG_ERR_NOMEM;
        double total;
        memcpy(&total, sum, sizeof total);
        value += fresh ? 0 : total;
        memcpy(sum, &value, sizeof value);
    }
    return pf_counter_record(t, ts, k - p->tracks, value, NULL, 0, offset);
}
