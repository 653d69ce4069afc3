/* xray_graph.c - the "xray" graph style: `llvm-xray graph` byte for byte, a DOT digraph of
 * the calls (an edge per caller and callee, a vertex per function) with timing statistics.
 *
 * llvm-xray graph loads the log sorted: a stable sort of the records, in the order it loaded
 * them (the XRay reader's streams, in order), by TSC.  So this style first collects every
 * function record (TSC, thread, function id, place in the load order, kind: 25 bytes) and
 * sorts them the same way, then steps the one call-stack builder under its TG_STACK_LLVM_XRAY
 * rules over them (tg_callstack_step_rec): an
 * exit ends its thread's top frame, and its time |exit TSC - entry TSC| is one timing of the
 * edge (caller -> function; caller 0 for a thread's outermost call) and counts for the
 * function's vertex.  An exit that does not match the top is llvm-xray's error ("No matching
 * ENTRY record"); -deduce-sibling-calls first ends the frames above a matching one (each
 * timed up to the exit, on its own edge), and -keep-going skips what stays an error; without
 * it the graph is not printed (exit 1, as llvm-xray).
 *
 * Statistics as llvm-xray's: count, min, max and sum as the calls end (min and max in
 * doubles, a zero min replaced by the next value), median and percentiles the element
 * count/2, count*9/10 and count*99/100 of the sorted timings (a vertex: of its in-edges'
 * timings), all divided by the cycle frequency when the log gives one.  Numbers print as
 * raw_ostream prints doubles ("%.6e"), counts as integers.  Colours: sqrt(value / the
 * largest such value of the edges, or of the vertices) on ColorBrewer's OrRd scale,
 * interpolated in HSV between its nine colours as llvm-xray's ColorHelper does
 * (xray_color.c).  Edges and vertices print in llvm::DenseMap's bucket order of their keys,
 * which follows from the insertion order (common/llvm/llvm_order.h); it is the same on every
 * run of llvm-xray.
 * Other traces than XRay logs: their function events through the iterator, nanoseconds as
 * cycles at 1 GHz.  Memory: 25 bytes per record plus 8 per call (llvm-xray keeps both). */
#include "analysis/callstack.h"
#include "common/llvm/llvm_order.h"
#include "compat/llvm-xray/xray_color.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xray_select.h"

typedef struct rec {
    uint64_t tsc;
    int32_t tid, fid;
    uint32_t seq_hi; /* with seq: the place in the load order (rec_cmp breaks ties by it) */
    uint32_t seq;
} rec;

/* The loaded records; kinds apart (1 byte each), names by function id. */
typedef struct loaded {
    rec *r;
    uint8_t *kind; /* by seq */
    size_t n, cap, cap_kind;
    tg_hash name_of; /* function id -> index into names */
    char **names;
    size_t n_names, cap_names;
} loaded;

enum stat { ST_NONE, ST_COUNT, ST_MIN, ST_MED, ST_90P, ST_99P, ST_MAX, ST_SUM };

typedef struct tstat {
    int64_t count;
    double min, med, p90, p99, max, sum;
} tstat;

typedef struct edge {
    int32_t from, to;
    uint64_t *t; /* the timings, in the order the calls ended */
    size_t n, cap;
    tstat s;
} edge;

typedef struct vertex {
    int32_t id;
    const char *name; /* NULL: made by an edge (function 0 only) */
    tstat s;
} vertex;

typedef struct graph {
    tg_callstack *cs;
    edge *edges;
    size_t n_edges, cap_edges;
    vertex *vs;
    size_t n_vs, cap_vs;
    tg_hash edge_of, vertex_of;
    tstat edge_max, vertex_max;
} graph;

static uint8_t kind_code(tg_event_kind k)
{
    return k == TG_KIND_FUNC_ENTRY ? 1 : k == TG_KIND_FUNC_EXIT ? 2 : 3;
}

static tg_event_kind kind_of(uint8_t c)
{
    return c == 1 ? TG_KIND_FUNC_ENTRY : c == 2 ? TG_KIND_FUNC_EXIT : TG_KIND_FUNC_TAIL_EXIT;
}

static int load_one(loaded *l, const tg_event *ev, uint64_t tsc)
{
    tg_event_kind k = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (k != TG_KIND_FUNC_ENTRY && k != TG_KIND_FUNC_EXIT && k != TG_KIND_FUNC_TAIL_EXIT)
        return 0;
    if (l->n == l->cap)
        TG_TRY(tg_grow(&l->r, &l->cap, l->n + 1, sizeof *l->r));
    if (l->n == l->cap_kind)
        TG_TRY(tg_grow(&l->kind, &l->cap_kind, l->n + 1, 1));
    int32_t fid = (int32_t)(uint32_t)ev->addr;
    l->r[l->n] = (rec){tsc, ev->tid, fid, (uint32_t)(l->n >> 32), (uint32_t)l->n};
    l->kind[l->n++] = kind_code(k);
    if (k != TG_KIND_FUNC_ENTRY || tg_hash_find(&l->name_of, (uint32_t)fid))
        return 0;
    /* the name llvm-xray's FuncIdConversionHelper gives the id, from the reader */
    uint64_t *slot;
    if (tg_grow(&l->names, &l->cap_names, l->n_names + 1, sizeof *l->names) < 0 ||
        tg_hash_insert(&l->name_of, (uint32_t)fid, &slot) < 0)
        return TG_ERR_NOMEM;
    const char *nm = tg_event_func_name(ev);
    if (!(l->names[l->n_names] = strdup(nm ? nm : "")))
        return TG_ERR_NOMEM;
    *slot = l->n_names++;
    return 0;
}

static int is_xray(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "xray") == 0;
}

/* Reads the set as llvm-xray loads it: XRay logs stream after stream (the raw "tsc" payload
 * field), other traces through the iterator.  Damage: the first error kept in *err, the
 * reading goes on (as the account style). */
static int load_set(loaded *l, tg_set *set, tg_iter *it, uint64_t *freq, tg_error **err)
{
    int rc = 0, have_xray = 0, have_other = 0;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        tg_trace *tr = tg_set_trace(set, t);
        if (!is_xray(tr)) {
            have_other = 1;
            continue;
        }
        if (!have_xray)
            *freq = tg_trace_clock(tr)->frequency_hz;
        have_xray = 1;
        for (size_t s = 0; s < tg_trace_stream_count(tr); s++) {
            tg_stream_iter *si = tg_stream_iter_new(tg_trace_stream(tr, s));
            if (!si)
                return TG_ERR_NOMEM;
            const tg_event *run;
            for (;;) {
                tg_error *e = NULL;
                int n = tg_stream_iter_next_run(si, &run, &e);
                if (n == 0)
                    break;
                if (n < 0) {
                    if (err && !*err)
                        *err = e;
                    else
                        tg_error_free(e);
                    if (rc == 0)
                        rc = n;
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    tg_value v;
                    uint64_t tsc =
                        tg_event_field(&run[i], TG_SCOPE_PAYLOAD, 0, &v) == 0 ? v.v.u : 0;
                    if (load_one(l, &run[i], tsc) < 0) {
                        tg_stream_iter_free(si);
                        return TG_ERR_NOMEM;
                    }
                }
            }
            tg_stream_iter_free(si);
        }
    }
    if (have_other && !have_xray) {
        *freq = 1000000000u;
        const tg_event *ev;
        int r;
        while ((r = tg_iter_next(it, &ev)) > 0)
            if (load_one(l, ev, (uint64_t)tg_event_trace_time_ns(ev)) < 0)
                return TG_ERR_NOMEM;
        if (r < 0 && rc >= 0)
            rc = r;
    }
    return rc;
}

/* std::stable_sort by TSC: ties keep the load order. */
static int rec_cmp(const void *x, const void *y)
{
    const rec *a = x, *b = y;
    if (a->tsc != b->tsc)
        return a->tsc < b->tsc ? -1 : 1;
    uint64_t sa = (uint64_t)a->seq_hi << 32 | a->seq, sb = (uint64_t)b->seq_hi << 32 | b->seq;
    return sa < sb ? -1 : sa > sb;
}

/* ---- the graph ------------------------------------------------------------------------- */

/* Graph::operator[] of a vertex: made when new (DenseMap try_emplace). */
static vertex *vertex_at(graph *g, int32_t id)
{
    uint64_t *slot = tg_hash_find(&g->vertex_of, (uint32_t)id);
    if (slot)
        return &g->vs[*slot];
    if (tg_grow(&g->vs, &g->cap_vs, g->n_vs + 1, sizeof *g->vs) < 0 ||
        tg_hash_insert(&g->vertex_of, (uint32_t)id, &slot) < 0)
        return NULL;
    *slot = g->n_vs;
    g->vs[g->n_vs] = (vertex){.id = id};
    return &g->vs[g->n_vs++];
}

/* Graph::operator[] of an edge: its two vertices first, then the edge. */
static edge *edge_at(graph *g, int32_t from, int32_t to)
{
    if (!vertex_at(g, from) || !vertex_at(g, to))
        return NULL;
    uint64_t key = (uint64_t)(uint32_t)from << 32 | (uint32_t)to;
    uint64_t *slot = tg_hash_find(&g->edge_of, key);
    if (slot)
        return &g->edges[*slot];
    if (tg_grow(&g->edges, &g->cap_edges, g->n_edges + 1, sizeof *g->edges) < 0 ||
        tg_hash_insert(&g->edge_of, key, &slot) < 0)
        return NULL;
    *slot = g->n_edges;
    g->edges[g->n_edges] = (edge){.from = from, .to = to};
    return &g->edges[g->n_edges++];
}

static void update_stat(tstat *s, int64_t v)
{
    s->count++;
    if (s->min > (double)v || s->min == 0)
        s->min = (double)v;
    if (s->max < (double)v)
        s->max = (double)v;
    s->sum += (double)v;
}

/* One ended call of `to` under `from`, timed d cycles. */
static int add_call(graph *g, int32_t from, int32_t to, uint64_t d)
{
    edge *e = edge_at(g, from, to);
    if (!e)
        return TG_ERR_NOMEM;
    if (e->n == e->cap)
        TG_TRY(tg_grow(&e->t, &e->cap, e->n + 1, sizeof *e->t));
    e->t[e->n++] = d;
    update_stat(&e->s, (int64_t)d);
    vertex *v = vertex_at(g, to);
    if (!v)
        return TG_ERR_NOMEM;
    update_stat(&v->s, (int64_t)d);
    return 0;
}

static uint64_t tsc_diff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static int graph_error(tg_error **err, const rec *r, const char *what)
{
    return tg_err(err, TG_ERR_FORMAT,
                  "llvm-xray graph: thread %d: exit of function %d at TSC %llu: %s "
                  "(-keep-going skips such records)",
                  r->tid, r->fid, (unsigned long long)r->tsc, what);
}

/* llvm-xray's GraphRenderer::accountRecord over one record.  0, 1 for an error -keep-going
 * skips (set in *err when it is fatal), or TG_ERR_NOMEM. */
static int account_record(graph *g, const loaded *l, const rec *r, bool deduce, bool keep_going,
                          tg_error **err)
{
    size_t seq = (size_t)((uint64_t)r->seq_hi << 32 | r->seq);
    tg_event_kind k = kind_of(l->kind[seq]);
    tg_step_rec sr = {k, r->tid, (uint32_t)r->fid};
    tg_step_out out;
    int step = tg_callstack_step_rec(g->cs, TG_STACK_LLVM_XRAY, &sr, (int64_t)r->tsc, &out);
    if (step < 0)
        return step;
    if (step == TG_STEP_OPENED) {
        if (r->fid != 0 && !tg_hash_find(&g->vertex_of, (uint32_t)r->fid)) {
            vertex *v = vertex_at(g, r->fid);
            if (!v)
                return TG_ERR_NOMEM;
            uint64_t *ni = tg_hash_find(&l->name_of, (uint32_t)r->fid);
            v->name = ni ? l->names[*ni] : "";
        }
        return 0;
    }
    if (step == TG_STEP_NO_ENTRY) {
        struct tg_thread_stack *t = out.thread;
        const char *what = "No matching ENTRY record";
        if (deduce) {
            size_t d = t->depth;
            while (d > 0 && t->frames[d - 1].addr != (uint32_t)r->fid)
                d--;
            what = "No matching Entry record in stack";
            if (d > 0) {
                /* the frames above the match end at this exit, each under its caller */
                while (t->frames[t->depth - 1].addr != (uint32_t)r->fid) {
                    const struct tg_frame *f = tg_callstack_pop(t, (int64_t)r->tsc);
                    int32_t top = (int32_t)f->addr;
                    uint64_t dt = tsc_diff((uint64_t)f->entry_ns, r->tsc);
                    TG_TRY(add_call(g, (int32_t)t->frames[t->depth - 1].addr, top, dt));
                }
                step = tg_callstack_step_rec(g->cs, TG_STACK_LLVM_XRAY, &sr, (int64_t)r->tsc, &out);
                if (step < 0)
                    return step;
            }
        }
        if (step == TG_STEP_NO_ENTRY) {
            if (!keep_going)
                graph_error(err, r, what);
            return 1;
        }
    }
    if (step != TG_STEP_ENDED)
        return 0;
    struct tg_thread_stack *t = out.thread;
    int32_t caller = t->depth ? (int32_t)t->frames[t->depth - 1].addr : 0;
    return add_call(g, caller, r->fid, tsc_diff((uint64_t)out.frame->entry_ns, r->tsc));
}

/* GraphRenderer::getStats: median and percentiles of the timings v[0..n). */
static void order_stats(uint64_t *v, size_t n, tstat *s)
{
    if (n == 0)
        return;
    int64_t c = s->count;
    s->med = (double)tg_xray_select_kth(v, 0, n, (size_t)(c / 2));
    s->p90 = (double)tg_xray_select_kth(v, 0, n, (size_t)((c * 9) / 10));
    s->p99 = (double)tg_xray_select_kth(v, 0, n, (size_t)((c * 99) / 100));
}

static void max_stat(const tstat *s, tstat *m)
{
    m->count = s->count > m->count ? s->count : m->count;
    m->min = fmax(m->min, s->min);
    m->med = fmax(m->med, s->med);
    m->p90 = fmax(m->p90, s->p90);
    m->p99 = fmax(m->p99, s->p99);
    m->max = fmax(m->max, s->max);
    m->sum = fmax(m->sum, s->sum);
}

static void normalize(tstat *s, double f)
{
    s->min /= f;
    s->med /= f;
    s->p90 /= f;
    s->p99 /= f;
    s->max /= f;
    s->sum /= f;
}

static int statistics(graph *g, uint64_t freq)
{
    for (size_t i = 0; i < g->n_edges; i++) {
        order_stats(g->edges[i].t, g->edges[i].n, &g->edges[i].s);
        max_stat(&g->edges[i].s, &g->edge_max);
    }
    /* a vertex: the timings of every edge into it (edges grouped by their vertex) */
    size_t *start = calloc(g->n_vs + 1, sizeof *start);
    size_t *by_to = malloc((g->n_edges ? g->n_edges : 1) * sizeof *by_to);
    size_t *to = malloc((g->n_edges ? g->n_edges : 1) * sizeof *to);
    if (!start || !by_to || !to) {
        free(start);
        free(by_to);
        free(to);
        return TG_ERR_NOMEM;
    }
    for (size_t i = 0; i < g->n_edges; i++) {
        to[i] = (size_t)*tg_hash_find(&g->vertex_of, (uint32_t)g->edges[i].to);
        start[to[i] + 1]++;
    }
    for (size_t v = 0; v < g->n_vs; v++)
        start[v + 1] += start[v];
    size_t most = 0;
    for (size_t i = 0; i < g->n_edges; i++) {
        by_to[start[to[i]]++] = i;
    }
    for (size_t v = g->n_vs; v > 0; v--) /* back to the groups' starts */
        start[v] = start[v - 1];
    start[0] = 0;
    for (size_t v = 0; v < g->n_vs; v++) {
        size_t n = 0;
        for (size_t j = start[v]; j < start[v + 1]; j++)
            n += g->edges[by_to[j]].n;
        most = n > most ? n : most;
    }
    uint64_t *tmp = malloc((most ? most : 1) * sizeof *tmp);
    int rc = tmp ? 0 : TG_ERR_NOMEM;
    for (size_t v = 0; v < g->n_vs && rc == 0; v++) {
        if (g->vs[v].id == 0)
            continue;
        size_t n = 0;
        for (size_t j = start[v]; j < start[v + 1]; j++) {
            const edge *e = &g->edges[by_to[j]];
            memcpy(tmp + n, e->t, e->n * sizeof *tmp);
            n += e->n;
        }
        order_stats(tmp, n, &g->vs[v].s);
        max_stat(&g->vs[v].s, &g->vertex_max);
    }
    free(tmp);
    free(start);
    free(by_to);
    free(to);
    if (rc < 0)
        return rc;
    if (freq) {
        for (size_t i = 0; i < g->n_edges; i++)
            normalize(&g->edges[i].s, (double)freq);
        for (size_t i = 0; i < g->n_vs; i++)
            normalize(&g->vs[i].s, (double)freq);
        normalize(&g->edge_max, (double)freq);
        normalize(&g->vertex_max, (double)freq);
    }
    return 0;
}

/* ---- output ---------------------------------------------------------------------------- */

static double stat_value(const tstat *s, enum stat k)
{
    switch (k) {
    case ST_COUNT: return (double)s->count;
    case ST_MIN: return s->min;
    case ST_MED: return s->med;
    case ST_90P: return s->p90;
    case ST_99P: return s->p99;
    case ST_MAX: return s->max;
    case ST_SUM: return s->sum;
    default: return 0.0;
    }
}

/* raw_ostream's text of a statistic: an integer count, a double as "%.6e". */
static void put_stat(tg_buf *out, const tstat *s, enum stat k)
{
    if (k == ST_NONE)
        return;
    if (k == ST_COUNT) {
        tg_buf_printf(out, "%lld", (long long)s->count);
        return;
    }
    double v = stat_value(s, k);
    if (isnan(v))
        tg_buf_puts(out, "nan");
    else if (isinf(v))
        tg_buf_puts(out, signbit(v) ? "-INF" : "INF");
    else
        tg_buf_printf(out, "%.6e", v);
}

/* ColorHelper::getColorString of a point of [0, 1], as a DOT attribute. */
static void put_color(tg_buf *out, double p)
{
    uint8_t rgb[3];
    tg_xray_color_of(p, rgb);
    tg_buf_printf(out, " color=\"#%02X%02X%02X\"", rgb[0], rgb[1], rgb[2]);
}

/* A vertex label: XML's &, < and > escaped, names over 40 bytes cut to 40 and "...". */
static void put_name(tg_buf *out, const char *name)
{
    size_t n = strlen(name);
    size_t cut = n > 40 ? 40 : n;
    for (size_t i = 0; i < cut; i++) {
        if (name[i] == '&')
            tg_buf_puts(out, "&amp;");
        else if (name[i] == '<')
            tg_buf_puts(out, "&lt;");
        else if (name[i] == '>')
            tg_buf_puts(out, "&gt;");
        else
            tg_buf_putc(out, name[i]);
    }
    if (n > 40)
        tg_buf_puts(out, "...");
}

static int put_graph(graph *g, tg_buf *out, const enum stat k[4])
{
    enum stat el = k[0], ec = k[1], vl = k[2], vc = k[3];
    size_t n = g->n_edges > g->n_vs ? g->n_edges : g->n_vs;
    unsigned *hashes = malloc((n ? n : 1) * sizeof *hashes);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!hashes || !order) {
        free(hashes);
        free(order);
        return TG_ERR_NOMEM;
    }
    int rc = 0;
    tg_buf_puts(out, "digraph xray {\n");
    if (vl != ST_NONE)
        tg_buf_puts(out, "node [shape=record];\n");
    for (size_t i = 0; i < g->n_edges; i++)
        hashes[i] = tg_llvm_hash_combine(tg_llvm_hash32((uint32_t)g->edges[i].from),
                                         tg_llvm_hash32((uint32_t)g->edges[i].to));
    if (g->n_edges && (rc = tg_llvm_densemap_order(hashes, g->n_edges, order)) < 0)
        goto done;
    for (size_t i = 0; i < g->n_edges; i++) {
        const edge *e = &g->edges[order[i]];
        tg_buf_printf(out, "F%d -> F%d [label=\"", e->from, e->to);
        put_stat(out, &e->s, el);
        tg_buf_putc(out, '"');
        if (ec != ST_NONE)
            put_color(out, sqrt(stat_value(&e->s, ec) / stat_value(&g->edge_max, ec)));
        tg_buf_puts(out, "];\n");
    }
    for (size_t i = 0; i < g->n_vs; i++)
        hashes[i] = tg_llvm_hash32((uint32_t)g->vs[i].id);
    if (g->n_vs && (rc = tg_llvm_densemap_order(hashes, g->n_vs, order)) < 0)
        goto done;
    for (size_t i = 0; i < g->n_vs; i++) {
        const vertex *v = &g->vs[order[i]];
        if (v->id == 0)
            continue;
        tg_buf_printf(out, "F%d [label=\"%s", v->id, vl != ST_NONE ? "{" : "");
        put_name(out, v->name ? v->name : "");
        if (vl != ST_NONE) {
            tg_buf_putc(out, '|');
            put_stat(out, &v->s, vl);
            tg_buf_puts(out, "}\"");
        } else {
            tg_buf_putc(out, '"');
        }
        if (vc != ST_NONE)
            put_color(out, sqrt(stat_value(&v->s, vc) / stat_value(&g->vertex_max, vc)));
        tg_buf_puts(out, "];\n");
    }
    tg_buf_puts(out, "}\n");
done:
    free(hashes);
    free(order);
    return rc;
}

/* ---- the style ------------------------------------------------------------------------- */

static const char *const stat_names[] = {"none", "count", "min", "med", "90p", "99p", "max", "sum"};

static enum stat stat_of(const tg_options *opts, const char *key)
{
    const char *v = opts ? tg_options_get(opts, key) : NULL;
    for (size_t i = 0; v && i < sizeof stat_names / sizeof *stat_names; i++)
        if (strcmp(v, stat_names[i]) == 0)
            return (enum stat)i;
    return ST_NONE;
}

static int xray_graph(tg_set *set, tg_iter *it, const char *func, const tg_options *opts,
                      tg_buf *out, tg_error **err)
{
    if (func)
        return tg_err(err, TG_ERR_USAGE,
                      "the xray graph style takes no FUNC (llvm-xray graph graphs every call): "
                      "'%s'",
                      func);
    const enum stat k[4] = {stat_of(opts, "edge-label"), stat_of(opts, "color-edges"),
                            stat_of(opts, "vertex-label"), stat_of(opts, "color-vertices")};
    bool deduce = tg_options_flag(opts, "deduce-sibling-calls");
    bool keep_going = tg_options_flag(opts, "keep-going");
    loaded l = {0};
    graph g = {0};
    uint64_t freq = 0;
    tg_error *fatal = NULL;
    int rc = load_set(&l, set, it, &freq, err);
    if (rc != TG_ERR_NOMEM && !(g.cs = tg_callstack_new(NULL, NULL)))
        rc = TG_ERR_NOMEM;
    if (rc != TG_ERR_NOMEM) {
        tg_callstack_set_rules(g.cs, TG_STACK_LLVM_XRAY);
        if (l.n) /* an empty log has no records array: qsort's NULL is undefined */
            qsort(l.r, l.n, sizeof *l.r, rec_cmp);
        for (size_t i = 0; i < l.n; i++) {
            int r = account_record(&g, &l, &l.r[i], deduce, keep_going, &fatal);
            if (r == TG_ERR_NOMEM || fatal) {
                rc = r == TG_ERR_NOMEM ? r : TG_ERR_FORMAT;
                break;
            }
        }
    }
    if (rc != TG_ERR_NOMEM && !fatal) {
        if (statistics(&g, freq) < 0 || put_graph(&g, out, k) < 0)
            rc = TG_ERR_NOMEM;
    }
    if (fatal) { /* llvm-xray prints no graph: the error goes before any damage */
        if (err && *err)
            tg_error_free(*err);
        if (err)
            *err = fatal;
        else
            tg_error_free(fatal);
    }
    tg_callstack_free(g.cs);
    for (size_t i = 0; i < g.n_edges; i++)
        free(g.edges[i].t);
    free(g.edges);
    free(g.vs);
    tg_hash_free(&g.edge_of);
    tg_hash_free(&g.vertex_of);
    for (size_t i = 0; i < l.n_names; i++)
        free(l.names[i]);
    free(l.names);
    free(l.r);
    free(l.kind);
    tg_hash_free(&l.name_of);
    if (rc == TG_ERR_NOMEM && err && !*err)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return rc < 0 ? rc : 0;
}

#define STAT_CHOICES "none|count|min|med|90p|99p|max|sum"
/* llvm-xray graph's spellings (LLVM's command line: -edge-label=sum, -e sum, -k, -m BIN,
 * -instr_map=BIN; TG_OPT_SINGLE_DASH); -instr_map is opening's instr-map, declared again here
 * for its spellings, as the account style does. */
#define XRAY_LLVM NULL, TG_OPT_SINGLE_DASH

static const tg_option_decl xray_graph_options[] = {
    {"keep-going", TG_OPT_FLAG, NULL,
     "skip the records llvm-xray graph stops at (an exit with no matching entry) "
     "(llvm-xray graph -keep-going)",
     NULL, NULL, 0, 0, 'k', XRAY_LLVM},
    {"deduce-sibling-calls", TG_OPT_FLAG, NULL,
     "an exit below the top of the stack ends the frames above it (llvm-xray graph "
     "-deduce-sibling-calls)",
     NULL, NULL, 0, 0, 'd', XRAY_LLVM},
    {"edge-label", TG_OPT_CHOICE, "none",
     "label edges with a statistic of their calls: none, count, min, med, 90p, 99p, max, sum "
     "(llvm-xray graph -edge-label)",
     "STAT", STAT_CHOICES, 0, 0, 'e', XRAY_LLVM},
    {"color-edges", TG_OPT_CHOICE, "none",
     "colour edges by this statistic (llvm-xray graph -color-edges)", "STAT", STAT_CHOICES, 0, 0,
     'c', XRAY_LLVM},
    {"vertex-label", TG_OPT_CHOICE, "none",
     "label vertices with this statistic of the function's calls (llvm-xray graph "
     "-vertex-label)",
     "STAT", STAT_CHOICES, 0, 0, 'v', XRAY_LLVM},
    {"color-vertices", TG_OPT_CHOICE, "none",
     "colour vertices by this statistic (llvm-xray graph -color-vertices)", "STAT", STAT_CHOICES, 0,
     0, 'b', XRAY_LLVM},
    {"output", TG_OPT_TEXT, "-", "write the graph to FILE, - for stdout (llvm-xray graph -output)",
     "FILE", NULL, 0, 0, 'o', XRAY_LLVM},
    {"instr-map", TG_OPT_TEXT, NULL, "the instrumented binary (llvm-xray -instr_map)", "BINARY",
     NULL, 0, 0, 'm', "instr_map", TG_OPT_SINGLE_DASH},
    {0},
};

TG_GRAPH_STYLE(xray) = {
    .name = "xray",
    .graph = xray_graph,
    .options = xray_graph_options,
};
