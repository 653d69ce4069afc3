/* frame_walk.c - the event loop shared by the viewer writers (see frame_walk.h). */
#include "writers/viewers/frame_walk.h"

#include "core/consumer.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

void tg_frame_walk_free(tg_frame_walk *w)
{
    for (size_t i = 0; i < w->n_threads; i++)
        free(w->threads[i].path);
    free(w->threads);
    tg_hash_free(&w->thread_ids);
    tg_frame_names_free(&w->names);
    free(w->name_module);
    tg_callstack_free(w->cs);
    memset(w, 0, sizeof *w);
}

int64_t tg_frame_walk_addr_name(tg_frame_walk *w, uint64_t addr)
{
    char *p = w->hex + sizeof w->hex;
    do
        *--p = "0123456789abcdef"[addr & 15];
    while (addr >>= 4);
    *--p = 'x';
    *--p = '0';
    return tg_frame_names_intern(&w->names, p, (size_t)(w->hex + sizeof w->hex - p));
}

/* Keeps module as name's when name has none yet.  0, or TG_ERR_NOMEM. */
static int keep_module(tg_frame_walk *w, int64_t name, const char *module)
{
    size_t i = (size_t)name;
    if (!module || (i < w->n_name_modules && w->name_module[i]))
        return 0;
    TG_TRY(tg_grow_zeroed(&w->name_module, &w->n_name_modules, &w->name_module_cap, i + 1,
                          sizeof *w->name_module));
    w->name_module[i] = module;
    return 0;
}

static tg_walk_thread *thread_of(tg_frame_walk *w, const tg_event *ev, int64_t ns)
{
    int tid = tg_event_tid(ev), pid = tg_event_pid(ev);
    if (tid < 0)
        tid = tg_event_cpu(ev) >= 0 ? tg_event_cpu(ev) : 0;
    if (pid < 0)
        pid = tid;
    tg_walk_thread *last = w->current;
    if (last && last->tid == tid) { /* runs of one thread's events: no lookup */
        last->stream = tg_event_stream(ev);
        last->last_ns = ns;
        return last;
    }
    int added;
    int64_t i = tg_hash_index(&w->thread_ids, (uint32_t)tid, &added);
    if (i < 0) {
        w->status = (int)i;
        return NULL;
    }
    if (added) {
        if (tg_grow(&w->threads, &w->threads_cap, w->n_threads + 1, sizeof *w->threads) < 0) {
            w->status = TG_ERR_NOMEM;
            return NULL;
        }
        w->threads[w->n_threads++] =
            (tg_walk_thread){.tid = tid, .pid = pid, .index = (size_t)i, .first_ns = ns};
    }
    tg_walk_thread *t = &w->threads[i];
    t->stream = tg_event_stream(ev);
    t->last_ns = ns;
    if (added && w->hooks->thread_new) {
        int rc = w->hooks->thread_new(w->ctx, t, ev);
        if (rc < 0) {
            w->status = rc;
            return NULL;
        }
    }
    return t;
}

/* The walk's thread of a frame the builder reports: the event's, or, at the end, the one
 * with the frame's tid (the builder only has threads the walk saw). */
static tg_walk_thread *thread_of_call(tg_frame_walk *w, const tg_call *call)
{
    tg_walk_thread *t = w->current;
    if (t && t->tid == call->tid)
        return t;
    int added;
    int64_t i = tg_hash_index(&w->thread_ids, (uint32_t)call->tid, &added);
    if (i < 0 || added) {
        w->status = i < 0 ? (int)i : TG_ERR_FORMAT;
        return NULL;
    }
    return &w->threads[i];
}

/* The interned name of a call's function: its symbol, else its address. */
static inline int64_t name_of_call(tg_frame_walk *w, const tg_call *call)
{
    int64_t name;
    if (call->name) {
        /* the reader's symbols are stable pointers: intern each once */
        size_t h = ((uintptr_t)call->name >> 4) & 255;
        if (w->recent[h].symbol != call->name) {
            name = tg_frame_names_intern(&w->names, call->name, strlen(call->name));
            if (name >= 0 && keep_module(w, name, call->module) < 0)
                name = TG_ERR_NOMEM;
            if (name >= 0)
                w->recent[h].symbol = call->name, w->recent[h].name = (uint32_t)name;
        } else {
            name = w->recent[h].name;
        }
    } else {
        name = tg_frame_walk_addr_name(w, call->addr);
        if (name >= 0 && keep_module(w, name, call->module) < 0)
            name = TG_ERR_NOMEM;
    }
    return name;
}

/* Frame call (at call->depth) is open on t, named name: the writer is told. */
static inline void tell_open(tg_frame_walk *w, tg_walk_thread *t, const tg_call *call,
                             uint32_t name)
{
    t->path[call->depth] = name;
    t->depth = (size_t)call->depth + 1;
    if (w->hooks->frame_open) {
        int rc = w->hooks->frame_open(w->ctx, t, call, name);
        if (rc < 0)
            w->status = rc;
    }
}

/* The builder's callback: a frame opened (an entry, or a frame its rules imply).  A call the
 * thread was inside when the recording began (NO_ENTRY) is only marked on the path: the
 * writer is told it when it ends, with its function and start. */
static void on_open(void *ctx, const tg_call *call)
{
    tg_frame_walk *w = ctx;
    if (w->status < 0)
        return;
    tg_walk_thread *t = thread_of_call(w, call);
    if (!t)
        return;
    size_t depth = (size_t)call->depth;
    if (tg_grow(&t->path, &t->path_cap, depth + 1, sizeof *t->path) < 0) {
        w->status = TG_ERR_NOMEM;
        return;
    }
    if (call->flags & TG_CALL_NO_ENTRY) {
        t->path[depth] = TG_WALK_IMPLIED;
        t->depth = depth + 1;
        return;
    }
    int64_t name = name_of_call(w, call);
    if (name < 0) {
        w->status = (int)name;
        return;
    }
    tell_open(w, t, call, (uint32_t)name);
}

/* The builder's callback: a frame ended.  One begun before the recording is opened for the
 * writer first (its calls, told already, end inside it), unless the writer needs its events
 * in time order. */
static void on_call(void *ctx, const tg_call *call)
{
    tg_frame_walk *w = ctx;
    if (w->status < 0)
        return;
    tg_walk_thread *t = thread_of_call(w, call);
    if (!t)
        return;
    if (call->depth < 0 || (size_t)call->depth >= t->depth)
        return; /* an exit without entry at no depth the builder holds: no frame */
    if (call->flags & TG_CALL_NO_ENTRY) {
        if (t->path[call->depth] != TG_WALK_IMPLIED)
            return;
        int64_t name = w->hooks->time_ordered ? 0 : name_of_call(w, call);
        if (name < 0) {
            w->status = (int)name;
            return;
        }
        t->depth = (size_t)call->depth;
        if (w->hooks->time_ordered)
            return;
        tell_open(w, t, call, (uint32_t)name);
        if (w->status < 0)
            return;
    }
    t->depth = (size_t)call->depth;
    if (w->hooks->frame_close) {
        int rc = w->hooks->frame_close(w->ctx, t, call, t->path[call->depth], w->current_ev);
        if (rc < 0)
            w->status = rc;
    }
}

int tg_frame_walk_run(tg_frame_walk *w, tg_iter *it, const tg_walk_hooks *hooks, void *ctx)
{
    w->hooks = hooks;
    w->ctx = ctx;
    w->cs = tg_callstack_new(on_call, w);
    if (!w->cs)
        return TG_ERR_NOMEM;
    tg_callstack_on_open(w->cs, on_open);
    tg_callstack_set_rules(w->cs, TG_STACK_BY_TRACER);
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int64_t ns = tg_event_time_ns(ev);
        tg_walk_thread *t = thread_of(w, ev, ns);
        if (!t)
            return w->status;
        w->current = t;
        w->current_ev = ev;
        /* every event: the uftrace rules read context switches and every record's time */
        rc = tg_callstack_feed_at(w->cs, ev, ns);
        if (rc < 0 || w->status < 0)
            return rc < 0 ? rc : w->status;
        tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
        if (kind != TG_KIND_FUNC_ENTRY && kind != TG_KIND_FUNC_EXIT &&
            kind != TG_KIND_FUNC_TAIL_EXIT && hooks->other && (rc = hooks->other(ctx, t, ev)) < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    w->current = NULL;
    w->current_ev = NULL;
    tg_callstack_finish(w->cs);
    return w->status;
}
