/* lttv_state.c - LTTV's process-state rules (see lttv_state.h for what and why).
 *
 * The rules follow LTTV 0.12's state module as its text dump shows them:
 * - the trace starts with an unnamed pid 0 in unknown mode on every cpu;
 * - a process met for the first time (scheduled in, woken up) is created unnamed in unknown
 *   mode, and becomes the running process of that cpu (LTTV does so, even for a wake-up);
 * - fork creates the child with the parent's name and brand, parent pid = the running
 *   process, and a stack "user mode, system call" (it returns from fork);
 * - exec renames the running process; the state dump (task_state.process_state) names
 *   processes and creates the missing ones in unknown mode; the end of the dump turns the
 *   unknown bottoms into user mode (plus a system call on top) or, for kernel threads, into
 *   system call;
 * - system call entry/exit push/pop SYSCALL (never for pid 0), traps and page faults TRAP,
 *   irqs IRQ, soft irqs SOFTIRQ; a pop of another mode than the top, or of the last entry,
 *   is ignored;
 * - a process is forgotten once both its dead schedule-out and its process_free were seen.
 * The name tables start as "syscall N" / "softirq N" and take the symbols of the state dump's
 * sys_call_table and softirq_vec events. */
#include "compat/lttv/lttv_state.h"

#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANY_CPU UINT32_MAX

static const char *const mode_names[] = {"MODE_UNKNOWN", "USER_MODE", "SYSCALL",
                                         "TRAP",         "IRQ",       "SOFTIRQ"};

const char *lttv_mode_name(lttv_mode m) { return mode_names[m]; }

/* ---- the process table ------------------------------------------------------------------ */

static uint64_t proc_key(uint32_t pid, uint32_t cpu)
{
    return pid ? pid : ((uint64_t)1 << 32) | cpu;
}

static lttv_process *find_process(lttv_state *st, uint32_t cpu, uint32_t pid)
{
    if (pid == 0 && cpu == ANY_CPU)
        return NULL; /* pid 0 exists once per cpu */
    const uint64_t *v = tg_hash_find(&st->procs, proc_key(pid, cpu));
    return v ? (lttv_process *)(uintptr_t)*v : NULL;
}

/* The process in slot i of the table, or NULL (a walk over every process). */
static lttv_process *process_in_slot(const lttv_state *st, size_t i)
{
    return tg_hash_is_used(&st->procs, i) ? (lttv_process *)(uintptr_t)st->procs.slots[i].value
                                          : NULL;
}

static char *dup_str(lttv_state *st, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        st->nomem = true;
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void set_str(lttv_state *st, char **dst, const char *s, size_t n)
{
    char *d = dup_str(st, s, n);
    if (d) {
        free(*dst);
        *dst = d;
    }
}

static void process_free(lttv_process *p)
{
    if (!p)
        return;
    free(p->name);
    free(p->brand);
    free(p->stack);
    free(p);
}

static lttv_exec *top(lttv_process *p) { return &p->stack[p->depth - 1]; }

static void stack_set(lttv_state *st, lttv_process *p, size_t depth)
{
    if (tg_grow(&p->stack, &p->cap, depth, sizeof *p->stack) < 0) {
        st->nomem = true;
        return;
    }
    for (size_t i = p->depth; i < depth; i++)
        p->stack[i] = (lttv_exec){LTTV_MODE_UNKNOWN, LTTV_ST_UNNAMED};
    p->depth = depth;
}

/* A new process: from a fork (parent known) its stack is "user mode, system call (waiting
 * for the fork to return)". */
static lttv_process *create_process(lttv_state *st, const lttv_process *parent, uint32_t cpu,
                                    uint32_t pid, uint32_t tgid, const char *name, size_t len)
{
    lttv_process *p = calloc(1, sizeof *p);
    if (!p) {
        st->nomem = true;
        return NULL;
    }
    p->pid = pid;
    p->tgid = tgid;
    p->cpu = cpu;
    p->ppid = parent ? parent->pid : 0;
    p->name = dup_str(st, name, len);
    p->brand = dup_str(st, "", 0);
    stack_set(st, p, 2);
    if (!p->name || !p->brand || p->depth != 2) {
        process_free(p);
        return NULL;
    }
    p->stack[0] = (lttv_exec){LTTV_MODE_USER, LTTV_ST_RUN};
    p->stack[1] = (lttv_exec){LTTV_MODE_SYSCALL, LTTV_ST_WAIT_FORK};
    uint64_t *v;
    if (tg_hash_insert(&st->procs, proc_key(pid, cpu), &v) < 0) {
        st->nomem = true;
        process_free(p);
        return NULL;
    }
    *v = (uintptr_t)p;
    return p;
}

/* Unknown until now: a bottom of unknown mode; it becomes the cpu's running process. */
static lttv_process *find_or_create(lttv_state *st, uint32_t cpu, uint32_t pid)
{
    lttv_process *p = find_process(st, cpu, pid);
    if (p || cpu >= st->n_cpus)
        return p;
    p = create_process(st, NULL, cpu, pid, 0, "", 0);
    if (!p)
        return NULL;
    p->depth = 1;
    p->stack[0] = (lttv_exec){LTTV_MODE_UNKNOWN, LTTV_ST_UNNAMED};
    st->running[cpu] = p;
    return p;
}

/* Forgets p once both of its end events were seen; 1 when it was forgotten. */
static int exit_process(lttv_state *st, lttv_process *p)
{
    if (++p->free_events < 2)
        return 0;
    if (find_process(st, p->cpu, p->pid) == p)
        tg_hash_remove(&st->procs, proc_key(p->pid, p->cpu));
    for (size_t i = 0; i < st->n_cpus; i++)
        if (st->running[i] == p)
            st->running[i] = NULL; /* LTTV keeps a dangling pointer; we print pid 0 */
    process_free(p);
    return 1;
}

int lttv_state_init(lttv_state *st, size_t n_cpus)
{
    memset(st, 0, sizeof *st);
    st->syscalls.prefix = "syscall";
    st->softirqs.prefix = "softirq";
    if (n_cpus == 0)
        n_cpus = 1;
    st->running = calloc(n_cpus, sizeof *st->running);
    if (!st->running)
        return TG_ERR_NOMEM;
    st->n_cpus = n_cpus;
    for (size_t i = 0; i < n_cpus; i++)
        if (!find_or_create(st, (uint32_t)i, 0))
            return TG_ERR_NOMEM;
    return 0;
}

static void names_free(lttv_names *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
}

void lttv_state_free(lttv_state *st)
{
    for (size_t i = 0; i < st->procs.cap; i++)
        process_free(process_in_slot(st, i));
    tg_hash_free(&st->procs);
    free(st->running);
    names_free(&st->syscalls);
    names_free(&st->softirqs);
    memset(st, 0, sizeof *st);
}

lttv_process *lttv_state_running(lttv_state *st, size_t cpu)
{
    return cpu < st->n_cpus ? st->running[cpu] : NULL;
}

/* ---- name tables ------------------------------------------------------------------------ */

#define LTTV_MAX_NAME_ID 65536u

static char **names_slot(lttv_names *t, uint64_t id)
{
    if (id >= LTTV_MAX_NAME_ID)
        return NULL;
    if (id >= t->n) {
        size_t cap = t->n;
        if (tg_grow(&t->names, &cap, (size_t)id + 1, sizeof *t->names) < 0)
            return NULL;
        memset(t->names + t->n, 0, ((size_t)id + 1 - t->n) * sizeof *t->names);
        t->n = (size_t)id + 1;
    }
    return &t->names[id];
}

const char *lttv_names_get(lttv_names *t, uint64_t id)
{
    char **slot = names_slot(t, id);
    if (!slot)
        return NULL;
    if (!*slot) {
        char buf[48];
        int n = snprintf(buf, sizeof buf, "%s %llu", t->prefix, (unsigned long long)id);
        *slot = malloc((size_t)n + 1);
        if (*slot)
            memcpy(*slot, buf, (size_t)n + 1);
    }
    return *slot;
}

static void names_set(lttv_names *t, uint64_t id, const char *s, size_t n)
{
    char **slot = names_slot(t, id);
    char *d = slot ? malloc(n + 1) : NULL;
    if (!d)
        return;
    memcpy(d, s, n);
    d[n] = 0;
    free(*slot);
    *slot = d;
}

/* ---- the rules ----------------------------------------------------------------------------- */

static bool get_uint(const tg_event *ev, const char *name, uint64_t *v)
{
    tg_value val;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, name, &val) < 0)
        return false;
    if (val.type == TG_VAL_UINT)
        *v = val.v.u;
    else if (val.type == TG_VAL_SINT)
        *v = (uint64_t)val.v.s;
    else
        return false;
    return true;
}

static bool get_str(const tg_event *ev, const char *name, const char **s, size_t *n)
{
    tg_value val;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, name, &val) < 0 || val.type != TG_VAL_STRING)
        return false;
    *s = val.v.str.ptr;
    *n = val.v.str.len;
    return true;
}

static void push_mode(lttv_state *st, lttv_process *p, lttv_mode m)
{
    uint8_t status = top(p)->status;
    stack_set(st, p, p->depth + 1);
    *top(p) = (lttv_exec){(uint8_t)m, status};
}

static void pop_mode(lttv_process *p, lttv_mode m)
{
    if (top(p)->mode != m || p->depth == 1)
        return;
    p->depth--;
}

static void on_schedule(lttv_state *st, uint32_t cpu, lttv_process *p, const tg_event *ev)
{
    uint64_t out, in, state;
    if (!get_uint(ev, "prev_pid", &out) || !get_uint(ev, "next_pid", &in) ||
        !get_uint(ev, "prev_state", &state))
        return;
    if (p) {
        if (p->pid == 0 && top(p)->mode == LTTV_MODE_UNKNOWN) {
            if (out == 0) { /* pid 0 scheduled out at the start: it was in a system call */
                top(p)->mode = LTTV_MODE_SYSCALL;
                top(p)->status = LTTV_ST_WAIT;
            }
        } else {
            if (top(p)->status == LTTV_ST_EXIT)
                top(p)->status = LTTV_ST_ZOMBIE;
            else
                top(p)->status = state == 0 ? LTTV_ST_WAIT_CPU : LTTV_ST_WAIT;
            if ((int64_t)state == 32 || (int64_t)state == 64) { /* EXIT_DEAD, TASK_DEAD */
                if (!exit_process(st, p))
                    top(p)->status = LTTV_ST_DEAD;
            }
        }
    }
    p = find_or_create(st, cpu, (uint32_t)in);
    st->running[cpu] = p;
    if (p) {
        top(p)->status = LTTV_ST_RUN;
        p->cpu = cpu;
    }
}

static void on_fork(lttv_state *st, uint32_t cpu, lttv_process *p, const tg_event *ev)
{
    uint64_t child, tgid = 0;
    if (!p || !get_uint(ev, "child_pid", &child))
        return;
    (void)get_uint(ev, "child_tgid", &tgid);
    lttv_process *c = find_process(st, ANY_CPU, (uint32_t)child);
    if (!c) {
        c = create_process(st, p, cpu, (uint32_t)child, (uint32_t)tgid, "", 0);
        if (!c)
            return;
    } else {
        c->ppid = p->pid;
        c->tgid = (uint32_t)tgid;
    }
    set_str(st, &c->name, p->name, strlen(p->name));
    set_str(st, &c->brand, p->brand, strlen(p->brand));
}

static void on_process_state(lttv_state *st, uint32_t cpu, const tg_event *ev)
{
    uint64_t pid, ppid, type = 0, tgid = 0;
    const char *name;
    size_t len;
    if (!get_uint(ev, "pid", &pid) || !get_uint(ev, "parent_pid", &ppid) ||
        !get_str(ev, "name", &name, &len))
        return;
    (void)get_uint(ev, "type", &type);
    (void)get_uint(ev, "tgid", &tgid);
    if (pid == 0) {
        for (size_t i = 0; i < st->n_cpus; i++) {
            lttv_process *p = find_process(st, (uint32_t)i, 0);
            if (!p)
                continue;
            p->ppid = (uint32_t)ppid;
            p->tgid = (uint32_t)tgid;
            set_str(st, &p->name, name, len);
            p->kernel_thread = true;
        }
        return;
    }
    lttv_process *p = find_process(st, ANY_CPU, (uint32_t)pid);
    if (!p) {
        lttv_process *parent = find_process(st, ANY_CPU, (uint32_t)ppid);
        p = create_process(st, parent, cpu, (uint32_t)pid, (uint32_t)tgid, name, len);
        if (!p)
            return;
        p->depth = 1;
        p->stack[0] = (lttv_exec){LTTV_MODE_UNKNOWN, LTTV_ST_UNNAMED};
        p->kernel_thread = type == 1;
    } else {
        p->ppid = (uint32_t)ppid;
        p->tgid = (uint32_t)tgid;
        set_str(st, &p->name, name, len);
        p->kernel_thread = type == 1;
    }
}

/* End of the state dump: the unknown bottoms become known. */
static void on_statedump_end(lttv_state *st)
{
    for (size_t i = 0; i < st->procs.cap; i++) {
        lttv_process *p = process_in_slot(st, i);
        if (!p || p->stack[0].mode != LTTV_MODE_UNKNOWN)
            continue;
        lttv_exec *b = &p->stack[0];
        if (p->kernel_thread) {
            b->mode = LTTV_MODE_SYSCALL;
            if (b->status == LTTV_ST_UNNAMED)
                b->status = LTTV_ST_WAIT;
            continue;
        }
        b->mode = LTTV_MODE_USER;
        if (b->status == LTTV_ST_UNNAMED)
            b->status = LTTV_ST_RUN;
        if (p->depth == 1) {
            stack_set(st, p, 2);
            if (p->depth == 2)
                p->stack[1] = (lttv_exec){LTTV_MODE_SYSCALL, LTTV_ST_WAIT};
        }
    }
}

static void kernel_event(lttv_state *st, uint32_t cpu, const char *name, const tg_event *ev)
{
    lttv_process *p = st->running[cpu];
    uint64_t v;
    if (strcmp(name, "syscall_entry") == 0) {
        if (get_uint(ev, "syscall_id", &v))
            (void)lttv_names_get(&st->syscalls, v);
        if (p && p->pid != 0)
            push_mode(st, p, LTTV_MODE_SYSCALL);
    } else if (strcmp(name, "syscall_exit") == 0) {
        if (p && p->pid != 0)
            pop_mode(p, LTTV_MODE_SYSCALL);
    } else if (strcmp(name, "trap_entry") == 0 || strcmp(name, "page_fault_entry") == 0 ||
               strcmp(name, "page_fault_nosem_entry") == 0) {
        if (p)
            push_mode(st, p, LTTV_MODE_TRAP);
    } else if (strcmp(name, "trap_exit") == 0 || strcmp(name, "page_fault_exit") == 0 ||
               strcmp(name, "page_fault_nosem_exit") == 0) {
        if (p)
            pop_mode(p, LTTV_MODE_TRAP);
    } else if (strcmp(name, "irq_entry") == 0) {
        if (p)
            push_mode(st, p, LTTV_MODE_IRQ);
    } else if (strcmp(name, "irq_exit") == 0) {
        if (p)
            pop_mode(p, LTTV_MODE_IRQ);
    } else if (strcmp(name, "softirq_entry") == 0) {
        if (get_uint(ev, "softirq_id", &v))
            (void)lttv_names_get(&st->softirqs, v);
        if (p)
            push_mode(st, p, LTTV_MODE_SOFTIRQ);
    } else if (strcmp(name, "softirq_exit") == 0) {
        if (get_uint(ev, "softirq_id", &v))
            (void)lttv_names_get(&st->softirqs, v);
        if (p)
            pop_mode(p, LTTV_MODE_SOFTIRQ);
    } else if (strcmp(name, "softirq_raise") == 0) {
        if (get_uint(ev, "softirq_id", &v))
            (void)lttv_names_get(&st->softirqs, v);
    } else if (strcmp(name, "sched_schedule") == 0) {
        on_schedule(st, cpu, p, ev);
    } else if (strcmp(name, "sched_try_wakeup") == 0) {
        uint64_t pid, wcpu;
        if (get_uint(ev, "pid", &pid) && get_uint(ev, "cpu_id", &wcpu)) {
            lttv_process *w = find_or_create(st, (uint32_t)wcpu, (uint32_t)pid);
            if (w && (top(w)->status == LTTV_ST_WAIT || top(w)->status == LTTV_ST_WAIT_FORK))
                top(w)->status = LTTV_ST_WAIT_CPU;
        }
    } else if (strcmp(name, "process_fork") == 0) {
        on_fork(st, cpu, p, ev);
    } else if (strcmp(name, "kthread_create") == 0) {
        if (get_uint(ev, "pid", &v)) {
            lttv_process *k = find_process(st, ANY_CPU, (uint32_t)v);
            if (k) {
                if (top(k)->status != LTTV_ST_DEAD) {
                    k->depth = 1;
                    k->stack[0].mode = LTTV_MODE_SYSCALL;
                }
                k->kernel_thread = true;
            }
        }
    } else if (strcmp(name, "process_exit") == 0) {
        lttv_process *x = get_uint(ev, "pid", &v) ? find_process(st, ANY_CPU, (uint32_t)v) : NULL;
        if (x)
            top(x)->status = LTTV_ST_EXIT;
    } else if (strcmp(name, "process_free") == 0) {
        lttv_process *x = get_uint(ev, "pid", &v) ? find_process(st, ANY_CPU, (uint32_t)v) : NULL;
        if (x)
            exit_process(st, x);
    }
}

void lttv_state_update(lttv_state *st, const char *channel, const tg_event *ev)
{
    int c = tg_event_cpu(ev);
    if (c < 0 || (size_t)c >= st->n_cpus)
        return;
    uint32_t cpu = (uint32_t)c;
    const char *name = tg_event_name(ev);
    const char *s;
    size_t n;
    uint64_t v;
    if (strcmp(channel, "kernel") == 0) {
        kernel_event(st, cpu, name, ev);
    } else if (strcmp(channel, "fs") == 0 && strcmp(name, "exec") == 0) {
        lttv_process *p = st->running[cpu];
        if (p && get_str(ev, "filename", &s, &n)) {
            set_str(st, &p->name, s, n);
            set_str(st, &p->brand, "", 0);
        }
    } else if (strcmp(channel, "userspace") == 0 && strcmp(name, "thread_brand") == 0) {
        lttv_process *p = st->running[cpu];
        if (p && get_str(ev, "name", &s, &n))
            set_str(st, &p->brand, s, n);
    } else if (strcmp(channel, "task_state") == 0 && strcmp(name, "process_state") == 0) {
        on_process_state(st, cpu, ev);
    } else if (strcmp(channel, "global_state") == 0 && strcmp(name, "statedump_end") == 0) {
        on_statedump_end(st);
    } else if (strcmp(channel, "syscall_state") == 0 && strcmp(name, "sys_call_table") == 0) {
        if (get_uint(ev, "id", &v) && get_str(ev, "symbol", &s, &n))
            names_set(&st->syscalls, v, s, n);
    } else if (strcmp(channel, "softirq_state") == 0 && strcmp(name, "softirq_vec") == 0) {
        if (get_uint(ev, "id", &v) && get_str(ev, "symbol", &s, &n))
            names_set(&st->softirqs, v, s, n);
    }
}
