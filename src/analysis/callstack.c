/* callstack.c - the one call-stack builder: per-thread call stacks built from function
 * entry/exit events (the pairing rules and their parameters are in traceglot.h, tg_callstack).
 *
 * Threads are found through a small open-addressing table keyed by tid, with the previous
 * event's thread remembered (threads come in long runs); each thread's frames live in one
 * growable array, so feeding an event costs no allocation once the deepest stack has been
 * seen.  Symbols are asked of the reader once per (trace, address) in a small direct-mapped
 * cache.  Memory is bounded by threads x maximum depth. */
#include "core/consumer.h"

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
    tg_stack_rules rules;
    struct {
        uint64_t addr;
        const tg_trace *trace; /* NULL: empty */
        const char *name;
    } names[256];
    struct tg_thread_stack *last; /* the previous event's thread */
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

int tg_callstack_set_rules(tg_callstack *cs, tg_stack_rules rules)
{
    if (rules != TG_STACK_UNWIND && rules != TG_STACK_TOP_ONLY)
        return TG_ERR_USAGE;
    cs->rules = rules;
    return 0;
}

static struct tg_thread_stack *get(tg_callstack *cs, int tid)
{
    if (cs->last && cs->last->tid == tid)
        return cs->last;
    struct tg_thread_stack *t = find(cs, tid);
    if (t)
        return cs->last = t;
    cs->last = NULL; /* the table may move */
    if ((cs->n_threads + 1) * 2 > cs->cap && grow_table(cs) < 0)
        return NULL;
    size_t mask = cs->cap - 1;
    size_t i = ((unsigned)tid * 2654435761u) & mask;
    while (cs->threads[i].tid != -2)
        i = (i + 1) & mask;
    t = &cs->threads[i];
    *t = (struct tg_thread_stack){.tid = tid, .pid = -1};
    cs->n_threads++;
    return cs->last = t;
}

/* Pops the top frame, ending it at exit_ns, and reports it. */
static void pop(tg_callstack *cs, struct tg_thread_stack *t, int64_t exit_ns, unsigned flags,
                const tg_event *exit)
{
    struct tg_frame *f = &t->frames[--t->depth];
    /* unsigned arithmetic: damaged times wrap instead of overflowing */
    int64_t dur = (int64_t)((uint64_t)exit_ns - (uint64_t)f->entry_ns);
    for (size_t i = 0; i < t->depth; i++)
        if (t->frames[i].addr == f->addr) {
            flags |= TG_CALL_RECURSIVE;
            break;
        }
    tg_call call = {
        .tid = t->tid, .pid = t->pid, .addr = f->addr, .name = f->name, .depth = (int)t->depth,
        .entry_ns = f->entry_ns, .exit_ns = exit_ns, .total_ns = dur, .child_ns = f->child_ns,
        .self_ns = (int64_t)((uint64_t)dur - (uint64_t)f->child_ns), .flags = flags, .trace = t->trace, .exit = exit,
    };
    if (t->depth)
        t->frames[t->depth - 1].child_ns =
            (int64_t)((uint64_t)t->frames[t->depth - 1].child_ns + (uint64_t)dur);
    cs->on_call(cs->ctx, &call);
}

static const char *name_of(tg_callstack *cs, const tg_event *ev)
{
    uint64_t a = ev->addr;
    size_t h = (size_t)((a ^ (a >> 8) ^ (a >> 16)) & 255);
    if (cs->names[h].trace != ev->cls->trace || cs->names[h].addr != a) {
        cs->names[h].addr = a;
        cs->names[h].trace = ev->cls->trace;
        cs->names[h].name = tg_event_func_name(ev);
    }
    return cs->names[h].name;
}

static void no_entry(tg_callstack *cs, struct tg_thread_stack *t, const tg_event *ev,
                     uint64_t addr, int64_t ts)
{
    tg_call call = {
        .tid = t->tid, .pid = t->pid, .addr = addr, .name = name_of(cs, ev),
        .depth = (int)t->depth, .entry_ns = ts, .exit_ns = ts, .flags = TG_CALL_NO_ENTRY,
        .trace = t->trace, .exit = ev,
    };
    cs->on_call(cs->ctx, &call);
}

int tg_callstack_feed_at(tg_callstack *cs, const tg_event *ev, int64_t ts)
{
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT &&
        kind != TG_KIND_FUNC_TAIL_EXIT && kind != TG_KIND_LOST)
        return 0;
    int tid = ev->tid;
    if (kind == TG_KIND_LOST && tid < 0)
        return 0; /* lost records of no one thread (a cpu's buffer): nothing to end */
    struct tg_thread_stack *t = get(cs, tid);
    if (!t)
        return TG_ERR_NOMEM;
    t->last_ns = ts;
    t->trace = ev->cls->trace;
    if (ev->pid >= 0)
        t->pid = ev->pid;
    if (kind == TG_KIND_LOST) {
        while (t->depth)
            pop(cs, t, ts, TG_CALL_NO_EXIT | TG_CALL_LOST, ev);
        return 0;
    }
    uint64_t addr = ev->addr;
    if (kind == TG_KIND_FUNC_ENTRY) {
        if (t->depth == t->cap)
            TG_TRY(tg_grow(&t->frames, &t->cap, t->depth + 1, sizeof *t->frames));
        t->frames[t->depth++] = (struct tg_frame){addr, name_of(cs, ev), ts, 0};
        return 0;
    }
    unsigned how = kind == TG_KIND_FUNC_TAIL_EXIT ? TG_CALL_TAIL : 0;
    if (cs->rules == TG_STACK_TOP_ONLY) {
        if (t->depth == 0 || t->frames[t->depth - 1].addr != addr)
            no_entry(cs, t, ev, addr, ts);
        else
            pop(cs, t, ts, how, ev);
        return 0;
    }
    /* unwind: find the matching frame from the top */
    size_t match = t->depth;
    while (match > 0 && t->frames[match - 1].addr != addr)
        match--;
    if (match == 0) {
        no_entry(cs, t, ev, addr, ts);
        return 0;
    }
    while (t->depth > match)
        pop(cs, t, ts, TG_CALL_NO_EXIT, ev);
    pop(cs, t, ts, how, ev);
    return 0;
}

int tg_callstack_feed(tg_callstack *cs, const tg_event *ev)
{
    return tg_callstack_feed_at(cs, ev, ev->ts);
}

void tg_callstack_finish(tg_callstack *cs)
{
    for (size_t i = 0; i < cs->cap; i++) {
        struct tg_thread_stack *t = &cs->threads[i];
        if (t->tid == -2)
            continue;
        while (t->depth)
            pop(cs, t, t->last_ns, TG_CALL_NO_EXIT, NULL);
    }
}

int tg_callstack_depth(const tg_callstack *cs, int tid)
{
    const struct tg_thread_stack *t = find(cs, tid);
    return t ? (int)t->depth : 0;
}
