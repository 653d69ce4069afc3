/* perfetto_read_ftrace.c - the kernel events of a Perfetto trace: FtraceEventBundle.
 *
 * A bundle holds one cpu's events.  Each FtraceEvent carries the common fields (timestamp,
 * pid) and one typed event (a oneof member: sched_switch, cpu_frequency, print, ...); the
 * record keeps the typed event's encoded bytes and its class is the member's message type,
 * named as the member is (Perfetto's names are the kernel's event names), so its fields are
 * the message's fields, decoded when asked (perfetto_read_stream.c).
 *
 * compact_sched is the same sched_switch and sched_waking events in columns: timestamps as
 * deltas, names through an intern table, a switch's previous task as the cpu's last
 * next_pid, a waking's waker as the task running on the cpu.  Each one is packed back into
 * its typed message (in the trace's arena), so it reads as the plain event would. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* The cpu's running task (pid and name) as the events so far tell. */
static int cpu_slot(pf_trace *p, uint32_t cpu)
{
    if (cpu >= 4096)
        return -1;
    if (cpu >= p->n_cpus) {
        size_t n = (size_t)cpu + 1;
        int32_t *cur = realloc(p->cpu_current, n * sizeof *cur);
        if (!cur)
            return -1;
        p->cpu_current = cur;
        const char **comm = realloc(p->cpu_comm, n * sizeof *comm);
        if (!comm)
            return -1;
        p->cpu_comm = comm;
        for (size_t i = p->n_cpus; i < n; i++) {
            p->cpu_current[i] = -1;
            p->cpu_comm[i] = NULL;
        }
        p->n_cpus = n;
    }
    return 0;
}

int pf_packed_record(tg_trace *t, const ProtobufCMessage *msg, const char *name, int64_t ts,
                     int32_t cpu, int32_t tid, uint64_t offset)
{
    pf_trace *p = t->priv;
    const tg_event_class *cls = pf_class_of(t, msg->descriptor, name);
    size_t n = protobuf_c_message_get_packed_size(msg);
    uint8_t *bytes = tg_arena_alloc(&t->arena, n ? n : 1);
    pf_record *r = cls && bytes ? pf_add_record(p) : NULL;
    if (!r)
        return TG_ERR_NOMEM;
    protobuf_c_message_pack(msg, bytes);
    r->ts = ts;
    r->cls = cls;
    r->cpu = cpu;
    r->tid = tid;
    r->pid = -1; /* ftrace names the thread only: its process is what the tasks say */
    r->data = bytes;
    r->size = n;
    r->offset = offset;
    return 0;
}

static const char *intern_at(const PerfettoRead__FtraceEventBundle__CompactSched *c, size_t i,
                             const uint32_t *index, size_t n_index)
{
    if (i >= n_index || index[i] >= c->n_intern_table)
        return "";
    return c->intern_table[index[i]];
}

static int read_compact(tg_trace *t, const PerfettoRead__FtraceEventBundle__CompactSched *c,
                        uint32_t cpu, uint64_t offset)
{
    pf_trace *p = t->priv;
    if (cpu_slot(p, cpu) < 0)
        return TG_ERR_NOMEM;
    uint64_t ts = 0;
    for (size_t i = 0; i < c->n_switch_timestamp; i++) {
        ts += c->switch_timestamp[i];
        PerfettoRead__SchedSwitchFtraceEvent e = PERFETTO_READ__SCHED_SWITCH_FTRACE_EVENT__INIT;
        int32_t prev = p->cpu_current[cpu];
        e.prev_comm = (char *)(p->cpu_comm[cpu] ? p->cpu_comm[cpu] : "");
        e.has_prev_pid = 1;
        e.prev_pid = prev < 0 ? 0 : prev;
        e.has_prev_prio = 1;
        e.has_prev_state = i < c->n_switch_prev_state;
        e.prev_state = e.has_prev_state ? c->switch_prev_state[i] : 0;
        e.next_comm =
            (char *)intern_at(c, i, c->switch_next_comm_index, c->n_switch_next_comm_index);
        e.has_next_pid = i < c->n_switch_next_pid;
        e.next_pid = e.has_next_pid ? c->switch_next_pid[i] : 0;
        e.has_next_prio = i < c->n_switch_next_prio;
        e.next_prio = e.has_next_prio ? c->switch_next_prio[i] : 0;
        int rc =
            pf_packed_record(t, &e.base, "sched_switch", ts > INT64_MAX ? INT64_MAX : (int64_t)ts,
                             (int32_t)cpu, e.prev_pid, offset);
        if (rc < 0)
            return rc;
        p->cpu_current[cpu] = e.next_pid;
        p->cpu_comm[cpu] = tg_arena_strdup(&t->arena, e.next_comm);
    }
    ts = 0;
    for (size_t i = 0; i < c->n_waking_timestamp; i++) {
        ts += c->waking_timestamp[i];
        PerfettoRead__SchedWakingFtraceEvent e = PERFETTO_READ__SCHED_WAKING_FTRACE_EVENT__INIT;
        e.comm = (char *)intern_at(c, i, c->waking_comm_index, c->n_waking_comm_index);
        e.has_pid = i < c->n_waking_pid;
        e.pid = e.has_pid ? c->waking_pid[i] : 0;
        e.has_prio = i < c->n_waking_prio;
        e.prio = e.has_prio ? c->waking_prio[i] : 0;
        e.has_success = 1;
        e.success = 1;
        e.has_target_cpu = i < c->n_waking_target_cpu;
        e.target_cpu = e.has_target_cpu ? c->waking_target_cpu[i] : 0;
        int rc = pf_packed_record(t, &e.base, "sched_waking",
                                  ts > INT64_MAX ? INT64_MAX : (int64_t)ts, (int32_t)cpu,
                                  p->cpu_current[cpu] < 0 ? 0 : p->cpu_current[cpu], offset);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* One FtraceEvent (its bytes) into a record. */
static int read_event(tg_trace *t, const uint8_t *data, size_t size, uint32_t cpu, uint64_t offset)
{
    pf_trace *p = t->priv;
    uint64_t ts = 0;
    int32_t pid = -1;
    const uint8_t *cur = data, *end = data + size, *member = NULL;
    size_t member_len = 0;
    const ProtobufCFieldDescriptor *f = NULL;
    pf_wire w;
    int more;
    while ((more = pf_wire_next(&cur, end, &w)) > 0) {
        if (w.field == 1 && w.type == 0)
            ts = w.value;
        else if (w.field == 2 && w.type == 0)
            pid = (int32_t)w.value;
        else if (w.type == 2 && w.field > 2) {
            const ProtobufCFieldDescriptor *d = protobuf_c_message_descriptor_get_field(
                &perfetto_read__ftrace_event__descriptor, w.field);
            if (d && d->type == PROTOBUF_C_TYPE_MESSAGE) {
                f = d;
                member = w.bytes;
                member_len = w.len;
            }
        }
    }
    if (more < 0 || !f)
        return 0; /* an event this schema does not know, or damaged: trace_processor skips it */
    const tg_event_class *cls = pf_class_of(t, f->descriptor, f->name);
    pf_record *r = cls ? pf_add_record(p) : NULL;
    if (!r)
        return TG_ERR_NOMEM;
    r->ts = ts > INT64_MAX ? INT64_MAX : (int64_t)ts;
    r->cls = cls;
    r->cpu = (int32_t)cpu;
    r->tid = pid;
    r->pid = -1; /* the event's pid is its thread; the process is what the tasks say */
    r->data = member;
    r->size = member_len;
    r->offset = offset;
    if (f->descriptor == &perfetto_read__print_ftrace_event__descriptor ||
        f->descriptor == &perfetto_read__sde_tracing_mark_write_ftrace_event__descriptor ||
        f->descriptor == &perfetto_read__tracing_mark_write_ftrace_event__descriptor)
        p->n_atrace_events++; /* its slices come in time order (pf_atrace_pass) */
    return 0;
}

int pf_read_ftrace_bundle(tg_trace *t, const uint8_t *data, size_t size, uint64_t offset,
                          tg_error **err)
{
    (void)err;
    uint32_t cpu = 0;
    uint64_t valid_from = 0;
    const uint8_t *cur = data, *end = data + size, *compact = NULL;
    size_t compact_len = 0;
    pf_wire w;
    while (pf_wire_next(&cur, end, &w) > 0) /* the cpu first: it may come after the events */
        if (w.field == 1 && w.type == 0)
            cpu = (uint32_t)w.value;
        else if ((w.field == 9 || w.field == 10) && w.type == 0)
            valid_from = w.value; /* last_read_event_timestamp, previous_bundle_end_timestamp */
    cur = data;
    int rc = pf_ftrace_bundle_start(t->priv, cpu, valid_from);
    while (rc == 0 && pf_wire_next(&cur, end, &w) > 0) {
        if (w.field == 2 && w.type == 2)
            rc = read_event(t, w.bytes, w.len, cpu, offset);
        else if (w.field == 4 && w.type == 2) {
            compact = w.bytes;
            compact_len = w.len;
        }
    }
    if (rc == 0 && compact) {
        ProtobufCMessage *m = protobuf_c_message_unpack(
            &perfetto_read__ftrace_event_bundle__compact_sched__descriptor, NULL, compact_len,
            compact);
        if (m) {
            rc = read_compact(t, (const PerfettoRead__FtraceEventBundle__CompactSched *)m, cpu,
                              offset);
            protobuf_c_message_free_unpacked(m, NULL);
        }
    }
    return rc;
}
