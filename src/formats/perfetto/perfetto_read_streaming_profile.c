/* perfetto_read_streaming_profile.c - Chrome's StreamingProfilePacket: what its time deltas
 * do to the sequence's clock.
 *
 * A streaming profile packet's samples are timed like a TrackEvent's timestamp_delta_us:
 * each delta advances the sequence's time (the ThreadDescriptor's reference), so the track
 * events after it on the sequence are timed after it.  As trace_processor does, the packet's
 * reference time must not be negative and each advance saturates at the int64 bounds; a time
 * that goes negative is counted (streaming_profile_invalid_timestamp) and ends the packet,
 * and the sequence keeps that time: its later delta-timed events are invalid too.  The
 * samples themselves (stack profiles) are not read. */
#include "formats/perfetto/perfetto_read_internal.h"

enum { PF_PACKET_STREAMING_PROFILE = 54, PF_PROFILE_TIMESTAMP_DELTA_US = 2 };

static int64_t saturating_add(int64_t a, int64_t b)
{
    __int128 v = (__int128)a + b;
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static int64_t saturating_us_to_ns(int64_t us)
{
    __int128 v = (__int128)us * 1000;
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* Advances s's time by delta_us: false when it went negative (counted). */
static int advance(tg_trace *t, pf_sequence *s, int64_t delta_us, bool *invalid)
{
    s->event_time = saturating_add(s->event_time, saturating_us_to_ns(delta_us));
    if (s->event_time >= 0)
        return 0;
    *invalid = true;
    return tg_trace_count(t, "streaming_profile_invalid_timestamp", "error", 1);
}

int pf_read_streaming_profile(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s)
{
    for (unsigned i = 0; i < pk->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &pk->base.unknown_fields[i];
        size_t len;
        const uint8_t *data =
            u->tag == PF_PACKET_STREAMING_PROFILE ? pf_unknown_bytes(u, &len) : NULL;
        if (!data)
            continue;
        if (s->event_time < 0)
            return tg_trace_count(t, "streaming_profile_invalid_timestamp", "error", 1);
        const uint8_t *p = data, *end = data + len;
        pf_wire w;
        bool invalid = false;
        while (!invalid && pf_wire_next(&p, end, &w) > 0) {
            if (w.field != PF_PROFILE_TIMESTAMP_DELTA_US)
                continue;
            int rc = 0;
            if (w.type == 0)
                rc = advance(t, s, (int64_t)w.value, &invalid);
            uint64_t delta;
            for (const uint8_t *q = w.bytes, *q_end = w.bytes + w.len;
                 rc == 0 && !invalid && w.type == 2 && pf_varint_at(&q, q_end, &delta);)
                rc = advance(t, s, (int64_t)delta, &invalid); /* packed */
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}
