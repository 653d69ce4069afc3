/* perfetto_read_atrace_marks.c - atrace's marks that a kernel driver writes as events of its
 * own (tracing_mark_write, the display driver's sde_tracing_mark_write) rather than as text
 * through the print event: the same begin and end of a thread's slice, in fields.
 *
 * As trace_processor reads them, an event with neither a type nor a begin flag says nothing;
 * otherwise its type (a character: 'B', 'E', ...) or else its begin flag ('B' when set, 'E'
 * when not) is the phase, the event's pid field the process (tgid) and trace_name the
 * slice's name.  It then reads as the print event's "B|tgid|name" / "E|tgid" would
 * (pf_atrace). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdio.h>

int pf_atrace_mark(tg_trace *t, const ProtobufCMessageDescriptor *d, const uint8_t *data,
                   size_t size, int64_t ts, int32_t tid, uint64_t offset)
{
    int32_t pid = 0;
    const char *name = NULL;
    bool has_type = false, has_begin = false;
    uint32_t type = 0, begin = 0;
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, size, data);
    if (!m)
        return 0; /* damaged: skipped as trace_processor skips it */
    if (d == &perfetto_read__sde_tracing_mark_write_ftrace_event__descriptor) {
        const PerfettoRead__SdeTracingMarkWriteFtraceEvent *e = (const void *)m;
        pid = e->pid;
        name = e->trace_name;
        has_type = e->has_trace_type;
        type = e->trace_type;
        has_begin = e->has_trace_begin;
        begin = e->trace_begin;
    } else {
        const PerfettoRead__TracingMarkWriteFtraceEvent *e = (const void *)m;
        pid = e->pid;
        name = e->trace_name;
        has_begin = e->has_trace_begin;
        begin = e->trace_begin;
    }
    int rc = 0;
    if (has_type || has_begin) {
        char phase = has_type ? (char)type : begin ? 'B' : 'E';
        char text[512];
        int n = snprintf(text, sizeof text, "%c|%d|%s", phase, (int)pid, name ? name : "");
        if (n > 0)
            rc = pf_atrace(t, ts, tid, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1,
                           offset);
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return rc;
}
