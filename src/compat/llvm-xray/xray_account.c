/* xray_account.c - the "xray" report style: `llvm-xray account` byte for byte, with its
 * options (-keep-going, -deduce-sibling-calls, -recursive-calls-only, -sort, -sortorder, -top,
 * -instr_map, -output, -format text or csv).
 *
 * llvm-xray account walks the records in the order it loaded them (not sorted by time):
 * per thread id a stack of (function id, TSC); an entry pushes; an exit or tail exit whose
 * function is on top pops it and records the latency |exit TSC - entry TSC| for that
 * function; an exit that does not match the top, an exit on an empty stack, and any record
 * whose TSC is below the very first record's TSC are errors that -keep-going skips (without
 * it the account stops; -deduce-sibling-calls ends the frames above a matching one).  Per
 * function: count, min, median (element n/2 of the sorted latencies), 90th and 99th
 * percentiles (element floor(n*0.9) / floor(n*0.99)), max and sum (summed in doubles in
 * record order), divided by the cycle frequency; rows ordered by -sort/-sortorder with
 * std::sort over the order of llvm's hash map of function ids.
 *
 * The XRay reader creates its streams in llvm-xray's load order, so this style reads the
 * XRay traces stream after stream (the cursor's runs of each stream) instead of the merged
 * iterator; the raw TSC is the event's "tsc" payload field.  Other traces go through the
 * merged iterator with nanoseconds as cycles at 1 GHz.  The stacks are the one call-stack
 * builder's, under its TG_STACK_LLVM_XRAY rules, stepped in line (callstack_inline.h: the
 * ended frame handed back in place, no callback per call).  Memory: the stacks plus 8 bytes
 * per finished call. */
#include "analysis/callstack.h"
#include "common/llvm/llvm_order.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xray_account.h"
#include "xray_select.h"

__attribute__((always_inline)) static inline func_lat *func_of(acct *a, int32_t id,
                                                               const tg_event *ev)
{
    uint64_t *index = tg_hash_find(&a->by_id, (uint32_t)id);
    if (index)
        return &a->funcs[*index];
    if (tg_grow(&a->funcs, &a->cap_funcs, a->n_funcs + 1, sizeof *a->funcs) < 0 ||
        tg_hash_insert(&a->by_id, (uint32_t)id, &index) < 0)
        return NULL;
    *index = a->n_funcs;
    func_lat *f = &a->funcs[a->n_funcs++];
    *f = (func_lat){.id = id};
    /* names as llvm-xray's FuncIdConversionHelper gives them, taken from the event */
    const char *nm = tg_event_func_name(ev);
    f->name = strdup(nm ? nm : "");
    tg_value loc;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "location", &loc) == 0 &&
        loc.type == TG_VAL_STRING)
        f->location = strndup(loc.v.str.ptr, loc.v.str.len);
    else
        f->location = strdup("<invalid>:0:0");
    return f->name && f->location ? f : NULL; /* freed with the others on NOMEM */
}

/* inlined into the account's loop (its one hot caller; a call per latency cost 7% more
 * instructions on the bench log once the cold path called it too) */
__attribute__((always_inline)) static inline int record_latency(acct *a, int32_t id, uint64_t lat,
                                                                const tg_event *ev)
{
    func_lat *f = a->lastf;
    if (!f || f->id != id) {
        f = func_of(a, id, ev);
        if (!f)
            return TG_ERR_NOMEM;
        a->lastf = f;
    }
    if (f->n == f->cap)
        TG_TRY(tg_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v));
    f->v[f->n++] = lat;
    return 0;
}

/* ---- -recursive-calls-only ------------------------------------------------------------------
 * llvm-xray keeps, per thread and function, the number of the function's frames on the
 * stack and whether it has called itself (two frames at once) since its outermost frame
 * began; a call's latency counts only when its function has, and the mark goes with the
 * outermost frame. */

#define RECURSED (1ull << 32)

static uint64_t *recursion_of(acct *a, uint32_t tid, int32_t id)
{
    uint64_t key = (uint64_t)tid << 32 | (uint32_t)id, *status = tg_hash_find(&a->recursion, key);
    if (status)
        return status;
    if (tg_hash_insert(&a->recursion, key, &status) < 0)
        return NULL;
    *status = 0;
    return status;
}

static int recursion_enter(acct *a, uint32_t tid, int32_t id)
{
    uint64_t *st = recursion_of(a, tid, id);
    if (!st)
        return TG_ERR_NOMEM;
    *st = (*st & RECURSED) | ((*st & 0xffffffffu) + 1);
    if ((*st & 0xffffffffu) == 2)
        *st |= RECURSED;
    return 0;
}

/* Whether the function's calls count now; with leave, one of its frames ends. */
static int recursion_counts(acct *a, uint32_t tid, int32_t id, bool leave)
{
    uint64_t *st = recursion_of(a, tid, id);
    if (!st)
        return TG_ERR_NOMEM;
    int counts = (*st & RECURSED) != 0;
    if (leave && (*st & 0xffffffffu)) {
        *st = (*st & RECURSED) | ((*st & 0xffffffffu) - 1);
        if (!(*st & 0xffffffffu))
            *st = 0;
    }
    return counts;
}

/* A record the top-only step did not account (step: TG_STEP_NO_ENTRY or TG_STEP_EARLY):
 * -deduce-sibling-calls ends the frames from the exited function's up, each with its own
 * latency (bottom first, as llvm-xray records them); else -keep-going skips it, or the
 * account stops.  0 to go on. */
__attribute__((noinline, cold)) static int account_unmatched(acct *a, const tg_event *ev, int step,
                                                             uint64_t tsc,
                                                             struct tg_thread_stack *t,
                                                             tg_error **err)
{
    if (step == TG_STEP_NO_ENTRY && a->deduce) {
        size_t top = t->depth;
        long at = tg_callstack_unwind_to(t, (uint32_t)ev->addr);
        for (size_t i = at < 0 ? top : (size_t)at; i < top; i++) {
            const struct tg_frame *f = &t->frames[i];
            if (a->recursive) { /* every ended frame checked before any leaves */
                int counts = recursion_counts(a, (uint32_t)t->tid, (int32_t)f->addr, false);
                if (counts < 0)
                    return counts;
                if (!counts)
                    continue;
            }
            uint64_t entry = (uint64_t)f->entry_ns;
            tg_event named = *ev; /* the latency's function names its row */
            named.addr = f->addr;
            TG_TRY(record_latency(a, (int32_t)f->addr, tsc > entry ? tsc - entry : entry - tsc,
                                  &named));
        }
        for (size_t i = at < 0 ? top : (size_t)at; a->recursive && i < top; i++)
            TG_TRY(recursion_counts(a, (uint32_t)t->tid, (int32_t)t->frames[i].addr, true));
        if (at >= 0)
            return 0;
    }
    return xray_account_skip(a, ev, tsc, err);
}

/* Where a record's cycles are. */
enum tsc_from {
    TSC_IS_NS,    /* an XRay trace at 1 GHz: the event time in ns is the TSC itself (the
                     * reader's ns = tsc * 1e9 / frequency) */
    TSC_FIELD,    /* an XRay trace: the raw "tsc" payload field */
    TSC_TRACE_NS, /* another format: nanoseconds on the trace's clock as cycles at 1 GHz */
};

/* A run of records, each the builder's step under llvm-xray's rules (records before the
 * first, unmatched exits and other kinds change nothing), and the latency of each ended
 * call.  Compiled twice (account_run, account_run_recursive), so that the common case pays
 * nothing for -recursive-calls-only: the one caller of the per-record code each. */
__attribute__((always_inline)) static inline int account_run_with(acct *a, const tg_event *run,
                                                                  size_t n, enum tsc_from from,
                                                                  const bool recursive,
                                                                  tg_error **err)
{
    for (const tg_event *ev = run; ev < run + n; ev++) {
        uint64_t tsc;
        if (from == TSC_IS_NS) {
            tsc = (uint64_t)ev->ts;
        } else if (from == TSC_FIELD) {
            tg_value v;
            tsc = tg_event_field(ev, TG_SCOPE_PAYLOAD, 0, &v) == 0 ? v.v.u : 0;
        } else {
            tsc = (uint64_t)tg_event_trace_time_ns(ev);
        }
        tg_step_out out;
        int step = tg_callstack_step(a->cs, TG_STACK_LLVM_XRAY, ev, (int64_t)tsc, &out);
        if (step != TG_STEP_ENDED) {
            if (step == TG_STEP_OPENED) { /* the common case: one comparison */
                if (recursive)
                    TG_TRY(
                        recursion_enter(a, (uint32_t)out.thread->tid,
                                        (int32_t)out.thread->frames[out.thread->depth - 1].addr));
                continue;
            }
            if (step < 0)
                return step;
            if (step == TG_STEP_NO_ENTRY || step == TG_STEP_EARLY)
                TG_TRY(account_unmatched(a, ev, step, tsc, out.thread, err));
            continue;
        }
        if (recursive) {
            int counts =
                recursion_counts(a, (uint32_t)out.thread->tid, (int32_t)out.frame->addr, true);
            if (counts < 0)
                return counts;
            if (!counts)
                continue;
        }
        uint64_t entry = (uint64_t)out.frame->entry_ns;
        uint64_t lat = tsc > entry ? tsc - entry : entry - tsc;
        TG_TRY(record_latency(a, (int32_t)out.frame->addr, lat, ev));
    }
    return 0;
}

static int account_run(acct *a, const tg_event *run, size_t n, enum tsc_from from, tg_error **err)
{
    return account_run_with(a, run, n, from, false, err);
}

static int account_run_recursive(acct *a, const tg_event *run, size_t n, enum tsc_from from,
                                 tg_error **err)
{
    return account_run_with(a, run, n, from, true, err);
}

/* ---- statistics ------------------------------------------------------------------------- */

#define HIST_SIZE 65536u

/* The order statistics k[0] <= k[1] <= k[2] of v[0..n): small values counted in a
 * histogram, the rest selected among themselves (they all rank above the small ones). */
static void order_stats(uint64_t *v, size_t n, const size_t k[3], uint64_t out[3], uint32_t *hist)
{
    if (!hist || n < 8192) {
        out[2] = tg_xray_select_kth(v, 0, n, k[2]);
        out[1] = tg_xray_select_kth(v, 0, k[2] + 1, k[1]);
        out[0] = tg_xray_select_kth(v, 0, k[1] + 1, k[0]);
        return;
    }
    memset(hist, 0, HIST_SIZE * sizeof *hist);
    size_t nbig = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = v[i];
        if (x < HIST_SIZE)
            hist[x]++;
        else
            v[nbig++] = x;
    }
    size_t nsmall = n - nbig, seen = 0, j = 0;
    for (uint32_t x = 0; x < HIST_SIZE && j < 3; x++) {
        seen += hist[x];
        while (j < 3 && k[j] < seen && k[j] < nsmall)
            out[j++] = x;
    }
    for (; j < 3; j++)
        out[j] = tg_xray_select_kth(v, 0, nbig, k[j] - nsmall);
}

static void stats(func_lat *f, uint64_t freq, row *r, uint32_t *hist)
{
    size_t n = f->n;
    double sum = 0.0;
    uint64_t mn = f->v[0], mx = f->v[0];
    for (size_t i = 0; i < n; i++) {
        sum += (double)f->v[i];
        if (f->v[i] < mn)
            mn = f->v[i];
        if (f->v[i] > mx)
            mx = f->v[i];
    }
    size_t kmed = n / 2;
    size_t k90 = (size_t)floor((double)n * 0.9);
    size_t k99 = (size_t)floor((double)n * 0.99);
    const size_t ks[3] = {kmed, k90, k99};
    uint64_t vs[3];
    order_stats(f->v, n, ks, vs, hist);
    uint64_t vmed = vs[0], v90 = vs[1], v99 = vs[2];
    r->id = f->id;
    r->count = n;
    r->min = (double)mn;
    r->max = (double)mx;
    r->med = (double)vmed;
    r->p90 = (double)v90;
    r->p99 = (double)v99;
    r->sum = sum;
    if (freq) {
        double cf = (double)freq;
        r->min /= cf;
        r->med /= cf;
        r->p90 /= cf;
        r->p99 /= cf;
        r->max /= cf;
        r->sum /= cf;
    }
    r->name = f->name;
    r->location = f->location;
}

typedef struct sort_ctx {
    const row *rows;
    enum sort_key key;
    int asc;
} sort_ctx;

static int row_less(void *ctx, size_t x, size_t y)
{
    const sort_ctx *c = ctx;
    const row *l = &c->rows[x], *r = &c->rows[y];
    if (!c->asc) {
        const row *t = l;
        l = r;
        r = t;
    }
    switch (c->key) {
    case K_FUNCID: return l->id < r->id;
    case K_COUNT: return l->count < r->count;
    case K_MIN: return l->min < r->min;
    case K_MED: return l->med < r->med;
    case K_90P: return l->p90 < r->p90;
    case K_99P: return l->p99 < r->p99;
    case K_MAX: return l->max < r->max;
    case K_SUM: return l->sum < r->sum;
    case K_FUNC: break;
    }
    return 0;
}

int xray_account_parse_sort(const tg_options *opts, enum sort_key *key, int *asc)
{
    static const char *const names[] = {"funcid", "count", "min", "med", "90p",
                                        "99p",    "max",   "sum", "func"};
    const char *k = opts ? tg_options_get(opts, "sort") : NULL;
    const char *o = opts ? tg_options_get(opts, "sortorder") : NULL;
    *key = K_FUNCID;
    *asc = 1;
    if (k) {
        size_t i;
        for (i = 0; i < sizeof names / sizeof *names; i++)
            if (strcmp(k, names[i]) == 0)
                break;
        if (i == sizeof names / sizeof *names)
            return TG_ERR_USAGE;
        *key = (enum sort_key)i;
    }
    if (o) {
        if (strcmp(o, "asc") == 0)
            *asc = 1;
        else if (strcmp(o, "dsc") == 0)
            *asc = 0;
        else
            return TG_ERR_USAGE;
    }
    return 0;
}

static uint64_t trace_freq(tg_trace *t) { return tg_trace_clock(t)->frequency_hz; }

static int is_xray(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

void xray_account_put_row(tg_buf *out, const row *r)
{
    char tmp[256];
    int n =
        snprintf(tmp, sizeof tmp, "%9d %10llu [%9.6f, %9.6f, %9.6f, %9.6f, %9.6f] %9.6f  ", r->id,
                 (unsigned long long)r->count, r->min, r->med, r->p90, r->p99, r->max, r->sum);
    if (n > 0)
        tg_buf_put(out, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    tg_buf_puts(out, r->location);
    tg_buf_puts(out, ": ");
    tg_buf_puts(out, r->name);
    tg_buf_putc(out, '\n');
}

/* -format=csv: llvm's raw_ostream writes a double as "%e". */
static void put_csv_row(tg_buf *out, const row *r)
{
    char tmp[320];
    int n = snprintf(tmp, sizeof tmp, "%d,%llu,%e,%e,%e,%e,%e,%e,\"", r->id,
                     (unsigned long long)r->count, r->min, r->med, r->p90, r->p99, r->max, r->sum);
    if (n > 0)
        tg_buf_put(out, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    tg_buf_puts(out, r->location);
    tg_buf_puts(out, "\",\"");
    tg_buf_puts(out, r->name);
    tg_buf_puts(out, "\"\n");
}

void xray_account_free(account *ac)
{
    free(ac->rows);
    free(ac->idx);
    tg_callstack_free(ac->a.cs);
    for (size_t i = 0; i < ac->a.n_funcs; i++) {
        free(ac->a.funcs[i].v);
        free(ac->a.funcs[i].name);
        free(ac->a.funcs[i].location);
    }
    free(ac->a.funcs);
    tg_hash_free(&ac->a.by_id);
    tg_hash_free(&ac->a.recursion);
    free(ac->a.hist);
}

/* Reads a set as llvm-xray account does (XRay traces stream after stream, others through the
 * iterator) and makes its rows, sorted by key; with -keep-going, each record skipped is said
 * in notes (NULL: not said) as llvm-xray says it on stderr.  0, a negative status (damage: the first
 * error in *err, the rows made all the same), or TG_ERR_NOMEM. */
int xray_account_run_set(account *ac, tg_set *set, tg_iter *it, enum sort_key key, int asc,
                         const tg_options *opts, tg_buf *notes, tg_error **err)
{
    memset(ac, 0, sizeof *ac);
    acct *a = &ac->a;
    a->notes = notes;
    a->keep_going = opts && tg_options_flag(opts, "keep-going");
    a->deduce = opts && tg_options_flag(opts, "deduce-sibling-calls");
    a->recursive = opts && tg_options_flag(opts, "recursive-calls-only");
    a->cs = tg_callstack_new(NULL, NULL);
    if (!a->cs)
        return TG_ERR_NOMEM;
    tg_callstack_set_rules(a->cs, TG_STACK_LLVM_XRAY);
    int rc = 0;
    uint64_t freq = 0;
    int have_xray = 0, have_other = 0;
    /* every log is read whole, past a stop too: llvm-xray loads it before accounting */
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        tg_trace *tr = tg_set_trace(set, t);
        if (!is_xray(tr)) {
            have_other = 1;
            continue;
        }
        if (!a->damaged && xray_basic_has_no_record(tr))
            a->damaged = tr;
        uint64_t tf = trace_freq(tr);
        if (!have_xray)
            freq = tf;
        have_xray = 1;
        int ns_is_tsc = tf == 1000000000u;
        for (size_t s = 0; s < tg_trace_stream_count(tr) && rc != TG_ERR_NOMEM; s++) {
            tg_stream_iter *si = tg_stream_iter_new(tg_trace_stream(tr, s));
            if (!si) {
                rc = TG_ERR_NOMEM;
                break;
            }
            const tg_event *run;
            for (;;) {
                tg_error *e = NULL;
                int n = tg_stream_iter_next_run(si, &run, &e);
                if (n == 0)
                    break;
                if (n < 0) {
                    /* damage: keep the first error for the caller; the stream iterator
                     * goes on past it (and ends the stream after too many in a row) */
                    if (err && !*err)
                        *err = e;
                    else
                        tg_error_free(e);
                    if (rc == 0)
                        rc = n;
                    if (!a->damaged && xray_log_is_basic(tr))
                        a->damaged = tr;
                    continue;
                }
                if (a->stopped)
                    continue;
                enum tsc_from from = ns_is_tsc ? TSC_IS_NS : TSC_FIELD;
                int ar = a->recursive ? account_run_recursive(a, run, (size_t)n, from, err)
                                      : account_run(a, run, (size_t)n, from, err);
                if (ar < 0) {
                    rc = ar;
                    if (!a->stopped)
                        break;
                }
            }
            tg_stream_iter_free(si);
        }
    }
    if (have_other && !have_xray && rc >= 0) {
        freq = 1000000000u;
        const tg_event *ev;
        int r;
        while ((r = tg_iter_next(it, &ev)) > 0)
            if ((rc = a->recursive ? account_run_recursive(a, ev, 1, TSC_TRACE_NS, err)
                                   : account_run(a, ev, 1, TSC_TRACE_NS, err)) < 0)
                break;
        if (r < 0 && rc >= 0)
            rc = r;
    }
    ac->freq = freq;
    if (rc == TG_ERR_NOMEM)
        return rc;
    /* rows in llvm's DenseMap<int32_t> order, then std::sort by the key */
    unsigned *hashes = NULL;
    ac->n = a->n_funcs;
    if (a->n_funcs) {
        ac->rows = malloc(a->n_funcs * sizeof *ac->rows);
        ac->idx = malloc(a->n_funcs * sizeof *ac->idx);
        hashes = malloc(a->n_funcs * sizeof *hashes);
        if (!ac->rows || !ac->idx || !hashes) {
            free(hashes);
            return TG_ERR_NOMEM;
        }
    }
    size_t *order = ac->idx;
    for (size_t i = 0; i < a->n_funcs; i++)
        hashes[i] = tg_llvm_hash32((uint32_t)a->funcs[i].id);
    if (a->n_funcs && tg_llvm_densemap_order(hashes, a->n_funcs, order) < 0) {
        free(hashes);
        return TG_ERR_NOMEM;
    }
    free(hashes);
    for (size_t i = 0; i < a->n_funcs && !a->hist; i++)
        if (a->funcs[i].n >= 8192)
            a->hist = malloc(HIST_SIZE * sizeof *a->hist); /* NULL: quickselect only */
    for (size_t i = 0; i < a->n_funcs; i++)
        stats(&a->funcs[order[i]], freq, &ac->rows[i], a->hist);
    for (size_t i = 0; i < a->n_funcs; i++)
        order[i] = i; /* reused: positions into rows */
    /* llvm-xray 14 has no sort for "func" (llvm_unreachable("Not implemented")): its
     * release build prints the rows in hash-map order, and so does this. */
    sort_ctx sc = {ac->rows, key, asc};
    if (key != K_FUNC)
        tg_std_sort(order, a->n_funcs, row_less, &sc);
    return rc;
}

void xray_account_put_header(tg_buf *out)
{
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%9s %10s [%9s, %9s, %9s, %9s, %9s] %9s  %-12s\n", "funcid", "count",
             "min", "med", "90p", "99p", "max", "sum", "function");
    tg_buf_puts(out, tmp);
}

size_t xray_account_top_of(const tg_options *opts, size_t n)
{
    const char *top = opts ? tg_options_get(opts, "top") : NULL;
    if (top && atoi(top) > 0 && (size_t)atoi(top) < n)
        return (size_t)atoi(top);
    return n;
}

int xray_account_bad_sort(tg_error **err)
{
    return tg_err(err, TG_ERR_USAGE,
                  "--sort takes funcid, count, min, med, 90p, 99p, max, sum or func; "
                  "--sortorder takes asc or dsc");
}

static int xray_account_report(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                               tg_error **err)
{
    enum sort_key key;
    int asc;
    if (xray_account_parse_sort(opts, &key, &asc) < 0)
        return xray_account_bad_sort(err);
    account ac;
    /* the records -keep-going skips are said once the logs are known to load: held here */
    tg_buf *notes = tg_set_notes_out(set), *held = notes ? tg_buf_new() : NULL;
    if (notes && !held)
        return TG_ERR_NOMEM;
    int rc = xray_account_run_set(&ac, set, it, key, asc, opts, held, err);
    if (rc != TG_ERR_NOMEM && ac.a.damaged) {
        /* llvm-xray cannot load the log: its message alone, no row */
        tg_buf_free(held);
        held = NULL;
        if (err && *err) {
            tg_error_free(*err);
            *err = NULL;
        }
        rc = xray_load_failure(ac.a.damaged, err);
        ac.a.stopped = true;
    }
    if (held) {
        tg_buf_put(notes, tg_buf_data(held), tg_buf_len(held));
        tg_buf_free(held);
    }
    const char *format = opts ? tg_options_get(opts, "format") : NULL;
    bool csv = format && strcmp(format, "csv") == 0;
    bool json = format && strcmp(format, "json") == 0;
    if (rc != TG_ERR_NOMEM && !ac.a.stopped && json) {
        int jrc = xray_account_put_json(out, &ac, opts, err);
        rc = jrc < 0 ? jrc : rc;
    } else if (rc != TG_ERR_NOMEM && !ac.a.stopped && csv) {
        tg_buf_puts(out, "funcid,count,min,median,90%ile,99%ile,max,sum,debug,function\n");
        for (size_t i = 0, limit = xray_account_top_of(opts, ac.n); i < limit; i++)
            put_csv_row(out, &ac.rows[ac.idx[i]]);
    } else if (rc != TG_ERR_NOMEM && !ac.a.stopped) {
        tg_buf_puts(out, "Functions with latencies: ");
        tg_buf_u64(out, ac.n);
        tg_buf_putc(out, '\n');
        xray_account_put_header(out);
        for (size_t i = 0, limit = xray_account_top_of(opts, ac.n); i < limit; i++)
            xray_account_put_row(out, &ac.rows[ac.idx[i]]);
    }
    xray_account_free(&ac);
    if (rc == TG_ERR_NOMEM && err && !*err)
        return TG_ERR_NOMEM;
    return rc < 0 ? rc : 0;
}

/* llvm-xray account's options with its spellings (LLVM's command line: -sort=count, -top 3,
 * -m BIN, --instr_map=BIN; TG_OPT_SINGLE_DASH); -instr_map is opening's instr-map, declared
 * again here for its spellings. */
#define XRAY_LLVM 0, TG_OPT_SINGLE_DASH
static const tg_option_decl xray_account_options[] = {
    /* text, as uftrace's report takes other keys: parse_sort checks them */
    {"sort", TG_OPT_TEXT, "funcid",
     "the column rows are sorted by: funcid, count, min, med, 90p, 99p, max, sum, func "
     "(llvm-xray account -sort)",
     "KEY", NULL, 0, 0, 's', XRAY_LLVM},
    {"sortorder", TG_OPT_CHOICE, "asc", "the sort order (llvm-xray account -sortorder)", "asc|dsc",
     "asc|dsc", 0, 0, 'r', XRAY_LLVM},
    {"top", TG_OPT_INT, NULL, "only the first N rows; 0 or less: all (llvm-xray account -top)", "N",
     NULL, -2147483647 - 1, 2147483647, 'p', XRAY_LLVM},
    {"instr-map", TG_OPT_TEXT, NULL, "the instrumented binary (llvm-xray -instr_map)", "BINARY",
     NULL, 0, 0, 'm', "instr_map", TG_OPT_SINGLE_DASH},
    {"keep-going", TG_OPT_FLAG, NULL,
     "skip the records llvm-xray cannot account (an exit that matches no entry, a record timed "
     "before the first); without it the account stops at the first, as llvm-xray's "
     "(llvm-xray account -keep-going)",
     NULL, NULL, 0, 0, 'k', XRAY_LLVM},
    {"deduce-sibling-calls", TG_OPT_FLAG, NULL,
     "an exit of a function below the top of the stack ends the frames above it too, each "
     "timed to that exit (llvm-xray account -deduce-sibling-calls)",
     NULL, NULL, 0, 0, 'd', XRAY_LLVM},
    {"output", TG_OPT_TEXT, "-",
     "write the report to FILE; - is stdout (llvm-xray account -output)", "FILE", NULL, 0, 0, 'o',
     XRAY_LLVM},
    {"format", TG_OPT_CHOICE, "text",
     "the rows as text or csv (llvm-xray account -format), or json: one JSON document of the "
     "same rows (--diff: text or json)",
     "text|csv|json", "text|csv|json", 0, 0, 'f', XRAY_LLVM},
    {"recursive-calls-only", TG_OPT_FLAG, NULL,
     "only the calls of functions that called themselves, from their outermost call on "
     "(llvm-xray account -recursive-calls-only)",
     NULL, NULL, 0, 0, 0, XRAY_LLVM},
    {0},
};

TG_REPORT_STYLE(xray) = {
    .name = "xray",
    .report = xray_account_report,
    .options = xray_account_options,
    .diff = xray_account_diff, /* xray_account_diff.c */
};
