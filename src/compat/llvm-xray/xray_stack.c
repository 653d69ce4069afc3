/* xray_stack.c - `traceglot stack --style=xray`: `llvm-xray stack` byte for byte.
 *
 * llvm-xray stack reads the records in load order (each XRay log stream after stream, as
 * llvm-xray account does) into a trie of call stacks per thread: an entry on an empty stack
 * starts at the thread's root of that function (made when new), any other entry at the top's
 * callee of that function.  An exit pops up to the frame of its function, or the whole stack
 * when none is (an error), and gives each popped frame a duration |exit TSC - entry TSC|:
 * the deepest one a "terminal" duration unless the previous record was an exit too, the
 * others an "intermediate" one.  An exit on an empty stack is an error.  Without -keep-going
 * the first error stops the command with llvm-xray's message.
 *
 * Output (the options as llvm-xray checks them): the top 10 stacks by leaf sum and by leaf
 * count of all threads (default), of each thread (-per-thread-stacks) or of the threads'
 * tries merged (-aggregate-threads); with -all-stacks -stack-format=flame every node as a
 * flamegraph.pl line, per thread or merged, valued by time or invocation count
 * (-aggregation-type).  The threads are in the order of llvm's DenseMap of thread ids, the
 * merged tries as LLVM's mergeTrieNodes builds them (a callee only one side has keeps its
 * own parent, which the human output walks).
 *
 * The stacks are the one call-stack builder's (TG_STACK_TOP_ONLY, stepped in line, the
 * frame's user slot holding its trie node); the popping below the top is
 * tg_callstack_unwind_to.  Other function traces are read through the merged iterator, their
 * nanoseconds as cycles. */
#include "analysis/callstack.h"
#include "common/llvm/llvm_order.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct snode {
    int32_t id;
    const char *name; /* llvm-xray's SymbolOrNumber */
    struct snode *parent;
    struct snode **callees;
    size_t n_callees, cap_callees;
    int64_t *term, *inter; /* the terminal and intermediate durations */
    size_t n_term, cap_term, n_inter, cap_inter;
} snode;

typedef struct troots {
    uint32_t tid;
    snode **roots;
    size_t n, cap;
} troots;

typedef struct strie {
    tg_callstack *cs;
    troots *threads; /* Roots, in insertion order */
    size_t n_threads, cap_threads;
    tg_hash by_tid;
    snode **store; /* every node, to free */
    size_t n_store, cap_store;
    bool keep_going, last_exit;
    tg_buf *notes; /* -keep-going's messages (llvm-xray's stderr; NULL: not said) */
} strie;

static snode *node_new(strie *s, int32_t id, const char *name, snode *parent)
{
    snode *n = calloc(1, sizeof *n);
    if (!n || tg_grow(&s->store, &s->cap_store, s->n_store + 1, sizeof *s->store) < 0) {
        free(n);
        return NULL;
    }
    s->store[s->n_store++] = n;
    n->id = id;
    n->name = name;
    n->parent = parent;
    return n;
}

static int add_callee(snode *p, snode *c)
{
    TG_TRY(tg_grow(&p->callees, &p->cap_callees, p->n_callees + 1, sizeof *p->callees));
    p->callees[p->n_callees++] = c;
    return 0;
}

static int push_dur(int64_t **v, size_t *n, size_t *cap, int64_t d)
{
    TG_TRY(tg_grow(v, cap, *n + 1, sizeof **v));
    (*v)[(*n)++] = d;
    return 0;
}

/* Roots[tid]: made (empty) when new, as llvm's operator[]. */
static troots *roots_of(strie *s, uint32_t tid)
{
    uint64_t *index = tg_hash_find(&s->by_tid, tid);
    if (index)
        return &s->threads[*index];
    if (tg_grow(&s->threads, &s->cap_threads, s->n_threads + 1, sizeof *s->threads) < 0 ||
        tg_hash_insert(&s->by_tid, tid, &index) < 0)
        return NULL;
    *index = s->n_threads;
    troots *r = &s->threads[s->n_threads++];
    *r = (troots){.tid = tid};
    return r;
}

static uint64_t absdiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

#define NO_ENTRY_FMT                                                                               \
    "Found record {FuncId: \"%s\", ThreadId: \"%u\", RecordType: \"%s\"} with no matching "        \
    "function entry\n"

/* llvm-xray's message for a record it cannot account: with -keep-going said in the set's
 * notes (llvm-xray's stderr) and skipped, else the command stops with it. */
static int bad_record(strie *s, const tg_event *ev, tg_error **err)
{
    if (s->keep_going && !s->notes)
        return 0;
    tg_value v;
    const char *f = tg_trace_format(tg_event_trace(ev));
    uint64_t type = f && strcmp(f, "xray") == 0 && tg_event_field(ev, TG_SCOPE_PAYLOAD, 1, &v) == 0
                        ? v.v.u & 0xffff
                        : 0;
    const char *nm = tg_event_func_name(ev);
    char id[32];
    if (!nm || !*nm) {
        snprintf(id, sizeof id, "#%d", (int32_t)ev->addr);
        nm = id;
    }
    const char *kind = type == 0 ? "Fn Entry" : type == 1 ? "Fn Exit" : "Unknown";
    if (s->keep_going) {
        tg_buf_printf(s->notes, NO_ENTRY_FMT, nm, (unsigned)tg_event_tid(ev), kind);
        return 0;
    }
    return tg_err(err, TG_ERR_FORMAT, NO_ENTRY_FMT, nm, (unsigned)tg_event_tid(ev), kind);
}

static int on_entry(strie *s, const tg_event *ev, struct tg_thread_stack *t)
{
    int32_t id = (int32_t)ev->addr;
    snode *node = NULL;
    if (t->depth == 1) { /* the stack was empty: the thread's root of that function */
        troots *r = roots_of(s, (uint32_t)ev->tid);
        if (!r)
            return TG_ERR_NOMEM;
        for (size_t i = 0; i < r->n && !node; i++)
            if (r->roots[i]->id == id)
                node = r->roots[i];
        if (!node) {
            node = node_new(s, id, tg_event_func_name(ev), NULL);
            if (!node || tg_grow(&r->roots, &r->cap, r->n + 1, sizeof *r->roots) < 0)
                return TG_ERR_NOMEM;
            r->roots[r->n++] = node;
        }
    } else {
        snode *top = t->frames[t->depth - 2].user;
        for (size_t i = 0; i < top->n_callees && !node; i++)
            if (top->callees[i]->id == id)
                node = top->callees[i];
        if (!node) {
            node = node_new(s, id, tg_event_func_name(ev), top);
            if (!node || add_callee(top, node) < 0)
                return TG_ERR_NOMEM;
        }
    }
    t->frames[t->depth - 1].user = node;
    return 0;
}

/* Frames [from, to) of t popped by an exit at tsc. */
static int pop_range(strie *s, const struct tg_frame *frames, size_t from, size_t to, uint64_t tsc,
                     bool was_exit)
{
    for (size_t i = from; i + 1 < to; i++) {
        snode *n = frames[i].user;
        TG_TRY(push_dur(&n->inter, &n->n_inter, &n->cap_inter,
                        (int64_t)absdiff((uint64_t)frames[i].entry_ns, tsc)));
    }
    snode *d = frames[to - 1].user;
    int64_t dur = (int64_t)absdiff((uint64_t)frames[to - 1].entry_ns, tsc);
    return was_exit ? push_dur(&d->inter, &d->n_inter, &d->cap_inter, dur)
                    : push_dur(&d->term, &d->n_term, &d->cap_term, dur);
}

static int stack_record(strie *s, const tg_event *ev, uint64_t tsc, tg_error **err)
{
    tg_event_kind kind = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (kind == TG_KIND_FUNC_ENTRY)
        s->last_exit = false;
    else if (kind == TG_KIND_FUNC_EXIT || kind == TG_KIND_FUNC_TAIL_EXIT) {
        /* before the step: the popped frames stay readable until the next one */
    } else
        return 0;
    bool was_exit = s->last_exit;
    tg_step_out out;
    int step = tg_callstack_step(s->cs, TG_STACK_TOP_ONLY, ev, (int64_t)tsc, &out);
    if (step < 0)
        return step;
    if (step == TG_STEP_OPENED)
        return on_entry(s, ev, out.thread);
    s->last_exit = true;
    if (step == TG_STEP_ENDED)
        return pop_range(s, out.frame, 0, 1, tsc, was_exit);
    if (step != TG_STEP_NO_ENTRY)
        return 0;
    struct tg_thread_stack *t = out.thread;
    if (t->depth == 0)
        return bad_record(s, ev, err);
    size_t top = t->depth;
    long at = tg_callstack_unwind_to(t, ev->addr);
    if (at < 0)
        t->depth = 0; /* no frame of that function: the whole stack goes */
    TG_TRY(pop_range(s, t->frames, at < 0 ? 0 : (size_t)at, top, tsc, was_exit));
    return at < 0 ? bad_record(s, ev, err) : 0;
}

/* ---- merging the threads' tries (LLVM's mergeTrieNodes) ---------------------------------- */

static int concat(int64_t **v, size_t *n, size_t *cap, const int64_t *a, size_t na,
                  const int64_t *b, size_t nb)
{
    if (na + nb)
        TG_TRY(tg_grow(v, cap, na + nb, sizeof **v));
    if (na)
        memcpy(*v, a, na * sizeof *a);
    if (nb)
        memcpy(*v + na, b, nb * sizeof *b);
    *n = na + nb;
    return 0;
}

static snode *merge(strie *s, const snode *l, const snode *r, snode *parent)
{
    snode *m = node_new(s, l->id, l->name, parent);
    if (!m ||
        concat(&m->term, &m->n_term, &m->cap_term, l->term, l->n_term, r->term, r->n_term) < 0 ||
        concat(&m->inter, &m->n_inter, &m->cap_inter, l->inter, l->n_inter, r->inter, r->n_inter) <
            0)
        return NULL;
    /* the left callees in a DenseMap<int32_t> by id; the right ones merged with theirs in
     * order, then the left ones left, in the map's order */
    size_t nl = l->n_callees;
    unsigned *hashes = malloc((nl ? nl : 1) * sizeof *hashes);
    size_t *order = malloc((nl ? nl : 1) * sizeof *order);
    bool *taken = calloc(nl ? nl : 1, sizeof *taken);
    snode *res = m;
    if (!hashes || !order || !taken)
        res = NULL;
    for (size_t i = 0; res && i < nl; i++)
        hashes[i] = tg_llvm_hash32((uint32_t)l->callees[i]->id);
    if (res && nl && tg_llvm_densemap_order(hashes, nl, order) < 0)
        res = NULL;
    for (size_t i = 0; res && i < r->n_callees; i++) {
        snode *rc = r->callees[i], *c = rc;
        for (size_t k = 0; k < nl; k++)
            if (!taken[k] && l->callees[k]->id == rc->id) {
                taken[k] = true;
                c = merge(s, l->callees[k], rc, m);
                break;
            }
        if (!c || add_callee(m, c) < 0)
            res = NULL;
    }
    for (size_t i = 0; res && i < nl; i++)
        if (!taken[order[i]] && add_callee(m, l->callees[order[i]]) < 0)
            res = NULL;
    free(hashes);
    free(order);
    free(taken);
    return res;
}

/* The threads' roots merged by function (mergeAcrossThreads), threads in map order. */
static int merge_threads(strie *s, const size_t *torder, snode ***out, size_t *n_out)
{
    snode **v = NULL;
    size_t n = 0, cap = 0;
    for (size_t t = 0; t < s->n_threads; t++) {
        const troots *r = &s->threads[torder[t]];
        for (size_t i = 0; i < r->n; i++) {
            snode *node = r->roots[i];
            size_t k;
            for (k = 0; k < n && v[k]->id != node->id; k++)
                ;
            if (k < n) {
                node = merge(s, v[k], node, NULL);
                memmove(&v[k], &v[k + 1], (n - k - 1) * sizeof *v);
                n--;
            }
            if (!node || tg_grow(&v, &cap, n + 1, sizeof *v) < 0) {
                free(v);
                return TG_ERR_NOMEM;
            }
            v[n++] = node;
        }
    }
    *out = v;
    *n_out = n;
    return 0;
}

/* ---- printing ----------------------------------------------------------------------------- */

static uint64_t sum_of(const int64_t *v, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (uint64_t)v[i];
    return sum;
}

static void put_row(tg_buf *out, int level, const char *name, size_t count, uint64_t sum)
{
    char tmp[160], nm[64];
    if (strlen(name) > 60) {
        snprintf(nm, sizeof nm, "%.57s...", name);
        name = nm;
    }
    snprintf(tmp, sizeof tmp, "#%-4d %-60s %12zu %16lld\n", level, name, count, (long long)sum);
    tg_buf_puts(out, tmp);
}

/* One stack, callers first, each with its intermediate (the leaf: terminal) durations. */
static int print_stack(tg_buf *out, const snode *top)
{
    const snode **chain = NULL;
    size_t n = 0, cap = 0;
    for (const snode *f = top; f; f = f->parent) {
        TG_TRY(tg_grow(&chain, &cap, n + 1, sizeof *chain));
        chain[n++] = f;
    }
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%-5s %-60s %12s %16s\n", "lvl", "function", "count", "sum");
    tg_buf_puts(out, tmp);
    int level = 0;
    for (size_t i = n; i-- > 1;)
        put_row(out, level++, chain[i]->name, chain[i]->n_inter,
                sum_of(chain[i]->inter, chain[i]->n_inter));
    put_row(out, level, top->name, top->n_term, sum_of(top->term, top->n_term));
    tg_buf_putc(out, '\n');
    free(chain);
    return 0;
}

typedef struct ranked {
    const snode *node;
    uint64_t value;
} ranked;

/* Inserted before the first value not greater (llvm::lower_bound), ten kept. */
static void rank(ranked *top, size_t *n, const snode *node, uint64_t value)
{
    size_t at = 0;
    while (at < *n && top[at].value > value)
        at++;
    memmove(&top[at + 1], &top[at], (*n - at) * sizeof *top);
    top[at] = (ranked){node, value};
    if (++*n == 11)
        --*n;
}

/* Callees pushed in order, the last popped first: llvm-xray's walk. */
static int walk_push(const snode ***stack, size_t *n, size_t *cap, const snode *const *v, size_t k)
{
    if (!k)
        return 0;
    TG_TRY(tg_grow(stack, cap, *n + k, sizeof **stack));
    memcpy(*stack + *n, v, k * sizeof *v);
    *n += k;
    return 0;
}

static int print_top(tg_buf *out, snode *const *roots, size_t n_roots)
{
    ranked by_sum[11], by_count[11];
    size_t n_sum = 0, n_count = 0;
    uint64_t unique = 0;
    const snode **stack = NULL;
    size_t n = 0, cap = 0;
    for (size_t r = 0; r < n_roots; r++) {
        TG_TRY(walk_push(&stack, &n, &cap, (const snode *const *)&roots[r], 1));
        while (n) {
            const snode *top = stack[--n];
            if (top->n_term) {
                unique++;
                rank(by_sum, &n_sum, top, sum_of(top->term, top->n_term));
                rank(by_count, &n_count, top, top->n_term);
            }
            if (walk_push(&stack, &n, &cap, (const snode *const *)top->callees, top->n_callees) <
                0) {
                free(stack);
                return TG_ERR_NOMEM;
            }
        }
    }
    free(stack);
    tg_buf_puts(out, "\nUnique Stacks: ");
    tg_buf_u64(out, unique);
    tg_buf_puts(out, "\nTop 10 Stacks by leaf sum:\n\n");
    for (size_t i = 0; i < n_sum; i++) {
        tg_buf_puts(out, "Sum: ");
        tg_buf_u64(out, by_sum[i].value);
        tg_buf_putc(out, '\n');
        TG_TRY(print_stack(out, by_sum[i].node));
    }
    tg_buf_puts(out, "\nTop 10 Stacks by leaf count:\n\n");
    for (size_t i = 0; i < n_count; i++) {
        tg_buf_puts(out, "Count: ");
        tg_buf_u64(out, by_count[i].value);
        tg_buf_putc(out, '\n');
        TG_TRY(print_stack(out, by_count[i].node));
    }
    tg_buf_putc(out, '\n');
    return 0;
}

/* flamegraph.pl's lines: "[thread_TID;]root;...;node; VALUE" for every node. */
static int print_all(tg_buf *out, snode *const *roots, size_t n_roots, uint32_t tid,
                     bool report_thread, bool count)
{
    const snode **stack = NULL, **line = NULL;
    size_t n = 0, cap = 0, nl = 0, capl = 0;
    int rc = 0;
    for (size_t r = 0; r < n_roots && rc == 0; r++) {
        rc = walk_push(&stack, &n, &cap, (const snode *const *)&roots[r], 1);
        while (n && rc == 0) {
            const snode *top = stack[--n];
            if (report_thread) {
                tg_buf_puts(out, "thread_");
                tg_buf_u64(out, tid);
                tg_buf_putc(out, ';');
            }
            nl = 0;
            for (const snode *f = top; f && rc == 0; f = f->parent)
                if ((rc = tg_grow(&line, &capl, nl + 1, sizeof *line)) == 0)
                    line[nl++] = f;
            while (nl) {
                tg_buf_puts(out, line[--nl]->name);
                tg_buf_putc(out, ';');
            }
            tg_buf_putc(out, ' ');
            tg_buf_u64(out,
                       count ? top->n_term + top->n_inter
                             : sum_of(top->term, top->n_term) + sum_of(top->inter, top->n_inter));
            tg_buf_putc(out, '\n');
            if (rc == 0)
                rc =
                    walk_push(&stack, &n, &cap, (const snode *const *)top->callees, top->n_callees);
        }
    }
    free(stack);
    free(line);
    return rc;
}

static int stack_output(strie *s, tg_buf *out, bool all, bool aggregate, bool per_thread,
                        bool count)
{
    size_t nt = s->n_threads;
    unsigned *hashes = malloc(nt * sizeof *hashes);
    size_t *torder = malloc(nt * sizeof *torder);
    snode **roots = NULL;
    size_t n_roots = 0, cap = 0;
    int rc = hashes && torder ? 0 : TG_ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < nt; i++)
        hashes[i] = tg_llvm_hash32(s->threads[i].tid);
    if (rc == 0)
        rc = tg_llvm_densemap_order(hashes, nt, torder);
    if (rc == 0 && aggregate)
        rc = merge_threads(s, torder, &roots, &n_roots);
    if (rc == 0 && all && aggregate) {
        rc = print_all(out, roots, n_roots, 0, false, count);
    } else if (rc == 0 && all) {
        for (size_t t = 0; t < nt && rc == 0; t++) {
            const troots *r = &s->threads[torder[t]];
            rc = print_all(out, r->roots, r->n, r->tid, true, count);
        }
    } else if (rc == 0 && aggregate) {
        rc = print_top(out, roots, n_roots);
    } else if (rc == 0 && per_thread) {
        for (size_t t = 0; t < nt && rc == 0; t++) {
            const troots *r = &s->threads[torder[t]];
            tg_buf_puts(out, "Thread ");
            tg_buf_u64(out, r->tid);
            tg_buf_puts(out, ":\n");
            rc = print_top(out, r->roots, r->n);
            tg_buf_putc(out, '\n');
        }
    } else if (rc == 0) {
        for (size_t t = 0; t < nt && rc == 0; t++) {
            const troots *r = &s->threads[torder[t]];
            if (r->n && (rc = tg_grow(&roots, &cap, n_roots + r->n, sizeof *roots)) == 0) {
                memcpy(roots + n_roots, r->roots, r->n * sizeof *roots);
                n_roots += r->n;
            }
        }
        if (rc == 0)
            rc = print_top(out, roots, n_roots);
    }
    free(roots);
    free(hashes);
    free(torder);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------ */

static int is_xray(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

static int stack_read(strie *s, tg_set *set, tg_iter *it, tg_error **err)
{
    int have_xray = 0, rc = 0;
    for (size_t t = 0; t < tg_set_trace_count(set) && rc >= 0; t++) {
        tg_trace *tr = tg_set_trace(set, t);
        if (!is_xray(tr))
            continue;
        have_xray = 1;
        s->last_exit = false; /* per log, as llvm-xray's state */
        int ns_is_tsc = tg_trace_clock(tr)->frequency_hz == 1000000000u;
        for (size_t k = 0; k < tg_trace_stream_count(tr) && rc >= 0; k++) {
            tg_stream_iter *si = tg_stream_iter_new(tg_trace_stream(tr, k));
            if (!si)
                return TG_ERR_NOMEM;
            const tg_event *run;
            int n;
            while (rc >= 0 && (n = tg_stream_iter_next_run(si, &run, NULL)) != 0) {
                if (n < 0)
                    continue; /* damage: reported by the iterator's caller */
                for (int i = 0; i < n && rc >= 0; i++) {
                    tg_value v;
                    uint64_t tsc = ns_is_tsc ? (uint64_t)run[i].ts
                                   : tg_event_field(&run[i], TG_SCOPE_PAYLOAD, 0, &v) == 0 ? v.v.u
                                                                                           : 0;
                    rc = stack_record(s, &run[i], tsc, err);
                }
            }
            tg_stream_iter_free(si);
        }
    }
    if (!have_xray) {
        const tg_event *ev;
        int r;
        while (rc >= 0 && (r = tg_iter_next(it, &ev)) > 0)
            rc = stack_record(s, ev, (uint64_t)tg_event_trace_time_ns(ev), err);
        if (rc >= 0 && r < 0)
            rc = r;
    }
    return rc;
}

static int stack_print(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                       tg_buf *out, tg_error **err)
{
    (void)impl;
    bool per_thread = tg_options_flag(opts, "per-thread-stacks");
    bool aggregate = tg_options_flag(opts, "aggregate-threads");
    bool all = tg_options_flag(opts, "all-stacks");
    const char *format = tg_options_get(opts, "stack-format");
    const char *agg = tg_options_get(opts, "aggregation-type");
    bool human = !format || strcmp(format, "human") == 0;
    /* llvm-xray stack's refusals of option combinations, in its words: errors of the run
     * (it exits 1 there, as for a log it cannot read), not of the command line (exit 2) */
    if (per_thread && aggregate)
        return tg_err(err, TG_ERR_UNSUPPORTED,
                      "Can't specify options for per thread reporting and reporting that "
                      "aggregates threads.");
    if (!all && !human)
        return tg_err(err, TG_ERR_UNSUPPORTED,
                      "Can't specify a non-human format without -all-stacks.");
    if (all && human)
        return tg_err(err, TG_ERR_UNSUPPORTED,
                      "You must specify a non-human format when reporting with -all-stacks.");
    strie s = {.keep_going = tg_options_flag(opts, "keep-going"), .notes = tg_set_notes_out(set)};
    s.cs = tg_callstack_new(NULL, NULL);
    if (!s.cs)
        return TG_ERR_NOMEM;
    tg_callstack_set_rules(s.cs, TG_STACK_TOP_ONLY);
    int rc = stack_read(&s, set, it, err);
    if (rc >= 0 && !s.n_threads)
        rc = tg_err(err, TG_ERR_FORMAT, "No instrumented calls were accounted in the input file.");
    if (rc >= 0)
        rc = stack_output(&s, out, all, aggregate, per_thread, agg && strcmp(agg, "count") == 0);
    for (size_t i = 0; i < s.n_store; i++) {
        free(s.store[i]->callees);
        free(s.store[i]->term);
        free(s.store[i]->inter);
        free(s.store[i]);
    }
    free(s.store);
    for (size_t i = 0; i < s.n_threads; i++)
        free(s.threads[i].roots);
    free(s.threads);
    tg_hash_free(&s.by_tid);
    tg_callstack_free(s.cs);
    if (rc == TG_ERR_NOMEM && err && !*err)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc < 0 ? rc : 0;
}

#define XRAY_LLVM 0, TG_OPT_SINGLE_DASH
TG_OPTIONS(stack) = {
    "stack",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"instr-map", TG_OPT_TEXT, NULL, "the instrumented binary (llvm-xray stack -instr_map)",
         "BINARY", NULL, 0, 0, 'm', "instr_map", TG_OPT_SINGLE_DASH},
        {"keep-going", TG_OPT_FLAG, NULL,
         "go on past a record with no matching entry (llvm-xray stack -keep-going)", NULL, NULL, 0,
         0, 'k', XRAY_LLVM},
        {"per-thread-stacks", TG_OPT_FLAG, NULL, "the top stacks of each thread", NULL, NULL, 0, 0,
         0, XRAY_LLVM},
        {"aggregate-threads", TG_OPT_FLAG, NULL, "the top stacks of the threads' stacks merged",
         NULL, NULL, 0, 0, 0, XRAY_LLVM},
        {"all-stacks", TG_OPT_FLAG, NULL,
         "every stack with its sum, in -stack-format (llvm-xray stack -all-stacks, -all)", NULL,
         NULL, 0, 0, 0, "all", TG_OPT_SINGLE_DASH},
        {"stack-format", TG_OPT_CHOICE, "human",
         "human (the top stacks), or flame with -all-stacks: flamegraph.pl's folded lines",
         "human|flame", "human|flame", 0, 0, 0, XRAY_LLVM},
        {"aggregation-type", TG_OPT_CHOICE, "time",
         "a stack's value: its total time (cycles), or its invocations' count", "time|count",
         "time|count", 0, 0, 0, XRAY_LLVM},
        {0},
    },
};

int tg_stack(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
             tg_buf *out, tg_error **err)
{
    if (style && strcmp(style, "xray") != 0)
        return tg_err(err, TG_ERR_USAGE, "unknown stack style '%s' (known: xray)", style);
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "stack", NULL, NULL, err));
    return tg_sink_run(set, f, opts, out, err, stack_print, NULL);
}
