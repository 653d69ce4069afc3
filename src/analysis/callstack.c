/* callstack.c - per-thread call stacks built from function entry/exit events (see
 * callstack.h for the pairing rules).
 *
 * Threads are found through a small open-addressing table keyed by tid; each thread's
 * frames live in one growable array, so feeding an event costs no allocation once the
 * deepest stack has been seen.  Memory is bounded by threads x maximum depth. */
#include "analysis/callstack.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

struct tg_frame {
    uint64_t addr;
    const char *name;
    int64_t entry_ns;
    int64_t child_ns;
};

struct tg_thread_stack {
    int tid; /* -2: empty table slot */
    int pid;
    struct tg_frame *frames;
    size_t depth, cap;
    int64_t last_ns;
    tg_trace *trace;
};

struct tg_callstack {
    tg_call_fn on_call;
    void *ctx;
    struct tg_thread_stack *threads;
    size_t n_threads, cap; /* cap is a power of two */
};

tg_callstack *tg_callstack_new(tg_call_fn on_call, void *ctx)
{
    tg_callstack *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->on_call = on_call;
    cs->ctx = ctx;
    return cs;
}

void tg_callstack_free(tg_callstack *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->cap; i++)
        free(cs->threads[i].frames);
    free(cs->threads);
    free(cs);
}

static struct tg_thread_stack *find(const tg_callstack *cs, int tid)
{
    if (!cs->cap)
        return NULL;
    size_t mask = cs->cap - 1;
    for (size_t i = ((unsigned)tid * 2654435761u) & mask;; i = (i + 1) & mask) {
        struct tg_thread_stack *t = &cs->threads[i];
        if (t->tid == tid)
            return t;
        if (t->tid == -2)
            return NULL;
    }
}

static int grow_table(tg_callstack *cs)
{
    size_t cap = cs->cap ? cs->cap * 2 : 16;
    struct tg_thread_stack *nt = malloc(cap * sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < cap; i++)
        nt[i] = (struct tg_thread_stack){.tid = -2};
    for (size_t i = 0; i < cs->cap; i++) {
        struct tg_thread_stack *t = &cs->threads[i];
        if (t->tid == -2)
            continue;
        size_t j = ((unsigned)t->tid * 2654435761u) & (cap - 1);
        while (nt[j].tid != -2)
            j = (j + 1) & (cap - 1);
        nt[j] = *t;
    }
    free(cs->threads);
    cs->threads = nt;
    cs->cap = cap;
    return 0;
}

static struct tg_thread_stack *get(tg_callstack *cs, int tid)
{
    struct tg_thread_stack *t = find(cs, tid);
    if (t)
        return t;
    if ((cs->n_threads + 1) * 2 > cs->cap && grow_table(cs) < 0)
        return NULL;
    size_t mask = cs->cap - 1;
    size_t i = ((unsigned)tid * 2654435761u) & mask;
    while (cs->threads[i].tid != -2)
        i = (i + 1) & mask;
    t = &cs->threads[i];
    *t = (struct tg_thread_stack){.tid = tid, .pid = -1};
    cs->n_threads++;
    return t;
}

/* Pops the top frame, ending it at exit_ns, and reports it. */
static void pop(tg_callstack *cs, struct tg_thread_stack *t, int64_t exit_ns, unsigned flags)
{
    struct tg_frame *f = &t->frames[--t->depth];
    int64_t dur = exit_ns - f->entry_ns;
    tg_call call = {
        .tid = t->tid, .pid = t->pid, .addr = f->addr, .name = f->name, .depth = (int)t->depth,
        .entry_ns = f->entry_ns, .exit_ns = exit_ns, .child_ns = f->child_ns,
        .flags = flags, .trace = t->trace,
    };
    if (t->depth)
        t->frames[t->depth - 1].child_ns += dur;
    cs->on_call(cs->ctx, &call);
}

int tg_callstack_feed(tg_callstack *cs, const tg_event *ev)
{
    tg_event_kind kind = tg_event_kind_of(ev);
    if (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT && kind != TG_KIND_FUNC_TAIL_EXIT)
        return 0;
    struct tg_thread_stack *t = get(cs, tg_event_tid(ev));
    if (!t)
        return TG_ERR_NOMEM;
    int64_t ts = tg_event_time_ns(ev);
    uint64_t addr = tg_event_func_addr(ev);
    t->last_ns = ts;
    t->trace = tg_event_trace(ev);
    if (tg_event_pid(ev) >= 0)
        t->pid = tg_event_pid(ev);
    if (kind == TG_KIND_FUNC_ENTRY) {
        TG_TRY(tg_grow(&t->frames, &t->cap, t->depth + 1, sizeof *t->frames));
        t->frames[t->depth++] = (struct tg_frame){addr, tg_event_func_name(ev), ts, 0};
        return 0;
    }
    /* an exit: find the matching frame from the top */
    size_t match = t->depth;
    while (match > 0 && t->frames[match - 1].addr != addr)
        match--;
    if (match == 0) {
        tg_call call = {
            .tid = t->tid, .pid = t->pid, .addr = addr, .name = tg_event_func_name(ev),
            .depth = (int)t->depth, .entry_ns = ts, .exit_ns = ts,
            .flags = TG_CALL_NO_ENTRY, .trace = t->trace,
        };
        cs->on_call(cs->ctx, &call);
        return 0;
    }
    while (t->depth > match)
        pop(cs, t, ts, TG_CALL_NO_EXIT);
    pop(cs, t, ts, kind == TG_KIND_FUNC_TAIL_EXIT ? TG_CALL_TAIL : 0);
    return 0;
}

void tg_callstack_finish(tg_callstack *cs)
{
    for (size_t i = 0; i < cs->cap; i++) {
        struct tg_thread_stack *t = &cs->threads[i];
        if (t->tid == -2)
            continue;
        while (t->depth)
            pop(cs, t, t->last_ns, TG_CALL_NO_EXIT);
    }
}

int tg_callstack_depth(const tg_callstack *cs, int tid)
{
    const struct tg_thread_stack *t = find(cs, tid);
    return t ? (int)t->depth : 0;
}
