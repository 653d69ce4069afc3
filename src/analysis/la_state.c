/* la_state.c - lttng-analyses' view of the system, updated event by event (la_state.h says
 * why it is the analyses' own): the tasks and their names, pids and priorities, the task on
 * each CPU, the hard IRQ and pending softirqs of each CPU, the system call of each thread.
 *
 * Each event class is looked at once (its number indexes la_state.classes): its role by name
 * and where the fields that role reads are, by name (LTTng's prev_tid and ftrace's prev_pid
 * alike); the per-event path reads those fields by position only.  The tracers' names: LTTng
 * 2.x's, ftrace's (trace.dat) and perf's tracepoints (named with their system or not: perf's
 * raw_syscalls sys_enter/sys_exit by number, named on an x86_64 trace by the kernel's table,
 * la_sysnames.h), LTTng 0.x's markers (sched_schedule without
 * names or priorities, sched_try_wakeup, process_fork with child_tgid, process_state,
 * irq_entry/irq_exit whose exit names no IRQ, softirq_id, syscall_entry by number named by
 * the sys_call_table statedump). */
#include "analysis/la_state.h"
#include "analysis/la_sysnames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum la_role {
    ROLE_UNKNOWN = 0,
    ROLE_NONE,
    ROLE_SWITCH,
    ROLE_MIGRATE,
    ROLE_WAKEUP,
    ROLE_FORK,
    ROLE_EXEC,
    ROLE_PI_SETPRIO,
    ROLE_STATEDUMP_PROC,
    ROLE_IRQ_ENTRY,
    ROLE_IRQ_EXIT,
    ROLE_SOFTIRQ_RAISE,
    ROLE_SOFTIRQ_ENTRY,
    ROLE_SOFTIRQ_EXIT,
    ROLE_SYSCALL_ENTRY,
    ROLE_SYSCALL_EXIT,
    ROLE_PAGE_ALLOC,
    ROLE_PAGE_FREE,
    ROLE_SYSCALL_TABLE,
    ROLE_IRQ_TABLE,
};

#define LA_FIELDS 6

struct la_class {
    uint8_t role;
    int8_t field[LA_FIELDS]; /* payload positions of the role's fields, -1: absent */
    int8_t procname_scope;   /* exec: the context scope holding procname, -1: none */
    int8_t procname_field;
    uint32_t name;      /* syscalls: the interned name */
    bool x86_64_ids;    /* syscalls by number of an x86_64 trace: named by its table */
    int16_t prio_shift; /* subtracted from its priorities: 100 where the tracer records the
                         * kernel's prio (ftrace, perf: 120 for nice 0), 0 for lttng-modules,
                         * which records prio - 100 (MAX_RT_PRIO) as lttng-analyses prints */
};

struct role_def {
    const char *event;
    enum la_role role;
    /* the fields by position: "a|b" names the same field in two tracers' spellings */
    const char *fields[LA_FIELDS];
};

static const struct role_def role_defs[] = {
    {"sched_switch",
     ROLE_SWITCH,
     {"prev_comm", "prev_tid|prev_pid", "prev_prio", "next_comm", "next_tid|next_pid",
      "next_prio"}},
    {"sched_migrate_task", ROLE_MIGRATE, {"comm", "tid|pid", "prio"}},
    {"sched_schedule", /* LTTng 0.x: no names, no priorities */
     ROLE_SWITCH,
     {"prev_comm", "prev_tid|prev_pid", "prev_prio", "next_comm", "next_tid|next_pid",
      "next_prio"}},
    {"sched_wakeup", ROLE_WAKEUP, {"tid|pid", "prio", "target_cpu"}},
    {"sched_try_wakeup", ROLE_WAKEUP, {"pid", "prio", "cpu_id"}},      /* LTTng 0.x */
    {"sched_wakeup_new_task", ROLE_WAKEUP, {"pid", "prio", "cpu_id"}}, /* LTTng 0.x */
    {"sched_wakeup_new", ROLE_WAKEUP, {"tid|pid", "prio", "target_cpu"}},
    {"sched_waking", ROLE_WAKEUP, {"tid|pid", "prio", "target_cpu"}},
    {"sched_process_fork",
     ROLE_FORK,
     {"parent_comm", "parent_pid", "child_comm", "child_tid|child_pid", "child_pid"}},
    {"process_fork", /* LTTng 0.x: child_pid is the thread, child_tgid its process */
     ROLE_FORK,
     {"parent_comm", "parent_pid", "child_comm", "child_pid", "child_tgid"}},
    {"sched_process_exec", ROLE_EXEC, {"tid|pid"}},
    {"sched_pi_setprio", ROLE_PI_SETPRIO, {"tid|pid", "newprio"}},
    {"lttng_statedump_process_state", ROLE_STATEDUMP_PROC, {"tid", "pid", "name", "prio"}},
    {"process_state", ROLE_STATEDUMP_PROC, {"pid", "tgid", "name", "prio"}}, /* LTTng 0.x */
    {"irq_handler_entry", ROLE_IRQ_ENTRY, {"irq", "name"}},
    {"irq_handler_exit", ROLE_IRQ_EXIT, {"irq", "ret"}},
    {"irq_entry", ROLE_IRQ_ENTRY, {"irq_id"}}, /* LTTng 0.x: an exit names no IRQ */
    {"irq_exit", ROLE_IRQ_EXIT, {"irq_id"}},
    {"softirq_raise", ROLE_SOFTIRQ_RAISE, {"vec|softirq_id"}}, /* LTTng 0.x: softirq_id */
    {"softirq_entry", ROLE_SOFTIRQ_ENTRY, {"vec|softirq_id"}},
    {"softirq_exit", ROLE_SOFTIRQ_EXIT, {"vec|softirq_id"}},
    /* system calls by number: perf's raw_syscalls, LTTng 0.x's */
    {"sys_enter", ROLE_SYSCALL_ENTRY, {"id|syscall_id"}},
    {"syscall_entry", ROLE_SYSCALL_ENTRY, {"id|syscall_id"}},
    {"sys_exit", ROLE_SYSCALL_EXIT, {"ret"}},
    {"syscall_exit", ROLE_SYSCALL_EXIT, {"ret"}},
    {"sys_call_table", ROLE_SYSCALL_TABLE, {"id", "symbol"}}, /* LTTng 0.x's statedump */
    {"interrupt", ROLE_IRQ_TABLE, {"irq_id", "action"}},      /* LTTng 0.x's irq_state */
    {"mm_page_alloc", ROLE_PAGE_ALLOC, {0}},
    {"kmem_mm_page_alloc", ROLE_PAGE_ALLOC, {0}},
    {"mm_page_free", ROLE_PAGE_FREE, {0}},
    {"kmem_mm_page_free", ROLE_PAGE_FREE, {0}},
};

/* The payload position of the first of spec's names ("a|b": a, else b) the event has, -1. */
static int8_t find_field(const tg_event *ev, const char *spec)
{
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (const char *p = spec; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        for (size_t i = 0; i < count && i < 127; i++) {
            tg_value v;
            if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) == 0 && v.name &&
                strlen(v.name) == len && memcmp(v.name, p, len) == 0)
                return (int8_t)i;
        }
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

static int intern_name(la_state *s, const char *name, uint32_t *out)
{
    for (size_t i = 0; i < s->n_names; i++) /* once per class: a scan is enough */
        if (strcmp(s->names[i], name) == 0) {
            *out = (uint32_t)i;
            return 0;
        }
    TG_TRY(tg_grow(&s->names, &s->cap_names, s->n_names + 1, sizeof *s->names));
    char *copy = strdup(name);
    if (!copy)
        return TG_ERR_NOMEM;
    s->names[s->n_names] = copy;
    *out = (uint32_t)s->n_names++;
    return 0;
}

static void find_procname(struct la_class *c, const tg_event *ev)
{
    static const tg_scope scopes[] = {TG_SCOPE_EVENT_CONTEXT, TG_SCOPE_STREAM_CONTEXT};
    c->procname_scope = -1;
    for (size_t k = 0; k < 2; k++) {
        size_t count = tg_event_field_count(ev, scopes[k]);
        for (size_t i = 0; i < count && i < 127; i++) {
            tg_value v;
            if (tg_event_field(ev, scopes[k], i, &v) == 0 && v.name &&
                strcmp(v.name, "procname") == 0) {
                c->procname_scope = (int8_t)scopes[k];
                c->procname_field = (int8_t)i;
                return;
            }
        }
    }
}

/* What class ev's class is to lttng-analyses, decided at its first event. */
static struct la_class *class_of(la_state *s, const tg_event *ev)
{
    static struct la_class none = {.role = ROLE_NONE};
    if (!ev->cls)
        return &none;
    size_t n = ev->cls->number;
    if (n >= s->n_classes &&
        tg_grow_zeroed(&s->classes, &s->n_classes, &s->cap_classes, n + 1, sizeof *s->classes) < 0)
        return NULL;
    struct la_class *c = &s->classes[n];
    if (c->role != ROLE_UNKNOWN)
        return c;
    const char *name = ev->cls->name;
    const char *colon = strrchr(name, ':');
    if (colon) /* a system's tracepoint named with its system */
        name = colon + 1;
    const struct role_def *def = NULL;
    const tg_tracer_info *tracer = ev->cls->trace ? tg_trace_tracer(ev->cls->trace) : NULL;
    c->prio_shift = tracer && tracer->name && strncmp(tracer->name, "lttng", 5) == 0 ? 0 : 100;
    c->role = ROLE_NONE;
    for (size_t i = 0; i < sizeof role_defs / sizeof *role_defs; i++)
        if (strcmp(role_defs[i].event, name) == 0)
            def = &role_defs[i];
    for (size_t k = 0; k < LA_FIELDS; k++)
        c->field[k] = -1;
    if (def) {
        c->role = (uint8_t)def->role;
        for (size_t k = 0; k < LA_FIELDS; k++)
            c->field[k] = def->fields[k] ? find_field(ev, def->fields[k]) : -1;
        if (c->role == ROLE_EXEC)
            find_procname(c, ev);
        if (c->role == ROLE_SYSCALL_ENTRY && ev->cls->trace) {
            const tg_host_info *host = tg_trace_host(ev->cls->trace);
            c->x86_64_ids = host && host->arch && strcmp(host->arch, "x86_64") == 0;
        }
        return c;
    }
    /* lttng-analyses' syscall rule: sys_X / syscall_entry_X enter X, exit_syscall and
     * syscall_exit_X return */
    const char *call = NULL;
    bool ftrace_exit = strncmp(name, "sys_exit_", 9) == 0; /* ftrace's syscalls events */
    if (strncmp(name, "sys_enter_", 10) == 0)
        call = name + 10;
    else if (ftrace_exit)
        call = NULL;
    else if (strncmp(name, "sys_", 4) == 0)
        call = name + 4;
    else if (strncmp(name, "syscall_entry_", 14) == 0)
        call = name + 14;
    if (call) {
        c->role = ROLE_SYSCALL_ENTRY;
        if (intern_name(s, call, &c->name) < 0)
            return NULL;
    } else if (ftrace_exit || strncmp(name, "exit_syscall", 12) == 0 ||
               strncmp(name, "syscall_exit_", 13) == 0) {
        c->role = ROLE_SYSCALL_EXIT;
        size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
        for (size_t i = 0; i < count && i < 127; i++) {
            tg_value v;
            if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) == 0 && v.name &&
                strcmp(v.name, "ret") == 0)
                c->field[0] = (int8_t)i;
        }
    }
    return c;
}

static bool int_field(const tg_event *ev, int8_t i, int64_t *out)
{
    tg_value v;
    return i >= 0 && tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)i, &v) == 0 &&
           tg_value_int(&v, out);
}

static int64_t int_or(const tg_event *ev, int8_t i, int64_t dflt)
{
    int64_t x;
    return int_field(ev, i, &x) ? x : dflt;
}

/* a priority field as lttng-modules records it (LA_NONE: absent) */
static int64_t prio_of(const struct la_class *c, const tg_event *ev, int8_t i)
{
    int64_t x;
    return int_field(ev, i, &x) ? x - c->prio_shift : LA_NONE;
}

/* A text field into buf (NUL-terminated, cut to size); false when absent. */
static bool text_field(const tg_event *ev, tg_scope scope, int8_t i, char *buf, size_t size)
{
    tg_value v;
    if (i < 0 || tg_event_field(ev, scope, (size_t)i, &v) < 0 || v.type != TG_VAL_STRING)
        return false;
    size_t n = v.v.str.len;
    const char *p = v.v.str.ptr;
    size_t z = 0;
    while (z < n && p[z]) /* a fixed-size char array ends at its first NUL */
        z++;
    if (z >= size)
        z = size - 1;
    memcpy(buf, p, z);
    buf[z] = 0;
    return true;
}

static struct la_cpu *cpu_at(la_state *s, int32_t cpu)
{
    if (cpu < 0 || cpu > 65535)
        return NULL;
    if ((size_t)cpu >= s->n_cpus) {
        size_t old = s->n_cpus;
        if (tg_grow_zeroed(&s->cpus, &s->n_cpus, &s->cap_cpus, (size_t)cpu + 1, sizeof *s->cpus) <
            0)
            return NULL;
        for (size_t i = old; i < s->n_cpus; i++) {
            s->cpus[i].current_tid = LA_NONE;
            s->cpus[i].hard.id = -1;
        }
    }
    return &s->cpus[cpu];
}

/* The CPU's record, made known to lttng-analyses (state.cpus[cpu_id] = CPU(cpu_id)). */
static struct la_cpu *cpu_known(la_state *s, int32_t cpu)
{
    struct la_cpu *c = cpu_at(s, cpu);
    if (c && !c->known) {
        c->known = true;
        s->n_known_cpus++;
    }
    return c;
}

static long find_proc(la_state *s, int64_t tid)
{
    uint64_t *v = tg_hash_find(&s->by_tid, (uint64_t)tid);
    return v ? (long)*v : -1;
}

/* A new record for tid (Process(tid, pid, comm)), now tid's latest; its index or -1. */
static long new_proc(la_state *s, int64_t tid, int64_t pid, const char *comm)
{
    if (tg_grow(&s->procs, &s->cap_procs, s->n_procs + 1, sizeof *s->procs) < 0)
        return -1;
    la_proc *p = &s->procs[s->n_procs];
    memset(p, 0, sizeof *p);
    p->tid = tid;
    p->pid = pid;
    p->prio = LA_NONE;
    p->last_wakeup = p->last_waker = p->sc_begin = LA_NONE;
    if (comm)
        snprintf(p->comm, sizeof p->comm, "%s", comm);
    uint64_t *slot;
    if (tg_hash_insert(&s->by_tid, (uint64_t)tid, &slot) < 0)
        return -1;
    *slot = s->n_procs;
    return (long)s->n_procs++;
}

long la_state_find(const la_state *s, int64_t tid)
{
    uint64_t *v = tg_hash_find(&s->by_tid, (uint64_t)tid);
    return v ? (long)*v : -1;
}

long la_state_make(la_state *s, int64_t tid, int64_t pid) { return new_proc(s, tid, pid, NULL); }

/* tid's record, made (Process(tid=tid), or the swapper's pid 0) when it has none. */
static long proc_of(la_state *s, int64_t tid)
{
    long i = find_proc(s, tid);
    return i >= 0 ? i : new_proc(s, tid, tid == 0 ? 0 : LA_NONE, NULL);
}

static void prio_check(la_state *s, int64_t ts, int64_t tid, int64_t prio)
{
    if (tid == 0)
        return;
    long i = find_proc(s, tid);
    if (i < 0)
        return;
    la_proc *p = &s->procs[i];
    if (p->prio != prio) {
        p->prio = prio;
        if (s->hooked && s->hooks.prio_changed)
            s->hooks.prio_changed(s->hooks.ctx, ts, tid, prio);
    }
}

static int on_switch(la_state *s, const struct la_class *c, const tg_event *ev)
{
    char prev_comm[LA_COMM_MAX] = "", next_comm[LA_COMM_MAX] = "";
    text_field(ev, TG_SCOPE_PAYLOAD, c->field[0], prev_comm, sizeof prev_comm);
    text_field(ev, TG_SCOPE_PAYLOAD, c->field[3], next_comm, sizeof next_comm);
    int64_t prev = int_or(ev, c->field[1], 0), next = int_or(ev, c->field[4], 0);
    struct la_cpu *cpu = cpu_known(s, ev->cpu);
    if (!cpu)
        return ev->cpu < 0 ? 0 : TG_ERR_NOMEM;
    cpu->current_tid = next == 0 ? LA_NONE : next;
    if (proc_of(s, prev) < 0)
        return TG_ERR_NOMEM;
    long wakee = proc_of(s, next);
    if (wakee < 0)
        return TG_ERR_NOMEM;
    la_proc *np = &s->procs[wakee];
    if (c->field[3] >= 0) /* LTTng 0.x's names no task: the names the state has stay */
        snprintf(np->comm, sizeof np->comm, "%s", next_comm);
    if (c->field[0] < 0)
        snprintf(prev_comm, sizeof prev_comm, "%s", s->procs[find_proc(s, prev)].comm);
    if (c->field[3] < 0)
        snprintf(next_comm, sizeof next_comm, "%s", np->comm);
    prio_check(s, ev->ts, prev, prio_of(c, ev, c->field[2]));
    prio_check(s, ev->ts, next, prio_of(c, ev, c->field[5]));
    np = &s->procs[wakee];
    long waker = np->last_waker != LA_NONE ? find_proc(s, np->last_waker) : -1;
    if (s->hooked && s->hooks.sched_switch)
        s->hooks.sched_switch(s->hooks.ctx, ev, prev, prev_comm, next, next_comm, (size_t)wakee,
                              waker);
    np = &s->procs[wakee];
    np->last_wakeup = np->last_waker = LA_NONE;
    return 0;
}

static int on_migrate(la_state *s, const struct la_class *c, const tg_event *ev)
{
    int64_t tid = int_or(ev, c->field[1], 0);
    long i = find_proc(s, tid);
    if (i < 0) {
        char comm[LA_COMM_MAX] = "";
        text_field(ev, TG_SCOPE_PAYLOAD, c->field[0], comm, sizeof comm);
        if ((i = new_proc(s, tid, LA_NONE, comm)) < 0)
            return TG_ERR_NOMEM;
    }
    if (s->hooked && s->hooks.migrate)
        s->hooks.migrate(s->hooks.ctx, (size_t)i, ev->cpu);
    prio_check(s, ev->ts, tid, prio_of(c, ev, c->field[2]));
    return 0;
}

static int on_wakeup(la_state *s, const struct la_class *c, const tg_event *ev)
{
    int64_t tid = int_or(ev, c->field[0], 0);
    int64_t prio = prio_of(c, ev, c->field[1]);
    int64_t target = int_or(ev, c->field[2], -1);
    if (s->prio_offset && prio != LA_NONE)
        prio -= 100;
    if (target >= 0 && target <= 65535 && !cpu_known(s, (int32_t)target))
        return TG_ERR_NOMEM;
    struct la_cpu *cur = cpu_known(s, ev->cpu);
    if (!cur && ev->cpu >= 0)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < s->n_cpus; i++) /* running somewhere: ignored */
        if (s->cpus[i].known && s->cpus[i].current_tid == tid)
            return 0;
    long i = find_proc(s, tid);
    if (i < 0 && (i = new_proc(s, tid, LA_NONE, NULL)) < 0)
        return TG_ERR_NOMEM;
    prio_check(s, ev->ts, tid, prio);
    la_proc *p = &s->procs[i];
    if (p->last_wakeup == LA_NONE) { /* only the first wakeup counts */
        p->last_wakeup = ev->ts;
        if (cur && cur->current_tid != LA_NONE)
            p->last_waker = cur->current_tid;
    }
    return 0;
}

static int on_fork(la_state *s, const struct la_class *c, const tg_event *ev)
{
    char parent_comm[LA_COMM_MAX] = "", child_comm[LA_COMM_MAX] = "";
    text_field(ev, TG_SCOPE_PAYLOAD, c->field[0], parent_comm, sizeof parent_comm);
    text_field(ev, TG_SCOPE_PAYLOAD, c->field[2], child_comm, sizeof child_comm);
    int64_t parent = int_or(ev, c->field[1], 0);
    int64_t child_tid = int_or(ev, c->field[3], 0), child_pid = int_or(ev, c->field[4], child_tid);
    long i = find_proc(s, parent);
    if (c->field[2] < 0 && i >= 0) /* no names (LTTng 0.x): a clone has its creator's */
        snprintf(child_comm, sizeof child_comm, "%s", s->procs[i].comm);
    if (i < 0) {
        if (new_proc(s, parent, parent, parent_comm) < 0)
            return TG_ERR_NOMEM;
    } else {
        s->procs[i].pid = parent;
        snprintf(s->procs[i].comm, sizeof s->procs[i].comm, "%s", parent_comm);
    }
    return new_proc(s, child_tid, child_pid, child_comm) < 0 ? TG_ERR_NOMEM : 0;
}

static int on_exec(la_state *s, const struct la_class *c, const tg_event *ev)
{
    long i = proc_of(s, int_or(ev, c->field[0], 0));
    if (i < 0)
        return TG_ERR_NOMEM;
    char name[LA_COMM_MAX];
    if (c->procname_scope >= 0 &&
        text_field(ev, (tg_scope)c->procname_scope, c->procname_field, name, sizeof name))
        snprintf(s->procs[i].comm, sizeof s->procs[i].comm, "%s", name);
    return 0;
}

static int on_statedump(la_state *s, const struct la_class *c, const tg_event *ev)
{
    int64_t tid = int_or(ev, c->field[0], 0), pid = int_or(ev, c->field[1], 0);
    char name[LA_COMM_MAX] = "";
    text_field(ev, TG_SCOPE_PAYLOAD, c->field[2], name, sizeof name);
    long i = find_proc(s, tid);
    if (i < 0 && (i = new_proc(s, tid, LA_NONE, NULL)) < 0)
        return TG_ERR_NOMEM;
    la_proc *p = &s->procs[i];
    p->pid = pid;
    snprintf(p->comm, sizeof p->comm, "%s", name);
    if (p->prio == LA_NONE) /* the prio sched events gave stays */
        p->prio = int_or(ev, c->field[3], LA_NONE);
    if (pid != tid && find_proc(s, pid) < 0 && new_proc(s, pid, pid, name) < 0)
        return TG_ERR_NOMEM;
    return 0;
}

static int softq_push(struct la_softq *q, const la_irq *irq)
{
    if (q->head == q->n)
        q->head = q->n = 0;
    TG_TRY(tg_grow(&q->items, &q->cap, q->n + 1, sizeof *q->items));
    q->items[q->n++] = *irq;
    return 0;
}

static int on_irq(la_state *s, const struct la_class *c, const tg_event *ev)
{
    struct la_cpu *cpu = cpu_known(s, ev->cpu);
    if (!cpu)
        return ev->cpu < 0 ? 0 : TG_ERR_NOMEM;
    /* an exit that names no IRQ (LTTng 0.x) ends the one open */
    int64_t id = int_or(ev, c->field[0], c->role == ROLE_IRQ_EXIT ? cpu->hard.id : 0);
    if (c->role == ROLE_IRQ_ENTRY) {
        cpu->hard = (la_irq){.begin = ev->ts,
                             .end = LA_NONE,
                             .raise = LA_NONE,
                             .cpu = ev->cpu,
                             .id = (int32_t)id,
                             .hard = true};
        tg_value v;
        if (s->hooked && s->hooks.irq_entry && c->field[1] >= 0 &&
            tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)c->field[1], &v) == 0 &&
            v.type == TG_VAL_STRING) {
            size_t n = 0;
            while (n < v.v.str.len && v.v.str.ptr[n])
                n++;
            s->hooks.irq_entry(s->hooks.ctx, (int32_t)id, v.v.str.ptr, n);
        }
        return 0;
    }
    if (c->role == ROLE_IRQ_EXIT) {
        if (cpu->hard.id < 0 || cpu->hard.id != id) {
            cpu->hard.id = -1;
            return 0;
        }
        cpu->hard.end = ev->ts;
        if (s->hooked && s->hooks.irq_exit)
            s->hooks.irq_exit(s->hooks.ctx, &cpu->hard);
        cpu->hard.id = -1;
        return 0;
    }
    if (id < 0 || id >= 32)
        return 0;
    struct la_softq *q = &cpu->soft[id];
    size_t pending = q->n - q->head;
    if (c->role == ROLE_SOFTIRQ_RAISE) {
        /* level-triggered: one pending raise unless the first has begun */
        if (pending && q->items[q->head].begin == LA_NONE)
            return 0;
        la_irq irq = {
            .begin = LA_NONE, .end = LA_NONE, .raise = ev->ts, .cpu = ev->cpu, .id = (int32_t)id};
        return softq_push(q, &irq);
    }
    if (c->role == ROLE_SOFTIRQ_ENTRY) {
        if (pending) {
            q->items[q->head].begin = ev->ts;
            return 0;
        }
        la_irq irq = {
            .begin = ev->ts, .end = LA_NONE, .raise = LA_NONE, .cpu = ev->cpu, .id = (int32_t)id};
        return softq_push(q, &irq);
    }
    if (!pending) /* an exit with nothing raised or entered */
        return 0;
    la_irq *irq = &q->items[q->head];
    irq->end = ev->ts;
    if (s->hooked && s->hooks.softirq_exit)
        s->hooks.softirq_exit(s->hooks.ctx, irq);
    q->head++;
    return 0;
}

/* The record of the thread running ev (the kernel model's: the task switched in on its CPU,
 * or the tid the trace recorded), -1 when unknown or idle. */
static long running(la_state *s, const tg_event *ev)
{
    if (ev->tid <= 0)
        return -1;
    return proc_of(s, ev->tid);
}

/* The names index of system call id (*out): on an x86_64 trace, x86_64's name of it (the
 * kernel header's table, la_sysnames.h), else "syscall_ID" until a table in the trace (LTTng
 * 0.x's sys_call_table) names it. */
static int name_of_id(la_state *s, int64_t id, bool x86_64, uint32_t *out)
{
    char text[40];
    snprintf(text, sizeof text, "syscall_%lld", (long long)id);
    const char *known = x86_64 ? la_sysname_x86_64(id) : NULL;
    if (id < 0 || id >= 4096)
        return intern_name(s, known ? known : text, out);
    uint32_t **by_id = x86_64 ? &s->x86_64_name_by_id : &s->name_by_id;
    size_t *n = x86_64 ? &s->n_x86_64_name_by_id : &s->n_name_by_id;
    if ((size_t)id >= *n) {
        size_t cap = *n;
        TG_TRY(tg_grow_zeroed(by_id, n, &cap, (size_t)id + 1, sizeof **by_id));
    }
    if (!(*by_id)[id]) {
        TG_TRY(intern_name(s, known ? known : text, out));
        (*by_id)[id] = *out + 1;
    }
    *out = (*by_id)[id] - 1;
    return 0;
}

/* LTTng 0.x's sys_call_table: id's symbol ("sys_open+0x0/0x2a") names it ("open"), also in
 * what was counted under its number so far. */
static int on_syscall_table(la_state *s, const struct la_class *c, const tg_event *ev)
{
    char sym[64] = "";
    int64_t id = int_or(ev, c->field[0], -1);
    if (id < 0 || !text_field(ev, TG_SCOPE_PAYLOAD, c->field[1], sym, sizeof sym))
        return 0;
    char *plus = strchr(sym, '+');
    if (plus)
        *plus = 0;
    const char *name = strncmp(sym, "sys_", 4) == 0 ? sym + 4 : sym;
    uint32_t idx;
    TG_TRY(name_of_id(s, id, false, &idx));
    if (strcmp(s->names[idx], name) == 0) /* named already (read first: la_run.c) */
        return 0;
    char *copy = strdup(name);
    if (!copy)
        return TG_ERR_NOMEM;
    free(s->names[idx]);
    s->names[idx] = copy;
    return 0;
}

/* LTTng 0.x's irq_state statedump: an IRQ's handler (action), each one it has joined with
 * ", " as lttng-analyses joins the names irq_handler_entry gives */
static int on_irq_table(la_state *s, const struct la_class *c, const tg_event *ev)
{
    char action[128] = "";
    int64_t id = int_or(ev, c->field[0], -1);
    if (id < 0 || id >= LA_IRQ_MAX ||
        !text_field(ev, TG_SCOPE_PAYLOAD, c->field[1], action, sizeof action) || !action[0])
        return 0;
    if (!s->irq_names) {
        s->irq_names = calloc(LA_IRQ_MAX, sizeof *s->irq_names);
        if (!s->irq_names)
            return TG_ERR_NOMEM;
    }
    char *old = s->irq_names[id];
    size_t n = old ? strlen(old) + 2 + strlen(action) + 1 : strlen(action) + 1;
    char *joined = malloc(n);
    if (!joined)
        return TG_ERR_NOMEM;
    if (old)
        snprintf(joined, n, "%s, %s", old, action);
    else
        snprintf(joined, n, "%s", action);
    free(old);
    s->irq_names[id] = joined;
    return 0;
}

const char *la_state_irq_name(const la_state *s, int64_t id)
{
    return s->irq_names && id >= 0 && id < LA_IRQ_MAX ? s->irq_names[id] : NULL;
}

static int on_syscall(la_state *s, const struct la_class *c, const tg_event *ev)
{
    long i = running(s, ev);
    if (i < 0)
        return 0;
    la_proc *p = &s->procs[i];
    if (c->role == ROLE_SYSCALL_ENTRY) {
        p->sc_begin = ev->ts;
        p->sc_name = c->name;
        if (c->field[0] >= 0) /* by number */
            TG_TRY(name_of_id(s, int_or(ev, c->field[0], -1), c->x86_64_ids, &s->procs[i].sc_name));
        return 0;
    }
    if (p->sc_begin == LA_NONE)
        return 0;
    int64_t ret = 0;
    bool has_ret = int_field(ev, c->field[0], &ret);
    if (s->hooked && s->hooks.syscall_exit)
        s->hooks.syscall_exit(s->hooks.ctx, (size_t)i, ev, ret, has_ret);
    s->procs[i].sc_begin = LA_NONE;
    return 0;
}

long la_state_call(la_state *s, const tg_event *ev)
{
    const struct la_class *c = class_of(s, ev);
    if (!c || c->role != ROLE_SYSCALL_ENTRY)
        return -1;
    uint32_t idx = c->name;
    if (c->field[0] >= 0 && name_of_id(s, int_or(ev, c->field[0], -1), c->x86_64_ids, &idx) < 0)
        return -1;
    return (long)idx;
}

/* lttng-analyses' page count, and the page's thread: the one running on the CPU */
static int on_page(la_state *s, const struct la_class *c, const tg_event *ev)
{
    bool alloc = c->role == ROLE_PAGE_ALLOC;
    if (alloc)
        s->page_count++;
    else if (s->page_count == 0)
        return 0;
    else
        s->page_count--;
    long i = running(s, ev);
    if (i >= 0 && s->hooked && s->hooks.page)
        s->hooks.page(s->hooks.ctx, (size_t)i, ev->cpu, alloc);
    return 0;
}

int la_state_event(la_state *s, const tg_event *ev)
{
    struct la_class *c = class_of(s, ev);
    if (!c)
        return TG_ERR_NOMEM;
    s->roles_seen |= 1u << c->role;
    switch ((enum la_role)c->role) {
    case ROLE_SWITCH: return on_switch(s, c, ev);
    case ROLE_MIGRATE: return on_migrate(s, c, ev);
    case ROLE_WAKEUP: return on_wakeup(s, c, ev);
    case ROLE_FORK: return on_fork(s, c, ev);
    case ROLE_EXEC: return on_exec(s, c, ev);
    case ROLE_PI_SETPRIO: {
        int64_t tid = int_or(ev, c->field[0], 0);
        prio_check(s, ev->ts, tid, prio_of(c, ev, c->field[1]));
        return 0;
    }
    case ROLE_STATEDUMP_PROC: return on_statedump(s, c, ev);
    case ROLE_IRQ_ENTRY:
    case ROLE_IRQ_EXIT:
    case ROLE_SOFTIRQ_RAISE:
    case ROLE_SOFTIRQ_ENTRY:
    case ROLE_SOFTIRQ_EXIT: return on_irq(s, c, ev);
    case ROLE_SYSCALL_ENTRY:
    case ROLE_SYSCALL_EXIT: return on_syscall(s, c, ev);
    case ROLE_PAGE_ALLOC:
    case ROLE_PAGE_FREE: return on_page(s, c, ev);
    case ROLE_SYSCALL_TABLE: return on_syscall_table(s, c, ev);
    case ROLE_IRQ_TABLE: return on_irq_table(s, c, ev);
    default: return 0;
    }
}

bool la_state_saw(const la_state *s, const char *event)
{
    if (strcmp(event, "syscall_entry_*") == 0)
        return s->roles_seen & (1u << ROLE_SYSCALL_ENTRY);
    for (size_t i = 0; i < sizeof role_defs / sizeof *role_defs; i++)
        if (strcmp(role_defs[i].event, event) == 0)
            return s->roles_seen & (1u << role_defs[i].role);
    return false;
}

/* lttng-modules' version from the first trace that says it (its metadata's env block):
 * before 2.7.1 the sched_wak* events carry prio + 100. */
static bool needs_prio_offset(tg_set *set)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        const tg_env_entry *ma = tg_trace_env_find(t, "tracer_major");
        const tg_env_entry *mi = tg_trace_env_find(t, "tracer_minor");
        const tg_env_entry *pa = tg_trace_env_find(t, "tracer_patchlevel");
        if (!ma || !mi || !pa)
            continue;
        int64_t v[3] = {atoll(ma->value), atoll(mi->value), atoll(pa->value)};
        return v[0] < 2 || (v[0] == 2 && (v[1] < 7 || (v[1] == 7 && v[2] < 1)));
    }
    return false;
}

int la_state_init(la_state *s, tg_set *set)
{
    memset(s, 0, sizeof *s);
    s->prio_offset = needs_prio_offset(set);
    return 0;
}

void la_state_free(la_state *s)
{
    for (size_t i = 0; i < s->n_cpus; i++)
        for (size_t k = 0; k < 32; k++)
            free(s->cpus[i].soft[k].items);
    free(s->cpus);
    free(s->procs);
    free(s->classes);
    for (size_t i = 0; i < s->n_names; i++)
        free(s->names[i]);
    free(s->names);
    free(s->name_by_id);
    free(s->x86_64_name_by_id);
    for (size_t i = 0; s->irq_names && i < LA_IRQ_MAX; i++)
        free(s->irq_names[i]);
    free(s->irq_names);
    tg_hash_free(&s->by_tid);
    memset(s, 0, sizeof *s);
}
