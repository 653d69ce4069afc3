/* task_names.h - the names the viewer writers give threads and processes.
 *
 * One rule for Perfetto's track descriptors and Chrome's metadata events, so both show
 * the same names: a thread by LTTng's procname context at its first event, else by the task
 * the trace lists with its tid (uftrace's task.txt: a forked child by its parent's command);
 * a process by the trace's process attribute when the pids match, else by its main thread's
 * own name, else by the task listed with its pid.  Names are interned in the writer's name table; ids are returned + 1, 0
 * meaning no name, a negative value TG_ERR_NOMEM. */
#ifndef TG_TASK_NAMES_H
#define TG_TASK_NAMES_H

#include "traceglot.h"
#include "writers/viewers/frame_names.h"

/* The thread tid's own name at ev, its first event (ev of another thread names none). */
int64_t tg_task_thread_name(tg_frame_names *names, const tg_event *ev, int tid);
/* The process pid's name: the trace's process attribute, else main (the own name of its
 * main thread when ev is that thread's first event, else 0), else the task listed. */
int64_t tg_task_process_name(tg_frame_names *names, const tg_event *ev, int pid, int64_t main);
/* The interned name (+1) of the text field of ev, 0 when it has none. */
int64_t tg_task_name_field(tg_frame_names *names, const tg_event *ev, tg_scope scope,
                           const char *field);

#endif
