/* callstack.c - the one call-stack builder: per-thread call stacks built from function
 * entry/exit events (the pairing rules and their parameters are in traceglot.h, tg_callstack).
 *
 * Each thread's stack here is what the consumer was told is open.  The address-matching rules
 * (unwind, top only, llvm-xray's) work on it directly, top only and llvm-xray's through the
 * inline step of callstack_inline.h that llvm-xray account runs in its own loop; the uftrace
 * rules (callstack_uftrace.c, the same code uftrace's report runs) keep uftrace's own stack
 * counts, and their opens and ends are mirrored onto it, opening the frames a record implies
 * and ending (NO_EXIT) the frames the rules drop, so that every consumer sees opens and ends
 * that pair.
 *
 * Threads are found through core's hash table keyed by tid, with the previous
 * event's thread remembered (threads come in long runs); each thread's frames live in one
 * growable array, so feeding an event costs no allocation once the deepest stack has been
 * seen.  Symbols and modules are asked of the reader once per (trace, address) in a small
 * direct-mapped cache, filled at a frame's open (an entry), so an event that opens nothing
 * costs no module lookup.  Memory is bounded by threads x maximum depth. */
#include "analysis/callstack_inline.h"
#include "analysis/callstack_uftrace.h"
#include "core/consumer.h"

#include <stdlib.h>
#include <string.h>

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
    for (size_t i = 0; i < cs->n_threads; i++)
        free(cs->threads[i].frames);
    free(cs->threads);
    tg_hash_free(&cs->by_tid);
    if (cs->uf)
        uf_state_free(cs->uf);
    free(cs->uf);
    free(cs);
}

static struct tg_thread_stack *find(const tg_callstack *cs, int tid)
{
    const uint64_t *i = tg_hash_find(&cs->by_tid, (uint32_t)tid);
    return i ? &cs->threads[*i] : NULL;
}

int tg_callstack_set_rules(tg_callstack *cs, tg_stack_rules rules)
{
    if (rules != TG_STACK_UNWIND && rules != TG_STACK_TOP_ONLY && rules != TG_STACK_UFTRACE &&
        rules != TG_STACK_BY_TRACER && rules != TG_STACK_LLVM_XRAY)
        return TG_ERR_USAGE;
    cs->rules = rules;
    return 0;
}

struct tg_thread_stack *tg_callstack_thread_add(tg_callstack *cs, int tid)
{
    struct tg_thread_stack *t = find(cs, tid);
    if (t)
        return cs->last = t;
    cs->last = NULL; /* the array may move */
    uint64_t *index;
    if (tg_grow(&cs->threads, &cs->threads_cap, cs->n_threads + 1, sizeof *cs->threads) < 0 ||
        tg_hash_insert(&cs->by_tid, (uint32_t)tid, &index) < 0)
        return NULL;
    *index = cs->n_threads;
    t = &cs->threads[cs->n_threads++];
    *t = (struct tg_thread_stack){.tid = tid, .pid = -1};
    return cs->last = t;
}

static struct tg_thread_stack *get(tg_callstack *cs, int tid)
{
    return tg_callstack_thread(cs, tid);
}

/* Reports frame f of t, popped already (t->depth is its depth), ended at exit_ns. */
static void report(tg_callstack *cs, const struct tg_thread_stack *t, const struct tg_frame *f,
                   int64_t exit_ns, unsigned flags, const tg_event *exit)
{
    /* unsigned arithmetic: damaged times wrap instead of overflowing */
    int64_t dur = (int64_t)((uint64_t)exit_ns - (uint64_t)f->entry_ns);
    for (size_t i = 0; i < t->depth; i++)
        if (t->frames[i].addr == f->addr) {
            flags |= TG_CALL_RECURSIVE;
            break;
        }
    tg_call call = {
        .tid = t->tid,
        .pid = t->pid,
        .addr = f->addr,
        .name = f->name,
        .module = f->module,
        .depth = (int)t->depth,
        .entry_ns = f->entry_ns,
        .exit_ns = exit_ns,
        .total_ns = dur,
        .child_ns = f->child_ns,
        .self_ns = (int64_t)((uint64_t)dur - (uint64_t)f->child_ns),
        .flags = flags,
        .trace = t->trace,
        .exit = exit,
    };
    cs->on_call(cs->ctx, &call);
}

/* When frame f, ended by exit ev at time ts, ends: its entry plus the call's duration where
 * the tracer measured it (function_graph's rettime - calltime: its records are written
 * after the times it takes, so record times make every call longer), else ts. */
static inline int64_t called_until(const struct tg_frame *f, const tg_event *ev, int64_t ts)
{
    if (!ev->cls->exit_has_call_ns || ev->call_ns < 0)
        return ts;
    return (int64_t)((uint64_t)f->entry_ns + (uint64_t)ev->call_ns);
}

/* Pops the top frame, ending it at exit_ns, and reports it.  A frame implied and never
 * ended by its exit is no call: nothing is known of it but its depth. */
static void pop(tg_callstack *cs, struct tg_thread_stack *t, int64_t exit_ns, unsigned flags,
                const tg_event *exit)
{
    const struct tg_frame *f = &t->frames[--t->depth];
    if (f->entry_ns == TG_FRAME_IMPLIED)
        return;
    uint64_t dur = (uint64_t)exit_ns - (uint64_t)f->entry_ns;
    if (t->depth)
        t->frames[t->depth - 1].child_ns =
            (int64_t)((uint64_t)t->frames[t->depth - 1].child_ns + dur);
    report(cs, t, f, exit_ns, flags, exit);
}

void tg_callstack_on_open(tg_callstack *cs, tg_call_fn on_open) { cs->on_open = on_open; }

/* Tells the consumer that t's top frame opened.  An implied frame is told NO_ENTRY, with
 * no function and entry_ns the time of the record that implies it (it began before). */
static inline void tell_open_at(tg_callstack *cs, const struct tg_thread_stack *t,
                                int64_t implied_ns)
{
    const struct tg_frame *f = &t->frames[t->depth - 1];
    bool implied = f->entry_ns == TG_FRAME_IMPLIED;
    tg_call call = {.tid = t->tid,
                    .pid = t->pid,
                    .addr = f->addr,
                    .name = f->name,
                    .module = f->module,
                    .depth = (int)t->depth - 1,
                    .entry_ns = implied ? implied_ns : f->entry_ns,
                    .flags = implied ? TG_CALL_NO_ENTRY : 0,
                    .trace = t->trace};
    cs->on_open(cs->ctx, &call);
}

static void tell_open(tg_callstack *cs, const struct tg_thread_stack *t) { tell_open_at(cs, t, 0); }

/* Pushes a frame and tells the consumer. */
static int push(tg_callstack *cs, struct tg_thread_stack *t, uint64_t addr, const char *name,
                const char *module, int64_t entry_ns)
{
    if (t->depth == t->cap)
        TG_TRY(tg_grow(&t->frames, &t->cap, t->depth + 1, sizeof *t->frames));
    t->frames[t->depth++] =
        (struct tg_frame){.addr = addr, .name = name, .module = module, .entry_ns = entry_ns};
    if (cs->on_open)
        tell_open(cs, t);
    return 0;
}

static size_t name_slot(uint64_t a) { return (size_t)((a ^ (a >> 8) ^ (a >> 16)) & 255); }

/* A cache miss: the reader is asked for the symbol and the module, once per (trace, address)
 * while the slot keeps it.  Out of line, so that the hit stays a few instructions. */
__attribute__((noinline)) static const struct tg_name_slot *
name_fill(tg_callstack *cs, const tg_event *ev, struct tg_name_slot *s)
{
    s->addr = ev->addr;
    s->trace = ev->cls->trace;
    s->name = tg_event_func_name(ev);
    s->module = tg_event_func_module(ev);
    return s;
}

/* The cache's slot of ev's function: its symbol, and its module read at the frame's open. */
static inline const struct tg_name_slot *slot_of(tg_callstack *cs, const tg_event *ev)
{
    uint64_t a = ev->addr;
    struct tg_name_slot *s = &cs->names[name_slot(a)];
    if (s->trace != ev->cls->trace || s->addr != a)
        return name_fill(cs, ev, s);
    return s;
}

static inline const char *name_of(tg_callstack *cs, const tg_event *ev)
{
    return slot_of(cs, ev)->name;
}

/* The module name_of cached for the symbol name of (trace, a), or NULL when the cache no
 * longer has it (a frame the uftrace rules imply without its entry, its slot since taken)
 * or name is not the slot's (a context switch's linux:schedule frame, whose address is a
 * class id). */
static inline const char *module_of(const tg_callstack *cs, const tg_trace *trace, uint64_t a,
                                    const char *name)
{
    size_t h = name_slot(a);
    return cs->names[h].addr == a && cs->names[h].name == name && cs->names[h].trace == trace
               ? cs->names[h].module
               : NULL;
}

/* An exit without an entry, at no depth its records declare (those end an implied frame:
 * implied_end).  Where the exit holds the call's duration as its tracer measured it, the
 * call began that long before; otherwise only its exit is known. */
static void no_entry(tg_callstack *cs, struct tg_thread_stack *t, const tg_event *ev, uint64_t addr,
                     int64_t ts)
{
    const char *name = name_of(cs, ev); /* before module_of, which reads what it cached */
    int64_t total = 0, child = 0;
    if (ev->cls->exit_has_call_ns && ev->call_ns >= 0)
        total = ev->call_ns;
    tg_call call = {
        .tid = t->tid,
        .pid = t->pid,
        .addr = addr,
        .name = name,
        .module = module_of(cs, ev->cls->trace, ev->addr, name),
        .depth = (int)t->depth,
        .entry_ns = (int64_t)((uint64_t)ts - (uint64_t)total),
        .exit_ns = ts,
        .total_ns = total,
        .child_ns = child,
        .self_ns = total - child,
        .flags = TG_CALL_NO_ENTRY,
        .trace = t->trace,
        .exit = ev,
    };
    cs->on_call(cs->ctx, &call);
}

/* The deepest stack a record's declared depth implies frames for: deeper is damage (the
 * kernel's function_graph stops at a few hundred). */
#define IMPLIED_DEPTH_MAX 4096

/* A record that declares its frame's depth (depth_is_stack) on a stack that holds fewer
 * frames below it: the thread was inside calls when its recording began (or its records
 * were lost), and those calls are opened as implied frames, named and timed by their exits.
 * n: the frames the record says are below it (an exit: its own too). */
static int imply_depth(tg_callstack *cs, struct tg_thread_stack *t, size_t n, int64_t ts)
{
    if (n > IMPLIED_DEPTH_MAX)
        return 0;
    while (t->depth < n) {
        if (t->depth == t->cap)
            TG_TRY(tg_grow(&t->frames, &t->cap, t->depth + 1, sizeof *t->frames));
        t->frames[t->depth++] = (struct tg_frame){.entry_ns = TG_FRAME_IMPLIED};
        if (cs->on_open)
            tell_open_at(cs, t, ts);
    }
    return 0;
}

/* An exit at the depth of an implied frame that no frame above matches: that frame's call
 * ends (the frames above it end without exit, as an unwind ends them).  It began the call's
 * duration as the tracer measured it before the exit (else at the exit), and is reported
 * NO_ENTRY at its declared depth, with the calls that ended inside it as its children. */
static void implied_end(tg_callstack *cs, struct tg_thread_stack *t, const tg_event *ev,
                        size_t depth, int64_t ts)
{
    while (t->depth > depth + 1)
        pop(cs, t, ts, TG_CALL_NO_EXIT, ev);
    struct tg_frame *f = &t->frames[depth];
    const char *name = name_of(cs, ev); /* before module_of, which reads what it cached */
    f->addr = ev->addr;
    f->name = name;
    f->module = module_of(cs, ev->cls->trace, ev->addr, name);
    int64_t total = ev->cls->exit_has_call_ns && ev->call_ns >= 0 ? ev->call_ns : 0;
    f->entry_ns = (int64_t)((uint64_t)ts - (uint64_t)total);
    pop(cs, t, ts, TG_CALL_NO_ENTRY, ev);
}

/* ---- the uftrace rules, mirrored onto the told stacks ------------------------------------ */

static bool uses_uftrace_rules(tg_callstack *cs, const tg_event *ev)
{
    if (cs->rules == TG_STACK_UFTRACE)
        return true;
    const tg_trace *tr = ev->cls ? ev->cls->trace : NULL;
    if (tr != cs->rules_trace) {
        const char *tracer = tr ? tg_trace_tracer(tr)->name : NULL;
        cs->rules_trace = tr;
        cs->rules_uftrace = tracer && strcmp(tracer, "uftrace") == 0;
    }
    return cs->rules_uftrace;
}

/* The told stack of t ends below depth n (frames above end unpaired at ts) and reaches
 * depth n (frames the uftrace stack implies are opened: their start, else ts). */
static int mirror_depth(tg_callstack *cs, struct tg_thread_stack *th, uf_task *t, size_t n,
                        int64_t ts)
{
    while (th->depth > n)
        pop(cs, th, ts, TG_CALL_NO_EXIT, cs->ev);
    while (th->depth < n) {
        const uf_frame *f = uf_frame_at(cs->uf, t, (int)th->depth);
        bool known = f && f->valid && (int64_t)f->total <= ts;
        uint64_t addr = f ? f->addr : 0;
        TG_TRY(push(cs, th, addr, f ? f->name : NULL,
                    f ? module_of(cs, th->trace, addr, f->name) : NULL,
                    known ? (int64_t)f->total : ts));
    }
    return 0;
}

static int uf_opened(void *ctx, uf_task *t, int idx, int64_t ts)
{
    tg_callstack *cs = ctx;
    struct tg_thread_stack *th = get(cs, t->tid);
    if (!th)
        return TG_ERR_NOMEM;
    TG_TRY(mirror_depth(cs, th, t, (size_t)idx, ts));
    const uf_frame *f = &t->frames[idx];
    /* the entry's frame, or a context switch's (no module: ev_module is NULL) */
    return push(cs, th, f->addr, f->name, cs->ev_module, ts);
}

static int uf_closed(void *ctx, uf_task *t, const char *name, uint64_t addr, int64_t ts, int how)
{
    tg_callstack *cs = ctx;
    struct tg_thread_stack *th = get(cs, t->tid);
    if (!th)
        return TG_ERR_NOMEM;
    int idx = t->stack_count;
    const uf_frame *f = &t->frames[idx];
    int64_t total = (int64_t)f->total;
    /* in uint64, as uftrace counts: damaged times give a wrong entry, never an overflow */
    int64_t entry = (int64_t)((uint64_t)ts - f->total);
    TG_TRY(mirror_depth(cs, th, t, (size_t)idx + 1, entry));
    unsigned flags = how == UF_CLOSE_LOST  ? TG_CALL_NO_EXIT | TG_CALL_LOST
                     : how == UF_CLOSE_END ? TG_CALL_NO_EXIT
                                           : 0;
    for (int i = 0; i < idx; i++) /* uftrace's recursion: the same address lower down */
        if (t->frames[i].addr == f->addr) {
            flags |= TG_CALL_RECURSIVE;
            break;
        }
    th->depth--;
    tg_call call = {
        .tid = t->tid,
        .pid = th->pid,
        .addr = addr,
        .name = name,
        .module = th->frames[idx].module,
        .depth = idx,
        .entry_ns = entry,
        .exit_ns = ts,
        .total_ns = total,
        .child_ns = (int64_t)f->child,
        .self_ns = (int64_t)(f->total - f->child),
        .flags = flags,
        .trace = th->trace,
        .exit = how == UF_CLOSE_END ? NULL : cs->ev,
    };
    cs->on_call(cs->ctx, &call);
    return 0;
}

static int feed_uftrace(tg_callstack *cs, const tg_event *ev, int64_t ts)
{
    uf_rec r;
    if (!uf_rec_from_event(ev, &r))
        return 0; /* no thread (a cpu's lost records): nothing uftrace would count */
    if (!cs->uf) {
        cs->uf = malloc(sizeof *cs->uf);
        if (!cs->uf || uf_state_init(cs->uf) < 0) {
            free(cs->uf);
            cs->uf = NULL;
            return TG_ERR_NOMEM;
        }
    }
    r.time = ts;
    const char *module = NULL; /* what uf_opened gives the frame an entry opens */
    if (r.type == UF_ENTRY || r.type == UF_EXIT) {
        const struct tg_name_slot *ns = slot_of(cs, ev);
        r.name = ns->name;
        module = ns->module;
    }
    cs->ev_module = module;
    uf_task *t = uf_task_get(cs->uf, r.tid, r.pid);
    struct tg_thread_stack *th = get(cs, r.tid);
    if (!t || !th)
        return TG_ERR_NOMEM;
    th->last_ns = ts;
    th->trace = ev->cls->trace;
    if (ev->pid >= 0)
        th->pid = ev->pid;
    cs->ev = ev;
    const uf_sink sink = {.open = uf_opened, .close = uf_closed, .ctx = cs};
    return uf_step(cs->uf, t, &r, &sink);
}

/* The top-only rules (TG_STACK_TOP_ONLY, TG_STACK_LLVM_XRAY): the inline step moves the
 * stack, this keeps the thread's time, trace and pid and tells the consumer. */
static int feed_top_only(tg_callstack *cs, const tg_event *ev, int64_t ts)
{
    if (ev->cls && ev->cls->exit_has_call_ns && ev->call_ns >= 0) {
        const struct tg_thread_stack *top = find(cs, ev->tid);
        if (top && top->depth) /* the top frame is the one it ends: at the tracer's time */
            ts = called_until(&top->frames[top->depth - 1], ev, ts);
    }
    tg_step_out out;
    int step = cs->rules == TG_STACK_TOP_ONLY
                   ? tg_callstack_step(cs, TG_STACK_TOP_ONLY, ev, ts, &out)
                   : tg_callstack_step(cs, TG_STACK_LLVM_XRAY, ev, ts, &out);
    if (step <= TG_STEP_NONE || step == TG_STEP_EARLY)
        return step < 0 ? step : 0;
    struct tg_thread_stack *t = out.thread;
    t->last_ns = ts;
    t->trace = ev->cls->trace;
    if (ev->pid >= 0)
        t->pid = ev->pid;
    switch ((tg_step)step) {
    case TG_STEP_OPENED:
        t->frames[t->depth - 1].name = name_of(cs, ev);
        t->frames[t->depth - 1].module =
            module_of(cs, ev->cls->trace, ev->addr, t->frames[t->depth - 1].name);
        if (cs->on_open)
            tell_open(cs, t);
        break;
    case TG_STEP_ENDED: report(cs, t, out.frame, ts, out.flags, ev); break;
    case TG_STEP_NO_ENTRY: no_entry(cs, t, ev, ev->addr, ts); break;
    case TG_STEP_LOST:
        while (t->depth)
            pop(cs, t, ts, TG_CALL_NO_EXIT | TG_CALL_LOST, ev);
        break;
    case TG_STEP_NONE:
    case TG_STEP_EARLY: break;
    }
    return 0;
}

int tg_callstack_feed_at(tg_callstack *cs, const tg_event *ev, int64_t ts)
{
    if ((cs->rules == TG_STACK_UFTRACE || cs->rules == TG_STACK_BY_TRACER) &&
        uses_uftrace_rules(cs, ev))
        return feed_uftrace(cs, ev, ts);
    if (cs->rules == TG_STACK_TOP_ONLY || cs->rules == TG_STACK_LLVM_XRAY)
        return feed_top_only(cs, ev, ts);
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT && kind != TG_KIND_FUNC_TAIL_EXIT &&
        kind != TG_KIND_LOST)
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
    bool declared = ev->cls->depth_is_stack && ev->depth >= 0;
    if (declared && t->depth < (size_t)ev->depth + (kind != TG_KIND_FUNC_ENTRY))
        TG_TRY(imply_depth(cs, t, (size_t)ev->depth + (kind != TG_KIND_FUNC_ENTRY), ts));
    if (kind == TG_KIND_FUNC_ENTRY) {
        const char *name = name_of(cs, ev); /* fills the cache module_of reads */
        return push(cs, t, addr, name, module_of(cs, ev->cls->trace, addr, name), ts);
    }
    unsigned how = kind == TG_KIND_FUNC_TAIL_EXIT ? TG_CALL_TAIL : 0;
    /* unwind: find the matching frame from the top (an exit without an address ends the
     * top frame) */
    size_t match = t->depth;
    while (match > 0 && t->frames[match - 1].addr != addr && !ev->cls->exit_ends_top)
        match--;
    if (match == 0) {
        if (declared && (size_t)ev->depth < t->depth &&
            t->frames[ev->depth].entry_ns == TG_FRAME_IMPLIED)
            implied_end(cs, t, ev, (size_t)ev->depth, ts);
        else
            no_entry(cs, t, ev, addr, ts);
        return 0;
    }
    while (t->depth > match)
        pop(cs, t, ts, TG_CALL_NO_EXIT, ev);
    pop(cs, t, called_until(&t->frames[match - 1], ev, ts), how, ev);
    return 0;
}

int tg_callstack_feed(tg_callstack *cs, const tg_event *ev)
{
    return tg_callstack_feed_at(cs, ev, ev->ts);
}

void tg_callstack_finish(tg_callstack *cs)
{
    if (cs->uf) {
        cs->ev = NULL;
        const uf_sink sink = {.open = uf_opened, .close = uf_closed, .ctx = cs};
        uf_finish(cs->uf, &sink);
    }
    for (size_t i = 0; i < cs->n_threads; i++) {
        struct tg_thread_stack *t = &cs->threads[i];
        while (t->depth)
            pop(cs, t, t->last_ns, TG_CALL_NO_EXIT, NULL);
    }
}

int tg_callstack_depth(const tg_callstack *cs, int tid)
{
    const struct tg_thread_stack *t = find(cs, tid);
    return t ? (int)t->depth : 0;
}
