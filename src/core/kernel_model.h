/* kernel_model.h - the kernel state model: which task runs on each CPU, the threads and
 * processes of a trace with their names and lifetimes, the tracks and counters drawn from
 * them (issue 33; DESIGN.md "State models").
 *
 * Every consumer that needs to know what a kernel trace says about the system reads it from
 * here, and only from here: the SQL tables (thread, process, ftrace_event.utid, tracks,
 * counters, sched_slice, thread_state), the analyses (lttng-analyses' commands), the
 * filters (--tid, --pid), the Perfetto writer (process_tree), Python.  Two consumers
 * disagreeing is a bug of this model.
 *
 * Two objects:
 *   - tg_kmodel: the tables, shared.  Threads (utid), processes (upid) and tracks (track id)
 *     are numbered in the order the events create them, so every pass over the same events
 *     numbers them alike.  Utid 0 / upid 0 are the idle task and its process (pid 0), as in
 *     Perfetto; then the tasks the traces list (tg_trace_task: uftrace's task.txt,
 *     trace.dat's saved cmdlines and tgids), then what the events create.
 *   - tg_kcursor: one pass's position over the merged events (per CPU the task running, the
 *     current tid -> utid map).  It is fed every event of the set in merge order, before any
 *     filter; it grows the tables only while it is the pass that got farthest (the
 *     frontier: several SQL scans read the same events at once), otherwise it only reads
 *     them, so a pass behind the frontier finds the same utids without changing anything.
 *
 * The usual consumer does not feed anything itself: it asks its iterator for the model
 * (tg_iter_kernel_model, before the first event) and the iterator feeds its own cursor:
 *
 *     tg_iter *it = ...;
 *     tg_kmodel *m = tg_iter_kernel_model(it);      // NULL: out of memory
 *     while (tg_iter_next(it, &ev) > 0) {
 *         int64_t utid = ev->utid;                  // the event's thread, -1 unknown
 *         const tg_kstep *st = tg_iter_kstep(it);   // what ev did (counters, slices, ...)
 *     }
 *     // after the end, tg_kmodel_complete(m): the tables hold every thread and process
 *     for (size_t u = 0; u < tg_kmodel_thread_count(m); u++) ... tg_kmodel_thread(m, u) ...
 *
 * An event's thread (ev->tid, ev->pid, ev->utid), by the trace's rules:
 *   - a tid (vtid) / pid (vpid) context the session recorded, or trace.dat's common_pid, is
 *     the thread (it wins over the rest);
 *   - else the task running on the event's CPU, from the last sched_switch there (ftrace's
 *     prev_pid/next_pid, LTTng 2.x's prev_tid/next_tid, LTTng 0.x's kernel.sched_schedule
 *     prev_pid/next_pid); the sched_switch itself belongs to the task switched out;
 *     before a CPU's first sched_switch the thread is unknown (-1);
 *   - ev->pid is the thread's process (its tgid) once the model knows it.
 *
 * Threads and processes (Perfetto's thread and process tables), from:
 *   - LTTng's statedump (lttng_statedump_process_state: tid, pid, ppid, name; LTTng 0.x's
 *     task_state.process_state: pid, tgid, parent_pid, name);
 *   - sched_process_fork (a new thread; a new process when the child is its own tgid:
 *     LTTng 2.x's child_pid, LTTng 0.x's child_tgid; ftrace's fork names no tgid: a new
 *     process, corrected by the saved tgids / a later event), sched_process_exec (the
 *     process's name and cmdline from the file name), sched_process_exit / _free (the
 *     thread's end_ts; a process ends with its main thread), task_rename and the comm
 *     fields of sched_switch / sched_wakeup (names that change over time: the last one);
 *   - a tid seen again after its thread was freed is a new thread (a new utid).
 *
 * Tracks a viewer trace declared apart from its threads (format_api.h's tg_track_decl: a
 * Perfetto process or global track, a Chrome JSON async track) are made with the listed
 * tasks, in the order declared; the slices the trace puts on them are steps
 * (TG_KSTEP_SLICE_BEGIN | TG_KSTEP_DECLARED) on that track, not calls of the thread.
 *
 * Cost: one branch per event when the model is off; on, a class-role lookup (an array by
 * the class's set-wide number) and, for the kernel events that change state, a few hash
 * lookups.  Memory follows the CPUs, threads, processes and tracks, never the events. */
#ifndef TG_KERNEL_MODEL_H
#define TG_KERNEL_MODEL_H

#include "traceglot.h"
#include "core/event_model.h"

#include <stdbool.h>
#include <stdint.h>

#define TG_KM_NONE INT64_MIN /* a time or number the model does not know */
/* The arg_set_id of the args a step of the event at ordinal gives (tg_kstep.args), apart
 * from the event's own fields (whose arg_set_id is the ordinal). */
#define TG_KM_ARGSET_BIT ((int64_t)1 << 40)
#define TG_KM_ARGSET(ordinal) ((ordinal) | TG_KM_ARGSET_BIT)
/* The arg_set_id of a track's dimension args (source 0) or source args (source 1). */
#define TG_KM_TRACK_ARGSET_BIT ((int64_t)1 << 42)
#define TG_KM_TRACK_ARGSET(track, source) (TG_KM_TRACK_ARGSET_BIT | (track) << 1 | (source))
/* A tg_value flag beside the public ones (tg_value_flag): an integer that is a thread id,
 * which the args table shows as the thread's utid (a Perfetto reader's passthrough thread). */
#define TG_VALF_THREAD 64
/* Likewise an integer that is a process id, shown as its process's upid (0: none). */
#define TG_VALF_PROCESS 128

typedef struct tg_kmodel tg_kmodel;
typedef struct tg_kcursor tg_kcursor;

/* ---- the tables ------------------------------------------------------------------------- */

typedef struct tg_kthread {
    int64_t tid;
    int64_t upid;             /* its process, -1 unknown */
    int64_t track_id;         /* its thread track (slices of its calls) */
    int64_t start_ts, end_ts; /* created (fork, statedump: TG_KM_NONE) / freed or exited;
                               * else its first and last event; TG_KM_NONE unknown */
    const char *name;         /* the last name it was given; NULL unknown */
    bool is_main_thread;      /* tid == its process's pid, or as the trace lists it (valid
                               * when upid >= 0) */
    bool is_idle;             /* a CPU's idle task: tid 0, or as the trace lists it */
    int8_t ended;             /* how end_ts was found: 0 its last event, 1 its exit, 2 freed */
} tg_kthread;

typedef struct tg_kprocess {
    int64_t pid;
    int64_t parent_upid;      /* -1 unknown */
    const char *name;         /* the main thread's name, or the exec'd file's base name */
    const char *cmdline;      /* the exec'd file, the trace's process attribute; NULL unknown */
    int64_t start_ts, end_ts; /* forked (else its threads' first event) / its main thread's
                               * end (else its threads' last event); TG_KM_NONE unknown */
    int8_t ended;             /* 0: end_ts is its threads' last event */
    const tg_value *args;     /* what its trace says of it (tg_task_info.process_args) */
    size_t n_args;
} tg_kprocess;

/* What kind of track (Perfetto's track.type). */
typedef enum tg_ktrack_type {
    TG_KTRACK_THREAD = 1,  /* "thread": a thread's slices (utid) */
    TG_KTRACK_COUNTER,     /* "thread_counter": a thread's counter (utid; uftrace read:*) */
    TG_KTRACK_CPU_IRQ,     /* "cpu_irq": hard IRQ slices of a CPU (step 2) */
    TG_KTRACK_CPU_SOFTIRQ, /* "cpu_softirq": softirq slices of a CPU (step 2) */
    TG_KTRACK_CPU_FREQ,    /* "cpu_frequency": counter, kHz (step 2) */
    TG_KTRACK_CPU_IDLE,    /* "cpu_idle": counter, the idle state (step 2) */
    TG_KTRACK_CPU_COUNTER, /* another per-CPU counter (step 2) */
    TG_KTRACK_PROCESS,     /* "process": a process's track (upid; Perfetto traces) */
    TG_KTRACK_GLOBAL,      /* a viewer trace's track of no thread or process */
} tg_ktrack_type;

typedef struct tg_ktrack {
    int64_t id;
    tg_ktrack_type type;
    const char *name;      /* Perfetto's name ("cpufreq", "Irq Cpu 0"); NULL none */
    int64_t utid, upid;    /* whose (-1 none) */
    int32_t cpu;           /* per-CPU tracks, else -1 */
    bool is_counter;       /* values are counter rows (counter table), not slices */
    const char *unit;      /* counters: NULL none */
    double scale;          /* counters: a value is the field times this (1024: KiB), 0: 1 */
    int64_t parent_id;     /* -1 none */
    const char *type_name; /* Perfetto's track.type a viewer trace gave it, NULL: by type */
    /* the args a viewer trace gave it (tg_track_decl's dims, source_args): their
     * arg_set_ids are TG_KM_TRACK_ARGSET(id, 0) and (id, 1) */
    const tg_value *dims, *source_args;
    size_t n_dims, n_source_args;
    int64_t machine_id; /* the machine a viewer trace says (0 the host), -1 unknown */
    bool has_slices;    /* a slice is on it (a call of its thread, an importer's slice) */
} tg_ktrack;

tg_kmodel *tg_kmodel_new(tg_set *set); /* NULL when out of memory */
void tg_kmodel_free(tg_kmodel *m);

size_t tg_kmodel_thread_count(const tg_kmodel *m);
const tg_kthread *tg_kmodel_thread(const tg_kmodel *m, int64_t utid); /* NULL past the end */
size_t tg_kmodel_process_count(const tg_kmodel *m);
const tg_kprocess *tg_kmodel_process(const tg_kmodel *m, int64_t upid);
size_t tg_kmodel_track_count(const tg_kmodel *m);
const tg_ktrack *tg_kmodel_track(const tg_kmodel *m, int64_t id);
/* The CPUs events were seen on (the cpu table), ascending; step 2. */
size_t tg_kmodel_cpu_count(const tg_kmodel *m);
int32_t tg_kmodel_cpu(const tg_kmodel *m, size_t i);
/* Whether a pass fed every event (and called tg_kcursor_finish): the tables are whole. */
bool tg_kmodel_complete(const tg_kmodel *m);
/* The upid of pid's process now (the last one created with that pid), -1 unknown. */
int64_t tg_kmodel_upid_of_pid(const tg_kmodel *m, int64_t pid);
/* The utid of tid now (at the frontier), -1 unknown. */
int64_t tg_kmodel_utid_of_tid(const tg_kmodel *m, int64_t tid);
/* The counter track of payload field i of a thread counter event (TG_KIND_COUNTER: uftrace's
 * read:* records) a cursor fed, or -1. */
int64_t tg_kmodel_counter_track(const tg_kmodel *m, const tg_event *ev, size_t i);
/* The pid of the process of the thread utid, -1 unknown. */
int64_t tg_kmodel_pid_of(const tg_kmodel *m, int64_t utid);

/* ---- what one event did (tg_kcursor_feed, tg_iter_kstep) -------------------------------- */

typedef enum tg_kstep_what {
    TG_KSTEP_COUNTER = 1,       /* a counter value: counter_track, value */
    TG_KSTEP_SLICE_BEGIN = 2,   /* a slice begins on slice_track: name, args from the event */
    TG_KSTEP_SLICE_END = 4,     /* the slice open on slice_track ends (with SLICE_BEGIN: and
                               * the next one begins there, at the same depth) */
    TG_KSTEP_SWITCH = 8,        /* a sched_switch: cpu's prev_utid out, next_utid in (step 3) */
    TG_KSTEP_WAKEUP = 16,       /* woken_utid woken by the event's thread (step 3) */
    TG_KSTEP_BLOCKED = 32,      /* why blocked_utid blocked (sched_blocked_reason): io_wait */
    TG_KSTEP_DECLARED = 64,     /* the slice (or counter value) is on a track its trace
                                * declared (tg_track_decl), not one of its thread's calls */
    TG_KSTEP_SLICE_WHOLE = 128, /* with SLICE_BEGIN: the slice (from slice_begin_ts) also
                                 * ends, slice_dur later (an instant: 0) */
    TG_KSTEP_TASK_STATE = 256,  /* a task said its own state (Perfetto's generic kernel
                                * events): task_utid (tid task_tid) is now in task_state */
} tg_kstep_what;

/* One more counter value of an event that gives several (kernel_import.c). */
typedef struct tg_kcounter {
    int64_t track;
    double value;
} tg_kcounter;

/* The states of TG_KSTEP_TASK_STATE (Perfetto's GenericKernelTaskStateEvent numbers). */
typedef enum tg_ktask_state {
    TG_KTASK_CREATED = 1,
    TG_KTASK_RUNNABLE,
    TG_KTASK_RUNNING,
    TG_KTASK_SLEEPING, /* interruptible */
    TG_KTASK_UNINTERRUPTIBLE,
    TG_KTASK_STOPPED,
    TG_KTASK_DEAD,
    TG_KTASK_DESTROYED,
    TG_KTASK_OTHER, /* a state the task named, none of those above (task_state_name) */
    TG_KTASK_OVER,  /* the state it told last has ended, and no other is known */
} tg_ktask_state;

typedef struct tg_kstep {
    unsigned what; /* tg_kstep_what bits, 0: nothing but the thread */
    int32_t cpu;   /* of the per-CPU track (a counter's: the CPU its value is of) */
    int64_t counter_track;
    double value;
    /* a slice on a per-CPU track: Perfetto's name ("IRQ (eth0)", "RCU") and category
     * ("irq"), its depth on the track; at its end, when it began (SLICE_END of a slice whose
     * beginning was not seen: none) */
    int64_t slice_track;
    const char *slice_name, *slice_category;
    int32_t slice_depth;
    int64_t slice_begin_ts;
    int64_t slice_dur; /* SLICE_WHOLE */
    /* the args the model gives the slice that begins or ends here, or the counter values
     * (an importer's: keys in name), NULL none; their arg_set_id is TG_KM_ARGSET(ordinal) */
    const tg_value *args;
    size_t n_args;
    /* COUNTER: the values after the first (counter_track, value), in the order given */
    const tg_kcounter *more_counters;
    size_t n_more_counters;
    /* SLICE_BEGIN: the flows (arrows between slices) the slice that begins takes part in, as
     * tg_event_flows gives a trace's own (an importer's: v4l2's queue -> dequeue) */
    const tg_flow *flows;
    size_t n_flows;
    int64_t prev_utid, next_utid, woken_utid;
    /* WAKEUP: 1 when the wakeup came from an interrupt (ftrace's common_flags hardirq or
     * softirq bit; elsewhere an IRQ or softirq open on the CPU), 0 when not, -1 unknown */
    int8_t irq_context;
    /* BLOCKED: the thread, and 1 when it waits for I/O, 0 when not, -1 unknown */
    int64_t blocked_utid;
    int8_t io_wait;
    /* TASK_STATE: the task, its state (tg_ktask_state), the CPU the event names (the one it
     * runs on when RUNNING; 0 when a numbered state names none, -1 when a named one does
     * not) and its priority; a state told by name: that name as the task gave it (else
     * NULL), whether it waits for I/O (1, 0, -1 unknown) and the kernel function it is
     * blocked in (NULL unknown) */
    int64_t task_utid, task_tid;
    int32_t task_state, task_cpu, task_prio;
    const char *task_state_name, *task_blocked_function;
    int8_t task_io_wait;
} tg_kstep;

/* ---- a pass ------------------------------------------------------------------------------ */

tg_kcursor *tg_kcursor_new(tg_kmodel *m); /* NULL when out of memory */
void tg_kcursor_free(tg_kcursor *c);
/* Feeds the next event of the set in merge order (every event, before any filter), at ts on
 * the timeline: sets ev->tid, ev->pid where the trace did not record them and ev->utid, and
 * fills *step (may be NULL).  0, or TG_ERR_NOMEM. */
int tg_kcursor_feed(tg_kcursor *c, tg_event *ev, int64_t ts, tg_kstep *step);
/* The events ended: the tables are whole once the frontier's cursor got here. */
void tg_kcursor_finish(tg_kcursor *c);

/* ---- the iterator's cursor (core/merge.c) ------------------------------------------------- */

/* The model fed by it (created on the first call, owned by it): every event the iterator
 * reads, filtered out or not, goes through its cursor before the filter, so a --tid filter
 * sees ev->tid.  Call it before the first tg_iter_next.  NULL when out of memory.  An
 * iterator whose filter names threads or processes (--tid, --pid) feeds one by itself. */
tg_kmodel *tg_iter_kernel_model(tg_iter *it);
/* The same with a model the caller owns and shares between iterators (the SQL tables' scans
 * over the same events, each from its own set): the iterator feeds its own cursor of m.  Before
 * the first tg_iter_next; m must outlive the iterator.  0 or TG_ERR_NOMEM. */
int tg_iter_use_kernel_model(tg_iter *it, tg_kmodel *m);
/* What the event handed out last did (NULL without a model). */
const tg_kstep *tg_iter_kstep(const tg_iter *it);

#endif
