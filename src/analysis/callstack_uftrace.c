/* callstack_uftrace.c - the per-thread stack rules of uftrace replay/report (see the header).
 *
 * Frames live in one growable array per thread, bounded by uftrace's maximum stack depth;
 * threads are found by tid in core's hash table.  Nothing here allocates per event. */
#include "analysis/callstack_uftrace.h"

#include <stdlib.h>
#include <string.h>

const char uf_schedule_name[] = "linux:schedule";
const char uf_schedule_preempted_name[] = "linux:schedule (pre-empted)";

/* uftrace bounds the stack by the recording's max stack (1024 by default); the recorder
 * never writes deeper records, so a larger bound changes nothing but allows --max-stack. */
#define UF_MAX_STACK 65536

int uf_state_init(uf_state *st)
{
    memset(st, 0, sizeof *st);
    st->max_stack = UF_MAX_STACK;
    st->first_time = -1; /* none yet: the largest time, compared unsigned */
    return 0;
}

void uf_state_free(uf_state *st)
{
    for (size_t i = 0; i < st->count; i++) {
        free(st->order[i]->frames);
        free(st->order[i]);
    }
    free(st->order);
    tg_hash_free(&st->by_tid);
    memset(st, 0, sizeof *st);
}

uf_task *uf_task_lookup(uf_state *st, int tid, int pid)
{
    const uint64_t *i = tg_hash_find(&st->by_tid, (uint32_t)tid);
    if (i)
        return st->order[*i];
    uint64_t *index;
    uf_task *t = calloc(1, sizeof *t);
    if (!t || tg_grow(&st->order, &st->order_cap, st->count + 1, sizeof *st->order) < 0 ||
        tg_hash_insert(&st->by_tid, (uint32_t)tid, &index) < 0) {
        free(t);
        return NULL;
    }
    t->tid = tid;
    t->pid = pid;
    t->display_depth_set = !st->display_late;
    t->order = (int)st->count;
    *index = st->count;
    st->order[st->count++] = t;
    return t;
}

uf_frame *uf_frame_grow(uf_state *st, uf_task *t, int idx)
{
    if (idx < 0 || idx >= st->max_stack)
        return NULL;
    {
        size_t cap = (size_t)t->cap;
        if (tg_grow(&t->frames, &cap, (size_t)idx + 1, sizeof *t->frames) < 0)
            return NULL;
        /* the frames in use stop at max_stack (uftrace's limit, which the inline paths
         * check against cap) even when the array is longer */
        if (cap > (size_t)st->max_stack)
            cap = (size_t)st->max_stack;
        memset(t->frames + t->cap, 0, (cap - (size_t)t->cap) * sizeof *t->frames);
        t->cap = (int)cap;
    }
    return &t->frames[idx];
}

/* fstack_account_time + fstack_update_stack_count of uftrace, for one consumed record */
void uf_consume(uf_state *st, uf_task *t, const uf_rec *r0)
{
    uf_rec r = *r0;
    /* no frame lies past max_stack: a damaged record's depth (INT_MAX in a function_graph
     * record) would overflow the stack count and walk two billion frames */
    if (r.depth > st->max_stack)
        r.depth = st->max_stack;
    bool kernel = r.cls->kernel;
    bool user = r.type != UF_EVENT && !kernel; /* moves the user stack count */
    /* uftrace's first timestamp (for "elapsed"): events outside any function do not count,
     * nor kernel functions it skips there */
    if ((uint64_t)r.time < (uint64_t)st->first_time && !st->first_fixed &&
        !(t->stack_count == 0 && (r.type == UF_EVENT || (kernel && !st->kernel_full)))) {
        st->first_time = r.time;
    }
    if (r.type != UF_LOST) {
        t->last_time = r.time;
        t->last_was_perf = r.type == UF_EVENT && uf_kind_is_perf(r.kind);
        if (t->last_was_perf)
            st->last_perf_time = r.time;
    }
    if (r.type == UF_EVENT) {
        if (!uf_kind_is_sched(r.kind))
            return;
        r.type = r.kind == TG_KIND_SCHED_IN ? UF_EXIT : UF_ENTRY;
        r.depth = 0;
    }
    /* a kernel record's depth counts from the user functions running (fstack_account_time) */
    int kbase = kernel ? t->user_stack_count : 0;
    if (!t->fstack_set) {
        t->stack_count = r.depth + (r.type == UF_EXIT);
        t->fstack_set = true;
        if (!t->fork_handled) {
            uf_task *parent = st->last_forker;
            if (parent && parent != t && parent->fork_display_depth) {
                t->display_depth = parent->fork_display_depth;
                t->display_depth_set = true;
                if (kernel)
                    t->stack_count += t->display_depth;
            }
            t->fork_handled = true;
        }
        t->stack_count += kbase;
        for (int i = 0; i < t->stack_count; i++) {
            uf_frame *f = uf_frame_at(st, t, i);
            if (f) {
                f->total = (uint64_t)r.time;
                f->child = 0;
                f->valid = true;
            }
        }
    }
    if (t->lost_seen) {
        if (r.type == UF_LOST)
            return;
        t->stack_count = r.depth + (r.type == UF_EXIT) + kbase;
        t->lost_seen = false;
        for (int i = 0; i <= r.depth; i++) {
            uf_frame *f = uf_frame_at(st, t, i + t->user_stack_count);
            if (f) {
                f->total = (uint64_t)r.time - 1;
                f->child = 0;
            }
        }
    }
    /* a user record after kernel ones: the kernel's stack is gone (sched events, which
     * uftrace converts to dummy records, and lost records do not reset it) */
    if (t->in_kernel && !kernel && r.type != UF_LOST && r0->type != UF_EVENT)
        t->stack_count = t->user_stack_count;
    if (r.type == UF_ENTRY) {
        uf_frame *f = uf_frame_at(st, t, t->stack_count);
        if (f) {
            f->addr = r.addr;
            f->name = r0->type != UF_EVENT                    ? r.name
                      : r.kind == TG_KIND_SCHED_OUT_PREEMPTED ? uf_schedule_preempted_name
                                                              : uf_schedule_name;
            f->total = (uint64_t)r.time;
            f->child = 0;
            f->valid = true;
        }
    } else if (r.type == UF_EXIT) {
        int idx = t->stack_count - 1;
        uf_frame *f = uf_frame_at(st, t, idx);
        if (f) {
            /* the tracer's own duration of the call where the exit holds one */
            uint64_t delta = r.call_ns >= 0 ? (uint64_t)r.call_ns : (uint64_t)r.time - f->total;
            if (!f->valid)
                delta = 0;
            f->valid = false;
            f->total = delta;
            if (f->child > f->total)
                f->child = f->total;
            if (t->stack_count > 1)
                f[-1].child += delta;
        }
    } else { /* LOST */
        uint64_t lost_time = 0;
        t->lost_seen = true;
        t->display_depth_set = false;
        for (int i = t->stack_count; i >= t->user_stack_count; i--) {
            uf_frame *f = uf_frame_at(st, t, i);
            if (!f) /* uftrace 0.13 does not look at f->valid here (sic) */
                continue;
            if (lost_time == 0)
                lost_time = f->total + 1;
            uint64_t delta = lost_time - f->total;
            f->total = delta;
            if (f->child > f->total)
                f->child = f->total;
            if (i > 0)
                f[-1].child += delta;
        }
    }
    /* stack counts, and whether the thread is in the kernel now (fstack's ctx) */
    if (r.type == UF_ENTRY)
        t->stack_count++;
    else if (r.type == UF_EXIT && t->stack_count > 0)
        t->stack_count--;
    t->in_kernel = kernel;
    t->steady = t->fstack_set && !t->lost_seen && !kernel;
    st->has_kernel |= kernel;
    if (user) {
        if (r.type == UF_ENTRY)
            t->user_stack_count++;
        else if (r.type == UF_EXIT && t->user_stack_count > 0)
            t->user_stack_count--;
    }
}

int64_t uf_task_last_time(const uf_state *st, const uf_task *t)
{
    return t->last_was_perf && !st->perf_in_tasks ? st->last_perf_time : t->last_time;
}

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

uint8_t uf_fixup_kind(const char *n)
{
    static const char *const execs[] = {"execl",  "execlp", "execle",  "execv",
                                        "execve", "execvp", "execvpe", NULL};
    static const char *const setjmps[] = {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", NULL};
    static const char *const longjmps[] = {"longjmp", "siglongjmp", "__longjmp_chk", NULL};
    static const char *const forks[] = {"fork", "vfork", "daemon", NULL};
    if (name_in(n, execs))
        return 1;
    if (name_in(n, setjmps))
        return 2;
    if (name_in(n, longjmps))
        return 3;
    if (name_in(n, forks))
        return 4;
    return 0;
}

void uf_entry_fixups_all(uf_state *st, uf_task *t, const uf_rec *r)
{
    uf_entry_special(st, t, r);
    uf_entry_display_depth(t);
}

void uf_entry_special(uf_state *st, uf_task *t, const uf_rec *r)
{
    t->entry_flags = 0;
    const char *n = r->name;
    if (n) {
        /* names are the reader's interned strings: remember the answer per pointer */
        struct uf_fixup_cache *c = &st->fixups[((uintptr_t)n >> 3) & 255];
        if (c->name != n) {
            c->name = n;
            c->kind = uf_fixup_kind(n);
        }
        switch (c->kind) {
        case 1: t->entry_flags = UF_FL_EXEC; break;
        case 2:
            st->setjmp_depth = t->display_depth + 1;
            st->setjmp_count = t->stack_count;
            break;
        case 3: t->entry_flags = UF_FL_LONGJMP; break;
        case 4:
            t->fork_display_depth = t->display_depth + 1;
            st->last_forker = t;
            break;
        default: break;
        }
    }
}

void uf_entry_display_depth(uf_task *t)
{
    if (!t->display_depth_set) {
        t->display_depth = t->stack_count - 1;
        t->display_depth_set = true;
        if (t->display_depth < 0)
            t->display_depth = 0;
    }
}

int uf_update_entry(uf_state *st, uf_task *t)
{
    if (t->entry_flags & UF_FL_EXEC) {
        t->display_depth = 0;
        t->stack_count = 0;
        t->user_stack_count = 0;
    } else if (t->entry_flags & UF_FL_LONGJMP) {
        t->display_depth = st->setjmp_depth;
        t->stack_count = st->setjmp_count;
        t->user_stack_count = st->setjmp_count;
    } else {
        t->display_depth++;
    }
    t->entry_flags = 0;
    return t->display_depth;
}

int uf_update_exit(uf_task *t)
{
    if (!t->display_depth_set) {
        t->display_depth = t->stack_count + 1;
        t->display_depth_set = true;
    }
    if (t->display_depth > 0)
        t->display_depth--;
    else
        t->display_depth = 0;
    return t->display_depth;
}

int uf_step(uf_state *st, uf_task *t, const uf_rec *r, const uf_sink *sink)
{
    if (uf_consume_fast(st, t, r))
        return 0;
    if (r->type == UF_ENTRY) {
        int idx = t->stack_count - 1;
        uf_entry_fixups(st, t, r);
        int rc = sink->open && uf_frame_at(st, t, idx) ? sink->open(sink->ctx, t, idx, r->time) : 0;
        uf_update_entry(st, t);
        return rc;
    }
    if (r->type == UF_EXIT) {
        if (!uf_frame_at(st, t, t->stack_count))
            return 0;
        uf_update_exit(t);
        if (r->cls->exit_ends_top) { /* no address of its own: the frame it ended */
            uf_rec top = *r;
            uf_rec_exit_of_top(t, &top);
            return sink->close(sink->ctx, t, top.name, top.addr, r->time, UF_CLOSE_EXIT);
        }
        return sink->close(sink->ctx, t, r->name, r->addr, r->time, UF_CLOSE_EXIT);
    }
    if (r->type == UF_EVENT) {
        if (r->kind == TG_KIND_SCHED_OUT || r->kind == TG_KIND_SCHED_OUT_PREEMPTED) {
            int idx = t->stack_count - 1;
            return sink->open && uf_frame_at(st, t, idx) ? sink->open(sink->ctx, t, idx, r->time)
                                                         : 0;
        }
        if (r->kind != TG_KIND_SCHED_IN)
            return 0;
        uf_frame *f = uf_frame_at(st, t, t->stack_count);
        /* the frame a sched-out opened (its name says whether it was a pre-emption); a
         * sched-in that ends another frame (a thread's first record, whose frame only its
         * depth made) is no call of linux:schedule to uftrace */
        if (!f || (f->name != uf_schedule_name && f->name != uf_schedule_preempted_name))
            return 0;
        return sink->close(sink->ctx, t, f->name, 0, r->time, UF_CLOSE_EXIT);
    }
    /* LOST: close what was open, as uftrace's add_lost_fstack */
    int rc = 0;
    while (t->stack_count >= t->user_stack_count) {
        uf_frame *f = uf_frame_at(st, t, t->stack_count);
        if (f && f->valid)
            rc = sink->close(sink->ctx, t, f->name, f->addr, r->time, UF_CLOSE_LOST);
        t->stack_count--;
        if (rc < 0 || t->stack_count < 0)
            break;
    }
    if (t->stack_count < 0)
        t->stack_count = 0;
    return rc;
}

/* Frames still open at the end: closed at their thread's last record (add_remaining_fstack). */
int uf_finish(uf_state *st, const uf_sink *sink)
{
    int rc = 0;
    for (size_t i = 0; i < st->count && rc >= 0; i++) {
        uf_task *t = st->order[i];
        uint64_t last = (uint64_t)(st->finish_time ? st->finish_time : uf_task_last_time(st, t));
        while (--t->stack_count >= 0 && rc >= 0) {
            uf_frame *f = uf_frame_at(st, t, t->stack_count);
            if (!f || f->total > last)
                continue;
            f->total = last - f->total;
            if (f->child > f->total)
                f->total = f->child;
            if (t->stack_count > 0)
                f[-1].child += f->total;
            rc = sink->close(sink->ctx, t, f->name, f->addr, (int64_t)last, UF_CLOSE_END);
        }
    }
    return rc;
}
