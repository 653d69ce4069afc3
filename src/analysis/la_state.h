/* la_state.h - what lttng-analyses 0.6.1 knows of the system while it reads a kernel trace
 * (its "linuxautomaton"), kept for the analyses of `traceglot analyze` (la_*.c).
 *
 * lttng-analyses' answers depend on its own bookkeeping, not on the kernel's truth: a
 * thread's name is the one the last sched_switch (next_comm), fork, exec (procname context)
 * or statedump gave; a wakeup of a thread running on a CPU is ignored and only the first of
 * several counts; priorities of sched_wak* events are shifted by 100 before lttng-modules
 * 2.7.1; a fork makes a new record for the child while the old one lives on in what was
 * logged with it.  Those are definitions of the analyses, so they live here, beside them;
 * which task runs on each CPU is read the same way the kernel model reads it.
 *
 * Process records are never freed during a run (an analysis keeps their index, as the
 * Python objects stay alive in its logs); the tid table points at each tid's latest one. */
#ifndef TG_LA_STATE_H
#define TG_LA_STATE_H

#include "core/consumer.h"

#include <stdbool.h>
#include <stdint.h>

#define LA_NONE INT64_MIN /* Python's None for a time, a tid, a pid or a priority */
#define LA_COMM_MAX 32

typedef struct la_proc {
    int64_t tid, pid, prio; /* LA_NONE: unknown */
    char comm[LA_COMM_MAX];
    int64_t last_wakeup, last_waker; /* LA_NONE: none */
    int64_t sc_begin;                /* the syscall it is in (LA_NONE: none) */
    uint32_t sc_name;                /* its name, an index into la_state.names */
} la_proc;

typedef struct la_irq {
    int64_t begin, end, raise; /* raise: softirqs only, LA_NONE when not raised */
    int32_t cpu, id;
    bool hard;
} la_irq;

/* What the state tells the analysis, as lttng-analyses' notifications. */
typedef struct la_hooks {
    void *ctx;
    /* sched_switch (per cpu, then per tid): wakee = next's record, waker its waker's or -1 */
    void (*sched_switch)(void *ctx, const tg_event *ev, int64_t prev_tid, const char *prev_comm,
                         int64_t next_tid, const char *next_comm, size_t wakee, long waker);
    void (*migrate)(void *ctx, size_t proc, int32_t cpu);
    void (*prio_changed)(void *ctx, int64_t ts, int64_t tid, int64_t prio);
    void (*irq_entry)(void *ctx, int32_t id, const char *name, size_t len);
    void (*irq_exit)(void *ctx, const la_irq *irq);
    void (*softirq_exit)(void *ctx, const la_irq *irq);
    /* a syscall returned: the thread's record, the call began at proc's sc_begin */
    void (*syscall_exit)(void *ctx, size_t proc, const tg_event *ev, int64_t ret, bool has_ret);
    /* a page allocated (alloc) or freed by the thread running on cpu */
    void (*page)(void *ctx, size_t proc, int32_t cpu, bool alloc);
} la_hooks;

struct la_cpu {
    int64_t current_tid; /* LA_NONE: idle or unknown */
    bool known;          /* lttng-analyses has a record of it */
    la_irq hard;         /* hard.id < 0: none */
    /* pending softirqs per vector, oldest first */
    struct la_softq {
        la_irq *items;
        size_t head, n, cap;
    } soft[32];
};

#define LA_IRQ_MAX 1024 /* hard IRQ numbers kept apart (beyond: counted together) */

struct la_class; /* per event class: what it is and where its fields are (la_state.c) */

typedef struct la_state {
    la_proc *procs;
    size_t n_procs, cap_procs;
    tg_hash by_tid; /* tid -> index of its latest record */
    struct la_cpu *cpus;
    size_t n_cpus, cap_cpus, n_known_cpus;
    struct la_class *classes;
    size_t n_classes, cap_classes;
    char **names; /* interned syscall names */
    size_t n_names, cap_names;
    /* system calls known by number (perf's raw_syscalls, LTTng 0.x): id -> names index + 1 (0:
     * none yet); "syscall_ID" until a table (LTTng 0.x's sys_call_table) names it */
    uint32_t *name_by_id;
    size_t n_name_by_id;
    uint32_t *x86_64_name_by_id; /* the same on x86_64 traces, named by its table */
    size_t n_x86_64_name_by_id;
    char **irq_names;    /* LA_IRQ_MAX: an IRQ's handlers by LTTng 0.x's statedump (NULL: none) */
    int64_t page_count;  /* pages allocated minus freed since the first event (never < 0) */
    bool prio_offset;    /* lttng-modules before 2.7.1: sched_wak* prio - 100 */
    uint32_t roles_seen; /* bit per role of the events seen */
    la_hooks hooks;
    bool hooked; /* an analysis period is open: tell it */
} la_state;

int la_state_init(la_state *s, tg_set *set);
void la_state_free(la_state *s);
/* Updates the state with ev, telling the hooks when s->hooked. */
int la_state_event(la_state *s, const tg_event *ev);
/* tid's latest record (-1: none), or a new one made as Process(tid=tid, pid=pid) */
long la_state_find(const la_state *s, int64_t tid);
long la_state_make(la_state *s, int64_t tid, int64_t pid);
static inline la_proc *la_proc_at(la_state *s, size_t i) { return &s->procs[i]; }
/* Whether an event of the role lttng-modules' event name (or "syscall_entry_*") has was seen,
 * under any tracer's name. */
bool la_state_saw(const la_state *s, const char *event);
/* The system call ev enters (by its class, or by its number as la_state names it): its
 * index in s->names, -1 when ev enters none (or out of memory). */
long la_state_call(la_state *s, const tg_event *ev);
/* IRQ id's handler names from a statedump that lists them (LTTng 0.x's irq_state
 * interrupt: its actions), NULL when none did. */
const char *la_state_irq_name(const la_state *s, int64_t id);
/* The number of CPUs lttng-analyses knows (its len(state.cpus)). */
static inline size_t la_state_cpu_count(const la_state *s) { return s->n_known_cpus; }

#endif
