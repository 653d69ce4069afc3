/* callstack.h - the call-stack builder shared by every function-trace format.
 *
 * Feed it function entry/exit events (uftrace, XRay, LTTng cyg-profile) in time order; it
 * keeps one stack per thread, pairs each exit with its entry, and calls back once per
 * finished call with its inclusive time and the time spent in its direct children.
 * Irregular traces are handled the way the tools do: an exit whose function is not on top
 * unwinds to the matching frame (the frames above it end at that exit, flagged NO_EXIT); an
 * exit with no matching entry is reported flagged NO_ENTRY; a tail exit ends its frame;
 * frames still open at the end end at the thread's last time, flagged NO_EXIT. */
#ifndef TG_CALLSTACK_H
#define TG_CALLSTACK_H

#include "traceglot.h"

enum tg_call_flags {
    TG_CALL_NO_EXIT = 1,  /* the exit was never seen: ended by unwinding or at the end */
    TG_CALL_NO_ENTRY = 2, /* an exit without an entry: entry_ns is unknown (== exit_ns) */
    TG_CALL_TAIL = 4,     /* ended by a tail exit */
};

typedef struct tg_call {
    int tid;
    int pid;
    uint64_t addr;
    const char *name;   /* symbol at entry time, or NULL */
    int depth;          /* 0 for a thread's outermost frame */
    int64_t entry_ns, exit_ns;
    int64_t child_ns;   /* inclusive time of direct children */
    unsigned flags;
    tg_trace *trace;
} tg_call;

typedef void (*tg_call_fn)(void *ctx, const tg_call *call);

typedef struct tg_callstack tg_callstack;

tg_callstack *tg_callstack_new(tg_call_fn on_call, void *ctx);
void tg_callstack_free(tg_callstack *cs);
/* Feeds one event; events of other kinds are ignored.  0, or TG_ERR_NOMEM. */
int tg_callstack_feed(tg_callstack *cs, const tg_event *ev);
/* Ends every open frame (at each thread's last seen time) and reports it. */
void tg_callstack_finish(tg_callstack *cs);
/* Current depth of a thread's stack (0 when empty or unknown). */
int tg_callstack_depth(const tg_callstack *cs, int tid);

#endif
