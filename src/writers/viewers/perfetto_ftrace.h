/* perfetto_ftrace.h - kernel events in a Perfetto trace as Perfetto's own ftrace events.
 *
 * The Perfetto UI draws a track per CPU with the thread running on it, thread states and
 * wakeup arrows from the ftrace data its own recorder writes: FtraceEventBundles, one per
 * CPU and chunk of its events, holding typed FtraceEvent messages (sched_switch,
 * sched_waking, irq_handler_entry, ...).  This part of the writer turns the events of
 * kernel traces (trace.dat, LTTng kernel CTF, LTTng 0.x) into those bundles:
 * - an event whose name (or LTTng's name for it: irq_softirq_entry, sched_schedule, ...) is
 *   a message of perfetto_ftrace.proto is that message, its fields filled by name from the
 *   payload (LTTng's *_tid fields are Perfetto's *_pid, the kernel's pid); the plan is made
 *   once per event class;
 * - sched_switch and sched_waking go in the bundle's compact sched arrays (a few bytes per
 *   event) when nothing is lost: a switch only when its prev_* equal the previous switch's
 *   next_* on its CPU, which is how Perfetto infers them; else the full message;
 * - any other event is a GenericFtraceEvent with its name and fields;
 * - each CPU's events are buffered and written as one bundle when about 64 KB are held, at
 *   the end of a part and at the end; lost records start a new bundle marked lost_events;
 * - each event's pid is its thread as the kernel model gives it (trace.dat's common_pid,
 *   LTTng's task running on the CPU), its common_flags trace.dat's;
 * - the threads and processes the kernel model knows become ProcessTree packets
 *   (perfetto_tasks.c), so threads are named and grouped into processes.
 * Times are the shared timeline's, absolute, as the other packets' (Perfetto's boot clock).
 * Memory: a bundle per CPU. */
#ifndef TG_PERFETTO_FTRACE_H
#define TG_PERFETTO_FTRACE_H

#include "writers/viewers/perfetto_bundle.h"
#include "writers/viewers/perfetto_packets.h"
#include "writers/viewers/perfetto_tasks.h"

typedef struct pf_plan pf_plan;

typedef struct tg_pf_ftrace {
    const tg_trace *trace; /* the trace is_kernel was found for */
    bool is_kernel;
    pf_cpu **cpus; /* by cpu number, NULL until used */
    size_t cpus_cap;
    pf_plan *plans; /* by tg_event_class.number */
    size_t plans_cap;
    tg_pf_tasks tasks; /* the kernel model's threads and processes */
    int64_t last_ns;   /* the last kernel event's time */
    tg_buf *text;      /* the current event's strings */
    uint8_t *pack;
    size_t pack_cap;
} tg_pf_ftrace;

/* Before the first event: when the set holds a kernel trace, the iterator feeds the kernel
 * model the process trees are taken from.  0 or TG_ERR_NOMEM. */
int tg_pf_ftrace_open(tg_pf_ftrace *ft, tg_set *set, tg_iter *it);
/* Writes ev into its CPU's bundle when it is an event of a kernel trace: 1 when taken, 0
 * when not (the caller writes it as a track event), a negative status on failure. */
int tg_pf_ftrace_event(tg_pf_ftrace *ft, tg_pf_packets *pk, const tg_event *ev);
/* Writes every CPU's bundle and what changed of the tasks (the end of a part, the end). */
int tg_pf_ftrace_flush(tg_pf_ftrace *ft, tg_pf_packets *pk);
/* A new part is open (split output): it names the tasks again and infers nothing from
 * the switches of the part before. */
void tg_pf_ftrace_part_started(tg_pf_ftrace *ft);
void tg_pf_ftrace_free(tg_pf_ftrace *ft);

#endif
