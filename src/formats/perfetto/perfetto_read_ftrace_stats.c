/* perfetto_read_ftrace_stats.c - the FtraceStats packet (TracePacket field 34): what the
 * ftrace data source says went wrong while it read the kernel's ring buffers.
 *
 * traced_probes lists each ring-buffer page it could not parse as an FtraceParseStatus in
 * ftrace_parse_errors (field 9).  trace_processor counts a page the kernel wrote with a
 * zero data length (FTRACE_STATUS_ABI_ZERO_DATA_LENGTH, a known kernel quirk whose events
 * the reader skips) under "ftrace_abi_errors_skipped_zero_data_length", severity info; the
 * other statuses name pages whose events are lost, which the per-CPU stats already count.
 * The rest of the packet (per-CPU entries, overruns) is not kept. */
#include "formats/perfetto/perfetto_read_internal.h"

enum { FTRACE_STATS_PARSE_ERRORS = 9, FTRACE_STATUS_ABI_ZERO_DATA_LENGTH = 12 };

static int count_status(tg_trace *t, uint64_t status)
{
    if (status == FTRACE_STATUS_ABI_ZERO_DATA_LENGTH)
        return tg_trace_count(t, "ftrace_abi_errors_skipped_zero_data_length", "info", 1);
    return 0;
}

int pf_read_ftrace_stats(tg_trace *t, const uint8_t *data, size_t size)
{
    const uint8_t *cur = data, *end = data + size;
    pf_wire w;
    int rc = 0;
    while (rc == 0 && pf_wire_next(&cur, end, &w) > 0) {
        if (w.field != FTRACE_STATS_PARSE_ERRORS)
            continue;
        if (w.type == 0) {
            rc = count_status(t, w.value);
        } else if (w.type == 2) { /* packed */
            const uint8_t *q = w.bytes, *q_end = w.bytes + w.len;
            while (rc == 0 && q < q_end) {
                uint64_t v = 0;
                unsigned shift = 0;
                while (q < q_end && shift < 64) {
                    uint8_t b = *q++;
                    v |= (uint64_t)(b & 0x7f) << shift;
                    shift += 7;
                    if (!(b & 0x80))
                        break;
                }
                rc = count_status(t, v);
            }
        }
    }
    return rc;
}
