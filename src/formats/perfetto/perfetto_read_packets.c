/* perfetto_read_packets.c - the packets of Perfetto's other data sources (not ftrace, not
 * track events): which reader each one goes to.
 *
 * Each family of packets has its own file; this one only dispatches on the packet's kind,
 * so that adding a family is adding a case here and a file beside it. */
#include "formats/perfetto/perfetto_read_internal.h"

int pf_read_other_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                         int64_t ts, uint64_t offset)
{
    if (pk->base.n_unknown_fields) {
        int rc = pf_read_chrome_trigger(t, pk, ts, offset);
        if (rc < 0)
            return rc;
    }
    switch (pk->data_case) {
    case PERFETTO_READ__TRACE_PACKET__DATA_CPU_INFO: return pf_read_cpu_info(t, pk->cpu_info);
    case PERFETTO_READ__TRACE_PACKET__DATA_TRIGGER:
        return pf_read_trigger(t, pk->trigger, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA_CLONE_SNAPSHOT_TRIGGER:
        return pf_read_trigger(t, pk->clone_snapshot_trigger, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA_CPU_PER_UID_DATA:
    case PERFETTO_READ__TRACE_PACKET__DATA_ANDROID_SYSTEM_PROPERTY:
    case PERFETTO_READ__TRACE_PACKET__DATA_INITIAL_DISPLAY_STATE:
        return pf_read_android(t, pk, s, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA_SYS_STATS:
        return pf_read_sys_stats(t, pk->sys_stats, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA_POWER_RAILS:
    case PERFETTO_READ__TRACE_PACKET__DATA_ANDROID_ENERGY_ESTIMATION_BREAKDOWN:
        return pf_read_power(t, pk, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA__NOT_SET:
        return pk->base.n_unknown_fields ? pf_read_etw_packet(t, pk, s, offset) : 0;
    default: return 0;
    }
}
