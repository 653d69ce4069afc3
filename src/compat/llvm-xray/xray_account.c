/* xray_account.c - the "xray" report style: `llvm-xray account -keep-going` byte for byte.
 *
 * llvm-xray account walks the records in the order it loaded them (not sorted by time):
 * per thread id a stack of (function id, TSC); an entry pushes; an exit or tail exit whose
 * function is on top pops it and records the latency |exit TSC - entry TSC| for that
 * function; an exit that does not match the top, an exit on an empty stack, and any record
 * whose TSC is below the very first record's TSC are errors that -keep-going skips.  Per
 * function: count, min, median (element n/2 of the sorted latencies), 90th and 99th
 * percentiles (element floor(n*0.9) / floor(n*0.99)), max and sum (summed in doubles in
 * record order), divided by the cycle frequency; rows ordered by -sort/-sortorder with
 * std::sort over the order of llvm's hash map of function ids.
 *
 * The XRay reader creates its streams in llvm-xray's load order, so this style reads the
 * XRay traces stream after stream (each stream's next(), as tg_stream_iter would) instead of
 * the merged iterator; the raw TSC is the event's "tsc" payload field.  Other traces go through the merged iterator
 * with nanoseconds as cycles at 1 GHz.  Memory: the stacks plus 8 bytes per finished call. */
#include "core/error_internal.h"
#include "core/consumer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct frame {
    int32_t func;
    uint64_t tsc;
} frame;

typedef struct tstack {
    uint32_t tid;
    int used;
    frame *f;
    size_t n, cap;
} tstack;

typedef struct func_lat {
    int32_t id;
    uint64_t *v;
    size_t n, cap;
    char *name, *location;
} func_lat;

typedef struct acct {
    /* per-thread stacks: open addressing on tid */
    tstack *stacks;
    size_t n_stacks, cap_stacks;
    /* functions: open addressing on id -> index into funcs (+1) */
    size_t *fslot;
    size_t cap_fslot;
    func_lat *funcs;
    size_t n_funcs, cap_funcs;
    uint64_t cur_max;
    uint64_t errors;
    tstack *last;       /* the stack of the previous record: threads come in long runs */
    size_t lastf;       /* index + 1 of the function of the previous latency */
    uint32_t *hist;     /* percentile histogram (allocated for big functions only) */
} acct;

static size_t mix(uint64_t v)
{
    v *= 0x9e3779b97f4a7c15ull;
    return (size_t)(v >> 20);
}

static tstack *stack_of(acct *a, uint32_t tid)
{
    if (a->last && a->last->tid == tid)
        return a->last;
    if ((a->n_stacks + 1) * 2 > a->cap_stacks) {
        size_t cap = a->cap_stacks ? a->cap_stacks * 2 : 64;
        tstack *ns = calloc(cap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < a->cap_stacks; i++)
            if (a->stacks[i].used) {
                size_t h = mix(a->stacks[i].tid) & (cap - 1);
                while (ns[h].used)
                    h = (h + 1) & (cap - 1);
                ns[h] = a->stacks[i];
            }
        free(a->stacks);
        a->stacks = ns;
        a->cap_stacks = cap;
        a->last = NULL;
    }
    size_t h = mix(tid) & (a->cap_stacks - 1);
    while (a->stacks[h].used) {
        if (a->stacks[h].tid == tid)
            return a->last = &a->stacks[h];
        h = (h + 1) & (a->cap_stacks - 1);
    }
    a->stacks[h].used = 1;
    a->stacks[h].tid = tid;
    a->n_stacks++;
    return a->last = &a->stacks[h];
}

static func_lat *func_of(acct *a, int32_t id, const tg_event *ev)
{
    if ((a->n_funcs + 1) * 2 > a->cap_fslot) {
        size_t cap = a->cap_fslot ? a->cap_fslot * 2 : 256;
        size_t *ns = calloc(cap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < a->n_funcs; i++) {
            size_t h = mix((uint32_t)a->funcs[i].id) & (cap - 1);
            while (ns[h])
                h = (h + 1) & (cap - 1);
            ns[h] = i + 1;
        }
        free(a->fslot);
        a->fslot = ns;
        a->cap_fslot = cap;
    }
    size_t h = mix((uint32_t)id) & (a->cap_fslot - 1);
    while (a->fslot[h]) {
        func_lat *f = &a->funcs[a->fslot[h] - 1];
        if (f->id == id)
            return f;
        h = (h + 1) & (a->cap_fslot - 1);
    }
    if (a->n_funcs == a->cap_funcs) {
        size_t cap = a->cap_funcs ? a->cap_funcs * 2 : 64;
        func_lat *nf = realloc(a->funcs, cap * sizeof *nf);
        if (!nf)
            return NULL;
        a->funcs = nf;
        a->cap_funcs = cap;
    }
    func_lat *f = &a->funcs[a->n_funcs];
    memset(f, 0, sizeof *f);
    f->id = id;
    /* names as llvm-xray's FuncIdConversionHelper gives them, taken from the event */
    const char *nm = tg_event_func_name(ev);
    f->name = strdup(nm ? nm : "");
    tg_value loc;
    if (tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "location", &loc) == 0 &&
        loc.type == TG_VAL_STRING)
        f->location = strndup(loc.v.str.ptr, loc.v.str.len);
    else
        f->location = strdup("<invalid>:0:0");
    if (!f->name || !f->location) {
        free(f->name);
        free(f->location);
        return NULL;
    }
    a->fslot[h] = ++a->n_funcs;
    return f;
}

static int record_latency(acct *a, int32_t id, uint64_t lat, const tg_event *ev)
{
    func_lat *f;
    if (a->lastf && a->funcs[a->lastf - 1].id == id) {
        f = &a->funcs[a->lastf - 1];
    } else {
        f = func_of(a, id, ev);
        if (!f)
            return TG_ERR_NOMEM;
        a->lastf = (size_t)(f - a->funcs) + 1;
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        uint64_t *v = realloc(f->v, cap * sizeof *v);
        if (!v)
            return TG_ERR_NOMEM;
        f->v = v;
        f->cap = cap;
    }
    f->v[f->n++] = lat;
    return 0;
}

/* One record; kind as the event model says, tsc in cycles. */
static int account(acct *a, const tg_event *ev, uint64_t tsc)
{
    if (a->cur_max == 0)
        a->cur_max = tsc;
    if (tsc < a->cur_max) {
        a->errors++;
        return 0;
    }
    tg_event_kind k = ev->cls ? ev->cls->kind : TG_KIND_GENERIC; /* the model's fields, */
    if (k != TG_KIND_FUNC_ENTRY && k != TG_KIND_FUNC_EXIT && k != TG_KIND_FUNC_TAIL_EXIT)
        return 0;
    tstack *s = stack_of(a, (uint32_t)ev->tid);                    /* read in place */
    if (!s)
        return TG_ERR_NOMEM;
    int32_t id = (int32_t)ev->addr;
    if (k == TG_KIND_FUNC_ENTRY) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 32;
            frame *f = realloc(s->f, cap * sizeof *f);
            if (!f)
                return TG_ERR_NOMEM;
            s->f = f;
            s->cap = cap;
        }
        s->f[s->n].func = id;
        s->f[s->n].tsc = tsc;
        s->n++;
        return 0;
    }
    if (s->n == 0 || s->f[s->n - 1].func != id) {
        a->errors++;
        return 0;
    }
    frame *top = &s->f[--s->n];
    uint64_t lat = tsc > top->tsc ? tsc - top->tsc : top->tsc - tsc;
    return record_latency(a, id, lat, ev);
}

/* ---- statistics ------------------------------------------------------------------------- */

typedef struct row {
    int32_t id;
    uint64_t count;
    double min, med, p90, p99, max, sum;
    const char *name, *location;
} row;

static void swap_u64(uint64_t *a, size_t i, size_t j)
{
    uint64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* The k-th smallest of v[lo..hi) (partially reorders v). */
static uint64_t select_kth(uint64_t *v, size_t lo, size_t hi, size_t k)
{
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2;
        /* median of three to v[lo] */
        if (v[mid] < v[lo])
            swap_u64(v, mid, lo);
        if (v[hi - 1] < v[lo])
            swap_u64(v, hi - 1, lo);
        if (v[hi - 1] < v[mid])
            swap_u64(v, hi - 1, mid);
        uint64_t pivot = v[mid];
        /* three-way partition: < pivot | == pivot | > pivot */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (v[i] < pivot)
                swap_u64(v, lt++, i++);
            else if (v[i] > pivot)
                swap_u64(v, i, --gt);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
    for (size_t i = lo + 1; i < hi; i++)
        for (size_t j = i; j > lo && v[j] < v[j - 1]; j--)
            swap_u64(v, j, j - 1);
    return v[k];
}

#define HIST_SIZE 65536u

/* The order statistics k[0] <= k[1] <= k[2] of v[0..n): small values counted in a
 * histogram, the rest selected among themselves (they all rank above the small ones). */
static void order_stats(uint64_t *v, size_t n, const size_t k[3], uint64_t out[3], uint32_t *hist)
{
    if (!hist || n < 8192) {
        out[2] = select_kth(v, 0, n, k[2]);
        out[1] = select_kth(v, 0, k[2] + 1, k[1]);
        out[0] = select_kth(v, 0, k[1] + 1, k[0]);
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
        out[j] = select_kth(v, 0, nbig, k[j] - nsmall);
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

enum sort_key { K_FUNCID, K_COUNT, K_MIN, K_MED, K_90P, K_99P, K_MAX, K_SUM, K_FUNC };

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

static int parse_sort(const tg_options *opts, enum sort_key *key, int *asc)
{
    static const char *const names[] = {"funcid", "count", "min", "med", "90p",
                                        "99p", "max", "sum", "func"};
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

static uint64_t trace_freq(tg_trace *t)
{
    return tg_trace_clock(t)->frequency_hz;
}

static int is_xray(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

static void put_row(tg_buf *out, const row *r)
{
    char tmp[256];
    int n = snprintf(tmp, sizeof tmp, "%9d %10llu [%9.6f, %9.6f, %9.6f, %9.6f, %9.6f] %9.6f  ",
                     r->id, (unsigned long long)r->count, r->min, r->med, r->p90, r->p99,
                     r->max, r->sum);
    if (n > 0)
        tg_buf_put(out, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    tg_buf_puts(out, r->location);
    tg_buf_puts(out, ": ");
    tg_buf_puts(out, r->name);
    tg_buf_putc(out, '\n');
}

static int xray_account_report(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                               tg_error **err)
{
    enum sort_key key;
    int asc;
    if (parse_sort(opts, &key, &asc) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "--sort takes funcid, count, min, med, 90p, 99p, max, sum or func; "
                      "--sortorder takes asc or dsc");
    acct a = {0};
    int rc = 0;
    uint64_t freq = 0;
    int have_xray = 0, have_other = 0;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        tg_trace *tr = tg_set_trace(set, t);
        if (!is_xray(tr)) {
            have_other = 1;
            continue;
        }
        uint64_t tf = trace_freq(tr);
        if (!have_xray)
            freq = tf;
        have_xray = 1;
        int ns_is_tsc = tf == 1000000000u;
        for (size_t s = 0; s < tg_trace_stream_count(tr) && rc >= 0; s++) {
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
                    continue;
                }
                int ar = 0;
                for (const tg_event *ev = run; ev < run + n && ar >= 0; ev++) {
                    /* cycles: at 1 GHz the event time in ns is the TSC itself (the
                     * reader's ns = tsc * 1e9 / frequency); otherwise the raw "tsc" field */
                    uint64_t tsc;
                    if (ns_is_tsc) {
                        tsc = (uint64_t)ev->ts;
                    } else {
                        tg_value v;
                        tsc = tg_event_field(ev, TG_SCOPE_PAYLOAD, 0, &v) == 0 ? v.v.u : 0;
                    }
                    ar = account(&a, ev, tsc);
                }
                if (ar < 0) {
                    rc = ar;
                    break;
                }
            }
            tg_stream_iter_free(si);
            if (rc == TG_ERR_NOMEM)
                break;
        }
    }
    if (have_other && !have_xray && rc >= 0) {
        freq = 1000000000u;
        const tg_event *ev;
        int r;
        while ((r = tg_iter_next(it, &ev)) > 0)
            if ((rc = account(&a, ev, (uint64_t)tg_event_trace_time_ns(ev))) < 0)
                break;
        if (r < 0 && rc >= 0)
            rc = r;
    }

    /* rows in llvm's DenseMap<int32_t> order, then std::sort by the key */
    row *rows = NULL;
    size_t *order = NULL;
    unsigned *hashes = NULL;
    if (rc != TG_ERR_NOMEM && a.n_funcs) {
        rows = malloc(a.n_funcs * sizeof *rows);
        order = malloc(a.n_funcs * sizeof *order);
        hashes = malloc(a.n_funcs * sizeof *hashes);
        if (!rows || !order || !hashes)
            rc = TG_ERR_NOMEM;
    }
    if (rc != TG_ERR_NOMEM) {
        for (size_t i = 0; i < a.n_funcs; i++)
            hashes[i] = tg_llvm_hash32((uint32_t)a.funcs[i].id);
        if (a.n_funcs && tg_llvm_densemap_order(hashes, a.n_funcs, order) < 0)
            rc = TG_ERR_NOMEM;
    }
    if (rc != TG_ERR_NOMEM) {
        for (size_t i = 0; i < a.n_funcs && !a.hist; i++)
            if (a.funcs[i].n >= 8192)
                a.hist = malloc(HIST_SIZE * sizeof *a.hist); /* NULL: quickselect only */
        for (size_t i = 0; i < a.n_funcs; i++)
            stats(&a.funcs[order[i]], freq, &rows[i], a.hist);
        size_t *idx = order; /* reuse: positions into rows */
        for (size_t i = 0; i < a.n_funcs; i++)
            idx[i] = i;
        /* llvm-xray 14 has no sort for "func" (llvm_unreachable("Not implemented")): its
         * release build prints the rows in hash-map order, and so does this. */
        sort_ctx sc = {rows, key, asc};
        if (key != K_FUNC)
            tg_std_sort(idx, a.n_funcs, row_less, &sc);
        char tmp[160];
        tg_buf_puts(out, "Functions with latencies: ");
        tg_buf_u64(out, a.n_funcs);
        tg_buf_putc(out, '\n');
        snprintf(tmp, sizeof tmp, "%9s %10s [%9s, %9s, %9s, %9s, %9s] %9s  %-12s\n", "funcid",
                 "count", "min", "med", "90p", "99p", "max", "sum", "function");
        tg_buf_puts(out, tmp);
        const char *top = opts ? tg_options_get(opts, "top") : NULL;
        size_t limit = a.n_funcs;
        if (top && atoi(top) > 0 && (size_t)atoi(top) < limit)
            limit = (size_t)atoi(top);
        for (size_t i = 0; i < limit; i++)
            put_row(out, &rows[idx[i]]);
    }
    free(rows);
    free(order);
    free(hashes);
    for (size_t i = 0; i < a.cap_stacks; i++)
        free(a.stacks[i].f);
    free(a.stacks);
    for (size_t i = 0; i < a.n_funcs; i++) {
        free(a.funcs[i].v);
        free(a.funcs[i].name);
        free(a.funcs[i].location);
    }
    free(a.funcs);
    free(a.fslot);
    free(a.hist);
    if (rc == TG_ERR_NOMEM && err && !*err)
        return TG_ERR_NOMEM;
    return rc < 0 ? rc : 0;
}

TG_REPORT_STYLE(xray) = {
    .name = "xray",
    .report = xray_account_report,
};
