/* callstack_uftrace.h - the call-stack builder's uftrace rules: uftrace's per-thread function
 * stack, rebuilt from the public events.
 *
 * `uftrace replay` and `uftrace report` do not pair entries and exits by matching addresses:
 * they keep, per thread, a stack count that every record moves (a record's own depth only
 * seeds it, at the thread's first record and after lost records), a display depth that only
 * printed lines move, and treat a context switch as a virtual function (sched-out enters
 * `linux:schedule`, sched-in leaves it).  Their outputs follow from those rules, so this
 * module applies exactly them to the event stream, for any format that yields function
 * entry/exit and sched events.  Memory: one small struct per thread and one frame per level
 * of its stack, whatever the number of events. */
#ifndef TG_CALLSTACK_UFTRACE_H
#define TG_CALLSTACK_UFTRACE_H

#include "core/consumer.h"
#include "traceglot.h"

#include <stdbool.h>
#include <stdint.h>

enum uf_rec_type { UF_ENTRY, UF_EXIT, UF_EVENT, UF_LOST };

/* The part of an event the stack rules need, copied so it outlives the iterator's event. */
typedef struct uf_rec {
    enum uf_rec_type type;
    int tid, pid;
    int depth;
    int64_t time;
    uint64_t addr; /* function address, event id (uftrace prints it), or lost count */
    tg_event_kind kind;
    const char *name;          /* function symbol, NULL when unknown */
    const tg_event_class *cls; /* cls->kernel: a kernel function's entry/exit (record -k) */
    int64_t call_ns; /* an exit: the call's duration as its tracer measured it, -1 when the
                      * record says none (the exit's time minus the entry's is taken) */
} uf_rec;

typedef struct uf_frame {
    uint64_t addr;
    const char *name; /* symbol at entry (NULL: unknown); sched frames: linux:schedule */
    uint64_t total;   /* start time while open, duration once exited (unsigned, as in */
    uint64_t child;   /* uftrace: damaged times wrap instead of overflowing) */
    bool valid;
    uint8_t fflags;     /* the filters' UF_FF_* of this frame (callstack_filter.h) */
    int32_t orig_depth; /* the filters' depth budget before this frame's entry */
} uf_frame;

enum { UF_FL_EXEC = 1, UF_FL_LONGJMP = 2 };

typedef struct uf_task {
    int tid, pid;
    int stack_count, user_stack_count;
    int display_depth;
    int fork_display_depth;
    bool fstack_set, lost_seen, display_depth_set, fork_handled, sched_preempt_seen;
    bool in_kernel;                    /* the last function record was a kernel function's */
    bool steady;                       /* fstack_set, no lost_seen, not in_kernel: the state in
                                   * which entries and exits take the inline paths */
    uint8_t entry_flags;               /* UF_FL_* of the entry being handled */
    int64_t timestamp, timestamp_last; /* replay's time fields */
    int64_t last_time;                 /* time of the thread's last record */
    bool last_was_perf;                /* ...which came from the perf (cpu) data */
    uf_frame *frames;
    int cap;
    int order;         /* first-seen order of the thread */
    char tid_text[16]; /* replay's "[  1234]", made once */
    uint8_t tid_len;
    /* the filters' state (callstack_filter.h): functions of -F open, of -N open, depth left */
    int filter_in, filter_out, filter_depth;
    bool filter_set; /* the filter state was initialised (at the thread's first record) */
} uf_task;

struct uf_fixup_cache {
    const char *name;
    uint8_t kind; /* 0 none, 1 exec, 2 setjmp, 3 longjmp, 4 fork */
};

typedef struct uf_state {
    uf_task *last_task; /* the thread of the previous record (usually the next's) */
    struct uf_fixup_cache fixups[256];
    tg_hash by_tid;  /* tid -> index in order */
    uf_task **order; /* threads in first-seen order */
    size_t count, order_cap;
    int max_stack;
    int setjmp_depth, setjmp_count;
    uf_task *last_forker;   /* thread that last entered fork() (the child's parent) */
    int64_t first_time;     /* uftrace's first record time; -1 (as unsigned: none) */
    int64_t last_perf_time; /* time of the last perf record read, any thread */
    bool has_kernel;        /* kernel function records were seen */
    bool display_late;      /* uftrace -r START: a thread's display depth is set at its first
                                   * shown entry (tasks start with display_depth_set false) */
    bool first_fixed;       /* first_time was given (the elapsed column of a filtered replay) */
    bool perf_in_tasks;     /* uftrace -t reads perf records into each task's list: a
                                   * thread's last record is then its own (no last-perf rule) */
    int64_t finish_time;    /* uf_finish ends open frames at this time (uftrace's -r STOP);
                                   * 0: at each thread's last record */
    bool kernel_full;       /* uftrace --kernel-full: kernel functions outside user
                                   * functions count too (by default they are skipped) */
    bool event_full;        /* uftrace --event-full: so do events outside user functions */
} uf_state;

int uf_state_init(uf_state *st);
void uf_state_free(uf_state *st);
/* The thread's state, created on first use; NULL on allocation failure. */
uf_task *uf_task_lookup(uf_state *st, int tid, int pid);
static inline uf_task *uf_task_get(uf_state *st, int tid, int pid)
{
    if (st->last_task && st->last_task->tid == tid)
        return st->last_task;
    uf_task *t = uf_task_lookup(st, tid, pid);
    st->last_task = t;
    return t;
}
/* The frame at index idx of a thread's stack, or NULL outside 0..max_stack-1 (as uftrace). */
uf_frame *uf_frame_grow(uf_state *st, uf_task *t, int idx);
static inline uf_frame *uf_frame_at(uf_state *st, uf_task *t, int idx)
{
    if (idx >= 0 && idx < t->cap)
        return &t->frames[idx];
    return uf_frame_grow(st, t, idx);
}

/* Fills r from ev (the event model's header fields, read in place: this runs per event). */
static inline bool uf_rec_from_event(const tg_event *ev, uf_rec *r)
{
    const tg_event_class *c = ev->cls;
    r->cls = c;
    r->tid = ev->tid;
    r->pid = ev->pid;
    r->time = ev->ts;
    r->depth = ev->depth < 0 ? 0 : ev->depth;
    r->name = NULL;
    r->kind = c->kind;
    r->call_ns = -1;
    switch (c->kind) {
    case TG_KIND_FUNC_ENTRY:
        r->type = UF_ENTRY;
        r->addr = ev->addr;
        break;
    case TG_KIND_FUNC_EXIT:
    case TG_KIND_FUNC_TAIL_EXIT:
        r->type = UF_EXIT;
        r->addr = ev->addr;
        if (c->exit_has_call_ns)
            r->call_ns = ev->call_ns;
        break;
    case TG_KIND_LOST:
        r->type = UF_LOST;
        r->addr = ev->lost;
        break;
    default:
        r->type = UF_EVENT;
        r->addr = c->id;
        break;
    }
    return r->tid >= 0;
}
/* The records uftrace reads from its per-cpu perf data (sched and task events). */
static inline bool uf_kind_is_perf(tg_event_kind k)
{
    return k == TG_KIND_SCHED_IN || k == TG_KIND_SCHED_OUT || k == TG_KIND_SCHED_OUT_PREEMPTED ||
           k == TG_KIND_TASK_FORK || k == TG_KIND_TASK_EXIT || k == TG_KIND_TASK_NAME;
}
/* A context switch, which uftrace shows as the virtual function linux:schedule. */
static inline bool uf_kind_is_sched(tg_event_kind k)
{
    return k == TG_KIND_SCHED_IN || k == TG_KIND_SCHED_OUT || k == TG_KIND_SCHED_OUT_PREEMPTED;
}
/* uftrace's consume of one record: time accounting and stack counts. */
/* The time uftrace takes as a thread's last: its last record's, except that a perf record
 * shares one buffer for all threads, so it reads the last perf record's time (sic). */
int64_t uf_task_last_time(const uf_state *st, const uf_task *t);
void uf_consume(uf_state *st, uf_task *t, const uf_rec *r);
/* 0, or which of fstack_entry's special functions (1 exec, 2 setjmp, 3 longjmp, 4 fork)
 * a symbol names. */
uint8_t uf_fixup_kind(const char *name);
/* fstack_entry's special functions (fork/exec/setjmp/longjmp), before printing an entry. */
void uf_entry_fixups_all(uf_state *st, uf_task *t, const uf_rec *r);
/* The same, in two steps (the filters decide between them): the special functions, then
 * the display depth of a thread whose depth is not yet known. */
void uf_entry_special(uf_state *st, uf_task *t, const uf_rec *r);
void uf_entry_display_depth(uf_task *t);
/* The same, inline for the common entry: a name known not to be special, in a thread whose
 * display depth is set. */
static inline void uf_entry_fixups(uf_state *st, uf_task *t, const uf_rec *r)
{
    const struct uf_fixup_cache *c = &st->fixups[((uintptr_t)r->name >> 3) & 255];
    if (c->name == r->name && !c->kind && t->display_depth_set) {
        t->entry_flags = 0;
        return;
    }
    uf_entry_fixups_all(st, t, r);
}

/* Opens frame idx (the top) of t at time ts for a function entry, as uftrace's fstack does.
 * Inline: report calls it once per entry. */
static inline void uf_frame_push(uf_task *t, int idx, uint64_t addr, const char *name, uint64_t ts)
{
    uf_frame *f = &t->frames[idx];
    f->addr = addr;
    f->name = name;
    f->total = ts;
    f->child = 0;
    f->valid = true;
    t->stack_count = idx + 1;
    t->user_stack_count++;
}

/* Ends frame idx (the top) of t at time ts: its total and self time, its parent's child
 * time, as uftrace's fstack does on an exit.  Inline: report calls it once per exit. */
static inline void uf_frame_pop(uf_task *t, int idx, uint64_t ts)
{
    uf_frame *f = &t->frames[idx];
    uint64_t delta = f->valid ? ts - f->total : 0;
    f->valid = false;
    f->total = delta;
    if (f->child > delta)
        f->child = delta;
    if (idx > 0)
        f[-1].child += delta;
    t->stack_count = idx;
    if (t->user_stack_count > 0)
        t->user_stack_count--;
}

/* A kernel function record uftrace skips by default: one outside any user function. */
static inline bool uf_kernel_skipped(const uf_state *st, const uf_task *t, const uf_rec *r)
{
    return r->cls->kernel && t->user_stack_count == 0 && !st->kernel_full;
}

/* Whether uftrace hides a record it has consumed: an event outside any user function, a
 * kernel function outside them (unless --kernel-full). */
static inline bool uf_hidden(const uf_state *st, const uf_task *t, const uf_rec *r)
{
    return (r->type == UF_EVENT && t->user_stack_count == 0 && !st->event_full) ||
           uf_kernel_skipped(st, t, r);
}

/* uf_consume for the common record - a user function's entry or exit in a thread in its
 * steady state, in a frame already allocated - inlined; anything else goes to uf_consume.
 * Returns uf_hidden() of the record (always false for the common record). */
static inline __attribute__((always_inline)) bool uf_consume_fast(uf_state *st, uf_task *t,
                                                                  const uf_rec *r)
{
    if (r->type > UF_EXIT || !t->steady || r->cls->kernel || r->call_ns >= 0) {
        uf_consume(st, t, r);
        return uf_hidden(st, t, r);
    }
    int idx = r->type == UF_ENTRY ? t->stack_count : t->stack_count - 1;
    if (idx < 0 || idx >= t->cap) {
        uf_consume(st, t, r);
        return false;
    }
    if ((uint64_t)r->time < (uint64_t)st->first_time && !st->first_fixed)
        st->first_time = r->time;
    t->last_time = r->time;
    t->last_was_perf = false;
    if (r->type == UF_ENTRY)
        uf_frame_push(t, idx, r->addr, r->name, (uint64_t)r->time);
    else
        uf_frame_pop(t, idx, (uint64_t)r->time);
    return false;
}

/* An exit that carries no address (its class's exit_ends_top: LTTng-UST cyg_profile_fast),
 * once consumed: it ended the frame at t->stack_count, whose function it is. */
static inline void uf_rec_exit_of_top(const uf_task *t, uf_rec *r)
{
    if (t->stack_count >= 0 && t->stack_count < t->cap) {
        r->addr = t->frames[t->stack_count].addr;
        r->name = t->frames[t->stack_count].name;
    }
}

/* fstack_update: the display depth after printing an entry / an exit. */
int uf_update_entry(uf_state *st, uf_task *t);
int uf_update_exit(uf_task *t);

/* ---- the rules of `uftrace report` (build_function_tree), for any consumer ---------------
 * uf_step applies them to one record and tells the sink about each frame that opens (an
 * entry; a sched-out, which opens linux:schedule) and each frame that ends: an exit, a
 * sched-in, lost records (the frames above the user stack), and, in uf_finish, the frames
 * still open at each thread's last record.  When close is called the ended frame is
 * t->frames[t->stack_count], with uftrace's total and child time.  The uftrace report and
 * the public call-stack builder (tg_callstack with TG_STACK_UFTRACE) are the two sinks; the
 * report also inlines the steady-state entry and exit (uf_consume_fast, uf_frame_pop). */
enum { UF_CLOSE_EXIT = 0, UF_CLOSE_LOST = 1, UF_CLOSE_END = 2 };

typedef struct uf_sink {
    /* optional: frame idx of t opened at time ts (name: linux:schedule for a sched-out) */
    int (*open)(void *ctx, uf_task *t, int idx, int64_t ts);
    /* the frame at t->frames[t->stack_count] ended at time ts (how: UF_CLOSE_*); name and
     * addr are the ones uftrace accounts it under */
    int (*close)(void *ctx, uf_task *t, const char *name, uint64_t addr, int64_t ts, int how);
    void *ctx;
} uf_sink;

extern const char uf_schedule_name[];           /* "linux:schedule" */
extern const char uf_schedule_preempted_name[]; /* "linux:schedule (pre-empted)" */

/* One record (r->name set for entries and exits).  0, or the sink's negative status. */
int uf_step(uf_state *st, uf_task *t, const uf_rec *r, const uf_sink *sink);
/* Ends the frames still open, thread by thread in first-seen order. */
int uf_finish(uf_state *st, const uf_sink *sink);

#endif
