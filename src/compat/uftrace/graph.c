/* graph.c - the "uftrace" graph style (tg_graph): `uftrace graph`, the function call graph of
 * a function trace, and with a FUNC the backtraces that reach it and the graph of what it
 * calls, byte for byte.
 *
 * The records go through uftrace's stack rules (analysis/callstack_uftrace.h) and filters
 * (callstack_filter.h) as in replay and report; each thread walks one call tree per trace
 * (uftrace's per-session graph), a node per distinct name under its parent, adding each
 * ended call's total and child time to its node.  A context switch is the node
 * linux:schedule.  Without FUNC every thread starts at the root (the program); with FUNC a
 * thread starts at FUNC's entry (the root is FUNC, its backtrace - the addresses on the
 * stack - kept with its hits and time) and stops at its exit.  A forked child whose first
 * record is fork's exit continues in its parent's tree under the fork node, as uftrace
 * does.  Nodes live in one array, children linked in the order first seen; memory is one
 * node per distinct call path, not per call. */
#include "analysis/callstack.h"
#include "core/json_doc.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/consumer.h"
#include "core/error_internal.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct gnode {
    char *name;
    uint64_t addr, time, child_time;
    uint64_t calls;
    int parent, first, last, next; /* -1: none */
    int edges;
};

struct backtrace {
    uint64_t *addr;
    const char **names; /* the frames' symbols (the reader's, living as long as the set) */
    int len;
    uint64_t hit, time;
};

struct tgraph {  /* a thread's place in the graph (uftrace_task_graph) */
    int node;    /* -1: none */
    int enabled; /* FUNC's entries open (or 1 once started, without FUNC) */
    int bt;      /* the backtrace of the call being graphed, -1: none */
    bool lost, started;
};

struct special { /* a fork node, for a child to continue in */
    int node;
    int pid;
};

struct graph {
    uf_state st;
    uf_filter *filter;
    tg_set *set;
    const char *func; /* NULL: the whole graph */
    struct gnode *nodes;
    size_t n_nodes, cap_nodes;
    struct backtrace *bts;
    size_t n_bts, cap_bts;
    struct tgraph *tasks; /* by uf_task order */
    size_t cap_tasks;
    struct special *specials;
    size_t n_specials, cap_specials;
    struct {
        uint64_t addr;
        const void *trace;
        tg_func_symbol sym;
        bool set;
    } names[1024];
    char hex[24];
    bool col[3]; /* total, self, address */
    bool any_col;
    tg_buf *out;
};

enum { COL_TOTAL, COL_SELF, COL_ADDR };

static int node_new(struct graph *g, int parent, const char *name, uint64_t addr)
{
    if (tg_grow(&g->nodes, &g->cap_nodes, g->n_nodes + 1, sizeof *g->nodes) < 0)
        return TG_ERR_NOMEM;
    struct gnode *n = &g->nodes[g->n_nodes];
    memset(n, 0, sizeof *n);
    if (!(n->name = strdup(name ? name : "none")))
        return TG_ERR_NOMEM;
    n->addr = addr;
    n->parent = parent;
    n->first = n->last = n->next = -1;
    if (parent >= 0) {
        struct gnode *p = &g->nodes[parent];
        if (p->last >= 0)
            g->nodes[p->last].next = (int)g->n_nodes;
        else
            p->first = (int)g->n_nodes;
        p->last = (int)g->n_nodes;
        p->edges++;
    }
    return (int)g->n_nodes++;
}

static struct tgraph *tgraph_of(struct graph *g, const uf_task *t)
{
    size_t old = g->cap_tasks;
    if ((size_t)t->order >= g->cap_tasks) {
        if (tg_grow(&g->tasks, &g->cap_tasks, (size_t)t->order + 1, sizeof *g->tasks) < 0)
            return NULL;
        for (size_t i = old; i < g->cap_tasks; i++)
            g->tasks[i] = (struct tgraph){.node = -1, .bt = -1};
    }
    return &g->tasks[t->order];
}

/* A function record's symbol (uftrace's name, "<hex>" when unknown), once per address. */
static const tg_func_symbol *symbol(struct graph *g, const tg_event *ev)
{
    size_t h = (ev->addr ^ (ev->addr >> 12)) & 1023;
    if (!g->names[h].set || g->names[h].addr != ev->addr || g->names[h].trace != ev->cls->trace) {
        g->names[h].addr = ev->addr;
        g->names[h].trace = ev->cls->trace;
        tg_event_func_symbol(ev, &g->names[h].sym);
        g->names[h].set = true;
    }
    return &g->names[h].sym;
}

static const char *name_or_hex(struct graph *g, const char *name, uint64_t addr)
{
    if (name)
        return name;
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[addr & 15];
        addr >>= 4;
    } while (addr);
    char *w = g->hex;
    *w++ = '<';
    while (n)
        *w++ = tmp[--n];
    *w++ = '>';
    *w = 0;
    return g->hex;
}

/* The thread's parent process id, as the trace's task list says (0: unknown). */
static int ppid_of(struct graph *g, int tid)
{
    for (size_t i = 0; i < tg_set_trace_count(g->set); i++) {
        const tg_task_info *ti = tg_trace_task_find(tg_set_trace(g->set, i), tid);
        if (ti)
            return (int)ti->ppid;
    }
    return 0;
}

static int save_backtrace(struct graph *g, struct tgraph *tg, uf_task *t)
{
    int len = t->stack_count;
    if (len <= 0)
        return 0;
    uint64_t *addrs = malloc((size_t)len * sizeof *addrs);
    const char **names = malloc((size_t)len * sizeof *names);
    if (!addrs || !names) {
        free(addrs);
        free(names);
        return TG_ERR_NOMEM;
    }
    for (int i = 0; i < len; i++) {
        const uf_frame *f = uf_frame_at(&g->st, t, i);
        addrs[i] = f ? f->addr : 0;
        names[i] = f ? f->name : NULL;
    }
    for (size_t i = 0; i < g->n_bts; i++)
        if (g->bts[i].len == len && !memcmp(g->bts[i].addr, addrs, (size_t)len * sizeof *addrs)) {
            free(addrs);
            free(names);
            g->bts[i].hit++;
            tg->bt = (int)i;
            return 0;
        }
    if (tg_grow(&g->bts, &g->cap_bts, g->n_bts + 1, sizeof *g->bts) < 0) {
        free(addrs);
        free(names);
        return TG_ERR_NOMEM;
    }
    g->bts[g->n_bts] = (struct backtrace){addrs, names, len, 1, 0};
    tg->bt = (int)g->n_bts++;
    return 0;
}

static int start_graph(struct graph *g, struct tgraph *tg, uf_task *t, uint64_t addr)
{
    if (tg->enabled++)
        return 0;
    /* saved without FUNC too: not printed then, but a graph with one is not empty */
    int rc = save_backtrace(g, tg, t);
    if (rc < 0)
        return rc;
    tg->node = 0;
    g->nodes[0].addr = addr;
    g->nodes[0].calls++;
    return 0;
}

static void end_graph(struct graph *g, struct tgraph *tg, uf_task *t)
{
    if (!tg->enabled || --tg->enabled)
        return;
    const uf_frame *f = uf_frame_at(&g->st, t, t->stack_count);
    if (tg->bt >= 0 && f)
        g->bts[tg->bt].time += f->total;
    tg->bt = -1;
    tg->lost = false;
}

/* add_graph_entry: the child of the thread's node by name, made when new. */
static int graph_entry(struct graph *g, struct tgraph *tg, uf_task *t, const char *name)
{
    if (tg->lost)
        return 0; /* kernel functions after lost records */
    const uf_frame *f = uf_frame_at(&g->st, t, t->stack_count - 1);
    if (tg->node < 0 || !f)
        return 0;
    int n;
    for (n = g->nodes[tg->node].first; n >= 0; n = g->nodes[n].next)
        if (name && !strcmp(name, g->nodes[n].name))
            break;
    if (n < 0) {
        if ((n = node_new(g, tg->node, name, f->addr)) < 0)
            return n;
        /* fork, vfork, daemon: where a child goes on (graph_exit) */
        if (f->name && uf_fixup_kind(f->name) == 4) {
            if (tg_grow(&g->specials, &g->cap_specials, g->n_specials + 1, sizeof *g->specials) < 0)
                return TG_ERR_NOMEM;
            g->specials[g->n_specials++] = (struct special){n, t->pid};
        }
    }
    g->nodes[n].calls++;
    tg->node = n;
    return 0;
}

/* add_graph_exit: the ended frame's times to the thread's node, which goes up one. */
static void graph_exit(struct graph *g, struct tgraph *tg, uf_task *t, uint64_t exit_addr)
{
    const uf_frame *f = uf_frame_at(&g->st, t, t->stack_count);
    int n = tg->node;
    if (n < 0 || !f)
        return;
    if (tg->lost) {
        if (t->in_kernel)
            return;
        tg->lost = false;
    }
    if (g->nodes[n].addr != f->addr) {
        /* a forked child returning from fork: continue in the parent's tree */
        int ppid = ppid_of(g, t->tid);
        for (size_t i = g->n_specials; i-- > 0;) {
            const struct special *s = &g->specials[i];
            if (g->nodes[s->node].addr == exit_addr && s->pid == ppid && ppid) {
                n = s->node;
                memmove(&g->specials[i], &g->specials[i + 1],
                        (g->n_specials - i - 1) * sizeof *g->specials);
                g->n_specials--;
                break;
            }
        }
    }
    g->nodes[n].time += f->total;
    g->nodes[n].child_time += f->child;
    tg->node = g->nodes[n].parent;
}

/* build_graph_node: one record the filters showed. */
static int graph_record(struct graph *g, uf_task *t, const uf_rec *r, const tg_func_symbol *sym)
{
    struct tgraph *tg = tgraph_of(g, t);
    if (!tg)
        return TG_ERR_NOMEM;
    int rc = 0;
    if (!g->func && !tg->started) { /* the whole graph: each thread starts at the root */
        tg->started = true;
        if ((rc = start_graph(g, tg, t, r->addr)) < 0)
            return rc;
    }
    const char *name = NULL;
    if (r->type == UF_ENTRY || r->type == UF_EXIT) {
        if (g->filter->no_libcall && sym && (sym->flags & TG_FUNC_PLT))
            return 0;
        name = name_or_hex(g, sym ? sym->name : r->name, r->addr);
    }
    if (tg->enabled) {
        if (r->type == UF_ENTRY)
            rc = graph_entry(g, tg, t, name);
        else if (r->type == UF_EXIT)
            graph_exit(g, tg, t, r->addr);
        else if (r->kind == TG_KIND_SCHED_IN)
            graph_exit(g, tg, t, r->addr);
        else
            rc = graph_entry(g, tg, t,
                             r->kind == TG_KIND_SCHED_OUT ? uf_schedule_name
                                                          : uf_schedule_preempted_name);
    }
    if (rc < 0 || r->type == UF_EVENT || !g->func || strcmp(name, g->func) != 0)
        return rc;
    if (r->type == UF_ENTRY)
        return start_graph(g, tg, t, r->addr);
    end_graph(g, tg, t);
    return 0;
}

static int feed(struct graph *g, const tg_event *ev, int64_t *prev_time)
{
    uf_filter *f = g->filter;
    uf_rec r;
    uf_rec_from_event(ev, &r);
    if (r.tid < 0)
        return 0; /* extern data: no node */
    uf_task *t = uf_task_get(&g->st, r.tid, r.pid);
    if (!t)
        return TG_ERR_NOMEM;
    uf_filter_task_init(f, t);
    const tg_func_symbol *sym = NULL;
    if (r.type == UF_ENTRY || r.type == UF_EXIT) {
        sym = symbol(g, ev);
        r.name = sym->name;
    }
    if (uf_consume_fast(&g->st, t, &r)) /* hidden: outside any user function */
        return 0;
    if (f->no_sched && r.type == UF_EVENT && uf_kind_is_sched(r.kind))
        return 0;
    uf_frame *fr = NULL;
    switch (r.type) { /* fstack_check_filter */
    case UF_ENTRY:
        if (!uf_filter_entry(&g->st, f, t, &r))
            return 0;
        if (sym->flags & TG_FUNC_PLT) /* for its end when it is still open at the end */
            uf_frame_at(&g->st, t, t->stack_count - 1)->fflags |= UF_FF_PLT;
        break;
    case UF_EXIT:
        fr = uf_frame_at(&g->st, t, t->stack_count);
        if (!fr)
            return 0;
        if (fr->fflags & UF_FF_NORECORD) {
            uf_filter_exit(f, t, fr);
            return 0;
        }
        uf_update_exit(t);
        break;
    case UF_EVENT:
        if (!uf_filter_event(f, t) || !uf_kind_is_sched(r.kind))
            return 0;
        break;
    default: { /* LOST: the shown frames above the user stack end */
        int rc = 0;
        while (t->stack_count >= t->user_stack_count && rc >= 0) {
            uf_frame *lf = uf_frame_at(&g->st, t, t->stack_count);
            if (lf && lf->valid && !(lf->fflags & UF_FF_NORECORD)) {
                uf_rec x = {.type = UF_EXIT,
                            .addr = lf->addr,
                            .name = lf->name,
                            .cls = r.cls,
                            .call_ns = -1};
                tg_func_symbol lsym = {.name = lf->name,
                                       .flags = lf->fflags & UF_FF_PLT ? TG_FUNC_PLT : 0};
                rc = graph_record(g, t, &x, &lsym);
            }
            uf_filter_exit(f, t, lf);
            t->stack_count--;
        }
        if (t->stack_count < 0)
            t->stack_count = 0;
        struct tgraph *tg = tgraph_of(g, t);
        if (tg)
            tg->lost = true;
        return rc;
    }
    }
    if ((uint64_t)*prev_time > (uint64_t)r.time)
        return 1; /* uftrace stops here: "inverted time: broken data?" */
    *prev_time = r.time;
    int rc = graph_record(g, t, &r, sym);
    if (r.type == UF_ENTRY)
        uf_update_entry(&g->st, t);
    else if (r.type == UF_EXIT)
        uf_filter_exit(f, t, fr);
    return rc;
}

/* Frames still open: ended at their thread's last record (or the time range's stop). */
static int finish(struct graph *g)
{
    int rc = 0;
    for (size_t i = 0; i < g->st.count && rc >= 0; i++) {
        uf_task *t = g->st.order[i];
        uint64_t last =
            (uint64_t)(g->st.finish_time ? g->st.finish_time : uf_task_last_time(&g->st, t));
        while (--t->stack_count >= 0 && rc >= 0) {
            uf_frame *f = uf_frame_at(&g->st, t, t->stack_count);
            if (!f || f->addr == 0 || f->total > last)
                continue;
            f->total = last - f->total;
            if (f->child > f->total)
                f->total = f->child;
            if (t->stack_count > 0)
                f[-1].child += f->total;
            uf_rec x = {.type = UF_EXIT, .addr = f->addr, .name = f->name, .call_ns = -1};
            tg_func_symbol sym = {.name = f->name,
                                  .flags = f->fflags & UF_FF_PLT ? TG_FUNC_PLT : 0};
            rc = graph_record(g, t, &x, &sym);
        }
    }
    return rc;
}

/* ---- printing ------------------------------------------------------------------------------ */

static void put_fields(struct graph *g, const struct gnode *n)
{
    if (!g->any_col)
        return;
    if (g->col[COL_TOTAL]) {
        tg_buf_puts(g->out, "  ");
        uf_put_time(g->out, n->time);
    }
    if (g->col[COL_SELF]) {
        tg_buf_puts(g->out, "  ");
        uf_put_time(g->out, n->time - n->child_time);
    }
    if (g->col[COL_ADDR]) {
        tg_buf_puts(g->out, "  ");
        char hex[20];
        int k = 0;
        uint64_t a = n->addr & 0xffffffffffffull; /* uftrace keeps 48-bit addresses */
        do {
            hex[k++] = "0123456789abcdef"[a & 15];
            a >>= 4;
        } while (a);
        tg_buf_pad(g->out, ' ', 12 - k);
        while (k)
            tg_buf_putc(g->out, hex[--k]);
    }
    tg_buf_puts(g->out, " : ");
}

static void put_empty_fields(struct graph *g)
{
    if (!g->any_col)
        return;
    for (int c = 0; c < 3; c++)
        if (g->col[c])
            tg_buf_pad(g->out, ' ', c == COL_ADDR ? 14 : 12);
    tg_buf_puts(g->out, " : ");
}

static void put_indent(struct graph *g, const bool *mask, int indent, bool line)
{
    int last = -1;
    for (int i = 0; i < indent; i++)
        if (line && mask[i])
            last = i;
    for (int i = 0; i < indent; i++) {
        if (!line || i < last)
            tg_buf_puts(g->out, mask[i] ? " | " : "   ");
        else
            tg_buf_puts(g->out, i == last ? " +-" : "---");
    }
}

static void put_node(struct graph *g, int id, bool *mask, int indent, bool line)
{
    const struct gnode *n = &g->nodes[id];
    int orig = indent;
    put_fields(g, n);
    put_indent(g, mask, indent, line);
    tg_buf_printf(g->out, "(%llu) %s\n", id == 0 && !g->func ? 1ull : (unsigned long long)n->calls,
                  n->name);
    if (n->edges > 1)
        mask[indent++] = true;
    /* the parent's line stops at its last child */
    if (n->parent >= 0 && g->nodes[n->parent].edges > 1 && orig > 0 &&
        g->nodes[n->parent].last == id)
        mask[orig - 1] = false;
    line = n->edges > 1;
    for (int c = n->first; c >= 0; c = g->nodes[c].next) {
        put_node(g, c, mask, indent, line);
        if (c != n->last) { /* a blank line between siblings */
            put_empty_fields(g);
            put_indent(g, mask, indent, false);
            tg_buf_putc(g->out, '\n');
        }
    }
    mask[orig] = false;
}

static int print_graph(struct graph *g, const char *title, const char *sid)
{
    const struct gnode *root = &g->nodes[0];
    if (!g->n_bts && !root->time && !root->edges)
        return 0;
    tg_buf_printf(g->out, "# Function Call Graph for '%s' (session: %.16s)\n", title, sid);
    if (g->func && g->n_bts) {
        tg_buf_puts(g->out, "=============== BACKTRACE ===============\n");
        for (size_t i = g->n_bts, k = 0; i-- > 0; k++) { /* the latest first */
            const struct backtrace *b = &g->bts[i];
            tg_buf_printf(g->out, " backtrace #%zu: hit %llu, time ", k,
                          (unsigned long long)b->hit);
            uf_put_time(g->out, b->time);
            tg_buf_putc(g->out, '\n');
            for (int j = 0; j < b->len; j++) {
                tg_buf_printf(g->out, "   [%d] ", j);
                uf_put_name(g->out, b->names[j], b->addr[j]);
                tg_buf_printf(g->out, " (%#llx)\n", (unsigned long long)b->addr[j]);
            }
            tg_buf_putc(g->out, '\n');
        }
    }
    if (root->time || root->edges) {
        tg_buf_puts(g->out, "========== FUNCTION CALL GRAPH ==========\n");
        if (g->any_col) {
            static const char *const headers[] = {"TOTAL TIME", " SELF TIME", "   ADDRESS  "};
            bool first = true;
            for (int c = 0; c < 3; c++) {
                if (!g->col[c])
                    continue;
                tg_buf_puts(g->out, first ? "# " : "  ");
                tg_buf_puts(g->out, headers[c]);
                first = false;
            }
            tg_buf_puts(g->out, "   FUNCTION\n");
        }
        bool *mask = calloc(g->n_nodes + 1, sizeof *mask);
        if (!mask)
            return TG_ERR_NOMEM;
        put_node(g, 0, mask, 0, root->edges > 1);
        free(mask);
        tg_buf_putc(g->out, '\n');
    }
    return 1;
}

/* --format json: the same graph as one JSON document, every number in full (times in ns):
 * {"function", "session", "backtraces": [{"hit", "time_ns", "frames": [{"function",
 * "address"}]}], "graph": NODE}, NODE = {"function", "calls", "total_ns", "self_ns",
 * "address", "children": [NODE...]}; "graph" null when FUNC was never called. */
static json_object *node_json(const struct graph *g, int id)
{
    const struct gnode *n = &g->nodes[id];
    json_object *o = json_object_new_object(), *kids = json_object_new_array();
    json_object_object_add(o, "function", json_object_new_string(n->name));
    json_object_object_add(o, "calls",
                           json_object_new_int64(id == 0 && !g->func ? 1 : (int64_t)n->calls));
    json_object_object_add(o, "total_ns", json_object_new_int64((int64_t)n->time));
    json_object_object_add(o, "self_ns", json_object_new_int64((int64_t)(n->time - n->child_time)));
    json_object_object_add(o, "address",
                           json_object_new_int64((int64_t)(n->addr & 0xffffffffffffull)));
    for (int c = n->first; c >= 0; c = g->nodes[c].next)
        json_object_array_add(kids, node_json(g, c));
    json_object_object_add(o, "children", kids);
    return o;
}

static int print_graph_json(struct graph *g, const char *title, const char *sid, tg_error **err)
{
    const struct gnode *root = &g->nodes[0];
    json_object *doc = json_object_new_object(), *bts = json_object_new_array();
    json_object_object_add(doc, "function", json_object_new_string(title));
    json_object_object_add(doc, "session", json_object_new_string_len(sid, (int)strnlen(sid, 16)));
    for (size_t i = g->n_bts; g->func && i-- > 0;) { /* the latest first, as the text */
        const struct backtrace *b = &g->bts[i];
        json_object *bt = json_object_new_object(), *frames = json_object_new_array();
        json_object_object_add(bt, "hit", json_object_new_int64((int64_t)b->hit));
        json_object_object_add(bt, "time_ns", json_object_new_int64((int64_t)b->time));
        for (int j = 0; j < b->len; j++) {
            json_object *fr = json_object_new_object();
            json_object_object_add(fr, "function",
                                   b->names[j] ? json_object_new_string(b->names[j]) : NULL);
            json_object_object_add(fr, "address", json_object_new_int64((int64_t)b->addr[j]));
            json_object_array_add(frames, fr);
        }
        json_object_object_add(bt, "frames", frames);
        json_object_array_add(bts, bt);
    }
    json_object_object_add(doc, "backtraces", bts);
    json_object_object_add(doc, "graph", root->time || root->edges ? node_json(g, 0) : NULL);
    return tg_json_doc_put(g->out, doc, err);
}

/* -f/--output-fields: total (total-time), self (self-time), addr (address), none; +FIELD adds
 * to the default, total. */
static int parse_fields(struct graph *g, const char *spec, tg_error **err)
{
    static const char *const names[3][2] = {
        {"total", "total-time"}, {"self", "self-time"}, {"addr", "address"}};
    g->col[COL_TOTAL] = true;
    if (spec && strcmp(spec, "none") == 0) {
        g->col[COL_TOTAL] = false;
    } else if (spec) {
        if (*spec == '+')
            spec++;
        else
            g->col[COL_TOTAL] = false;
        for (const char *s = spec;;) {
            size_t n = strcspn(s, ",");
            int c = -1;
            for (int k = 0; k < 3 && c < 0; k++)
                for (int a = 0; a < 2; a++)
                    if (strlen(names[k][a]) == n && !memcmp(s, names[k][a], n))
                        c = k;
            if (c < 0)
                return tg_err(err, TG_ERR_USAGE,
                              "unknown field name '%.*s' (possible fields are: total-time "
                              "self-time address)",
                              (int)n, s);
            g->col[c] = true;
            s += n;
            if (!*s)
                break;
            s++;
        }
    }
    g->any_col = g->col[0] || g->col[1] || g->col[2];
    return 0;
}

/* The program's name (the whole graph's root) and the session id uftrace names the graph
 * by; for traces of other tracers, their process's name and no session. */
static void graph_title(tg_set *set, const char **name, const char **sid)
{
    *name = "unknown";
    *sid = "0000000000000000";
    const tg_trace *t = tg_set_trace_count(set) ? tg_set_trace(set, 0) : NULL;
    const tg_process_info *pi = t ? tg_trace_process(t) : NULL;
    if (pi && pi->executable)
        *name = strrchr(pi->executable, '/') ? strrchr(pi->executable, '/') + 1 : pi->executable;
    else if (pi && pi->name)
        *name = pi->name;
    const tg_env_entry *e = t ? tg_trace_env_find(t, "session") : NULL;
    if (e && e->value)
        *sid = e->value;
}

static void graph_free(struct graph *g)
{
    for (size_t i = 0; i < g->n_nodes; i++)
        free(g->nodes[i].name);
    for (size_t i = 0; i < g->n_bts; i++) {
        free(g->bts[i].addr);
        free(g->bts[i].names);
    }
    free(g->nodes);
    free(g->bts);
    free(g->tasks);
    free(g->specials);
    uf_state_free(&g->st);
}

static int graph_run(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                     tg_buf *out, tg_error **err)
{
    TG_TRY(uf_need_symbols(set, err));
    struct graph *g = calloc(1, sizeof *g);
    uf_filter filter;
    int rc = uf_filter_setup(&filter, opts, err);
    if (!g) {
        uf_filter_free(&filter);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    g->func = impl;
    g->set = set;
    g->out = out;
    g->filter = &filter;
    if (rc >= 0 && uf_state_init(&g->st) < 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc >= 0)
        rc = parse_fields(g, tg_options_get(opts, "output-fields"), err);
    g->st.kernel_full = tg_options_flag(opts, "kernel-full");
    g->st.perf_in_tasks = filter.time_filter > 0;
    g->st.display_late = filter.range.start != 0;
    g->st.finish_time = (int64_t)filter.range.stop;
    /* -D with FUNC counts from FUNC (uftrace gives FUNC a depth trigger) */
    filter.depth_func = g->func && filter.depth != INT_MAX ? g->func : NULL;
    if (rc >= 0 && filter.on && (rc = uf_filter_bind(&filter, set, err)) >= 0)
        rc = uf_filter_prepass(&filter, it, opts, err);
    const char *title, *sid;
    graph_title(set, &title, &sid);
    if (rc >= 0 && node_new(g, -1, g->func ? g->func : title, 0) < 0)
        rc = TG_ERR_NOMEM;
    int64_t prev_time = 0;
    const tg_event *ev;
    while (rc >= 0 && (rc = tg_iter_next(it, &ev)) > 0) {
        if (filter.on && !uf_filter_keep(&filter, ev))
            continue;
        if ((rc = feed(g, ev, &prev_time)) > 0) {
            rc = 0; /* inverted time: uftrace stops reading */
            break;
        }
    }
    if (rc >= 0)
        rc = finish(g);
    if (rc >= 0 && !g->func) { /* the root: the program, with all its threads' time */
        for (int c = g->nodes[0].first; c >= 0; c = g->nodes[c].next) {
            g->nodes[0].time += g->nodes[c].time;
            g->nodes[0].child_time += g->nodes[c].time;
        }
    }
    const char *format = tg_options_get(opts, "format");
    if (rc >= 0 && format && strcmp(format, "json") == 0) {
        rc = print_graph_json(g, g->func ? g->func : title, sid, err);
    } else if (rc >= 0) {
        rc = print_graph(g, g->func ? g->func : title, sid);
        if (rc == 0) {
            tg_buf_printf(out, "uftrace: cannot find graph for '%s'\n",
                          g->func ? g->func : "_start");
            if (uf_filter_has_settings(&filter))
                tg_buf_puts(out, "\t please check your filter settings.\n");
        }
    }
    if (rc == TG_ERR_NOMEM)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    graph_free(g);
    free(g);
    uf_filter_free(&filter);
    return rc < 0 ? rc : 0;
}

static int graph_style_run(tg_set *set, tg_iter *it, const char *func, const tg_options *opts,
                           tg_buf *out, tg_error **err)
{
    return graph_run(func, set, it, opts, out, err);
}

static const tg_option_decl graph_options[] = {
    {"output-fields", TG_OPT_TEXT, "total",
     "columns: total, self, addr (total-time, self-time, address), none; +FIELD adds "
     "(uftrace graph -f)",
     "FIELDS", NULL, 0, 0, 'f'},
    {"kernel-full", TG_OPT_FLAG, NULL,
     "uftrace data recorded with -k: also the kernel functions outside user functions "
     "(uftrace --kernel-full)"},
    {"format", TG_OPT_CHOICE, "text",
     "text (uftrace graph's tree), or json: one JSON document of the same tree and "
     "backtraces, times in ns",
     "FORMAT", "text|json"},
    UF_FILTER_OPTION_DECLS,
    {0},
};

TG_GRAPH_STYLE(uftrace) = {
    .name = "uftrace",
    .graph = graph_style_run,
    .options = graph_options,
    .takes_filters = true,
};
