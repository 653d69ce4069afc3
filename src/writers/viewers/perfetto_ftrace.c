/* perfetto_ftrace.c - kernel events as Perfetto's typed ftrace events: which message each
 * event class is and how its fields fill it, which switches and wakings may be compact
 * (see perfetto_ftrace.h; the bundles are perfetto_bundle.c's, the process trees
 * perfetto_tasks.c's). */
#include "writers/viewers/perfetto_ftrace.h"

#include "core/consumer.h"
#include "perfetto_ftrace.pb-c.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_CPUS = 4096,
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

enum { PLAN_UNKNOWN, PLAN_TYPED, PLAN_GENERIC };
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
    int32_t flags_at;   /* common-scope index of trace.dat's common_flags, -1: none */
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

/* ---- plans ------------------------------------------------------------------------------- */

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
    pl->flags_at = -1;
    for (size_t i = 0, nc = tg_event_field_count(ev, TG_SCOPE_COMMON); i < nc; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) == 0 && v.name &&
            strcmp(v.name, "common_flags") == 0)
            pl->flags_at = (int32_t)i;
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
/* trace.dat's common_flags of ev (the plan's common field), -1 when the format has none. */
static int64_t common_flags(const tg_event *ev, const pf_plan *pl)
{
    tg_value v;
    int64_t x;
    if (pl->flags_at < 0 || tg_event_field(ev, TG_SCOPE_COMMON, (size_t)pl->flags_at, &v) < 0 ||
        !int_of(&v, &x))
        return -1;
    return x;
}

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
    c->have_last = len < TG_PF_COMM_MAX;
    c->last_pid = (int32_t)next_pid;
    c->last_prio = (int32_t)next_prio;
    if (c->have_last)
        memcpy(c->last_comm, next_comm, len + 1);
    /* compact switches carry no common_flags, as Perfetto's own recorder writes them */
    if (!same)
        return 0;
    TG_TRY(
        tg_pf_bundle_switch(c, ts, state, (int32_t)next_pid, (int32_t)next_prio, next_comm, len));
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
    TG_TRY(tg_pf_bundle_waking(c, ts, (int32_t)pid, (int32_t)target, (int32_t)prio,
                               common_flags(ev, pl), comm, strlen(comm)));
    return 1;
}

/* Whether tr is a kernel trace: trace.dat, LTTng 0.x, a CTF trace of LTTng's kernel domain. */
static bool trace_is_kernel(const tg_trace *tr)
{
    const char *f = tg_trace_format(tr);
    const tg_env_entry *domain = strcmp(f, "ctf") == 0 ? tg_trace_env_find(tr, "domain") : NULL;
    return strcmp(f, "ftrace") == 0 || strcmp(f, "lttng0") == 0 ||
           (domain && domain->value && strcmp(domain->value, "kernel") == 0);
}

static bool is_kernel(tg_pf_ftrace *ft, const tg_event *ev)
{
    const tg_trace *tr = ev->cls->trace;
    if (tr != ft->trace) {
        ft->trace = tr;
        ft->is_kernel = trace_is_kernel(tr);
    }
    return ft->is_kernel;
}

int tg_pf_ftrace_open(tg_pf_ftrace *ft, tg_set *set, tg_iter *it)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        if (trace_is_kernel(tg_set_trace(set, i)))
            return (ft->tasks.model = tg_iter_kernel_model(it)) ? 0 : TG_ERR_NOMEM;
    return 0;
}

int tg_pf_ftrace_event(tg_pf_ftrace *ft, tg_pf_packets *pk, const tg_event *ev)
{
    int cpu = ev->cpu;
    if (!ev->cls || cpu < 0 || cpu >= MAX_CPUS || !is_kernel(ft, ev))
        return 0;
    if (!ft->text && !(ft->text = tg_buf_new()))
        return TG_ERR_NOMEM;
    int64_t ns = tg_event_time_ns(ev);
    uint64_t ts = ns < 0 ? 0 : (uint64_t)ns;
    ft->last_ns = ns;
    TG_TRY(tg_pf_tasks_update(&ft->tasks, pk, ns));
    pf_cpu *c = tg_pf_bundle_of(&ft->cpus, &ft->cpus_cap, cpu);
    if (!c)
        return TG_ERR_NOMEM;
    if (ev->cls->kind == TG_KIND_LOST) { /* a new bundle, marked lost */
        TG_TRY(tg_pf_bundle_flush(c, pk, &ft->pack, &ft->pack_cap));
        c->lost = true;
        c->have_last = false;
        return 1;
    }
    int rc = 0;
    pf_plan *pl = plan_of(ft, ev, &rc);
    if (!pl)
        return rc;
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
        TG_TRY(tg_pf_bundle_event(c, ts, ev->tid, common_flags(ev, pl),
                                  pl->state == PLAN_TYPED ? pl->id : GENERIC_ID, ft->pack,
                                  (size_t)len));
    }
    if (tg_pf_bundle_full(c))
        TG_TRY(tg_pf_bundle_flush(c, pk, &ft->pack, &ft->pack_cap));
    return 1;
}

int tg_pf_ftrace_flush(tg_pf_ftrace *ft, tg_pf_packets *pk)
{
    for (size_t i = 0; i < ft->cpus_cap; i++)
        if (ft->cpus[i])
            TG_TRY(tg_pf_bundle_flush(ft->cpus[i], pk, &ft->pack, &ft->pack_cap));
    return tg_pf_tasks_finish(&ft->tasks, pk, ft->last_ns);
}

void tg_pf_ftrace_part_started(tg_pf_ftrace *ft)
{
    tg_pf_tasks_part_started(&ft->tasks);
    for (size_t i = 0; i < ft->cpus_cap; i++)
        if (ft->cpus[i])
            ft->cpus[i]->have_last = false;
}

void tg_pf_ftrace_free(tg_pf_ftrace *ft)
{
    for (size_t i = 0; i < ft->cpus_cap; i++)
        tg_pf_bundle_free(ft->cpus[i]);
    free(ft->cpus);
    for (size_t i = 0; i < ft->plans_cap; i++) {
        free(ft->plans[i].mem);
        free(ft->plans[i].map);
    }
    free(ft->plans);
    free(ft->pack);
    tg_buf_free(ft->text);
    tg_pf_tasks_free(&ft->tasks);
    *ft = (tg_pf_ftrace){0};
}
