/* perfetto_ftrace.c - kernel events as FtraceEventBundles (see perfetto_ftrace.h). */
#include "writers/viewers/perfetto_ftrace.h"

#include "core/consumer.h"
#include "perfetto_ftrace.pb-c.h"
#include "writers/viewers/frame_names.h"

#include <stdlib.h>
#include <string.h>

enum {
    BUNDLE_BYTES = 60000, /* a CPU's bundle is written once it holds about this much */
    COMPACT_BYTES = 16,   /* what one compact entry is counted as */
    MAX_CPUS = 4096,
    COMM_MAX = 64,
    MAX_FIELDS = 256,
    GENERIC_ID = 327, /* FtraceEvent.generic */
};

/* LTTng's names for events Perfetto knows by the kernel's, and fields named otherwise
 * ("perfetto=input,..."); LTTng's *_tid fields are found without a line here. */
static const struct alias {
    const char *from, *to, *fields;
} aliases[] = {
    {"irq_softirq_entry", "softirq_entry", NULL},
    {"irq_softirq_exit", "softirq_exit", NULL},
    {"irq_softirq_raise", "softirq_raise", NULL},
    {"timer_hrtimer_start", "hrtimer_start", NULL},
    {"timer_hrtimer_cancel", "hrtimer_cancel", NULL},
    {"timer_hrtimer_expire_entry", "hrtimer_expire_entry", NULL},
    {"timer_hrtimer_expire_exit", "hrtimer_expire_exit", NULL},
    {"timer_start", "timer_start", NULL},
    /* LTTng 0.x kernel markers */
    {"sched_schedule", "sched_switch", NULL},
    {"sched_try_wakeup", "sched_wakeup", "target_cpu=cpu_id"},
    {"sched_wakeup_new_task", "sched_wakeup_new", "target_cpu=cpu_id"},
    {"process_fork", "sched_process_fork", NULL},
    {"process_exit", "sched_process_exit", NULL},
    {"process_free", "sched_process_free", NULL},
    {"process_wait", "sched_process_wait", NULL},
    {"irq_entry", "irq_handler_entry", "irq=irq_id"},
    {"irq_exit", "irq_handler_exit", NULL},
    {"softirq_entry", "softirq_entry", "vec=softirq_id"},
    {"softirq_exit", "softirq_exit", "vec=softirq_id"},
    {"softirq_raise", "softirq_raise", "vec=softirq_id"},
};

/* The compact sched fields, by their index in a plan's cix. */
enum { PREV_PID, PREV_PRIO, PREV_COMM, PREV_STATE, NEXT_PID, NEXT_PRIO, NEXT_COMM, N_CIX };
enum { W_PID, W_PRIO, W_COMM, W_TARGET };
static const char *const switch_fields[N_CIX] = {"prev_pid", "prev_prio", "prev_comm", "prev_state",
                                                 "next_pid", "next_prio", "next_comm"};
static const char *const waking_fields[4] = {"pid", "prio", "comm", "target_cpu"};

enum { PLAN_UNKNOWN, PLAN_TYPED, PLAN_GENERIC, PLAN_STATEDUMP };
enum { COMPACT_NONE, COMPACT_SWITCH, COMPACT_WAKING };

struct pf_map {
    const ProtobufCFieldDescriptor *fd;
    uint32_t field; /* payload index */
};

/* How one event class is written, made at its first event. */
struct pf_plan {
    uint8_t state, compact;
    uint32_t id; /* FtraceEvent's field number of the typed message */
    const ProtobufCMessageDescriptor *msg;
    void *mem; /* the message, filled per event */
    struct pf_map *map;
    size_t n_map;
    int32_t cix[N_CIX]; /* payload index of each compact field, -1: none */
};

struct pf_switch {
    uint64_t ts;
    int64_t state;
    int32_t pid, prio;
    uint32_t comm;
};

struct pf_waking {
    uint64_t ts;
    int32_t pid, target, prio;
    uint32_t comm;
};

/* One CPU's bundle being filled. */
struct pf_cpu {
    int cpu;
    uint8_t *ev; /* FtraceEventBundle.event entries, framed */
    size_t ev_len, ev_cap;
    bool lost; /* records were lost before this bundle's events */
    struct pf_switch *sw;
    size_t n_sw, sw_cap;
    struct pf_waking *wk;
    size_t n_wk, wk_cap;
    tg_frame_names comms; /* the bundle's intern table */
    bool have_last;       /* the last switch's next_*: the next switch's prev_* */
    int32_t last_pid, last_prio;
    char last_comm[COMM_MAX];
};

/* ---- values ------------------------------------------------------------------------------ */

static bool int_of(const tg_value *v, int64_t *x)
{
    if (v->type == TG_VAL_SINT)
        *x = v->v.s;
    else if (v->type == TG_VAL_UINT)
        *x = (int64_t)v->v.u;
    else
        return false;
    return true;
}

/* v as text, NUL-terminated, appended to ft->text: its offset, or SIZE_MAX when v is no
 * text (a string, or a char array as ftrace's comm fields). */
static size_t text_of(tg_pf_ftrace *ft, const tg_value *v)
{
    size_t at = tg_buf_len(ft->text);
    if (v->type == TG_VAL_STRING) {
        tg_buf_put(ft->text, v->v.str.ptr, strnlen(v->v.str.ptr, v->v.str.len));
    } else if ((v->type == TG_VAL_ARRAY || v->type == TG_VAL_SEQUENCE) &&
               (v->flags & TG_VALF_TEXT)) {
        tg_value c;
        int64_t x;
        for (size_t i = 0; i < v->count && tg_value_child(v, i, &c) == 0; i++) {
            if (!int_of(&c, &x) || x == 0)
                break;
            tg_buf_putc(ft->text, (char)x);
        }
    } else {
        return SIZE_MAX;
    }
    tg_buf_put(ft->text, "", 1);
    return at;
}

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

/* ---- plans ------------------------------------------------------------------------------- */

static bool is_kernel(tg_pf_ftrace *ft, const tg_event *ev)
{
    const tg_trace *tr = ev->cls->trace;
    if (tr != ft->trace) {
        ft->trace = tr;
        const char *f = tg_trace_format(tr);
        const tg_env_entry *domain = strcmp(f, "ctf") == 0 ? tg_trace_env_find(tr, "domain") : NULL;
        ft->is_kernel = strcmp(f, "ftrace") == 0 || strcmp(f, "lttng0") == 0 ||
                        (domain && domain->value && strcmp(domain->value, "kernel") == 0);
    }
    return ft->is_kernel;
}

/* The payload index of the field named name, -1 when none. */
static int32_t find_field(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return (int32_t)i;
    return -1;
}

/* The payload field that fills Perfetto's field pname: the alias's (LTTng 0.x's softirq_id for
 * vec: the alias of a name trace.dat shares, whose events have the kernel's field), LTTng's
 * *_tid for a *_pid (the kernel's pid is a thread's id), else the same name. */
static int32_t input_field(const char *const *names, size_t n, const struct alias *al,
                           const char *pname)
{
    size_t plen = strlen(pname);
    for (const char *f = al ? al->fields : NULL; f && *f;) {
        const char *eq = strchr(f, '='), *end = strchr(f, ',');
        if (!end)
            end = f + strlen(f);
        if (eq && (size_t)(eq - f) == plen && memcmp(f, pname, plen) == 0) {
            char in[64];
            size_t len = (size_t)(end - eq - 1);
            if (len < sizeof in) { /* LTTng 0.x's name; the kernel's (trace.dat) else */
                memcpy(in, eq + 1, len);
                in[len] = 0;
                int32_t i = find_field(names, n, in);
                if (i >= 0)
                    return i;
            }
        }
        f = *end ? end + 1 : end;
    }
    const char *pid = strstr(pname, "pid");
    if (pid && plen < 64) {
        char tid[64];
        memcpy(tid, pname, plen + 1);
        tid[pid - pname] = 't';
        int32_t i = find_field(names, n, tid);
        if (i >= 0)
            return i;
    }
    return find_field(names, n, pname);
}

static int make_plan(tg_pf_ftrace *ft, pf_plan *pl, const tg_event *ev)
{
    const char *name = ev->cls->name ? ev->cls->name : "";
    const char *names[MAX_FIELDS];
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    if (n > MAX_FIELDS)
        n = MAX_FIELDS;
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        names[i] = tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) == 0 ? v.name : NULL;
    }
    pl->state = PLAN_GENERIC;
    for (int i = 0; i < N_CIX; i++)
        pl->cix[i] = -1;
    if (strcmp(name, "lttng_statedump_process_state") == 0 || strcmp(name, "process_state") == 0) {
        pl->state = PLAN_STATEDUMP;
        return 0;
    }
    const struct alias *al = NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases && !al; i++)
        if (strcmp(aliases[i].from, name) == 0)
            al = &aliases[i];
    const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(
        &perfetto__protos__ftrace_event__descriptor, al ? al->to : name);
    if (!fd || fd->type != PROTOBUF_C_TYPE_MESSAGE)
        return 0;
    pl->msg = fd->descriptor;
    pl->id = fd->id;
    if (!(pl->mem = calloc(1, pl->msg->sizeof_message)) ||
        !(pl->map = calloc(pl->msg->n_fields + 1, sizeof *pl->map)))
        return TG_ERR_NOMEM;
    for (unsigned i = 0; i < pl->msg->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &pl->msg->fields[i];
        int32_t at = input_field(names, n, al, f->name);
        if (at >= 0)
            pl->map[pl->n_map++] = (struct pf_map){f, (uint32_t)at};
    }
    pl->state = PLAN_TYPED;
    const char *const *want = NULL;
    size_t n_want = 0;
    if (strcmp(fd->name, "sched_switch") == 0)
        want = switch_fields, n_want = N_CIX, pl->compact = COMPACT_SWITCH;
    else if (strcmp(fd->name, "sched_waking") == 0)
        want = waking_fields, n_want = 4, pl->compact = COMPACT_WAKING;
    for (size_t i = 0; i < n_want; i++) {
        for (size_t k = 0; k < pl->n_map; k++)
            if (strcmp(pl->map[k].fd->name, want[i]) == 0)
                pl->cix[i] = (int32_t)pl->map[k].field;
        if (pl->cix[i] < 0)
            pl->compact = COMPACT_NONE;
    }
    (void)ft;
    return 0;
}

static pf_plan *plan_of(tg_pf_ftrace *ft, const tg_event *ev, int *rc)
{
    size_t k = ev->cls->number;
    if (k >= ft->plans_cap) {
        size_t old = ft->plans_cap;
        if (tg_grow(&ft->plans, &ft->plans_cap, k + 1, sizeof *ft->plans) < 0) {
            *rc = TG_ERR_NOMEM;
            return NULL;
        }
        memset(ft->plans + old, 0, (ft->plans_cap - old) * sizeof *ft->plans);
    }
    pf_plan *pl = &ft->plans[k];
    if (pl->state == PLAN_UNKNOWN && (*rc = make_plan(ft, pl, ev)) < 0)
        return NULL;
    return pl;
}

/* ---- bundles ----------------------------------------------------------------------------- */

static pf_cpu *cpu_of(tg_pf_ftrace *ft, int cpu)
{
    if ((size_t)cpu >= ft->cpus_cap) {
        size_t old = ft->cpus_cap;
        if (tg_grow(&ft->cpus, &ft->cpus_cap, (size_t)cpu + 1, sizeof *ft->cpus) < 0)
            return NULL;
        memset(ft->cpus + old, 0, (ft->cpus_cap - old) * sizeof *ft->cpus);
    }
    if (!ft->cpus[cpu]) {
        if (!(ft->cpus[cpu] = calloc(1, sizeof *ft->cpus[cpu])))
            return NULL;
        ft->cpus[cpu]->cpu = cpu;
        tg_frame_names_init(&ft->cpus[cpu]->comms);
    }
    return ft->cpus[cpu];
}

/* The bytes of the bundle's CompactSched into ft->pack: their length (0: none). */
static int64_t pack_compact(tg_pf_ftrace *ft, pf_cpu *c)
{
    if (!c->n_sw && !c->n_wk)
        return 0;
    Perfetto__Protos__CompactSched cs = PERFETTO__PROTOS__COMPACT_SCHED__INIT;
    size_t n = c->n_sw, m = c->n_wk, nc = tg_frame_names_count(&c->comms);
    uint64_t *sw_ts = malloc((n + 1) * sizeof *sw_ts), *wk_ts = malloc((m + 1) * sizeof *wk_ts);
    int64_t *state = malloc((n + 1) * sizeof *state);
    int32_t *i32 = malloc((2 * n + 3 * m + 1) * sizeof *i32);
    uint32_t *comm = malloc((n + m + 1) * sizeof *comm);
    char **table = malloc((nc + 1) * sizeof *table);
    int64_t len = TG_ERR_NOMEM;
    if (sw_ts && wk_ts && state && i32 && comm && table) {
        cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid =
            cs.n_switch_next_prio = cs.n_switch_next_comm_index = n;
        cs.switch_timestamp = sw_ts;
        cs.switch_prev_state = state;
        cs.switch_next_pid = i32;
        cs.switch_next_prio = i32 + n;
        cs.switch_next_comm_index = comm;
        for (size_t i = 0; i < n; i++) {
            sw_ts[i] = c->sw[i].ts - (i ? c->sw[i - 1].ts : 0);
            state[i] = c->sw[i].state;
            i32[i] = c->sw[i].pid;
            i32[n + i] = c->sw[i].prio;
            comm[i] = c->sw[i].comm;
        }
        cs.n_waking_timestamp = cs.n_waking_pid = cs.n_waking_target_cpu = cs.n_waking_prio =
            cs.n_waking_comm_index = m;
        cs.waking_timestamp = wk_ts;
        cs.waking_pid = i32 + 2 * n;
        cs.waking_target_cpu = i32 + 2 * n + m;
        cs.waking_prio = i32 + 2 * n + 2 * m;
        cs.waking_comm_index = comm + n;
        for (size_t i = 0; i < m; i++) {
            wk_ts[i] = c->wk[i].ts - (i ? c->wk[i - 1].ts : 0);
            cs.waking_pid[i] = c->wk[i].pid;
            cs.waking_target_cpu[i] = c->wk[i].target;
            cs.waking_prio[i] = c->wk[i].prio;
            cs.waking_comm_index[i] = c->wk[i].comm;
        }
        for (size_t i = 0; i < nc; i++)
            table[i] = (char *)tg_frame_names_get(&c->comms, i);
        cs.n_intern_table = nc;
        cs.intern_table = table;
        size_t size = protobuf_c_message_get_packed_size(&cs.base);
        if (tg_grow(&ft->pack, &ft->pack_cap, size + 1, 1) == 0)
            len = (int64_t)protobuf_c_message_pack(&cs.base, ft->pack);
    }
    free(sw_ts);
    free(wk_ts);
    free(state);
    free(i32);
    free(comm);
    free(table);
    return len;
}

/* Writes the CPU's bundle, when it holds anything, as TracePacket{ftrace_events}. */
static int flush_cpu(tg_pf_ftrace *ft, tg_pf_packets *pk, pf_cpu *c)
{
    if (!c->ev_len && !c->n_sw && !c->n_wk)
        return 0;
    int64_t compact = pack_compact(ft, c);
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
    tg_buf_put(pk->out, ft->pack, (size_t)compact);
    c->ev_len = c->n_sw = c->n_wk = 0;
    c->lost = false;
    tg_frame_names_free(&c->comms);
    tg_frame_names_init(&c->comms);
    return 0;
}

int tg_pf_ftrace_flush(tg_pf_ftrace *ft, tg_pf_packets *pk)
{
    for (size_t i = 0; i < ft->cpus_cap; i++)
        if (ft->cpus[i])
            TG_TRY(flush_cpu(ft, pk, ft->cpus[i]));
    return 0;
}

/* Appends FtraceEvent{timestamp, pid, <id> = msg} to the CPU's bundle. */
static int put_ftrace_event(pf_cpu *c, uint64_t ts, int pid, uint32_t id, const uint8_t *msg,
                            size_t len)
{
    uint8_t head[48];
    size_t n = 0;
    n += put_varint(head + n, (uint64_t)id << 3 | 2);
    n += put_varint(head + n, len);
    uint8_t common[24];
    size_t k = 0;
    common[k++] = 1 << 3 | 0;
    k += put_varint(common + k, ts);
    if (pid >= 0) {
        common[k++] = 2 << 3 | 0;
        k += put_varint(common + k, (uint32_t)pid);
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

/* ---- events ------------------------------------------------------------------------------ */

/* Fills the plan's message from the payload and packs it into ft->pack: its length. */
static int64_t pack_typed(tg_pf_ftrace *ft, pf_plan *pl, const tg_event *ev)
{
    uint8_t *base = pl->mem;
    protobuf_c_message_init(pl->msg, base);
    size_t text_at[MAX_FIELDS];
    tg_buf_reset(ft->text);
    for (size_t i = 0; i < pl->n_map; i++) {
        const ProtobufCFieldDescriptor *f = pl->map[i].fd;
        tg_value v;
        int64_t x = 0;
        text_at[i] = SIZE_MAX;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, pl->map[i].field, &v) < 0)
            continue;
        if (f->type == PROTOBUF_C_TYPE_STRING) {
            text_at[i] = text_of(ft, &v);
            continue;
        }
        if (!int_of(&v, &x))
            continue;
        void *at = base + f->offset;
        switch (f->type) {
        case PROTOBUF_C_TYPE_INT32:
        case PROTOBUF_C_TYPE_SINT32:
        case PROTOBUF_C_TYPE_SFIXED32:
        case PROTOBUF_C_TYPE_ENUM: *(int32_t *)at = (int32_t)x; break;
        case PROTOBUF_C_TYPE_UINT32:
        case PROTOBUF_C_TYPE_FIXED32: *(uint32_t *)at = (uint32_t)x; break;
        case PROTOBUF_C_TYPE_INT64:
        case PROTOBUF_C_TYPE_SINT64:
        case PROTOBUF_C_TYPE_SFIXED64:
        case PROTOBUF_C_TYPE_UINT64:
        case PROTOBUF_C_TYPE_FIXED64: *(int64_t *)at = x; break;
        case PROTOBUF_C_TYPE_BOOL: *(protobuf_c_boolean *)at = x != 0; break;
        default: continue;
        }
        if (f->quantifier_offset)
            *(protobuf_c_boolean *)(base + f->quantifier_offset) = 1;
    }
    for (size_t i = 0; i < pl->n_map; i++)
        if (text_at[i] != SIZE_MAX)
            *(char **)(base + pl->map[i].fd->offset) = (char *)tg_buf_data(ft->text) + text_at[i];
    size_t size = protobuf_c_message_get_packed_size((ProtobufCMessage *)base);
    if (tg_grow(&ft->pack, &ft->pack_cap, size + 1, 1) < 0)
        return TG_ERR_NOMEM;
    return (int64_t)protobuf_c_message_pack((ProtobufCMessage *)base, ft->pack);
}

/* GenericFtraceEvent{event_name, fields} into ft->pack: its length. */
static int64_t pack_generic(tg_pf_ftrace *ft, const tg_event *ev)
{
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    if (n > MAX_FIELDS)
        n = MAX_FIELDS;
    Perfetto__Protos__GenericFtraceEvent__Field fields[MAX_FIELDS], *ptrs[MAX_FIELDS];
    size_t text_at[MAX_FIELDS], name_at[MAX_FIELDS], k = 0;
    tg_buf_reset(ft->text);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        Perfetto__Protos__GenericFtraceEvent__Field *f = &fields[k];
        *f = (Perfetto__Protos__GenericFtraceEvent__Field)
            PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__INIT;
        name_at[k] = tg_buf_len(ft->text);
        tg_buf_puts(ft->text, v.name ? v.name : "?");
        tg_buf_put(ft->text, "", 1);
        text_at[k] = SIZE_MAX;
        if (v.type == TG_VAL_SINT && !v.label) {
            f->has_int_value = 1;
            f->int_value = v.v.s;
        } else if (v.type == TG_VAL_UINT && !v.label) {
            f->has_uint_value = 1;
            f->uint_value = v.v.u;
        } else if ((text_at[k] = text_of(ft, &v)) == SIZE_MAX) {
            text_at[k] = tg_buf_len(ft->text);
            tg_text_value(ft->text, &v);
            tg_buf_put(ft->text, "", 1);
        }
        ptrs[k] = f;
        k++;
    }
    const char *base = tg_buf_data(ft->text);
    for (size_t i = 0; i < k; i++) {
        fields[i].name = (char *)base + name_at[i];
        if (text_at[i] != SIZE_MAX)
            fields[i].str_value = (char *)base + text_at[i];
    }
    Perfetto__Protos__GenericFtraceEvent g = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__INIT;
    g.event_name = (char *)(ev->cls->name ? ev->cls->name : "?");
    g.n_field = k;
    g.field = ptrs;
    size_t size = protobuf_c_message_get_packed_size(&g.base);
    if (tg_grow(&ft->pack, &ft->pack_cap, size + 1, 1) < 0)
        return TG_ERR_NOMEM;
    return (int64_t)protobuf_c_message_pack(&g.base, ft->pack);
}

/* The compact sched field i of the plan: an integer, or (text) its text's offset. */
static bool compact_int(const tg_event *ev, const pf_plan *pl, int i, int64_t *x)
{
    tg_value v;
    return tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)pl->cix[i], &v) == 0 && int_of(&v, x);
}

static bool compact_text(tg_pf_ftrace *ft, const tg_event *ev, const pf_plan *pl, int i,
                         const char **s)
{
    tg_value v;
    if (tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)pl->cix[i], &v) < 0)
        return false;
    size_t at = text_of(ft, &v);
    if (at == SIZE_MAX)
        return false;
    *s = tg_buf_data(ft->text) + at;
    return true;
}

/* A sched_switch as a compact entry: 1 when taken, 0 when it needs the full message. */
static int compact_switch(tg_pf_ftrace *ft, pf_cpu *c, const pf_plan *pl, const tg_event *ev,
                          uint64_t ts)
{
    int64_t prev_pid, prev_prio, state, next_pid, next_prio;
    const char *prev_comm, *next_comm;
    tg_buf_reset(ft->text);
    if (!compact_int(ev, pl, PREV_PID, &prev_pid) || !compact_int(ev, pl, PREV_PRIO, &prev_prio) ||
        !compact_int(ev, pl, PREV_STATE, &state) || !compact_int(ev, pl, NEXT_PID, &next_pid) ||
        !compact_int(ev, pl, NEXT_PRIO, &next_prio) ||
        !compact_text(ft, ev, pl, PREV_COMM, &prev_comm)) {
        c->have_last = false;
        return 0;
    }
    size_t prev_at = (size_t)(prev_comm - tg_buf_data(ft->text));
    if (!compact_text(ft, ev, pl, NEXT_COMM, &next_comm)) {
        c->have_last = false;
        return 0;
    }
    prev_comm = tg_buf_data(ft->text) + prev_at;
    bool same = c->have_last && prev_pid == c->last_pid && prev_prio == c->last_prio &&
                strcmp(prev_comm, c->last_comm) == 0;
    size_t len = strlen(next_comm);
    c->have_last = len < COMM_MAX;
    c->last_pid = (int32_t)next_pid;
    c->last_prio = (int32_t)next_prio;
    if (c->have_last)
        memcpy(c->last_comm, next_comm, len + 1);
    if (!same)
        return 0;
    int64_t comm = tg_frame_names_intern(&c->comms, next_comm, len);
    if (comm < 0 || tg_grow(&c->sw, &c->sw_cap, c->n_sw + 1, sizeof *c->sw) < 0)
        return TG_ERR_NOMEM;
    c->sw[c->n_sw++] =
        (struct pf_switch){ts, state, (int32_t)next_pid, (int32_t)next_prio, (uint32_t)comm};
    return 1;
}

static int compact_waking(tg_pf_ftrace *ft, pf_cpu *c, const pf_plan *pl, const tg_event *ev,
                          uint64_t ts)
{
    int64_t pid, prio, target;
    const char *comm;
    tg_buf_reset(ft->text);
    if (!compact_int(ev, pl, W_PID, &pid) || !compact_int(ev, pl, W_PRIO, &prio) ||
        !compact_int(ev, pl, W_TARGET, &target) || !compact_text(ft, ev, pl, W_COMM, &comm))
        return 0;
    int64_t id = tg_frame_names_intern(&c->comms, comm, strlen(comm));
    if (id < 0 || tg_grow(&c->wk, &c->wk_cap, c->n_wk + 1, sizeof *c->wk) < 0)
        return TG_ERR_NOMEM;
    c->wk[c->n_wk++] =
        (struct pf_waking){ts, (int32_t)pid, (int32_t)target, (int32_t)prio, (uint32_t)id};
    return 1;
}

/* ---- process trees ----------------------------------------------------------------------- */

static int put_tree(tg_pf_packets *pk, Perfetto__Protos__ProcessTree *tree, int64_t ns)
{
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    pkt.has_timestamp = 1;
    pkt.timestamp = ns < 0 ? 0 : (uint64_t)ns;
    pkt.process_tree = tree;
    return tg_pf_packet_put(pk, &pkt);
}

/* The tasks the trace lists, once per trace. */
static int put_listed_tasks(tg_pf_ftrace *ft, tg_pf_packets *pk, const tg_event *ev)
{
    const tg_trace *tr = ev->cls->trace;
    for (size_t i = 0; i < ft->n_tree_done; i++)
        if (ft->tree_done[i] == tr)
            return 0;
    if (tg_grow(&ft->tree_done, &ft->tree_done_cap, ft->n_tree_done + 1, sizeof *ft->tree_done))
        return TG_ERR_NOMEM;
    ft->tree_done[ft->n_tree_done++] = tr;
    size_t n = tg_trace_task_count(tr);
    if (!n)
        return 0;
    Perfetto__Protos__ProcessTree__Thread *th = calloc(n, sizeof *th), **tp = calloc(n, sizeof *tp);
    Perfetto__Protos__ProcessTree__Process *pr = calloc(n, sizeof *pr),
                                           **pp = calloc(n, sizeof *pp);
    char **cmd = calloc(n, sizeof *cmd);
    int rc = TG_ERR_NOMEM;
    if (th && tp && pr && pp && cmd) {
        Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
        for (size_t i = 0; i < n; i++) {
            const tg_task_info *t = tg_trace_task(tr, i);
            if (t->pid < 0)
                continue; /* Perfetto would take a thread of no known process as pid 0's */
            th[i] =
                (Perfetto__Protos__ProcessTree__Thread)PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;
            th[i].has_tid = 1;
            th[i].tid = (int32_t)t->tid;
            th[i].has_tgid = t->pid >= 0;
            th[i].tgid = (int32_t)t->pid;
            th[i].name = (char *)t->name;
            tp[tree.n_threads++] = &th[i];
            if (t->pid != t->tid)
                continue;
            Perfetto__Protos__ProcessTree__Process *p = &pr[tree.n_processes];
            *p = (Perfetto__Protos__ProcessTree__Process)
                PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
            p->has_pid = 1;
            p->pid = (int32_t)t->pid;
            p->has_ppid = t->ppid >= 0;
            p->ppid = (int32_t)t->ppid;
            if (t->name) {
                cmd[tree.n_processes] = (char *)t->name;
                p->n_cmdline = 1;
                p->cmdline = &cmd[tree.n_processes];
            }
            pp[tree.n_processes++] = p;
        }
        tree.threads = tp;
        tree.processes = pp;
        rc = tree.n_threads ? put_tree(pk, &tree, tg_event_time_ns(ev)) : 0;
    }
    free(th);
    free(tp);
    free(pr);
    free(pp);
    free(cmd);
    return rc;
}

/* A statedump record of a process (LTTng's lttng_statedump_process_state, LTTng 0.x's
 * process_state) as a ProcessTree of its thread, and its process when it is the main one. */
static int put_statedump(tg_pf_ftrace *ft, tg_pf_packets *pk, const tg_event *ev)
{
    tg_value v;
    int64_t tid = -1, tgid = -1, ppid = -1;
    bool lttng2 = tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "tid", &v) == 0;
    if (lttng2 ? !int_of(&v, &tid)
               : tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "pid", &v) < 0 || !int_of(&v, &tid))
        return 0;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, lttng2 ? "pid" : "tgid", &v) == 0)
        int_of(&v, &tgid);
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, lttng2 ? "ppid" : "parent_pid", &v) == 0)
        int_of(&v, &ppid);
    tg_buf_reset(ft->text);
    size_t at =
        tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "name", &v) == 0 ? text_of(ft, &v) : SIZE_MAX;
    char *name = at == SIZE_MAX ? NULL : (char *)tg_buf_data(ft->text) + at;
    Perfetto__Protos__ProcessTree__Thread th = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT;
    Perfetto__Protos__ProcessTree__Thread *tp = &th;
    Perfetto__Protos__ProcessTree__Process pr = PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
    Perfetto__Protos__ProcessTree__Process *pp = &pr;
    Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
    th.has_tid = 1;
    th.tid = (int32_t)tid;
    th.has_tgid = tgid >= 0;
    th.tgid = (int32_t)tgid;
    th.name = name;
    tree.n_threads = 1;
    tree.threads = &tp;
    if (tgid == tid || tgid < 0) {
        pr.has_pid = 1;
        pr.pid = (int32_t)tid;
        pr.has_ppid = ppid >= 0;
        pr.ppid = (int32_t)ppid;
        pr.n_cmdline = name ? 1 : 0;
        pr.cmdline = &name;
        tree.n_processes = 1;
        tree.processes = &pp;
    }
    return put_tree(pk, &tree, tg_event_time_ns(ev));
}

int tg_pf_ftrace_event(tg_pf_ftrace *ft, tg_pf_packets *pk, const tg_event *ev)
{
    int cpu = ev->cpu;
    if (!ev->cls || cpu < 0 || cpu >= MAX_CPUS || !is_kernel(ft, ev))
        return 0;
    if (!ft->text && !(ft->text = tg_buf_new()))
        return TG_ERR_NOMEM;
    TG_TRY(put_listed_tasks(ft, pk, ev));
    pf_cpu *c = cpu_of(ft, cpu);
    if (!c)
        return TG_ERR_NOMEM;
    if (ev->cls->kind == TG_KIND_LOST) { /* a new bundle, marked lost */
        TG_TRY(flush_cpu(ft, pk, c));
        c->lost = true;
        c->have_last = false;
        return 1;
    }
    int rc = 0;
    pf_plan *pl = plan_of(ft, ev, &rc);
    if (!pl)
        return rc;
    int64_t ns = tg_event_time_ns(ev);
    uint64_t ts = ns < 0 ? 0 : (uint64_t)ns;
    if (pl->state == PLAN_STATEDUMP) {
        TG_TRY(put_statedump(ft, pk, ev));
        return 1;
    }
    if (pl->compact == COMPACT_SWITCH) /* the first after lost records is full: no last */
        rc = compact_switch(ft, c, pl, ev, ts);
    else if (pl->compact == COMPACT_WAKING)
        rc = compact_waking(ft, c, pl, ev, ts);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        int64_t len = pl->state == PLAN_TYPED ? pack_typed(ft, pl, ev) : pack_generic(ft, ev);
        if (len < 0)
            return (int)len;
        TG_TRY(put_ftrace_event(c, ts, ev->tid, pl->state == PLAN_TYPED ? pl->id : GENERIC_ID,
                                ft->pack, (size_t)len));
    }
    if (c->ev_len + COMPACT_BYTES * (c->n_sw + c->n_wk) >= BUNDLE_BYTES)
        TG_TRY(flush_cpu(ft, pk, c));
    return 1;
}

void tg_pf_ftrace_part_started(tg_pf_ftrace *ft)
{
    ft->n_tree_done = 0;
    for (size_t i = 0; i < ft->cpus_cap; i++)
        if (ft->cpus[i])
            ft->cpus[i]->have_last = false;
}

void tg_pf_ftrace_free(tg_pf_ftrace *ft)
{
    for (size_t i = 0; i < ft->cpus_cap; i++) {
        pf_cpu *c = ft->cpus[i];
        if (!c)
            continue;
        free(c->ev);
        free(c->sw);
        free(c->wk);
        tg_frame_names_free(&c->comms);
        free(c);
    }
    free(ft->cpus);
    for (size_t i = 0; i < ft->plans_cap; i++) {
        free(ft->plans[i].mem);
        free(ft->plans[i].map);
    }
    free(ft->plans);
    free(ft->tree_done);
    free(ft->pack);
    tg_buf_free(ft->text);
    *ft = (tg_pf_ftrace){0};
}
