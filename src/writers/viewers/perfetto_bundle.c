/* perfetto_bundle.c - one CPU's FtraceEventBundle (see perfetto_bundle.h). */
#include "writers/viewers/perfetto_bundle.h"

#include "core/consumer.h"

#include <stdlib.h>
#include <string.h>

enum {
    COMPACT_BYTES = 16, /* what one compact entry is counted as */
};

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

pf_cpu *tg_pf_bundle_of(pf_cpu ***cpus, size_t *cap, int cpu)
{
    if ((size_t)cpu >= *cap) {
        size_t old = *cap;
        if (tg_grow(cpus, cap, (size_t)cpu + 1, sizeof **cpus) < 0)
            return NULL;
        memset(*cpus + old, 0, (*cap - old) * sizeof **cpus);
    }
    pf_cpu **at = &(*cpus)[cpu];
    if (!*at) {
        if (!(*at = calloc(1, sizeof **at)))
            return NULL;
        (*at)->cpu = cpu;
        tg_frame_names_init(&(*at)->comms);
    }
    return *at;
}

int tg_pf_bundle_event(pf_cpu *c, uint64_t ts, int64_t pid, int64_t flags, uint32_t id,
                       const uint8_t *msg, size_t len)
{
    uint8_t head[48];
    size_t n = 0;
    n += put_varint(head + n, (uint64_t)id << 3 | 2);
    n += put_varint(head + n, len);
    uint8_t common[40];
    size_t k = 0;
    common[k++] = 1 << 3 | 0; /* FtraceEvent.timestamp */
    k += put_varint(common + k, ts);
    if (pid >= 0) {
        common[k++] = 2 << 3 | 0; /* pid */
        k += put_varint(common + k, (uint32_t)pid);
    }
    if (flags >= 0) {
        common[k++] = 5 << 3 | 0; /* common_flags */
        k += put_varint(common + k, (uint32_t)flags);
    }
    size_t body = k + n + len;
    if (tg_grow(&c->ev, &c->ev_cap, c->ev_len + body + 12, 1) < 0)
        return TG_ERR_NOMEM;
    uint8_t *o = c->ev + c->ev_len;
    *o++ = 2 << 3 | 2; /* FtraceEventBundle.event */
    o += put_varint(o, body);
    memcpy(o, common, k);
    memcpy(o + k, head, n);
    memcpy(o + k + n, msg, len);
    c->ev_len = (size_t)(o + k + n + len - c->ev);
    return 0;
}

int tg_pf_bundle_switch(pf_cpu *c, uint64_t ts, int64_t state, int32_t pid, int32_t prio,
                        const char *comm, size_t comm_len)
{
    int64_t id = tg_frame_names_intern(&c->comms, comm, comm_len);
    if (id < 0 || tg_grow(&c->sw, &c->sw_cap, c->n_sw + 1, sizeof *c->sw) < 0)
        return TG_ERR_NOMEM;
    c->sw[c->n_sw++] = (pf_switch){ts, state, pid, prio, (uint32_t)id};
    return 0;
}

int tg_pf_bundle_waking(pf_cpu *c, uint64_t ts, int32_t pid, int32_t target, int32_t prio,
                        int64_t flags, const char *comm, size_t comm_len)
{
    int64_t id = tg_frame_names_intern(&c->comms, comm, comm_len);
    if (id < 0 || tg_grow(&c->wk, &c->wk_cap, c->n_wk + 1, sizeof *c->wk) < 0)
        return TG_ERR_NOMEM;
    if (flags >= 0)
        c->wk_flags = true;
    c->wk[c->n_wk++] =
        (pf_waking){ts, pid, target, prio, (uint32_t)id, flags >= 0 ? (uint32_t)flags : 0};
    return 0;
}

bool tg_pf_bundle_full(const pf_cpu *c)
{
    return c->ev_len + COMPACT_BYTES * (c->n_sw + c->n_wk) >= TG_PF_BUNDLE_BYTES;
}

/* The bytes of the bundle's CompactSched into *pack: their length (0: none). */
static int64_t pack_compact(pf_cpu *c, uint8_t **pack, size_t *pack_cap)
{
    if (!c->n_sw && !c->n_wk)
        return 0;
    Perfetto__Protos__CompactSched cs = PERFETTO__PROTOS__COMPACT_SCHED__INIT;
    size_t n = c->n_sw, m = c->n_wk, nc = tg_frame_names_count(&c->comms);
    uint64_t *sw_ts = malloc((n + 1) * sizeof *sw_ts), *wk_ts = malloc((m + 1) * sizeof *wk_ts);
    int64_t *state = malloc((n + 1) * sizeof *state);
    int32_t *i32 = malloc((2 * n + 3 * m + 1) * sizeof *i32);
    uint32_t *u32 = malloc((n + 2 * m + 1) * sizeof *u32);
    char **table = malloc((nc + 1) * sizeof *table);
    int64_t len = TG_ERR_NOMEM;
    if (sw_ts && wk_ts && state && i32 && u32 && table) {
        cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid =
            cs.n_switch_next_prio = cs.n_switch_next_comm_index = n;
        cs.switch_timestamp = sw_ts;
        cs.switch_prev_state = state;
        cs.switch_next_pid = i32;
        cs.switch_next_prio = i32 + n;
        cs.switch_next_comm_index = u32;
        for (size_t i = 0; i < n; i++) {
            sw_ts[i] = c->sw[i].ts - (i ? c->sw[i - 1].ts : 0);
            state[i] = c->sw[i].state;
            i32[i] = c->sw[i].pid;
            i32[n + i] = c->sw[i].prio;
            u32[i] = c->sw[i].comm;
        }
        cs.n_waking_timestamp = cs.n_waking_pid = cs.n_waking_target_cpu = cs.n_waking_prio =
            cs.n_waking_comm_index = m;
        cs.waking_timestamp = wk_ts;
        cs.waking_pid = i32 + 2 * n;
        cs.waking_target_cpu = i32 + 2 * n + m;
        cs.waking_prio = i32 + 2 * n + 2 * m;
        cs.waking_comm_index = u32 + n;
        if (c->wk_flags) {
            cs.n_waking_common_flags = m;
            cs.waking_common_flags = u32 + n + m;
        }
        for (size_t i = 0; i < m; i++) {
            wk_ts[i] = c->wk[i].ts - (i ? c->wk[i - 1].ts : 0);
            cs.waking_pid[i] = c->wk[i].pid;
            cs.waking_target_cpu[i] = c->wk[i].target;
            cs.waking_prio[i] = c->wk[i].prio;
            cs.waking_comm_index[i] = c->wk[i].comm;
            u32[n + m + i] = c->wk[i].flags;
        }
        for (size_t i = 0; i < nc; i++)
            table[i] = (char *)tg_frame_names_get(&c->comms, i);
        cs.n_intern_table = nc;
        cs.intern_table = table;
        size_t size = protobuf_c_message_get_packed_size(&cs.base);
        if (tg_grow(pack, pack_cap, size + 1, 1) == 0)
            len = (int64_t)protobuf_c_message_pack(&cs.base, *pack);
    }
    free(sw_ts);
    free(wk_ts);
    free(state);
    free(i32);
    free(u32);
    free(table);
    return len;
}

int tg_pf_bundle_flush(pf_cpu *c, tg_pf_packets *pk, uint8_t **pack, size_t *pack_cap)
{
    if (!c->ev_len && !c->n_sw && !c->n_wk)
        return 0;
    int64_t compact = pack_compact(c, pack, pack_cap);
    if (compact < 0)
        return (int)compact;
    uint8_t head[40], cpu[12], tail[16];
    size_t n_cpu = 0, n_tail = 0;
    cpu[n_cpu++] = 1 << 3 | 0; /* FtraceEventBundle.cpu */
    n_cpu += put_varint(cpu + n_cpu, (uint32_t)c->cpu);
    if (c->lost) {
        tail[n_tail++] = 3 << 3 | 0; /* lost_events */
        tail[n_tail++] = 1;
    }
    if (compact) {
        tail[n_tail++] = 4 << 3 | 2; /* compact_sched */
        n_tail += put_varint(tail + n_tail, (uint64_t)compact);
    }
    uint64_t bundle = n_cpu + c->ev_len + n_tail + (uint64_t)compact;
    size_t n_head = 0;
    uint8_t pkt_head[12];
    size_t n_pkt = 0;
    pkt_head[n_pkt++] = 1 << 3 | 2; /* TracePacket.ftrace_events */
    n_pkt += put_varint(pkt_head + n_pkt, bundle);
    head[n_head++] = 1 << 3 | 2; /* Trace.packet */
    n_head += put_varint(head + n_head, n_pkt + bundle);
    memcpy(head + n_head, pkt_head, n_pkt);
    n_head += n_pkt;
    tg_buf_put(pk->out, head, n_head);
    tg_buf_put(pk->out, cpu, n_cpu);
    tg_buf_put(pk->out, c->ev, c->ev_len);
    tg_buf_put(pk->out, tail, n_tail);
    tg_buf_put(pk->out, *pack, (size_t)compact);
    c->ev_len = c->n_sw = c->n_wk = 0;
    c->lost = c->wk_flags = false;
    tg_frame_names_free(&c->comms);
    tg_frame_names_init(&c->comms);
    return 0;
}

void tg_pf_bundle_free(pf_cpu *c)
{
    if (!c)
        return;
    free(c->ev);
    free(c->sw);
    free(c->wk);
    tg_frame_names_free(&c->comms);
    free(c);
}
