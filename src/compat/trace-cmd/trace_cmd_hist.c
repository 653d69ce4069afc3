/* trace_cmd_hist.c - the "trace-cmd-hist" print style: what `trace-cmd hist` prints of a
 * trace.dat, the call chains that end in each function or event, most frequent first.
 *
 *   %24.49  (29546) fuzz_uftrace_da               sys_enter_openat #60
 *          |
 *          --- *sys_enter_openat*
 *           ftrace_syscall_enter
 *           do_syscall_64
 *
 * trace-cmd 3.1 reads the records CPU after CPU (not merged in time), keeping one stack of
 * function names per pid: a function event pushes its function when its parent is on top
 * (else the stack so far is counted as a chain and unwound to the parent), function_graph
 * entries and exits cut the stack to their depth, a kernel_stack event is a whole stack
 * (its caller words up to the first -1, outermost first), and any other event is counted as
 * a chain ending in *its name* on top of the current stack (or of the kernel_stack that
 * follows it).  A thread switch parks the stack of the thread that was running; lost
 * records flush it.  Each counted chain is added to a tree of callers per pid (-P: one for
 * all); the trees' roots and every node's callers are listed by count, descending, ties in
 * the order trace-cmd's merge sort keeps (stable over the newest-first lists).  Names are
 * compared by identity, as trace-cmd compares libtraceevent's strings: a function's symbol,
 * an event's class.  With buffer instances, each instance is read and printed in turn
 * (the top buffer is not), the counts carrying over from one to the next, as trace-cmd's
 * static state does.  Comms: the trace's saved cmdlines, then the first comm a sched_switch,
 * sched_wakeup or sched_wakeup_new gives a pid ("<idle>" for 0, "<...>" unknown). */
#include "core/consumer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hist_node hist_node;
struct hist_node {
    const char *func;   /* identity: a symbol's or a class's name pointer */
    hist_node *parents; /* callers, newest first (sibling links) */
    hist_node *sibling, *next_root;
    int64_t pid;
    int nr_parents, count;
    bool event;
};

typedef struct frames {
    const char **v;
    size_t n, cap;
} frames;

typedef struct parked {
    int64_t pid;
    frames st;
} parked;

typedef struct pid_root {
    int64_t pid;
    hist_node root;
} pid_root;

typedef struct hist_comm {
    int64_t pid;
    const char *comm;
    size_t order; /* newest first */
    bool owned;
} hist_comm;

typedef struct hist_state {
    bool compact;
    frames cur;
    int64_t cur_pid;
    parked *parked; /* newest last */
    size_t n_parked, cap_parked;
    frames pending;
    int64_t pending_pid;
    pid_root *roots; /* pointers into it are kept: grown by blocks, never moved */
    size_t n_roots;
    pid_root **root_blocks;
    size_t n_blocks, cap_blocks;
    hist_node *chains; /* the roots' children, newest first */
    int nr_chains, total;
    hist_comm *comms; /* the comm list (register_comm, freeze) */
    size_t n_comms, cap_comms;
    bool frozen;
    bool oom;
} hist_state;

static void push(hist_state *h, frames *f, const char *func)
{
    if (tg_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v) < 0) {
        h->oom = true;
        return;
    }
    f->v[f->n++] = func;
}

static hist_node *node_new(hist_state *h)
{
    hist_node *n = calloc(1, sizeof *n);
    if (!n)
        h->oom = true;
    return n;
}

/* The pid's root (compact: the one root of all). */
static hist_node *root_of(hist_state *h, int64_t pid)
{
    if (h->compact)
        pid = 0;
    for (size_t b = 0; b < h->n_blocks; b++)
        for (size_t i = 0; i < 64 && b * 64 + i < h->n_roots; i++)
            if (h->root_blocks[b][i].pid == pid)
                return &h->root_blocks[b][i].root;
    if (h->n_roots % 64 == 0) {
        if (tg_grow(&h->root_blocks, &h->cap_blocks, h->n_blocks + 1, sizeof *h->root_blocks) < 0 ||
            !(h->root_blocks[h->n_blocks] = calloc(64, sizeof **h->root_blocks))) {
            h->oom = true;
            return NULL;
        }
        h->n_blocks++;
    }
    pid_root *r = &h->root_blocks[h->n_roots / 64][h->n_roots % 64];
    h->n_roots++;
    r->pid = pid;
    return &r->root;
}

/* Counts the chain (outermost first, v[n-1] its end) under pid.  As in trace-cmd, a node
 * without a name (the root, or a function no symbol holds) counts in the total and makes its
 * new callers roots of their own. */
static void count_chain(hist_state *h, int64_t pid, const char *const *v, size_t n, bool event)
{
    hist_node *at = root_of(h, pid);
    bool first = true;
    while (at) {
        if (!at->func)
            h->total++;
        at->count++;
        if (n == 0)
            return;
        const char *f = v[--n];
        hist_node *p = at->parents;
        while (p && p->func != f)
            p = p->sibling;
        if (!p) {
            if (!(p = node_new(h)))
                return;
            p->func = f;
            p->pid = h->compact ? 0 : pid;
            p->event = first && event;
            p->sibling = at->parents;
            at->parents = p;
            at->nr_parents++;
            if (!at->func) {
                p->next_root = h->chains;
                h->chains = p;
                h->nr_chains++;
            }
        }
        at = p;
        first = false;
    }
}

static void park(hist_state *h)
{
    if (tg_grow(&h->parked, &h->cap_parked, h->n_parked + 1, sizeof *h->parked) < 0) {
        h->oom = true;
        return;
    }
    h->parked[h->n_parked++] = (parked){.pid = h->cur_pid, .st = h->cur};
    h->cur = (frames){0};
    h->cur_pid = -1;
}

/* The newest stack parked for pid becomes the current one (the current one dropped). */
static void unpark(hist_state *h, int64_t pid)
{
    for (size_t i = h->n_parked; i-- > 0;) {
        if (h->parked[i].pid != pid)
            continue;
        free(h->cur.v);
        h->cur = h->parked[i].st;
        h->cur_pid = pid;
        memmove(&h->parked[i], &h->parked[i + 1], (h->n_parked - i - 1) * sizeof *h->parked);
        h->n_parked--;
        return;
    }
}

static void switch_to(hist_state *h, int64_t pid)
{
    if (h->cur_pid >= 0 && pid != h->cur_pid) {
        park(h);
        unpark(h, pid);
    }
    h->cur_pid = pid;
}

/* The stack was counted; cut it to depth. */
static void count_and_cut(hist_state *h, int64_t pid, uint64_t depth)
{
    count_chain(h, pid, h->cur.v, h->cur.n, false);
    while (h->cur.n > depth)
        h->cur.n--;
}

static int64_t field_int(const tg_event *ev, tg_scope scope, const char *name)
{
    tg_value v;
    int64_t x = -1;
    if (tg_event_field_by_name(ev, scope, name, &v) == 0)
        tg_value_int(&v, &x);
    return x;
}

static const char *symbol(const tg_trace *t, const tg_event *ev, const char *field)
{
    int64_t a = field_int(ev, TG_SCOPE_PAYLOAD, field);
    return tg_trace_symbol(t, (uint64_t)a);
}

static void on_function(hist_state *h, const tg_trace *t, const tg_event *ev, int64_t pid)
{
    const char *func = symbol(t, ev, "ip"), *parent = symbol(t, ev, "parent_ip");
    switch_to(h, pid);
    if (h->cur.n) {
        if (h->cur.v[h->cur.n - 1] == parent)
            push(h, &h->cur, func);
        else {
            count_chain(h, pid, h->cur.v, h->cur.n, false);
            while (h->cur.n) {
                h->cur.n--;
                if (h->cur.n && h->cur.v[h->cur.n - 1] == parent) {
                    push(h, &h->cur, func);
                    break;
                }
            }
        }
    }
    if (!h->cur.n) {
        push(h, &h->cur, parent);
        push(h, &h->cur, func);
    }
}

static void on_graph(hist_state *h, const tg_trace *t, const tg_event *ev, int64_t pid, bool entry)
{
    int64_t depth = field_int(ev, TG_SCOPE_PAYLOAD, "depth");
    const char *func = entry ? symbol(t, ev, "func") : NULL;
    switch_to(h, pid);
    if ((int64_t)h->cur.n != depth)
        count_and_cut(h, pid, (uint64_t)depth);
    if (entry)
        push(h, &h->cur, func);
}

static void drop_pending(hist_state *h)
{
    h->pending_pid = -1;
    h->pending.n = 0;
}

static void copy_to_pending(hist_state *h, int64_t pid)
{
    h->pending_pid = pid;
    h->pending.n = 0;
    for (size_t i = 0; i < h->cur.n; i++)
        push(h, &h->pending, h->cur.v[i]);
}

/* The caller words of a kernel_stack record, to its end, up to the first -1. */
static size_t caller_words(const tg_trace *t, const tg_event *ev, uint64_t *w, size_t cap)
{
    tg_value v;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "caller", &v) != 0)
        return 0;
    const tg_host_info *host = tg_trace_host(t);
    size_t word = host && host->word_bits == 32 ? 4 : 8;
    bool big = host && host->byte_order == 2;
    uint64_t bytes[8];
    size_t n = 0, len = (v.type == TG_VAL_STRING || v.type == TG_VAL_BYTES) ? v.v.str.len : v.count;
    for (size_t i = 0; i + word <= len && n < cap; i += word) {
        if (v.type == TG_VAL_STRING || v.type == TG_VAL_BYTES)
            for (size_t k = 0; k < word; k++)
                bytes[k] = (uint8_t)v.v.str.ptr[i + k];
        else if (tg_value_uints(&v, i, bytes, word) != word)
            break;
        uint64_t x = 0;
        for (size_t k = 0; k < word; k++)
            x |= (bytes[big ? word - 1 - k : k] & 0xff) << (8 * k);
        if ((word == 8 && x == UINT64_MAX) || (uint32_t)x == UINT32_MAX)
            break;
        w[n++] = x;
    }
    return n;
}

static void on_kernel_stack(hist_state *h, const tg_trace *t, const tg_event *ev, int64_t pid)
{
    if (h->pending_pid >= 0 && pid != h->pending_pid) {
        drop_pending(h);
        return;
    }
    bool restore = false;
    if (h->pending_pid >= 0) {
        if (h->cur_pid >= 0) {
            park(h);
            restore = true;
        }
    } else if (h->cur_pid >= 0) {
        copy_to_pending(h, h->cur_pid);
        free(h->cur.v);
        h->cur = (frames){0};
        h->cur_pid = -1;
    }
    h->cur_pid = pid;
    uint64_t w[512];
    size_t n = caller_words(t, ev, w, sizeof w / sizeof *w);
    while (n-- > 0) {
        const char *f = tg_trace_symbol(t, w[n]);
        if (f)
            push(h, &h->cur, f);
    }
    if (h->pending_pid >= 0) {
        if (h->pending.n)
            push(h, &h->cur, h->pending.v[h->pending.n - 1]);
        drop_pending(h);
    }
    count_chain(h, h->cur_pid, h->cur.v, h->cur.n, true);
    if (restore)
        unpark(h, h->cur_pid);
}

/* libtraceevent's comm list: registrations prepend to the saved cmdlines until the first
 * lookup sorts them by pid (stably, newest first within a pid); later ones only add pids. */
static void register_comm(hist_state *h, int64_t pid, const char *comm)
{
    if (h->frozen) {
        for (size_t i = 0; i < h->n_comms; i++)
            if (h->comms[i].pid == pid)
                return;
    }
    char *dup = strdup(comm);
    if (!dup || tg_grow(&h->comms, &h->cap_comms, h->n_comms + 1, sizeof *h->comms) < 0) {
        free(dup);
        h->oom = true;
        return;
    }
    size_t at = h->n_comms;
    if (h->frozen) /* a new pid: in its sorted place */
        while (at > 0 && h->comms[at - 1].pid > pid)
            at--;
    memmove(&h->comms[at + 1], &h->comms[at], (h->n_comms - at) * sizeof *h->comms);
    h->comms[at] = (hist_comm){.pid = pid, .comm = dup, .owned = true};
    h->n_comms++;
}

static int cmp_comm(const void *a, const void *b)
{
    const hist_comm *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The first lookup: the registrations (newest first) before the saved cmdlines (the trace's
 * tasks, newest first within a pid), sorted by pid. */
static void freeze(hist_state *h, const tg_trace *t)
{
    size_t n_tasks = tg_trace_task_count(t), n = h->n_comms;
    if (tg_grow(&h->comms, &h->cap_comms, n + n_tasks + 1, sizeof *h->comms) < 0) {
        h->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        h->comms[i].order = n - i;
    for (size_t i = 0; i < n_tasks; i++) {
        const tg_task_info *task = tg_trace_task(t, i);
        if (task->name)
            h->comms[h->n_comms++] =
                (hist_comm){.pid = task->tid, .comm = task->name, .order = n + 1 + i};
    }
    qsort(h->comms, h->n_comms, sizeof *h->comms, cmp_comm);
    h->frozen = true;
}

/* libtraceevent's lookup: a binary search that stops at the first entry of the pid it
 * meets. */
static const char *comm_name(hist_state *h, const tg_trace *t, int64_t pid)
{
    if (pid == 0)
        return "<idle>";
    if (!h->frozen)
        freeze(h, t);
    size_t lo = 0, hi = h->n_comms;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pid < h->comms[mid].pid)
            hi = mid;
        else if (pid > h->comms[mid].pid)
            lo = mid + 1;
        else
            return h->comms[mid].comm;
    }
    return "<...>";
}

static void register_from(hist_state *h, const tg_event *ev, const char *comm_field,
                          const char *pid_field)
{
    tg_value v;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, comm_field, &v) != 0 ||
        v.type != TG_VAL_STRING)
        return;
    char comm[64];
    snprintf(comm, sizeof comm, "%.*s", (int)v.v.str.len, v.v.str.ptr);
    register_comm(h, field_int(ev, TG_SCOPE_PAYLOAD, pid_field), comm);
}

static void on_event(hist_state *h, const tg_event *ev, int64_t pid)
{
    const char *sys = tg_event_class_system(tg_event_class_of(ev)), *name = tg_event_name(ev);
    bool sched = sys && !strcmp(sys, "sched");
    if (sched && (!strcmp(name, "sched_wakeup") || !strcmp(name, "sched_wakeup_new")))
        register_from(h, ev, "comm", "pid");
    else if (sched && !strcmp(name, "sched_switch")) {
        register_from(h, ev, "prev_comm", "prev_pid");
        register_from(h, ev, "next_comm", "next_pid");
    }
    if (h->pending_pid >= 0) {
        count_chain(h, h->pending_pid, h->pending.v, h->pending.n, true);
        drop_pending(h);
    }
    push(h, &h->cur, name);
    copy_to_pending(h, pid);
    h->cur.n--;
}

static void on_record(hist_state *h, const tg_trace *t, const tg_event *ev)
{
    tg_event_kind k = tg_event_kind_of(ev);
    if (k == TG_KIND_LOST) { /* missed events: the stack so far is counted, then dropped */
        if (h->cur_pid >= 0) {
            count_chain(h, h->cur_pid, h->cur.v, h->cur.n, false);
            free(h->cur.v);
            h->cur = (frames){0};
            h->cur_pid = -1;
        }
        return;
    }
    int64_t pid = field_int(ev, TG_SCOPE_COMMON, "common_pid");
    const char *sys = tg_event_class_system(tg_event_class_of(ev)), *name = tg_event_name(ev);
    if (sys && !strcmp(sys, "ftrace")) {
        if (!strcmp(name, "function"))
            return on_function(h, t, ev, pid);
        if (!strcmp(name, "funcgraph_entry"))
            return on_graph(h, t, ev, pid, true);
        if (!strcmp(name, "funcgraph_exit"))
            return on_graph(h, t, ev, pid, false);
        if (!strcmp(name, "kernel_stack"))
            return on_kernel_stack(h, t, ev, pid);
    }
    on_event(h, ev, pid);
}

/* ---- sorting and printing ------------------------------------------------------------------ */

/* A list linked through next (roots: next_root, callers: sibling) sorted by count, descending,
 * equal counts keeping their order. */
static hist_node *sort_list(hist_node *list, bool roots)
{
    if (!list || !(roots ? list->next_root : list->sibling))
        return list;
    hist_node *slow = list, *fast = roots ? list->next_root : list->sibling;
    while (fast && (roots ? fast->next_root : fast->sibling)) {
        slow = roots ? slow->next_root : slow->sibling;
        fast = roots ? fast->next_root->next_root : fast->sibling->sibling;
    }
    hist_node *second = roots ? slow->next_root : slow->sibling;
    if (roots)
        slow->next_root = NULL;
    else
        slow->sibling = NULL;
    hist_node *a = sort_list(list, roots), *b = sort_list(second, roots), *head = NULL,
              **tail = &head;
    while (a && b) {
        hist_node **take = b->count > a->count ? &b : &a;
        *tail = *take;
        tail = roots ? &(*take)->next_root : &(*take)->sibling;
        *take = *tail;
    }
    *tail = a ? a : b;
    return head;
}

static void sort_callers(hist_node *n)
{
    n->parents = sort_list(n->parents, false);
    for (hist_node *p = n->parents; p; p = p->sibling)
        sort_callers(p);
}

static bool single(const hist_node *n)
{
    for (; n; n = n->parents)
        if (n->nr_parents > 1)
            return false;
    return true;
}

static const char *name_of(const char *f) { return f ? f : "(null)"; }

static void indent(tg_buf *out, uint64_t mask, int depth)
{
    for (int i = 0; i < depth; i++)
        tg_buf_puts(out, mask & (1ULL << i) ? "            |" : "             ");
}

static void one_caller(tg_buf *out, uint64_t mask, const hist_node *n, int depth)
{
    indent(out, mask, depth);
    tg_buf_printf(out, "          %s\n", name_of(n->parents->func));
}

static void straight(tg_buf *out, uint64_t mask, const hist_node *n, int depth)
{
    for (; n->parents; n = n->parents)
        one_caller(out, mask, n, depth);
}

static void callers(tg_buf *out, uint64_t *mask, const hist_node *n, int depth)
{
    if (single(n)) {
        straight(out, *mask, n, depth);
        return;
    }
    if (depth < 64)
        *mask |= 1ULL << depth;
    int x = 0;
    for (const hist_node *p = n->parents; p; p = p->sibling, x++) {
        indent(out, *mask, depth + 1);
        tg_buf_putc(out, '\n');
        indent(out, *mask, depth + 1);
        tg_buf_printf(out, "--%%%.2f-- %s  # %d\n", (double)p->count / n->count * 100.0,
                      name_of(p->func), p->count);
        if (x == n->nr_parents - 1 && depth < 64)
            *mask &= (1ULL << depth) - 1;
        if (single(p)) {
            straight(out, *mask, p, depth + 1);
            continue;
        }
        const hist_node *q = p;
        while (q && q->parents && q->nr_parents < 2 && q->parents->count == q->count) {
            one_caller(out, *mask, q, depth + 1);
            q = q->parents;
        }
        if (q)
            callers(out, mask, q, depth + 1);
    }
}

static void print_chains(hist_state *h, const tg_trace *t, tg_buf *out)
{
    h->chains = sort_list(h->chains, true);
    uint64_t mask = 0;
    for (hist_node *c = h->chains; c; c = c->next_root) {
        sort_callers(c);
        if (c != h->chains)
            tg_buf_putc(out, '\n');
        double pct = (double)c->count / h->total * 100.0;
        if (h->compact)
            tg_buf_printf(out, "  %%%3.2f <all pids> %30s #%d\n", pct, name_of(c->func), c->count);
        else
            tg_buf_printf(out, "  %%%3.2f  (%lld) %s %30s #%d\n", pct, (long long)c->pid,
                          comm_name(h, t, c->pid), name_of(c->func), c->count);
        tg_buf_puts(out, "         |\n");
        tg_buf_printf(out, c->event ? "         --- *%s*\n" : "         --- %s\n",
                      name_of(c->func));
        callers(out, &mask, c, 0);
    }
}

/* ---- the passes ------------------------------------------------------------------------------ */

/* The streams of the buffer named instance (length len; 0: the top buffer), CPU after CPU. */
static int read_buffer(hist_state *h, const tg_trace *t, const char *instance, size_t len,
                       tg_error **err)
{
    size_t n = tg_trace_stream_count(t);
    for (int cpu = 0, left = 1; left; cpu++) {
        left = 0;
        for (size_t i = 0; i < n; i++) {
            tg_stream *s = tg_trace_stream(t, i);
            const char *name = tg_stream_name(s), *slash = strrchr(name, '/');
            size_t il = slash ? (size_t)(slash - name) : 0;
            if (il != len || strncmp(name, instance, len) != 0)
                continue;
            if (tg_stream_cpu(s) > cpu)
                left = 1;
            if (tg_stream_cpu(s) != cpu)
                continue;
            tg_stream_iter *it = tg_stream_iter_new(s);
            if (!it)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            const tg_event *ev;
            int rc;
            while ((rc = tg_stream_iter_next(it, &ev, err)) > 0 && !h->oom)
                on_record(h, t, ev);
            tg_stream_iter_free(it);
            if (rc < 0)
                return rc;
        }
    }
    return h->oom ? tg_err(err, TG_ERR_NOMEM, "out of memory") : 0;
}

/* What trace-cmd does after the last record: the stacks still open are counted. */
static void finish(hist_state *h)
{
    if (h->cur_pid >= 0)
        count_chain(h, h->cur_pid, h->cur.v, h->cur.n, false);
    if (h->pending_pid >= 0)
        count_chain(h, h->pending_pid, h->pending.v, h->pending.n, true);
    while (h->n_parked) {
        unpark(h, h->parked[h->n_parked - 1].pid);
        count_chain(h, h->cur_pid, h->cur.v, h->cur.n, false);
    }
}

static void free_nodes(hist_node *n)
{
    while (n) {
        hist_node *next = n->sibling;
        free_nodes(n->parents);
        free(n);
        n = next;
    }
}

static void state_free(hist_state *h)
{
    for (size_t i = 0; i < h->n_roots; i++)
        free_nodes(h->root_blocks[i / 64][i % 64].root.parents);
    for (size_t b = 0; b < h->n_blocks; b++)
        free(h->root_blocks[b]);
    free(h->root_blocks);
    for (size_t i = 0; i < h->n_parked; i++)
        free(h->parked[i].st.v);
    free(h->parked);
    free(h->cur.v);
    free(h->pending.v);
    for (size_t i = 0; i < h->n_comms; i++)
        if (h->comms[i].owned)
            free((char *)h->comms[i].comm);
    free(h->comms);
}

/* The buffer instances' names in stream order ("" when only the top buffer has streams). */
static int hist_trace(hist_state *h, const tg_trace *t, tg_buf *out, tg_error **err)
{
    size_t n = tg_trace_stream_count(t);
    bool any_instance = false;
    for (size_t i = 0; i < n; i++)
        any_instance |= strchr(tg_stream_name(tg_trace_stream(t, i)), '/') != NULL;
    if (!any_instance) {
        TG_TRY(read_buffer(h, t, "", 0, err));
        finish(h);
        print_chains(h, t, out);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = tg_stream_name(tg_trace_stream(t, i)), *slash = strrchr(name, '/');
        size_t len = slash ? (size_t)(slash - name) : 0;
        bool seen = !slash;
        for (size_t k = 0; k < i && !seen; k++) {
            const char *o = tg_stream_name(tg_trace_stream(t, k)), *os = strrchr(o, '/');
            seen = os && (size_t)(os - o) == len && !strncmp(o, name, len);
        }
        if (seen)
            continue;
        TG_TRY(read_buffer(h, t, name, len, err));
        finish(h);
        print_chains(h, t, out);
    }
    return 0;
}

static int print_hist(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    (void)it;
    if (tg_set_trace_count(set) != 1 || strcmp(tg_trace_format(tg_set_trace(set, 0)), "ftrace"))
        return tg_err(err, TG_ERR_USAGE,
                      "trace-cmd hist reads one trace.dat (ftrace): not this input");
    hist_state h = {
        .compact = tg_options_flag(opts, "ignore-pids") != 0, .cur_pid = -1, .pending_pid = -1};
    int rc = hist_trace(&h, tg_set_trace(set, 0), out, err);
    state_free(&h);
    return rc;
}

static const tg_option_decl hist_options[] = {
    {"ignore-pids", TG_OPT_FLAG, NULL, "all pids in one histogram, <all pids> (trace-cmd hist -P)",
     NULL, NULL, 0, 0, 'P'},
    {0},
};

TG_PRINT_STYLE(trace_cmd_hist) = {"trace-cmd-hist", print_hist, hist_options};
