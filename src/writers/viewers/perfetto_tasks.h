/* perfetto_tasks.h - the threads and processes of kernel traces as Perfetto ProcessTree
 * packets, taken from the kernel model (core/kernel_model.h), which alone knows them.
 *
 * Perfetto groups threads into processes and names them from ProcessTree packets (tid,
 * tgid, name; pid, ppid, cmdline), as its own recorder writes them from /proc.  The writer
 * says what the model knows when it learns it:
 * - at an event after which the model holds threads or processes it did not before (the
 *   tasks the traces list, a statedump record, a fork, an exec), a ProcessTree of them at
 *   that event's time;
 * - at the end (and at the end of each part of a split output), a ProcessTree of what
 *   changed since it was said: a thread whose process became known, a name given later
 *   (exec, task_rename, comm), a process's cmdline.
 * A thread of no known process is not said (Perfetto would take it as pid 0's), nor the
 * idle task (pid 0, Perfetto's own), nor a thread whose tid a later thread took (Perfetto
 * would apply it to the later one).  Memory: a few bytes per thread and process. */
#ifndef TG_PERFETTO_TASKS_H
#define TG_PERFETTO_TASKS_H

#include "core/consumer.h"
#include "writers/viewers/perfetto_packets.h"

typedef struct pf_said pf_said;

typedef struct tg_pf_tasks {
    const tg_kmodel *model;    /* NULL: no kernel trace, nothing is said */
    size_t n_threads, n_procs; /* the model's counts when last looked at */
    pf_said *threads, *procs;  /* what was said of each, this part */
    size_t threads_cap, procs_cap;
} tg_pf_tasks;

/* Says the threads and processes the model made since the last call, at time ns. */
int tg_pf_tasks_update(tg_pf_tasks *ts, tg_pf_packets *pk, int64_t ns);
/* Says, at time ns, what changed since it was said (the end of a part, the end). */
int tg_pf_tasks_finish(tg_pf_tasks *ts, tg_pf_packets *pk, int64_t ns);
/* A new part is open: every task is said again. */
void tg_pf_tasks_part_started(tg_pf_tasks *ts);
void tg_pf_tasks_free(tg_pf_tasks *ts);

#endif
