/* perf_callchain.c - the call graph under a perf report entry: built, sorted, printed.
 *
 * The tree is perf's (callchain.c): children of a node are kept in perf's red-black tree
 * order, which is descending by (object, address) since a new chain that compares greater
 * goes left; a node's frames are split where a new chain leaves them.  Sorting keeps the
 * children whose cumulated hits reach the threshold, largest first, ties in tree order (a
 * tie goes right in perf's sorted tree).  The printer is perf's ui/stdio graph printer: a
 * column of "|" per open level, "--P%--" before the first frame of a branch, a line of
 * pipes between branches, and a single root printed without its percentage after "---". */
#include "compat/perf/perf_callchain.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t cumul_hits(const pcc_node *n) { return n->hit + n->children_hit; }

/* perf's match_chain: <0 when the frame in the tree orders before the new one */
static int frame_cmp(const pcc_frame *tree, const pcc_frame *add)
{
    if (tree->dso_rank != add->dso_rank)
        return tree->dso_rank < add->dso_rank ? -1 : 1;
    bool by_sym = tree->sym && add->sym;
    uint64_t a = by_sym ? tree->sym_start : tree->ip, b = by_sym ? add->sym_start : add->ip;
    return a < b ? -1 : a > b;
}

static pcc_node *node_new(pcc_root *r, const pcc_frame *f, size_t n, uint64_t period)
{
    pcc_node *x = tg_arena_alloc(r->arena, sizeof *x);
    pcc_frame *v = n && x ? tg_arena_alloc(r->arena, n * sizeof *v) : NULL;
    if (!x || (n && !v)) {
        r->nomem = true;
        return NULL;
    }
    if (n)
        memcpy(v, f, n * sizeof *v);
    x->val = v;
    x->val_nr = n;
    x->hit = period;
    return x;
}

/* Room for one more child (the arrays live in the arena: a full one is copied into one
 * twice its size). */
static bool kid_room(pcc_root *r, pcc_node *parent)
{
    if (parent->n_kids < parent->cap_kids)
        return true;
    size_t cap = parent->cap_kids ? 2 * parent->cap_kids : 2;
    pcc_kid *v = tg_arena_alloc(r->arena, cap * sizeof *v);
    if (!v) {
        r->nomem = true;
        return false;
    }
    if (parent->n_kids)
        memcpy(v, parent->kids, parent->n_kids * sizeof *v);
    parent->kids = v;
    parent->cap_kids = cap;
    return true;
}

/* Puts kid into parent's children at its place in the tree order. */
static void kid_insert(pcc_root *r, pcc_node *parent, pcc_node *kid)
{
    if (!kid_room(r, parent))
        return;
    size_t lo = 0, hi = parent->n_kids;
    while (lo < hi) { /* the first child that orders before the new one */
        size_t mid = (lo + hi) / 2;
        if (frame_cmp(&parent->kids[mid].first, &kid->val[0]) < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    memmove(&parent->kids[lo + 1], &parent->kids[lo], (parent->n_kids - lo) * sizeof *parent->kids);
    parent->kids[lo] = (pcc_kid){kid->val[0], kid};
    parent->n_kids++;
}

static pcc_node *kid_find(const pcc_node *parent, const pcc_frame *f)
{
    size_t lo = 0, hi = parent->n_kids;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = frame_cmp(&parent->kids[mid].first, f);
        if (c == 0)
            return parent->kids[mid].node;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static void append_children(pcc_root *r, pcc_node *node, const pcc_frame *f, size_t n,
                            uint64_t period);

/* perf's split_add_child: node keeps its first `keep` frames; the rest and its children go
 * to a new first child; the chain's remaining frames (if any) to a second. */
static void split(pcc_root *r, pcc_node *node, size_t keep, const pcc_frame *f, size_t n,
                  uint64_t period)
{
    pcc_node *tail = tg_arena_alloc(r->arena, sizeof *tail);
    pcc_kid *first = tail ? tg_arena_alloc(r->arena, 2 * sizeof *first) : NULL;
    if (!first) {
        r->nomem = true;
        return;
    }
    tail->val = node->val + keep; /* the frames are never changed: shared */
    tail->val_nr = node->val_nr - keep;
    tail->hit = node->hit;
    tail->children_hit = node->children_hit;
    tail->kids = node->kids;
    tail->n_kids = node->n_kids;
    tail->cap_kids = node->cap_kids;
    first[0] = (pcc_kid){tail->val[0], tail};
    node->kids = first;
    node->n_kids = 1;
    node->cap_kids = 2;
    node->val_nr = keep;
    node->children_hit = cumul_hits(tail);
    if (n) {
        node->hit = 0;
        node->children_hit += period;
        pcc_node *branch = node_new(r, f, n, period);
        if (branch)
            kid_insert(r, node, branch);
    } else {
        node->hit = period;
    }
}

/* perf's append_chain, for a node whose first frame matches f[0] */
static void append_chain(pcc_root *r, pcc_node *node, const pcc_frame *f, size_t n, uint64_t period)
{
    size_t m = 0;
    while (m < node->val_nr && m < n && frame_cmp(&node->val[m], &f[m]) == 0)
        m++;
    if (m < node->val_nr)
        split(r, node, m, f + m, n - m, period);
    else if (m == n)
        node->hit += period;
    else
        append_children(r, node, f + m, n - m, period);
}

static void append_children(pcc_root *r, pcc_node *node, const pcc_frame *f, size_t n,
                            uint64_t period)
{
    pcc_node *kid = kid_find(node, f);
    if (kid) {
        append_chain(r, kid, f, n, period);
    } else {
        kid = node_new(r, f, n, period);
        if (kid)
            kid_insert(r, node, kid);
    }
    node->children_hit += period;
}

void pcc_append(pcc_root *r, const pcc_frame *frames, size_t n, uint64_t period)
{
    if (!n)
        return;
    append_children(r, &r->node, frames, n, period);
    if (n > r->max_depth)
        r->max_depth = n;
}

typedef struct pcc_ranked {
    pcc_node *node;
    size_t order;
} pcc_ranked;

static int ranked_cmp(const void *a, const void *b)
{
    const pcc_ranked *x = a, *y = b;
    uint64_t hx = cumul_hits(x->node), hy = cumul_hits(y->node);
    if (hx != hy)
        return hx > hy ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void sort_node(pcc_root *r, pcc_node *node, uint64_t min_hit)
{
    node->sorted = NULL;
    node->n_sorted = 0;
    if (!node->n_kids)
        return;
    for (size_t i = 0; i < node->n_kids; i++)
        sort_node(r, node->kids[i].node, min_hit);
    /* the children are sorted after theirs: the room is free again */
    node->sorted = tg_arena_alloc(r->arena, node->n_kids * sizeof *node->sorted);
    if (!node->sorted || tg_grow(&r->ranked, &r->cap_ranked, node->n_kids, sizeof *r->ranked) < 0) {
        node->sorted = NULL;
        r->nomem = true;
        return;
    }
    pcc_ranked *v = r->ranked;
    size_t k = 0;
    for (size_t i = 0; i < node->n_kids; i++)
        if (cumul_hits(node->kids[i].node) >= min_hit)
            v[k++] = (pcc_ranked){node->kids[i].node, i};
    qsort(v, k, sizeof *v, ranked_cmp);
    for (size_t i = 0; i < k; i++)
        node->sorted[i] = v[i].node;
    node->n_sorted = k;
}

void pcc_sort(pcc_root *r, uint64_t min_hit) { sort_node(r, &r->node, min_hit); }

/* ---- printing (perf's ui/stdio/hist.c, graph mode) ---------------------------------------- */

static bool mask_bit(uint32_t mask, int i) { return (mask >> (i & 31)) & 1u; }

static void put_margin(tg_buf *out, int left_margin)
{
    tg_buf_puts(out, "            ");
    for (int i = 0; i < left_margin; i++)
        tg_buf_putc(out, ' ');
}

static void put_frame_name(tg_buf *out, const pcc_frame *f)
{
    if (f->sym)
        tg_buf_puts(out, f->sym);
    else if (f->ip)
        tg_buf_printf(out, "0x%" PRIx64, f->ip);
    else
        tg_buf_putc(out, '0');
}

static void put_percent(tg_buf *out, uint64_t hits, uint64_t total)
{
    double pct = total ? (double)hits * 100.0 / (double)total : 0.0;
    tg_buf_printf(out, "%.2f%%", pct);
}

static void graph_line(tg_buf *out, int depth, uint32_t mask, int left_margin)
{
    put_margin(out, left_margin);
    for (int i = 0; i < depth; i++)
        tg_buf_puts(out, mask_bit(mask, i) ? "|          " : "           ");
    tg_buf_putc(out, '\n');
}

static void graph_frame(tg_buf *out, const pcc_node *node, const pcc_frame *f, int depth,
                        uint32_t mask, bool first, uint64_t total, int left_margin)
{
    put_margin(out, left_margin);
    for (int i = 0; i < depth; i++) {
        tg_buf_putc(out, mask_bit(mask, i) ? '|' : ' ');
        if (first && i == depth - 1) {
            tg_buf_puts(out, "--");
            put_percent(out, cumul_hits(node), total);
            tg_buf_puts(out, "--");
        } else {
            tg_buf_puts(out, "          ");
        }
    }
    put_frame_name(out, f);
    tg_buf_putc(out, '\n');
}

static void graph_level(tg_buf *out, const pcc_node *parent, uint64_t total, int depth,
                        uint32_t mask, int left_margin)
{
    uint32_t new_mask = mask;
    for (size_t k = 0; k < parent->n_sorted; k++) {
        const pcc_node *child = parent->sorted[k];
        if (k + 1 == parent->n_sorted)
            new_mask &= ~((uint32_t)1 << ((depth - 1) & 31));
        graph_line(out, depth, mask, left_margin);
        for (size_t i = 0; i < child->val_nr; i++)
            graph_frame(out, child, &child->val[i], depth, new_mask, i == 0, total, left_margin);
        graph_level(out, child, total, depth + 1, new_mask | ((uint32_t)1 << (depth & 31)),
                    left_margin);
    }
}

void pcc_print_graph(tg_buf *out, const pcc_root *r, uint64_t total, uint64_t parent,
                     bool skip_first)
{
    const pcc_node *level = &r->node;
    int left_margin = 0;
    bool printed = false;
    if (level->n_sorted == 1 && cumul_hits(level->sorted[0]) == parent) {
        const pcc_node *only = level->sorted[0];
        for (size_t i = 0; i < only->val_nr; i++) {
            if (i == 0 && skip_first)
                continue;
            if (!printed) {
                put_margin(out, left_margin);
                tg_buf_puts(out, "|\n");
                put_margin(out, left_margin);
                tg_buf_puts(out, "---");
                left_margin += 3;
                printed = true;
            } else {
                put_margin(out, left_margin);
            }
            put_frame_name(out, &only->val[i]);
            tg_buf_putc(out, '\n');
        }
        level = only;
    }
    graph_level(out, level, total, 1, 1, left_margin);
    if (printed || level->n_sorted)
        tg_buf_putc(out, '\n');
}

void pcc_free(pcc_root *r)
{
    free(r->ranked);
    memset(r, 0, sizeof *r);
}
