/* callstack_inline.h - the call-stack builder's state and its steady-state step under the
 * address-matching "top only" rules, in line, for consumers whose whole per-record work is a
 * few instructions (llvm-xray account: 1.1M records of the bench log).
 *
 * tg_callstack_feed (callstack.c) reports every ended frame through a tg_call built for the
 * on_call callback: the recursion check walks the stack, the call is some 100 bytes, and the
 * callback is an indirect call.  A consumer that needs only the ended frame (its address,
 * entry time, child time) instead calls tg_callstack_step with a constant rule: the step is
 * inlined into its loop, the rule's branches fold away, and the frame is handed back in
 * place (valid until the next step).  tg_callstack_feed runs the same step for these rules
 * and builds the tg_call from what it hands back, so there is one body of the rules.
 *
 * The step moves the stacks only.  Who feeds through tg_callstack_feed also gets each
 * thread's last time, trace and pid kept (for the calls it reports and for
 * tg_callstack_finish), and frames named; a consumer of the step reads names from events. */
#ifndef TG_CALLSTACK_INLINE_H
#define TG_CALLSTACK_INLINE_H

#include "core/consumer.h"

#include <stdbool.h>

struct uf_state;

struct tg_frame {
    uint64_t addr;
    union {
        const char *name; /* left unset by tg_callstack_step (tg_callstack_feed sets them) */
        void *user;       /* a tg_callstack_step consumer's own (llvm-xray stack's trie node) */
    };
    const char *module; /* likewise */
    int64_t entry_ns;
    int64_t child_ns;
};

struct tg_thread_stack {
    int tid;
    int pid;
    struct tg_frame *frames;
    size_t depth, cap;
    int64_t last_ns;
    tg_trace *trace;
};

/* The entry_ns of a frame the records imply without its entry (a call its thread was inside
 * when the recording began: the depth a function_graph record declares); its function and
 * start are known at its exit, if it comes (callstack.c). */
#define TG_FRAME_IMPLIED INT64_MIN

struct tg_callstack {
    tg_call_fn on_call, on_open;
    void *ctx;
    tg_stack_rules rules;
    struct uf_state *uf;         /* the uftrace rules' state, made at their first event */
    const tg_trace *rules_trace; /* TG_STACK_BY_TRACER: the last event's trace ... */
    bool rules_uftrace;          /* ... and whether it follows the uftrace rules */
    uint64_t first_time;         /* TG_STACK_LLVM_XRAY: the first record's time (0: none) */
    const tg_event *ev;          /* the event being fed */
    const char *ev_module;       /* the uftrace rules: the module of the entry being fed */
    struct tg_name_slot {
        uint64_t addr;
        const tg_trace *trace; /* NULL: empty */
        const char *name, *module;
    } names[256]; /* (trace, address) -> symbol and module, asked of the reader once */
    struct tg_thread_stack *last;    /* the previous event's thread */
    struct tg_thread_stack *threads; /* in first-seen order */
    size_t n_threads, threads_cap;
    tg_hash by_tid; /* tid -> index in threads */
};

/* The thread's stack, added when new; NULL when out of memory (callstack.c). */
struct tg_thread_stack *tg_callstack_thread_add(tg_callstack *cs, int tid);

static inline struct tg_thread_stack *tg_callstack_thread(tg_callstack *cs, int tid)
{
    struct tg_thread_stack *t = cs->last;
    return t && t->tid == tid ? t : tg_callstack_thread_add(cs, tid);
}

/* Ends thread t's top frame at time ts (t has one): its time is added to its parent's child
 * time and the frame is handed back (valid until the next push).  tg_callstack_step's end
 * of a frame; llvm-xray graph's -deduce-sibling-calls also ends the frames above a matching
 * one with it, as llvm-xray unwinds them. */
static inline __attribute__((always_inline)) const struct tg_frame *
tg_callstack_pop(struct tg_thread_stack *t, int64_t ts)
{
    const struct tg_frame *f = &t->frames[--t->depth];
    if (t->depth) /* unsigned: damaged times wrap instead of overflowing */
        t->frames[t->depth - 1].child_ns = (int64_t)((uint64_t)t->frames[t->depth - 1].child_ns +
                                                     (uint64_t)ts - (uint64_t)f->entry_ns);
    return f;
}

/* What one step did. */
typedef enum tg_step {
    TG_STEP_NONE = 0, /* not a record of the rules (or skipped by them) */
    TG_STEP_OPENED,   /* a frame opened: top of *thread */
    TG_STEP_ENDED,    /* a frame ended: *frame (popped; valid until the next step) */
    TG_STEP_NO_ENTRY, /* an exit that does not match the top: stacks unchanged */
    TG_STEP_LOST,     /* lost records (TG_STACK_TOP_ONLY): the caller ends *thread's frames */
    TG_STEP_EARLY,    /* TG_STACK_LLVM_XRAY: a record timed before the first one, skipped (an
                       * error to llvm-xray account) */
} tg_step;

typedef struct tg_step_out {
    struct tg_thread_stack *thread; /* the record's thread (not for TG_STEP_NONE) */
    const struct tg_frame *frame;   /* TG_STEP_ENDED */
    unsigned flags;                 /* TG_STEP_ENDED: TG_CALL_TAIL or 0 */
} tg_step_out;

/* A function record apart from its event: what the step reads of one. */
typedef struct tg_step_rec {
    tg_event_kind kind;
    int tid;
    uint64_t addr;
} tg_step_rec;

/* The step's one body, on an event ev (is_ev true) or a record rec: each caller below passes a
 * constant is_ev, so the other branch folds away and the event's fields are read where the
 * rules need them, as before records could be stepped. */
static inline __attribute__((always_inline)) int
tg_callstack_step_any(tg_callstack *cs, tg_stack_rules rules, bool is_ev, const tg_event *ev,
                      const tg_step_rec *rec, int64_t ts, tg_step_out *out)
{
    if (rules == TG_STACK_LLVM_XRAY) {
        /* llvm-xray's account: a record before the first one (in cycles, unsigned) is an
         * error that -keep-going skips */
        if (cs->first_time == 0)
            cs->first_time = (uint64_t)ts;
        if ((uint64_t)ts < cs->first_time) {
            out->thread = NULL;
            return TG_STEP_EARLY;
        }
    }
    tg_event_kind kind = is_ev ? (ev->cls ? ev->cls->kind : TG_KIND_GENERIC) : rec->kind;
    if (kind == TG_KIND_FUNC_ENTRY) {
        struct tg_thread_stack *t = tg_callstack_thread(cs, is_ev ? ev->tid : rec->tid);
        if (!t || (t->depth == t->cap &&
                   tg_grow(&t->frames, &t->cap, t->depth + 1, sizeof *t->frames) < 0))
            return TG_ERR_NOMEM;
        uint64_t ev_addr = is_ev ? ev->addr : rec->addr;
        uint64_t addr = rules == TG_STACK_LLVM_XRAY ? (uint32_t)ev_addr : ev_addr;
        struct tg_frame *f = &t->frames[t->depth++]; /* name and module: the caller's */
        f->addr = addr;
        f->entry_ns = ts;
        f->child_ns = 0;
        out->thread = t;
        return TG_STEP_OPENED;
    }
    if (kind == TG_KIND_FUNC_EXIT || kind == TG_KIND_FUNC_TAIL_EXIT) {
        struct tg_thread_stack *t = tg_callstack_thread(cs, is_ev ? ev->tid : rec->tid);
        if (!t)
            return TG_ERR_NOMEM;
        out->thread = t;
        /* llvm-xray's function ids are 32-bit */
        uint64_t ev_addr = is_ev ? ev->addr : rec->addr;
        uint64_t addr = rules == TG_STACK_LLVM_XRAY ? (uint32_t)ev_addr : ev_addr;
        if (t->depth == 0 ||
            (t->frames[t->depth - 1].addr != addr && !(is_ev && ev->cls->exit_ends_top)))
            return TG_STEP_NO_ENTRY; /* (an exit without an address ends the top frame) */
        out->frame = tg_callstack_pop(t, ts);
        out->flags = kind == TG_KIND_FUNC_TAIL_EXIT ? TG_CALL_TAIL : 0;
        return TG_STEP_ENDED;
    }
    int tid = is_ev ? ev->tid : rec->tid;
    if (rules == TG_STACK_TOP_ONLY && kind == TG_KIND_LOST && tid >= 0) {
        struct tg_thread_stack *t = tg_callstack_thread(cs, tid);
        if (!t)
            return TG_ERR_NOMEM;
        out->thread = t;
        return TG_STEP_LOST;
    }
    return TG_STEP_NONE;
}

/* One event at time ts under rules TG_STACK_TOP_ONLY or TG_STACK_LLVM_XRAY (pass a
 * constant).  A tg_step, or TG_ERR_NOMEM. */
static inline int tg_callstack_step(tg_callstack *cs, tg_stack_rules rules, const tg_event *ev,
                                    int64_t ts, tg_step_out *out)
{
    return tg_callstack_step_any(cs, rules, true, ev, NULL, ts, out);
}

/* The same for a record held apart from its event (llvm-xray graph sorts the records first,
 * as llvm-xray does). */
static inline int tg_callstack_step_rec(tg_callstack *cs, tg_stack_rules rules,
                                        const tg_step_rec *rec, int64_t ts, tg_step_out *out)
{
    return tg_callstack_step_any(cs, rules, false, NULL, rec, ts, out);
}

/* llvm-xray account -deduce-sibling-calls: an exit of a function below the top of t ends it
 * and every frame above it.  The index of its frame (t->frames[index .. old depth) stay
 * readable until the next step), or -1 when the function is not on the stack (nothing
 * changes).  addr as the rules compare it (32-bit under TG_STACK_LLVM_XRAY). */
static inline long tg_callstack_unwind_to(struct tg_thread_stack *t, uint64_t addr)
{
    for (size_t i = t->depth; i-- > 0;)
        if (t->frames[i].addr == addr) {
            t->depth = i;
            return (long)i;
        }
    return -1;
}

#endif
