/* perf_report.c - `report --style=perf`: what `perf report --stdio` prints (perf 6.1).
 *
 * One section per event of the file in the file's order: the samples of the event make
 * entries (perf_hist.c) keyed by the sort keys, by default the thread's name, the object
 * the ip lies in and the symbol (or, without one, the address: map-relative in a
 * user-space object, the ip in the kernel's); --sort takes comm, pid, dso and sym in any
 * order.  On a file recorded with call chains perf's defaults are those printed: the
 * Children column (each frame's entry cumulates the periods of the samples under it) and
 * under each entry its call graph (perf_callchain.c) with callers first, or with
 * --no-children the entries' own samples with their callees first; -g none prints no
 * graph, -g caller/callee picks the order, -g graph,PERCENT the threshold.  Columns are as
 * wide as their widest value.  The threads and maps are perf's session's (perf_session.c),
 * the symbols those of the objects' ELF files (perf_symbols.c, under --symfs).  perf ends
 * with a tip chosen at random ("# (Tip: ...)"), which this style leaves out.  Whether the
 * file has call chains is told by its first sample (perf looks at every event's attr). */
#include "compat/perf/perf_hist.h"
#include "common/perf/perf_chain_walk.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pr_event {
    const tg_event_class *cls;
    char name[128];
    ph_hists h;
    bool layout_known; /* where its samples' period and chain are, found at the first */
    tg_scope scope;
    long period, chain; /* field indexes, -1: none */
} pr_event;

typedef struct pr_state {
    perf_session s;
    perf_symbols syms;
    ph_config cfg;
    bool cfg_known; /* children/graph settled by the first sample */
    bool want_children, want_graph;
    bool order_given; /* -g caller/callee said */
    pr_event *events;
    size_t n_events, cap_events;
    uint64_t lost_samples;
    pcc_frame *frames; /* the current sample's chain */
    size_t cap_frames;
    size_t *seen; /* entries the current sample's chain added to (perf's he_cache) */
    size_t cap_seen;
    /* chains waiting to be added to their entries' call graphs (pr_defer) */
    pcc_frame *pend_frames;
    size_t n_pend_frames, cap_pend_frames;
    struct pr_pending *pending;
    size_t n_pending, cap_pending;
    char **jit; /* "[JIT] tid N" names (owned) */
    size_t n_jit, cap_jit;
    struct pr_short *shorts; /* short_dso's answers, by the session's dso name */
    size_t n_shorts, cap_shorts;
    bool nomem;
} pr_state;

static pr_event *event_of(pr_state *st, const tg_event_class *cls)
{
    for (size_t i = 0; i < st->n_events; i++)
        if (st->events[i].cls == cls)
            return &st->events[i];
    if (tg_grow(&st->events, &st->cap_events, st->n_events + 1, sizeof *st->events) < 0) {
        st->nomem = true;
        return NULL;
    }
    pr_event *e = &st->events[st->n_events++];
    memset(e, 0, sizeof *e);
    e->cls = cls;
    const char *sys = tg_event_class_system(cls);
    snprintf(e->name, sizeof e->name, "%s%s%s", sys ? sys : "", sys ? ":" : "",
             tg_event_class_name(cls));
    return e;
}

/* The period's and the chain's place among the class's sample fields (read by index after,
 * the thread and ip are in the event itself). */
static void find_layout(pr_event *e, const tg_event *ev)
{
    e->layout_known = true;
    e->scope = tg_event_class_system(e->cls) ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
    e->period = e->chain = -1;
    size_t n = tg_event_field_count(ev, e->scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, e->scope, i, &v) < 0 || !v.name)
            continue;
        if (strcmp(v.name, "period") == 0 && (v.type == TG_VAL_UINT || v.type == TG_VAL_SINT))
            e->period = (long)i;
        else if (strcmp(v.name, "callchain") == 0 && v.type == TG_VAL_ARRAY)
            e->chain = (long)i;
    }
}

typedef struct pr_short {
    const char *dso, *name;
} pr_short;

/* perf's dso short name: the file's base name, "[JIT] tid N" for a JIT's symbol file */
static const char *short_dso_of(pr_state *st, const char *dso)
{
    if (dso[0] != '/')
        return dso;
    int tid, end = 0;
    if (sscanf(dso, "/tmp/perf-%d.map%n", &tid, &end) == 1 && end && !dso[end]) {
        char name[32];
        snprintf(name, sizeof name, "[JIT] tid %d", tid);
        for (size_t i = 0; i < st->n_jit; i++)
            if (strcmp(st->jit[i], name) == 0)
                return st->jit[i];
        char *copy = strdup(name);
        if (!copy || tg_grow(&st->jit, &st->cap_jit, st->n_jit + 1, sizeof *st->jit) < 0) {
            free(copy);
            st->nomem = true;
            return strrchr(dso, '/') + 1;
        }
        return st->jit[st->n_jit++] = copy;
    }
    return strrchr(dso, '/') + 1;
}

/* short_dso_of, asked once per object (the session's names are its own, one per file) */
static const char *short_dso(pr_state *st, const char *dso)
{
    for (size_t i = 0; i < st->n_shorts; i++)
        if (st->shorts[i].dso == dso)
            return st->shorts[i].name;
    const char *name = short_dso_of(st, dso);
    if (tg_grow(&st->shorts, &st->cap_shorts, st->n_shorts + 1, sizeof *st->shorts) == 0)
        st->shorts[st->n_shorts++] = (pr_short){dso, name};
    return name;
}

/* the object's rank: the order in which the session named it (perf's dso addresses) */
static uint32_t dso_rank(const perf_session *s, const ps_map *m)
{
    if (!m)
        return 0;
    for (size_t i = 0; i < s->n_names; i++)
        if (s->names[i] == m->dso)
            return (uint32_t)i + 1;
    return (uint32_t)s->n_names + 1;
}

/* The chain's frames, callee first as the file holds them (markers skipped, each
 * resolved in the kernel's maps or the process's as the last marker said). */
static size_t chain_frames(pr_state *st, const tg_value *chain, int32_t pid)
{
    size_t n = 0;
    bool kernel = false;
    if (tg_grow(&st->frames, &st->cap_frames, chain->count, sizeof *st->frames) < 0) {
        st->nomem = true;
        return 0;
    }
    for (size_t i = 0; i < chain->count; i++) {
        tg_value v;
        if (tg_value_child(chain, i, &v) < 0)
            break;
        uint64_t ip = v.v.u;
        if (ip >= PERF_CHAIN_CONTEXT_MAX) {
            int space = perf_chain_context(ip);
            if (space == -2)
                return 0; /* perf drops a corrupt chain whole */
            kernel = space == 1;
            continue;
        }
        const ps_sym *sym;
        const ps_map *m = perf_resolve(&st->s, &st->syms, pid, kernel, ip, &sym);
        st->frames[n++] =
            (pcc_frame){ip, sym ? sym->start : 0, sym ? sym->name : NULL, dso_rank(&st->s, m)};
    }
    if (st->cfg.caller)
        for (size_t i = 0; i < n / 2; i++) {
            pcc_frame t = st->frames[i];
            st->frames[i] = st->frames[n - 1 - i];
            st->frames[n - 1 - i] = t;
        }
    return n;
}

/* perf report's defaults follow the file: no call chains, no Children column nor graph */
static void settle_config(pr_state *st, bool has_chain)
{
    st->cfg_known = true;
    st->cfg.children = st->want_children && has_chain;
    st->cfg.graph = st->want_graph && has_chain;
    if (!st->order_given)
        st->cfg.caller = st->cfg.children;
}

static bool seen_before(pr_state *st, size_t n_seen, size_t idx)
{
    for (size_t i = 0; i < n_seen; i++)
        if (st->seen[i] == idx)
            return true;
    return false;
}

/* A chain to add to an entry's call graph: frames off.. of pend_frames. */
typedef struct pr_pending {
    size_t event, entry, seq;
    size_t off, n;
    uint64_t period;
} pr_pending;

/* A call graph takes chains in any order (its shape and hits are those of the set of
 * chains), but adding them one sample after the other walks every entry's tree in turn,
 * a cache miss a level.  So the chains of many samples are kept (their frames once per
 * sample), then added entry by entry, each entry's by its frames: one tree at a time, down
 * paths the chain before mostly took. */
static int pending_cmp(const void *pa, const void *pb, void *ctx)
{
    const pr_pending *a = pa, *b = pb;
    (void)ctx;
    if (a->event != b->event)
        return a->event < b->event ? -1 : 1;
    if (a->entry != b->entry)
        return a->entry < b->entry ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A stable merge sort with a context (qsort_r is not C11). */
static void pending_sort(pr_pending *v, pr_pending *tmp, size_t n, const pcc_frame *frames)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    pending_sort(v, tmp, half, frames);
    pending_sort(v + half, tmp, n - half, frames);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        tmp[k++] = pending_cmp(&v[j], &v[i], (void *)frames) < 0 ? v[j++] : v[i++];
    while (i < half)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

static void pr_flush(pr_state *st)
{
    if (!st->n_pending)
        return;
    pr_pending *tmp = malloc(st->n_pending * sizeof *tmp);
    if (tmp)
        pending_sort(st->pending, tmp, st->n_pending, st->pend_frames);
    free(tmp); /* without room: added in the samples' order, as well */
    for (size_t i = 0; i < st->n_pending; i++) {
        const pr_pending *p = &st->pending[i];
        pcc_append(&st->events[p->event].h.v[p->entry].chain, st->pend_frames + p->off, p->n,
                   p->period);
    }
    st->n_pending = st->n_pend_frames = 0;
}

/* Keeps the current sample's frames (st->frames, n of them) for pr_defer: their offset. */
static size_t pr_keep_frames(pr_state *st, size_t n)
{
    if (st->n_pend_frames + n > ((size_t)1 << 18))
        pr_flush(st);
    if (tg_grow(&st->pend_frames, &st->cap_pend_frames, st->n_pend_frames + n,
                sizeof *st->pend_frames) < 0) {
        st->nomem = true;
        return SIZE_MAX;
    }
    size_t off = st->n_pend_frames;
    memcpy(st->pend_frames + off, st->frames, n * sizeof *st->frames);
    st->n_pend_frames += n;
    return off;
}

/* Adds frames off.. (n of them) of the kept ones to the graph of entry of event, later. */
static void pr_defer(pr_state *st, size_t event, size_t entry, size_t off, size_t n,
                     uint64_t period)
{
    if (off == SIZE_MAX || !n)
        return;
    if (tg_grow(&st->pending, &st->cap_pending, st->n_pending + 1, sizeof *st->pending) < 0) {
        st->nomem = true;
        return;
    }
    st->pending[st->n_pending] = (pr_pending){event, entry, st->n_pending, off, n, period};
    st->n_pending++;
}

/* perf's hist_entry_iter__cumulative: each frame's entry once per sample */
static void add_children(pr_state *st, size_t event, const ph_entry *self_tmpl, size_t self,
                         size_t n, size_t kept, int32_t pid, uint64_t period)
{
    ph_hists *h = &st->events[event].h;
    if (tg_grow(&st->seen, &st->cap_seen, n + 1, sizeof *st->seen) < 0) {
        st->nomem = true;
        return;
    }
    size_t n_seen = 0;
    st->seen[n_seen++] = self;
    /* perf's fill_callchain_info sets the level only for a frame in a map: one without
     * keeps the level of the frame before (the sample's at first) */
    char level = self_tmpl->level;
    for (size_t i = 0; i < n; i++) {
        const pcc_frame *f = &st->frames[i];
        bool kernel = f->ip >> 63;
        /* the map found when the chain was read (dso_rank 0: none); its symbol again only
         * where there was one */
        const ps_sym *sym = NULL;
        const ps_map *m = !f->dso_rank ? NULL
                          : f->sym     ? perf_resolve(&st->s, &st->syms, pid, kernel, f->ip, &sym)
                                       : perf_session_map(&st->s, pid, kernel, f->ip);
        ph_entry t = *self_tmpl;
        t.dso = m ? short_dso(st, m->dso) : NULL;
        t.dso_rank = f->dso_rank;
        t.sym = sym;
        t.ip = f->ip;
        if (m)
            level = kernel ? 'k' : '.';
        t.level = level;
        long idx = ph_entry_of(h, &st->cfg, &t);
        if (idx < 0 || seen_before(st, n_seen, (size_t)idx))
            continue;
        st->seen[n_seen++] = (size_t)idx;
        h->v[idx].period_acc += period;
        if (st->cfg.graph)
            pr_defer(st, event, (size_t)idx, kept + i, n - i, period);
    }
}

static void add_sample(pr_state *st, const tg_event *ev)
{
    pr_event *e = event_of(st, tg_event_class_of(ev));
    if (!e)
        return;
    if (!e->layout_known)
        find_layout(e, ev);
    int32_t pid = ev->pid, tid = ev->tid;
    uint64_t ip = ev->addr, period = 1;
    tg_value v, chain;
    if (e->period >= 0 && tg_event_field(ev, e->scope, (size_t)e->period, &v) == 0)
        period = v.v.u;
    bool has_chain = e->chain >= 0 && tg_event_field(ev, e->scope, (size_t)e->chain, &chain) == 0 &&
                     chain.type == TG_VAL_ARRAY;
    if (!st->cfg_known)
        settle_config(st, has_chain);
    ps_thread *t = perf_session_thread(&st->s, pid, tid);
    int space = perf_sample_space(ev); /* by the sample's cpumode */
    const ps_sym *sym = NULL;
    const ps_map *m = space < 0 ? NULL : perf_resolve(&st->s, &st->syms, pid, space > 0, ip, &sym);
    uint64_t addr = perf_map_addr(m, ip);
    ph_entry tmpl = {
        .comm = t ? t->comm : ":-1",
        .tid = tid,
        .dso = m ? short_dso(st, m->dso) : NULL,
        .dso_rank = dso_rank(&st->s, m),
        .sym = sym,
        .ip = addr,
        .level = space > 0    ? 'k'
                 : space == 0 ? '.'
                              : 'H',
    };
    long self = ph_entry_of(&e->h, &st->cfg, &tmpl);
    if (self < 0)
        return;
    e->h.samples++;
    e->h.total += period;
    e->h.v[self].period += period;
    e->h.v[self].period_acc += period;
    if (!has_chain || (!st->cfg.graph && !st->cfg.children))
        return;
    size_t n = chain_frames(st, &chain, pid);
    size_t event = (size_t)(e - st->events);
    size_t kept = st->cfg.graph ? pr_keep_frames(st, n) : SIZE_MAX;
    if (st->cfg.graph)
        pr_defer(st, event, (size_t)self, kept, n, period);
    if (st->cfg.children)
        add_children(st, event, &tmpl, (size_t)self, n, kept, pid, period);
}

static void put_chars(tg_buf *out, char c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tg_buf_putc(out, c);
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

static const char *const key_header[] = {"Command", "    Pid:Command", "Shared Object", "Symbol"};

/* the thread's name as it is at the end (perf's thread__comm_str of an entry's thread) */
static const char *thread_comm(pr_state *st, int32_t tid)
{
    ps_thread *t = perf_session_thread(&st->s, -1, tid);
    return t ? t->comm : "";
}

/* perf's hists__calc_col_len over the entries (the command's width from the threads' names
 * at the end) */
static void column_widths(pr_state *st, const ph_hists *h, size_t *w)
{
    bool has_dso = false;
    for (size_t k = 0; k < st->cfg.n_keys; k++) {
        w[k] = strlen(key_header[st->cfg.keys[k]]);
        has_dso |= st->cfg.keys[k] == PH_DSO;
    }
    bool unresolved = false;
    for (size_t i = 0; i < h->n; i++) {
        const ph_entry *x = &h->v[i];
        for (size_t k = 0; k < st->cfg.n_keys; k++) {
            switch (st->cfg.keys[k]) {
            case PH_COMM: w[k] = max_size(w[k], strlen(thread_comm(st, x->tid))); break;
            case PH_PID: w[k] = max_size(w[k], strlen(thread_comm(st, x->tid)) + 8); break;
            case PH_DSO:
                if (x->dso)
                    w[k] = max_size(w[k], strlen(x->dso));
                break;
            case PH_SYM:
                w[k] = max_size(w[k], x->sym ? strlen(x->sym->name) + 4 : 16 + 4 + 2);
                unresolved |= !x->sym;
                break;
            }
        }
    }
    /* an entry without a symbol widens the object column to an address's 16 digits
     * (perf's hists__set_unres_dso_col_len) */
    for (size_t k = 0; has_dso && unresolved && k < st->cfg.n_keys; k++)
        if (st->cfg.keys[k] == PH_DSO && w[k] < 16)
            w[k] = 16;
}

static void put_key(pr_state *st, tg_buf *out, const ph_entry *x, ph_key key, size_t w)
{
    switch (key) {
    case PH_COMM: tg_buf_printf(out, "%-*.*s", (int)w, (int)w, x->comm); break;
    case PH_PID: {
        int cw = (int)(w > 7 ? w : 7) - 8;
        tg_buf_printf(out, "%7d:%-*.*s", (int)x->tid, cw < 0 ? 0 : cw, cw < 0 ? 0 : cw,
                      thread_comm(st, x->tid));
        break;
    }
    case PH_DSO: tg_buf_printf(out, "%-*.*s", (int)w, (int)w, x->dso ? x->dso : "[unknown]"); break;
    case PH_SYM:
        tg_buf_printf(out, "[%c] ", x->level);
        if (x->sym)
            tg_buf_puts(out, x->sym->name);
        else if (x->ip) /* "%-#.*llx" with 16 digits: no "0x" before a zero */
            tg_buf_printf(out, "0x%016" PRIx64, x->ip);
        else
            tg_buf_puts(out, "0000000000000000");
        break;
    }
}

static const char *comm_of(void *st, int32_t tid) { return thread_comm(st, tid); }

/* --format json: the sections as one document (perf_report_json.c) */
static int print_json(pr_state *st, tg_buf *out, tg_error **err)
{
    json_object *doc = json_object_new_object(), *events = json_object_new_array();
    json_object_object_add(doc, "lost_samples", json_object_new_int64((int64_t)st->lost_samples));
    json_object_object_add(doc, "events", events);
    for (size_t i = 0; i < st->n_events; i++) {
        pr_event *e = &st->events[i];
        if (!e->h.samples)
            continue;
        ph_sort(&e->h, &st->cfg);
        json_object_array_add(events, ph_event_json(e->name, &e->h, &st->cfg, comm_of, st));
    }
    return tg_json_doc_put(out, doc, err);
}

static void put_percent(tg_buf *out, uint64_t v, uint64_t total)
{
    tg_buf_printf(out, "  %7.2f%%", total ? 100.0 * (double)v / (double)total : 0.0);
}

static void print_event(pr_state *st, tg_buf *out, pr_event *e, bool skip_first)
{
    ph_hists *h = &e->h;
    ph_sort(h, &st->cfg);
    size_t w[8];
    column_widths(st, h, w);
    /* perf's convert_unit: thousands above 1000 as K, M, G */
    uint64_t samples = h->samples;
    char unit = ' ';
    for (const char *u = "KMG"; *u && samples > 1000; u++) {
        samples /= 1000;
        unit = *u;
    }
    tg_buf_printf(out, "# Samples: %" PRIu64 "%c of event '%s'\n", samples, unit, e->name);
    tg_buf_printf(out, "# Event count (approx.): %" PRIu64 "\n#\n", h->total);
    tg_buf_puts(out, st->cfg.children ? "# Children      Self" : "# Overhead");
    for (size_t k = 0; k < st->cfg.n_keys; k++)
        tg_buf_printf(out, "  %-*s", (int)w[k], key_header[st->cfg.keys[k]]);
    tg_buf_puts(out, st->cfg.children ? "\n# ........  ........" : "\n# ........");
    for (size_t k = 0; k < st->cfg.n_keys; k++) {
        tg_buf_puts(out, "  ");
        put_chars(out, '.', w[k]);
    }
    tg_buf_puts(out, "\n#\n");
    uint64_t min_hit = (uint64_t)((double)h->total * (st->cfg.min_percent / 100.0));
    for (size_t i = 0; i < h->n; i++) {
        ph_entry *x = &h->v[i];
        if (st->cfg.children)
            put_percent(out, x->period_acc, h->total);
        put_percent(out, x->period, h->total);
        for (size_t k = 0; k < st->cfg.n_keys; k++) {
            tg_buf_puts(out, "  ");
            put_key(st, out, x, st->cfg.keys[k], w[k]);
        }
        tg_buf_putc(out, '\n');
        if (st->cfg.graph) {
            pcc_sort(&x->chain, min_hit);
            pcc_print_graph(out, &x->chain, h->total, st->cfg.children ? x->period_acc : x->period,
                            skip_first);
            st->nomem |= x->chain.nomem;
        }
    }
    tg_buf_puts(out, "\n\n");
}

/* --sort: perf's keys of the default sort mode */
static int parse_sort(pr_state *st, const char *spec, tg_error **err)
{
    static const struct {
        const char *name;
        ph_key key;
    } names[] = {
        {"comm", PH_COMM}, {"pid", PH_PID}, {"dso", PH_DSO}, {"sym", PH_SYM}, {"symbol", PH_SYM}};
    st->cfg.n_keys = 0;
    const char *p = spec;
    while (*p) {
        size_t len = strcspn(p, ",");
        size_t i = 0;
        while (i < sizeof names / sizeof *names &&
               (strlen(names[i].name) != len || strncmp(names[i].name, p, len) != 0))
            i++;
        if (i == sizeof names / sizeof *names)
            return tg_err(err, TG_ERR_USAGE,
                          "--sort: unknown key '%.*s' (this style sorts by comm, pid, dso, sym)",
                          (int)len, p);
        if (st->cfg.n_keys == sizeof st->cfg.keys / sizeof *st->cfg.keys)
            return tg_err(err, TG_ERR_USAGE, "--sort: too many keys");
        st->cfg.keys[st->cfg.n_keys++] = names[i].key;
        p += len;
        if (*p == ',')
            p++;
    }
    if (!st->cfg.n_keys)
        return tg_err(err, TG_ERR_USAGE, "--sort: no key given");
    return 0;
}

/* -g: perf's print type, threshold, order (graph, none; caller, callee; a percentage) */
static int parse_call_graph(pr_state *st, const char *spec, tg_error **err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    bool threshold_set = false;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *end;
        if (strcmp(tok, "graph") == 0) {
            st->want_graph = true;
        } else if (strcmp(tok, "none") == 0) {
            st->want_graph = false;
        } else if (strcmp(tok, "caller") == 0 || strcmp(tok, "callee") == 0) {
            st->cfg.caller = tok[4] == 'e' && tok[5] == 'r';
            st->order_given = true;
        } else if (strcmp(tok, "function") == 0 || strcmp(tok, "percent") == 0) {
            continue; /* perf's defaults */
        } else if (!threshold_set && (st->cfg.min_percent = strtod(tok, &end), end != tok) &&
                   !*end) {
            threshold_set = true;
        } else {
            return tg_err(err, TG_ERR_USAGE,
                          "-g: '%s' is not supported (this style takes graph, none, caller, "
                          "callee and a threshold percentage)",
                          tok);
        }
    }
    return 0;
}

static int configure(pr_state *st, const tg_options *opts, tg_error **err)
{
    st->cfg.keys[0] = PH_COMM;
    st->cfg.keys[1] = PH_DSO;
    st->cfg.keys[2] = PH_SYM;
    st->cfg.n_keys = 3;
    st->cfg.min_percent = 0.5;
    st->want_children = !(opts && tg_options_flag(opts, "no-children"));
    st->want_graph = true;
    const char *v = opts ? tg_options_get(opts, "sort") : NULL;
    int rc = v ? parse_sort(st, v, err) : 0;
    v = opts ? tg_options_get(opts, "call-graph") : NULL;
    if (rc == 0 && v)
        rc = parse_call_graph(st, v, err);
    return rc;
}

static int report_perf(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                       tg_error **err)
{
    pr_state st = {0};
    perf_symbols_configure(&st.syms, opts);
    int rc = configure(&st, opts, err);
    const char *sort = opts ? tg_options_get(opts, "sort") : NULL;
    bool skip_first = sort && strncmp(sort, "sym", 3) == 0;
    /* the sections in the file's order of events, also those without samples first seen */
    for (size_t i = 0; rc == 0 && i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_class_count(t); k++) {
            const tg_event_class *c = tg_trace_class(t, k);
            if (strncmp(tg_event_class_name(c), "PERF_RECORD_", 12) != 0)
                event_of(&st, c);
        }
    }
    const tg_event *ev;
    while (rc == 0 && (rc = tg_iter_next(it, &ev)) > 0) {
        perf_session_update(&st.s, ev);
        const char *name = tg_event_name(ev);
        if (strcmp(name, "PERF_RECORD_LOST_SAMPLES") == 0)
            st.lost_samples += tg_event_lost_count(ev);
        else if (strncmp(name, "PERF_RECORD_", 12) != 0)
            add_sample(&st, ev);
        rc = 0;
    }
    pr_flush(&st);
    const char *format = opts ? tg_options_get(opts, "format") : NULL;
    if (rc >= 0 && format && strcmp(format, "json") == 0) {
        rc = print_json(&st, out, err);
    } else if (rc >= 0) {
        tg_buf_puts(out, "# To display the perf.data header info, please use "
                         "--header/--header-only options.\n#\n#\n");
        tg_buf_printf(out, "# Total Lost Samples: %" PRIu64 "\n#\n", st.lost_samples);
        for (size_t i = 0; i < st.n_events; i++)
            if (st.events[i].h.samples)
                print_event(&st, out, &st.events[i], skip_first);
    }
    bool nomem = st.nomem || st.s.nomem || st.syms.nomem;
    for (size_t i = 0; i < st.n_events; i++) {
        nomem |= st.events[i].h.nomem;
        ph_free(&st.events[i].h);
    }
    if (nomem && rc >= 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    free(st.events);
    free(st.frames);
    free(st.seen);
    free(st.pend_frames);
    free(st.pending);
    for (size_t i = 0; i < st.n_jit; i++)
        free(st.jit[i]);
    free(st.jit);
    free(st.shorts);
    perf_session_free(&st.s);
    perf_symbols_free(&st.syms);
    return rc;
}

static const tg_option_decl perf_report_options[] = {
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {"kallsyms", TG_OPT_TEXT, NULL, "perf's --kallsyms: the kernel's symbols from FILE", "FILE"},
    {"buildid-dir", TG_OPT_TEXT, NULL, "perf's --buildid-dir: the build-id cache", "DIR"},
    {"no-children", TG_OPT_FLAG, NULL,
     "perf's --no-children: each entry's own samples only, no Children column"},
    {"call-graph", TG_OPT_TEXT, NULL,
     "perf's -g: graph or none, caller or callee, a threshold percentage (default "
     "graph,0.5; callers first with the Children column)",
     "MODE[,...]", NULL, 0, 0, 'g'},
    /* the first declaration of "sort" is the one --help shows: it says every style's keys */
    {"sort", TG_OPT_TEXT, NULL,
     "sort keys; perf: comm, pid, dso, sym (perf report --sort; default comm,dso,sym); "
     "uftrace: total, self, call, func, total-avg/-min/-max, self-avg/-min/-max, size (with "
     "--avg-*: avg, min, max; --task: tid, name) (uftrace report -s; default total); xray: "
     "funcid, count, min, med, 90p, 99p, max, sum, func (llvm-xray account -sort; default "
     "funcid)",
     "KEY[,KEY]", NULL, 0, 0, 's'},
    /* the first declaration of "format" is the one --help shows: it says every style's */
    {"format", TG_OPT_CHOICE, "text",
     "text (the style's table: perf report --stdio, uftrace report, llvm-xray account), csv "
     "(xray: llvm-xray account -format=csv), or json: one JSON document of the same rows (perf: "
     "each event's entries with their periods, no call graph; uftrace: times in ns, with "
     "--diff both runs and the change; xray: seconds as llvm-xray computes them)",
     "FORMAT", "text|json"},
    {0},
};

TG_REPORT_STYLE(perf) = {"perf", report_perf, perf_report_options, NULL, false};
