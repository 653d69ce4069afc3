/* perf_hist.c - perf report's entries: the keys' equality, hash and perf's two orders.
 *
 * perf keeps entries in a tree ordered by the sort keys' comparisons (hists->entries_in,
 * or entries_collapsed), then re-inserts them into the output tree by the output sort,
 * equal ones going right: the printed order is the output sort with ties in tree order.
 * Both orders are reproduced here as two comparisons, the tree order first giving each
 * entry its rank. */
#include "compat/perf/perf_hist.h"

#include <stdlib.h>
#include <string.h>

static int sign64(int64_t d) { return d < 0 ? -1 : d > 0; }

/* NULL last (perf's cmp_null as sort__dso_cmp calls it) */
static int dso_cmp(const ph_entry *a, const ph_entry *b)
{
    if (!a->dso || !b->dso)
        return a->dso ? -1 : b->dso ? 1 : 0;
    return strcmp(a->dso, b->dso);
}

/* perf's sort__sym_cmp, as the tree orders: <0 when a goes before b */
static int sym_tree_cmp(const ph_entry *a, const ph_entry *b)
{
    if (!a->sym && !b->sym)
        return sign64((int64_t)(a->ip - b->ip));
    int c = dso_cmp(a, b);
    if (c)
        return c;
    if (!a->sym || !b->sym)
        return a->sym ? -1 : 1;
    if (a->sym->start != b->sym->start)
        return sign64((int64_t)(a->sym->start - b->sym->start));
    return sign64((int64_t)(a->sym->end - b->sym->end));
}

static int key_tree_cmp(ph_key k, const ph_entry *a, const ph_entry *b)
{
    switch (k) {
    case PH_COMM: return strcmp(a->comm, b->comm);
    case PH_PID: return a->tid < b->tid ? -1 : a->tid > b->tid;
    case PH_DSO: return dso_cmp(a, b);
    case PH_SYM: return sym_tree_cmp(a, b);
    }
    return 0;
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

static uint64_t key_hash(const ph_config *cfg, const ph_entry *e)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < cfg->n_keys; i++) {
        switch (cfg->keys[i]) {
        case PH_COMM: h = mix(h, tg_hash_str(e->comm)); break;
        case PH_PID: h = mix(h, (uint32_t)e->tid); break;
        case PH_DSO: h = mix(h, e->dso ? tg_hash_str(e->dso) : 0); break;
        case PH_SYM:
            if (e->sym)
                h = mix(mix(mix(h, e->dso ? tg_hash_str(e->dso) : 1), e->sym->start), e->sym->end);
            else
                h = mix(mix(h, 2), e->ip);
            break;
        }
    }
    return h;
}

typedef struct ph_probe {
    const ph_hists *h;
    const ph_config *cfg;
    const ph_entry *tmpl;
} ph_probe;

static int entry_eq(const void *ctx, uint64_t value)
{
    const ph_probe *p = ctx;
    const ph_entry *e = &p->h->v[value];
    for (size_t i = 0; i < p->cfg->n_keys; i++)
        if (key_tree_cmp(p->cfg->keys[i], e, p->tmpl) != 0)
            return 0;
    return 1;
}

long ph_entry_of(ph_hists *h, const ph_config *cfg, const ph_entry *tmpl)
{
    uint64_t hash = key_hash(cfg, tmpl);
    ph_probe probe = {h, cfg, tmpl};
    uint64_t *found = tg_hash_find_by(&h->index, hash, entry_eq, &probe);
    if (found)
        return (long)*found;
    if (!h->arena && (h->arena = malloc(sizeof *h->arena)) != NULL)
        tg_arena_init(h->arena);
    char *comm = strdup(tmpl->comm);
    uint64_t *slot;
    if (!comm || !h->arena || tg_grow(&h->v, &h->cap, h->n + 1, sizeof *h->v) < 0 ||
        tg_hash_add(&h->index, hash, &slot) < 0) {
        free(comm);
        h->nomem = true;
        return -1;
    }
    *slot = h->n;
    ph_entry *e = &h->v[h->n];
    *e = *tmpl;
    e->comm = comm;
    e->period = e->period_acc = 0;
    memset(&e->chain, 0, sizeof e->chain);
    e->chain.arena = h->arena;
    return (long)h->n++;
}

static int tree_cmp(const void *a, const void *b, void *ctx)
{
    const ph_config *cfg = ctx;
    for (size_t i = 0; i < cfg->n_keys; i++) {
        int c = key_tree_cmp(cfg->keys[i], a, b);
        if (c)
            return c;
    }
    return 0;
}

static int u64_desc(uint64_t a, uint64_t b) { return a > b ? -1 : a < b; }

/* perf's output sort (hist_entry__sort > 0: a first), as <0: a first */
static int output_cmp(const void *pa, const void *pb, void *ctx)
{
    const ph_config *cfg = ctx;
    const ph_entry *a = pa, *b = pb;
    int c;
    if (cfg->children) {
        if ((c = u64_desc(a->period_acc, b->period_acc)))
            return c;
        /* perf's __hpp__sort_acc: a caller above its callee of equal period */
        if (a->tid == b->tid && cfg->graph && a->chain.max_depth != b->chain.max_depth) {
            bool deeper = a->chain.max_depth > b->chain.max_depth;
            return (deeper == cfg->caller) ? -1 : 1;
        }
    }
    if ((c = u64_desc(a->period, b->period)))
        return c;
    for (size_t i = 0; i < cfg->n_keys; i++) {
        switch (cfg->keys[i]) {
        case PH_COMM: c = strcmp(a->comm, b->comm); break;
        case PH_PID: c = a->tid < b->tid ? -1 : a->tid > b->tid; break;
        case PH_DSO: c = dso_cmp(a, b); break;
        case PH_SYM: /* sort__sym_sort: by name, entries without a symbol last */
            if (!a->sym || !b->sym)
                c = a->sym ? -1 : b->sym ? 1 : 0;
            else
                c = strcmp(a->sym->name, b->sym->name);
            break;
        }
        if (c)
            return c;
    }
    return 0; /* a tie: the tree's shape decides (right of the node) */
}

/* A stable merge sort with a context (qsort_r is not C11). */
static void merge_sort(ph_entry *v, ph_entry *tmp, size_t n,
                       int (*cmp)(const void *, const void *, void *), void *ctx)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    merge_sort(v, tmp, half, cmp, ctx);
    merge_sort(v + half, tmp, n - half, cmp, ctx);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        tmp[k++] = cmp(&v[j], &v[i], ctx) < 0 ? v[j++] : v[i++];
    while (i < half)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* perf's output tree: a red-black tree (the kernel's rbtree, whose insert is the textbook
 * one) filled in tree order, an entry going left of a node it sorts before and right
 * otherwise.  The output sort is not a total order (the children tie-break compares only
 * entries of one thread), so the printed order depends on the tree's shape: it is built
 * here as perf builds it. */
typedef struct ph_rb {
    long *parent, *left, *right;
    bool *red;
    long root;
} ph_rb;

static void rb_rotate(ph_rb *t, long x, bool to_left)
{
    long *down = to_left ? t->right : t->left, *up = to_left ? t->left : t->right;
    long y = down[x];
    down[x] = up[y];
    if (up[y] >= 0)
        t->parent[up[y]] = x;
    t->parent[y] = t->parent[x];
    if (t->parent[x] < 0)
        t->root = y;
    else if (x == t->left[t->parent[x]])
        t->left[t->parent[x]] = y;
    else
        t->right[t->parent[x]] = y;
    up[y] = x;
    t->parent[x] = y;
}

static void rb_fixup(ph_rb *t, long z)
{
    while (t->parent[z] >= 0 && t->red[t->parent[z]]) {
        long p = t->parent[z], g = t->parent[p];
        bool p_is_left = p == t->left[g];
        long uncle = p_is_left ? t->right[g] : t->left[g];
        if (uncle >= 0 && t->red[uncle]) {
            t->red[p] = t->red[uncle] = false;
            t->red[g] = true;
            z = g;
            continue;
        }
        if (z == (p_is_left ? t->right[p] : t->left[p])) {
            z = p;
            rb_rotate(t, z, p_is_left);
            p = t->parent[z];
        }
        t->red[p] = false;
        t->red[g] = true;
        rb_rotate(t, g, !p_is_left);
    }
    t->red[t->root] = false;
}

static bool output_order(ph_entry *v, size_t n, const ph_config *cfg, size_t *order)
{
    ph_rb t = {malloc(n * sizeof(long)), malloc(n * sizeof(long)), malloc(n * sizeof(long)),
               malloc(n * sizeof(bool)), -1};
    bool ok = t.parent && t.left && t.right && t.red;
    for (size_t i = 0; ok && i < n; i++) {
        long z = (long)i, y = -1, x = t.root;
        bool go_left = false;
        while (x >= 0) {
            y = x;
            go_left = output_cmp(&v[i], &v[x], (void *)cfg) < 0;
            x = go_left ? t.left[x] : t.right[x];
        }
        t.parent[z] = y;
        t.left[z] = t.right[z] = -1;
        t.red[z] = true;
        if (y < 0)
            t.root = z;
        else if (go_left)
            t.left[y] = z;
        else
            t.right[y] = z;
        rb_fixup(&t, z);
    }
    /* in order; the stack borrows parent[] (no longer needed), a path is at most n long */
    size_t k = 0, depth = 0;
    for (long x = t.root; ok && (x >= 0 || depth);) {
        if (x >= 0) {
            t.parent[depth++] = x;
            x = t.left[x];
        } else {
            x = t.parent[--depth];
            order[k++] = (size_t)x;
            x = t.right[x];
        }
    }
    free(t.parent);
    free(t.left);
    free(t.right);
    free(t.red);
    return ok;
}

void ph_sort(ph_hists *h, const ph_config *cfg)
{
    if (h->n < 2)
        return;
    ph_entry *tmp = malloc(h->n * sizeof *tmp);
    size_t *order = malloc(h->n * sizeof *order);
    if (!tmp || !order) {
        free(tmp);
        free(order);
        h->nomem = true;
        return;
    }
    merge_sort(h->v, tmp, h->n, tree_cmp, (void *)cfg);
    for (size_t i = 0; i < h->n; i++)
        h->v[i].order = i;
    if (output_order(h->v, h->n, cfg, order)) {
        for (size_t i = 0; i < h->n; i++)
            tmp[i] = h->v[order[i]];
        memcpy(h->v, tmp, h->n * sizeof *tmp);
    } else {
        h->nomem = true;
    }
    free(tmp);
    free(order);
    tg_hash_clear(&h->index); /* the indexes moved */
}

void ph_free(ph_hists *h)
{
    for (size_t i = 0; i < h->n; i++) {
        free(h->v[i].comm);
        pcc_free(&h->v[i].chain);
    }
    free(h->v);
    tg_hash_free(&h->index);
    if (h->arena) {
        tg_arena_free(h->arena);
        free(h->arena);
    }
    memset(h, 0, sizeof *h);
}
