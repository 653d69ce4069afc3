/* kernel_rules.c - what each event class is to the kernel model, by the tracers' names.
 *
 * The same kernel events come under three sets of names: ftrace's (trace.dat, perf's
 * tracepoints: sched_switch prev_pid/next_pid, sched_process_fork parent_pid/child_pid where
 * "pid" is a thread's id), lttng-modules 2.x's (prev_tid/next_tid, sched_process_fork's
 * child_tid and child_pid = the child's process), and LTTng 0.x's markers (channel "kernel":
 * sched_schedule, sched_try_wakeup, process_fork with child_tgid, process_exit,
 * process_free, irq_entry/irq_exit with irq_id/handled, softirq_entry/exit with softirq_id;
 * "fs": exec; "task_state": process_state with pid/tgid/parent_pid).  A class
 * is looked at once, at its first event: its role from its name, then the payload index of
 * each field the role reads (the names of the fields say which dialect it is). */
#include "core/kernel_internal.h"

#include "core/grow.h"

#include <string.h>

/* The name without its system, provider or channel ("sched_switch" of "sched:sched_switch",
 * "process_fork" of "kernel.process_fork"); *sys gets the part before, "" when none. */
static const char *base_name(const char *name, char *sys, size_t size)
{
    const char *p = strrchr(name, ':');
    const char *q = strrchr(name, '.');
    if (q && (!p || q > p))
        p = q;
    sys[0] = 0;
    if (p) {
        size_t n = (size_t)(p - name);
        while (n && name[n - 1] == ':')
            n--;
        if (n < size) {
            memcpy(sys, name, n);
            sys[n] = 0;
        }
    }
    return p ? p + 1 : name;
}

static enum km_role role_of(const tg_event_class *cls)
{
    if (cls->kind == TG_KIND_TASK_NAME)
        return KM_ROLE_TASK_NAME;
    if (cls->kind == TG_KIND_COUNTER)
        return KM_ROLE_COUNTER;
    if (cls->kind != TG_KIND_GENERIC && cls->kind != TG_KIND_STATEDUMP &&
        cls->kind != TG_KIND_TASK_FORK && cls->kind != TG_KIND_TASK_EXIT &&
        cls->kind != TG_KIND_TASK_EXEC)
        return KM_ROLE_NONE;
    char sys[64];
    const char *b = base_name(cls->name, sys, sizeof sys);
    const char *system = cls->system && cls->system[0] ? cls->system : sys;
    static const struct {
        const char *name;
        enum km_role role;
    } names[] = {
        {"sched_switch", KM_ROLE_SWITCH},
        {"sched_schedule", KM_ROLE_SWITCH},
        {"sched_wakeup", KM_ROLE_WAKEUP},
        {"sched_waking", KM_ROLE_WAKEUP},
        {"sched_wakeup_new", KM_ROLE_WAKEUP},
        {"sched_try_wakeup", KM_ROLE_WAKEUP},
        {"sched_wakeup_new_task", KM_ROLE_WAKEUP},
        {"sched_process_fork", KM_ROLE_FORK},
        {"sched_process_exec", KM_ROLE_EXEC},
        {"sched_process_exit", KM_ROLE_EXIT},
        {"sched_process_free", KM_ROLE_FREE},
        {"task_rename", KM_ROLE_RENAME},
        {"lttng_statedump_process_state", KM_ROLE_STATEDUMP},
        {"irq_handler_entry", KM_ROLE_IRQ_ENTRY},
        {"irq_handler_exit", KM_ROLE_IRQ_EXIT},
        {"softirq_entry", KM_ROLE_SOFTIRQ_ENTRY},
        {"softirq_exit", KM_ROLE_SOFTIRQ_EXIT},
        {"irq_softirq_entry", KM_ROLE_SOFTIRQ_ENTRY},
        {"irq_softirq_exit", KM_ROLE_SOFTIRQ_EXIT},
        {"cpu_frequency", KM_ROLE_CPU_FREQ},
        {"power_cpu_frequency", KM_ROLE_CPU_FREQ},
        {"cpu_idle", KM_ROLE_CPU_IDLE},
        {"power_cpu_idle", KM_ROLE_CPU_IDLE},
        {"sched_blocked_reason", KM_ROLE_BLOCKED},
        {"generic_kernel_task_state_event", KM_ROLE_TASK_STATE},
        {"generic_kernel_task_rename_event", KM_ROLE_RENAME},
        {"thread_state", KM_ROLE_TASK_STATE},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(b, names[i].name) == 0)
            return names[i].role;
    /* LTTng 0.x's markers, by channel */
    if (strcmp(system, "kernel") == 0) {
        if (strcmp(b, "process_fork") == 0)
            return KM_ROLE_FORK;
        if (strcmp(b, "process_exit") == 0)
            return KM_ROLE_EXIT;
        if (strcmp(b, "process_free") == 0)
            return KM_ROLE_FREE;
        if (strcmp(b, "irq_entry") == 0)
            return KM_ROLE_IRQ_ENTRY;
        if (strcmp(b, "irq_exit") == 0)
            return KM_ROLE_IRQ_EXIT;
    }
    if (strcmp(system, "fs") == 0 && strcmp(b, "exec") == 0)
        return KM_ROLE_EXEC;
    if (strcmp(system, "task_state") == 0 && strcmp(b, "process_state") == 0)
        return KM_ROLE_STATEDUMP;
    return KM_ROLE_NONE;
}

/* The payload's field names, up to 64 of them. */
struct names {
    const char *name[64];
    size_t n;
};

static int find(const struct names *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->name[i] && strcmp(f->name[i], name) == 0)
            return (int)i;
    return -1;
}

/* The first of two names present. */
static int find2(const struct names *f, const char *a, const char *b)
{
    int i = find(f, a);
    return i >= 0 || !b ? i : find(f, b);
}

static void place_fields(km_class *c, const struct names *f)
{
    int16_t *x = c->field;
    switch (c->role) {
    case KM_ROLE_SWITCH:
        x[KM_PREV_TID] = (int16_t)find2(f, "prev_tid", "prev_pid");
        x[KM_PREV_COMM] = (int16_t)find(f, "prev_comm");
        x[KM_NEXT_TID] = (int16_t)find2(f, "next_tid", "next_pid");
        x[KM_NEXT_COMM] = (int16_t)find(f, "next_comm");
        break;
    case KM_ROLE_BLOCKED:
        x[KM_TID] = (int16_t)find(f, "pid");
        x[KM_IO_WAIT] = (int16_t)find(f, "io_wait");
        break;
    case KM_ROLE_WAKEUP:
    case KM_ROLE_EXIT:
    case KM_ROLE_FREE:
        x[KM_TID] = (int16_t)find2(f, "tid", "pid");
        x[KM_COMM] = (int16_t)find(f, "comm");
        break;
    case KM_ROLE_RENAME:
        x[KM_TID] = (int16_t)find2(f, "tid", "pid");
        x[KM_COMM] = (int16_t)find2(f, "newcomm", "comm");
        break;
    case KM_ROLE_TASK_STATE:
        x[KM_TID] = (int16_t)find(f, "tid");
        x[KM_COMM] = (int16_t)find(f, "comm");
        x[KM_STATE] = (int16_t)find(f, "state");
        x[KM_CPU_ID] = (int16_t)find(f, "cpu");
        x[KM_PRIO] = (int16_t)find(f, "prio");
        x[KM_IO_WAIT] = (int16_t)find(f, "io_wait");
        x[KM_BLOCKED_FUNCTION] = (int16_t)find(f, "blocked_function");
        break;
    case KM_ROLE_EXEC:
        x[KM_TID] = (int16_t)find2(f, "tid", "pid");
        x[KM_FILENAME] = (int16_t)find(f, "filename");
        break;
    case KM_ROLE_FORK:
        x[KM_CHILD_COMM] = (int16_t)find(f, "child_comm");
        if (find(f, "child_tid") >= 0) { /* lttng-modules: child_pid is the process */
            x[KM_CHILD_TID] = (int16_t)find(f, "child_tid");
            x[KM_CHILD_PID] = (int16_t)find(f, "child_pid");
            x[KM_PARENT_TID] = (int16_t)find(f, "parent_tid");
        } else { /* ftrace: pids are threads; LTTng 0.x: child_tgid */
            x[KM_CHILD_TID] = (int16_t)find(f, "child_pid");
            x[KM_CHILD_PID] = (int16_t)find(f, "child_tgid");
            x[KM_PARENT_TID] = (int16_t)find(f, "parent_pid");
        }
        break;
    case KM_ROLE_STATEDUMP:
        x[KM_COMM] = (int16_t)find(f, "name");
        if (find(f, "tgid") >= 0) { /* LTTng 0.x: pid is the thread */
            x[KM_TID] = (int16_t)find(f, "pid");
            x[KM_PID] = (int16_t)find(f, "tgid");
            x[KM_PPID] = (int16_t)find(f, "parent_pid");
        } else {
            x[KM_TID] = (int16_t)find(f, "tid");
            x[KM_PID] = (int16_t)find(f, "pid");
            x[KM_PPID] = (int16_t)find(f, "ppid");
        }
        break;
    case KM_ROLE_IRQ_ENTRY:
        x[KM_IRQ] = (int16_t)find2(f, "irq", "irq_id");
        x[KM_IRQ_NAME] = (int16_t)find(f, "name");
        break;
    case KM_ROLE_IRQ_EXIT:
        x[KM_IRQ] = (int16_t)find(f, "irq");
        x[KM_RET] = (int16_t)find2(f, "ret", "handled");
        break;
    case KM_ROLE_SOFTIRQ_ENTRY:
    case KM_ROLE_SOFTIRQ_EXIT: x[KM_VEC] = (int16_t)find2(f, "vec", "softirq_id"); break;
    case KM_ROLE_CPU_FREQ:
    case KM_ROLE_CPU_IDLE:
        x[KM_STATE] = (int16_t)find(f, "state");
        x[KM_CPU_ID] = (int16_t)find(f, "cpu_id");
        break;
    default: break;
    }
}

const km_class *km_class_of(tg_kmodel *m, const tg_event *ev)
{
    static const km_class none = {.role = KM_ROLE_NONE};
    if (!ev->cls)
        return &none;
    size_t n = ev->cls->number;
    if (n >= m->n_classes && /* SIZE_MAX: a CTF stream or packet message, no event class */
        (n == SIZE_MAX || tg_grow_zeroed(&m->classes, &m->n_classes, &m->cap_classes, n + 1,
                                         sizeof *m->classes) < 0))
        return &none;
    km_class *c = &m->classes[n];
    if (c->role != KM_ROLE_UNKNOWN)
        return c;
    c->role = (uint8_t)role_of(ev->cls);
    for (size_t k = 0; k < KM_SLOT_COUNT; k++)
        c->field[k] = -1;
    if (c->role == KM_ROLE_NONE && ev->cls->kind == TG_KIND_GENERIC) {
        char sys[64];
        if (km_import_find(base_name(ev->cls->name, sys, sizeof sys), &c->family, &c->member))
            c->role = KM_ROLE_IMPORTED; /* its importer reads its fields by name */
    }
    if (c->role == KM_ROLE_NONE || c->role == KM_ROLE_IMPORTED || c->role == KM_ROLE_COUNTER ||
        c->role == KM_ROLE_TASK_NAME)
        return c;
    struct names f = {{0}, 0};
    size_t count = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < count && i < 64; i++) {
        tg_value v;
        f.name[f.n++] = tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) == 0 ? v.name : NULL;
    }
    place_fields(c, &f);
    return c;
}
