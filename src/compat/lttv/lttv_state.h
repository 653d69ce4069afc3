/* lttv_state.h - LTTV's process-state tracking, as far as its text dump shows it.
 *
 * LTTV's text dump prints, for every event, the process running on the event's cpu (pid,
 * tgid, command name, brand, parent pid) and that process's execution mode (user mode,
 * system call, trap, irq, soft irq or unknown).  LTTV derives them from kernel events as they
 * come (schedule, fork, exec, the state dump of tasks, the entries and exits of system calls,
 * traps and interrupts), updating its model before it prints the event.  This module is that
 * model, fed with the public event model: lttv_state_update() runs the state rules of one
 * event, then the printer reads the running process of the event's cpu.  It also keeps the
 * system-call and soft-irq name tables that the dump prints after those ids. */
#ifndef TG_LTTV_STATE_H
#define TG_LTTV_STATE_H

#include "traceglot.h"
#include "core/hash.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum lttv_mode {
    LTTV_MODE_UNKNOWN = 0,
    LTTV_MODE_USER,
    LTTV_MODE_SYSCALL,
    LTTV_MODE_TRAP,
    LTTV_MODE_IRQ,
    LTTV_MODE_SOFTIRQ,
} lttv_mode;

typedef enum lttv_status {
    LTTV_ST_UNNAMED = 0,
    LTTV_ST_WAIT_FORK,
    LTTV_ST_WAIT_CPU,
    LTTV_ST_EXIT,
    LTTV_ST_ZOMBIE,
    LTTV_ST_WAIT,
    LTTV_ST_RUN,
    LTTV_ST_DEAD,
} lttv_status;

typedef struct lttv_exec {
    uint8_t mode;   /* lttv_mode */
    uint8_t status; /* lttv_status */
} lttv_exec;

typedef struct lttv_process {
    uint32_t pid, tgid, ppid;
    uint32_t cpu;
    char *name, *brand; /* never NULL ("" when unnamed) */
    bool kernel_thread;
    int free_events;  /* schedule-out dead and process_free both seen: freed */
    lttv_exec *stack; /* execution modes, bottom first; never empty */
    size_t depth, cap;
} lttv_process;

typedef struct lttv_names {
    char **names;
    size_t n;
    const char *prefix; /* default name: "<prefix> <id>" */
} lttv_names;

typedef struct lttv_state {
    tg_hash procs;          /* (pid, cpu for pid 0) -> lttv_process pointer */
    lttv_process **running; /* per cpu */
    size_t n_cpus;
    lttv_names syscalls, softirqs;
    bool nomem;
} lttv_state;

/* n_cpus: one more than the highest cpu number of the trace. */
int lttv_state_init(lttv_state *st, size_t n_cpus);
void lttv_state_free(lttv_state *st);
/* Applies LTTV's state rules for ev (channel = the tracefile's channel name). */
void lttv_state_update(lttv_state *st, const char *channel, const tg_event *ev);
lttv_process *lttv_state_running(lttv_state *st, size_t cpu);
const char *lttv_mode_name(lttv_mode m);
/* Name of id in a name table (default "syscall 12"); NULL when out of memory. */
const char *lttv_names_get(lttv_names *t, uint64_t id);

#endif
