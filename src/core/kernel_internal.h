/* kernel_internal.h - what the files of the kernel model share (kernel_model.h is the API):
 * the tables' storage, the rules per event class, and a pass's own state.
 *
 * kernel_model.c keeps the tables and the rule "only the frontier writes" (see
 * kernel_model.h); kernel_rules.c says what each event class is to the model (its role and
 * where its fields are, by the tracer's names); kernel_cursor.c feeds one pass. */
#ifndef TG_KERNEL_INTERNAL_H
#define TG_KERNEL_INTERNAL_H

#include "core/hash.h"
#include "core/kernel_model.h"

/* What an event class is to the model. */
enum km_role {
    KM_ROLE_UNKNOWN = 0, /* not looked at yet */
    KM_ROLE_NONE,
    KM_ROLE_SWITCH,        /* sched_switch, LTTng 0.x kernel.sched_schedule */
    KM_ROLE_WAKEUP,        /* sched_wakeup, _waking, _wakeup_new, LTTng 0.x sched_try_wakeup */
    KM_ROLE_FORK,          /* sched_process_fork, LTTng 0.x kernel.process_fork */
    KM_ROLE_EXEC,          /* sched_process_exec, LTTng 0.x fs.exec */
    KM_ROLE_EXIT,          /* sched_process_exit, LTTng 0.x kernel.process_exit */
    KM_ROLE_FREE,          /* sched_process_free, LTTng 0.x kernel.process_free */
    KM_ROLE_RENAME,        /* task_rename */
    KM_ROLE_STATEDUMP,     /* lttng_statedump_process_state, LTTng 0.x task_state.process_state */
    KM_ROLE_TASK_NAME,     /* a thread named itself (uftrace's COMM records: TG_KIND_TASK_NAME) */
    KM_ROLE_COUNTER,       /* TG_KIND_COUNTER: every numeric field is a thread counter sample */
    KM_ROLE_IRQ_ENTRY,     /* irq_handler_entry, LTTng 0.x kernel.irq_entry */
    KM_ROLE_IRQ_EXIT,      /* irq_handler_exit, LTTng 0.x kernel.irq_exit */
    KM_ROLE_SOFTIRQ_ENTRY, /* softirq_entry, LTTng 2.x irq_softirq_entry, 0.x softirq_entry */
    KM_ROLE_SOFTIRQ_EXIT,
    KM_ROLE_CPU_FREQ,   /* cpu_frequency, LTTng 2.x power_cpu_frequency */
    KM_ROLE_CPU_IDLE,   /* cpu_idle, LTTng 2.x power_cpu_idle */
    KM_ROLE_BLOCKED,    /* sched_blocked_reason (Android kernels): why a task blocked */
    KM_ROLE_IMPORTED,   /* an event an importer family reads (kernel_import.c) */
    KM_ROLE_TASK_STATE, /* Perfetto's generic_kernel_task_state_event, a JSON trace's
                         * thread_state: a task's own state */
};

/* The fields a role reads, by a canonical slot; the payload index of each, -1 absent. */
enum km_slot {
    KM_PREV_TID, /* switch */
    KM_PREV_COMM,
    KM_NEXT_TID,
    KM_NEXT_COMM,
    KM_TID, /* wakeup, exec, exit, free, rename, statedump: the thread */
    KM_COMM,
    KM_PID,       /* statedump: the thread's process (tgid) */
    KM_PPID,      /* statedump: the parent process */
    KM_CHILD_TID, /* fork */
    KM_CHILD_PID, /* fork: the child's process (tgid), where the tracer gives it */
    KM_CHILD_COMM,
    KM_PARENT_TID,
    KM_FILENAME, /* exec */
    KM_IRQ,      /* irq entry: the number and the handler's name; exit: ret */
    KM_IRQ_NAME,
    KM_RET,
    KM_VEC,   /* softirq */
    KM_STATE, /* cpu_frequency, cpu_idle: the value, and the CPU it is of */
    KM_CPU_ID,
    KM_IO_WAIT,          /* sched_blocked_reason */
    KM_PRIO,             /* task state (with KM_TID, KM_COMM, KM_STATE, KM_CPU_ID) */
    KM_BLOCKED_FUNCTION, /* task state told by name (with KM_IO_WAIT) */
    KM_SLOT_COUNT
};

typedef struct km_class {
    uint8_t role;           /* enum km_role */
    uint8_t family, member; /* KM_ROLE_IMPORTED: the importer family and its event */
    int16_t field[KM_SLOT_COUNT];
} km_class;

struct tg_kmodel {
    tg_set *set;
    int64_t seen;  /* events fed by the frontier cursor */
    bool complete; /* the frontier cursor saw the end */
    tg_kthread *threads;
    size_t n_threads, cap_threads;
    tg_kprocess *procs;
    size_t n_procs, cap_procs;
    tg_ktrack *tracks;
    size_t n_tracks, cap_tracks;
    int32_t *cpus; /* seen, ascending */
    size_t n_cpus, cap_cpus;
    /* what a cursor starts from: the idle task and the tasks the traces list */
    size_t n_init_threads, n_init_procs, n_init_tracks;
    /* at the frontier: tid -> utid and pid -> upid now */
    tg_hash utid_by_tid, upid_by_pid;
    tg_hash ctrack_by_key; /* thread counter tracks by (utid, class, field) */
    /* names, each kept once */
    char **strs;
    size_t n_strs, cap_strs;
    tg_hash str_index;
    km_class *classes; /* by tg_event_class.number */
    size_t n_classes, cap_classes;
    /* the declared tracks (kernel_tracks.c): trace i's k-th is track decl_ids[i][k] */
    int64_t **decl_ids;
    size_t n_decl_traces;
    int64_t first_decl, n_decl; /* their ids: [first_decl, first_decl + n_decl) */
    /* trace i's k-th listed task is thread task_utids[i][k] (-1: a process only); set when
     * a trace lists a tid more than once (tg_task_info.new_thread), else NULL */
    int64_t **task_utids;
    size_t n_task_traces;
};

/* The thread of trace t's k-th listed task when t lists a tid more than once, else -1. */
int64_t km_listed_utid(const tg_kmodel *m, const tg_trace *t, size_t k);
/* The number of t in the model's set, t being of that set or of another opened from the
 * same paths (SQL passes at once read sets of a pool); SIZE_MAX when it is of neither. */
size_t km_trace_number(const tg_kmodel *m, const tg_trace *t);

/* Per thread, what a pass knows that changes its decisions (never read from the tables,
 * which the frontier may have moved on). */
enum { KM_FRESH = 1, KM_DEAD = 2 };

/* The per-CPU tracks, by kind, and the slices open on the two slice tracks. */
enum { KM_CPU_IRQ, KM_CPU_SOFTIRQ, KM_CPU_FREQ, KM_CPU_IDLE, KM_CPU_KINDS };
enum { KM_OPEN_MAX = 16 }; /* deeper nesting is counted, not kept */

typedef struct km_open {
    int64_t ts;
    const char *name;
} km_open;

typedef struct km_cpu {
    int64_t utid; /* the task running, -1 unknown */
    int32_t tid;
    int64_t track[KM_CPU_KINDS]; /* -1: not made yet */
    km_open open[2][KM_OPEN_MAX];
    uint8_t depth[2]; /* slices open per slice track, past KM_OPEN_MAX too */
    bool seen;        /* an event was on it, or a counter event named it */
} km_cpu;

struct tg_kcursor {
    tg_kmodel *m;
    int64_t fed; /* events fed so far */
    /* creations so far: the next utid, upid, track id this pass would make */
    size_t n_threads, n_procs, n_tracks;
    tg_hash utid_by_tid, upid_by_pid, ctrack_by_key;
    uint8_t *flags; /* by utid: KM_FRESH, KM_DEAD */
    size_t n_flags, cap_flags;
    km_cpu *cpu; /* by cpu number */
    size_t n_cpu, cap_cpu;
    int64_t last_tid, last_utid;    /* the lookup of the previous event */
    int64_t slices_utid1;           /* 1 + the thread whose track was last marked has_slices */
    const tg_trace *last_trace;     /* of the previous event, and whether its events' pid is */
    bool pid_is_process;            /* a process's (trace.dat's common_pid is a thread's) */
    struct km_decl_open *decl_open; /* by declared track (id - first_decl), made at first use */
    struct km_import *imp;          /* the importers' state (kernel_import.c), made at first use */
};

/* The class's role and fields, looked up from ev (its first event) once per class. */
const km_class *km_class_of(tg_kmodel *m, const tg_event *ev);
/* A name kept once in the model; NULL when out of memory. */
const char *km_intern(tg_kmodel *m, const char *s, size_t n);

/* Creations, in the order every pass makes them: the (c->n_threads)-th thread, ...  At the
 * frontier they add a record; behind it they find the one the frontier added.  The index,
 * or TG_ERR_NOMEM. */
int64_t km_thread_create(tg_kcursor *c, int64_t tid);
int64_t km_process_create(tg_kcursor *c, int64_t pid);
int64_t km_track_create(tg_kcursor *c, tg_ktrack_type type, int64_t utid, int32_t cpu,
                        const char *name);
/* Whether c writes the tables (it is the pass that got farthest). */
static inline bool km_at_frontier(const tg_kcursor *c) { return c->fed == c->m->seen; }
int km_cpu_seen(tg_kmodel *m, int32_t cpu);
/* Makes room for cpu in c's per-CPU records.  0 or TG_ERR_NOMEM. */
int km_cpu_room(tg_kcursor *c, int cpu);
/* The payload integer at index, -1 when absent or not an integer. */
int64_t km_int_field(const tg_event *ev, int index);
/* What an IRQ, softirq, cpu_frequency or cpu_idle event does on its CPU's tracks
 * (kernel_cpu.c): fills step.  0 or TG_ERR_NOMEM. */
int km_cpu_event(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts, tg_kstep *step);

/* The declared tracks of every trace (kernel_tracks.c), made by the model's first cursor
 * after the listed tasks.  0 or TG_ERR_NOMEM. */
int km_declared_tracks_create(tg_kcursor *c);
/* A slice ev begins or ends on a declared track: fills step and returns 1; 0 when ev is no
 * such slice; TG_ERR_NOMEM. */
int km_declared_slice(tg_kcursor *c, const tg_event *ev, int64_t ts, tg_kstep *step);

/* The importer families (kernel_import.c): whether one reads the event named base (the name
 * without its system), and which family and member; what its event does (fills step);
 * their state's end. */
bool km_import_find(const char *base, uint8_t *family, uint8_t *member);
int km_import_event(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts,
                    tg_kstep *step);
void km_import_free(struct km_import *imp);

#endif
