/* perfetto_read_clock.c - a packet's time on the trace clock, from the clock snapshots.
 *
 * The trace clock is BOOTTIME unless a snapshot names another (its primary_trace_clock), as
 * trace_processor chooses it.  A packet's timestamp counts the clock its timestamp_clock_id
 * names (or its sequence's trace_packet_defaults' clock; none: BOOTTIME).  A ClockSnapshot
 * packet reads every clock it lists at one instant: from it, a value v of clock c is
 * T + (v - C) * c's unit on the trace clock, where C and T are c's and the trace clock's
 * readings in the latest snapshot.  Clock ids of 64 and up belong to the sequence that declared them;
 * an incremental clock's timestamps are deltas from the sequence's previous one, starting
 * at the snapshot's reading (what Perfetto's SDK and traceglot's writer emit).  A clock no
 * snapshot defines counts as the trace clock. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <string.h>

enum { PF_FIRST_SEQUENCE_CLOCK = 64 };

const char *pf_clock_name(uint32_t id)
{
    switch (id) {
    case PF_CLOCK_REALTIME: return "realtime";
    case PF_CLOCK_MONOTONIC: return "mono";
    case PF_CLOCK_MONOTONIC_RAW: return "mono_raw";
    case PF_CLOCK_BOOTTIME: return "boot";
    default: return NULL;
    }
}

static pf_clock *clock_of(pf_trace *p, uint32_t id, uint32_t seq)
{
    if (id < PF_FIRST_SEQUENCE_CLOCK)
        seq = 0;
    for (size_t i = 0; i < p->n_clocks; i++)
        if (p->clocks[i].id == id && p->clocks[i].seq == seq)
            return &p->clocks[i];
    return NULL;
}

int pf_read_clock_snapshot(pf_trace *p, const PerfettoRead__ClockSnapshot *s, uint32_t seq)
{
    if (s->has_primary_trace_clock && s->primary_trace_clock && !p->n_clocks)
        p->trace_clock = s->primary_trace_clock; /* the first snapshot's choice holds */
    int64_t boot = 0;
    bool has_boot = false;
    for (size_t i = 0; i < s->n_clocks; i++)
        if (s->clocks[i]->clock_id == p->trace_clock && s->clocks[i]->timestamp <= INT64_MAX) {
            boot = (int64_t)s->clocks[i]->timestamp;
            has_boot = true;
        }
    if (!has_boot)
        return 0; /* nothing to relate the clocks to */
    for (size_t i = 0; i < s->n_clocks; i++) {
        const PerfettoRead__ClockSnapshot__Clock *c = s->clocks[i];
        if (c->clock_id == p->trace_clock)
            continue;
        pf_clock *k = clock_of(p, c->clock_id, seq);
        if (!k) {
            if (tg_grow(&p->clocks, &p->cap_clocks, p->n_clocks + 1, sizeof *p->clocks) < 0)
                return TG_ERR_NOMEM;
            k = &p->clocks[p->n_clocks++];
        }
        *k = (pf_clock){
            .id = c->clock_id,
            .seq = c->clock_id < PF_FIRST_SEQUENCE_CLOCK ? 0 : seq,
            .incremental = c->has_is_incremental && c->is_incremental,
            .unit = c->has_unit_multiplier_ns && c->unit_multiplier_ns ? c->unit_multiplier_ns : 1,
            .at = c->timestamp,
            .last = c->timestamp,
            .boot = boot};
    }
    return 0;
}

int64_t pf_boot_time(pf_trace *p, uint32_t clock_id, uint32_t seq, uint64_t value)
{
    pf_clock *k = clock_id == p->trace_clock ? NULL : clock_of(p, clock_id, seq);
    if (!k)
        return value > INT64_MAX ? INT64_MAX : (int64_t)value;
    if (k->incremental) {
        k->last += value;
        value = k->last;
    }
    /* B + (v - C) * unit, saturated */
    __int128 ns = (__int128)k->boot + ((__int128)value - (__int128)k->at) * (__int128)k->unit;
    return ns > INT64_MAX ? INT64_MAX : ns < INT64_MIN ? INT64_MIN : (int64_t)ns;
}

bool pf_track_event_time(pf_trace *p, pf_sequence *s, const PerfettoRead__TrackEvent *e,
                         int64_t packet_ts, int64_t *ts)
{
    __int128 mono;
    switch (e->timestamp_case) {
    case PERFETTO_READ__TRACK_EVENT__TIMESTAMP_TIMESTAMP_DELTA_US:
        mono = (__int128)s->event_time + (__int128)e->timestamp_delta_us * 1000;
        if (mono < INT64_MIN || mono > INT64_MAX)
            return false;
        s->event_time = (int64_t)mono;
        break;
    case PERFETTO_READ__TRACK_EVENT__TIMESTAMP_TIMESTAMP_ABSOLUTE_US:
        mono = (__int128)e->timestamp_absolute_us * 1000;
        if (mono < INT64_MIN || mono > INT64_MAX)
            return false;
        break;
    default: *ts = packet_ts; return packet_ts >= 0;
    }
    if (mono < 0)
        return false;
    *ts = pf_boot_time(p, PF_CLOCK_MONOTONIC, s->id, (uint64_t)mono);
    return *ts >= 0;
}
