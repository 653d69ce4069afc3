/* flame_tree.c - aggregating ended frames into the flame graphs' call tree (see
 * flame_tree.h).  A node's children are found through one table keyed by (parent, name),
 * and kept in first-seen order in a sibling list, so output order is deterministic. */
#include "writers/viewers/flame_tree.h"

#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tg_flame_open {
    uint32_t thread_node;
    uint32_t *at; /* node of the open frame at each depth */
    size_t cap;
};

void tg_flame_tree_free(tg_flame_tree *ft)
{
    for (size_t i = 0; i < ft->n_open; i++)
        free(ft->open[i].at);
    free(ft->open);
    free(ft->nodes);
    tg_hash_free(&ft->children);
    tg_frame_names_free(&ft->modules);
    tg_frame_walk_free(&ft->walk);
    memset(ft, 0, sizeof *ft);
}

/* A new child node of parent (out of the lookup's line: a call path is new only once). */
__attribute__((noinline)) static uint32_t
add_child(tg_flame_tree *ft, uint32_t node, uint32_t parent, uint32_t name, const char *module)
{
    if (tg_grow(&ft->nodes, &ft->cap, ft->n + 1, sizeof *ft->nodes) < 0)
        return TG_FLAME_NONE;
    ft->nodes[node] = (tg_flame_node){.parent = parent,
                                      .name = name,
                                      .first_child = TG_FLAME_NONE,
                                      .next_sibling = TG_FLAME_NONE,
                                      .last_child = TG_FLAME_NONE,
                                      .module = module};
    ft->n++;
    tg_flame_node *p = &ft->nodes[parent];
    if (p->last_child == TG_FLAME_NONE)
        p->first_child = node;
    else
        ft->nodes[p->last_child].next_sibling = node;
    p->last_child = node;
    return node;
}

/* The child of parent named name, added when new (of module); TG_FLAME_NONE when out of
 * memory. */
static inline uint32_t child_of(tg_flame_tree *ft, uint32_t parent, uint32_t name,
                                const char *module)
{
    int added;
    int64_t i = tg_hash_index(&ft->children, (uint64_t)parent << 32 | name, &added);
    if (i < 0)
        return TG_FLAME_NONE;
    uint32_t node = (uint32_t)i + 1; /* node 0 is the root, never anyone's child */
    return added ? add_child(ft, node, parent, name, module) : node;
}

static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    tg_flame_tree *ft = ctx;
    if (ft->merged) { /* the thread's outermost frames go right under the root */
        if (tg_grow(&ft->open, &ft->open_cap, t->index + 1, sizeof *ft->open) < 0)
            return TG_ERR_NOMEM;
        ft->open[t->index] = (struct tg_flame_open){.thread_node = 0};
        ft->n_open = t->index + 1;
        return 0;
    }
    char label[32];
    int len = snprintf(label, sizeof label, "thread-%d", t->tid);
    int64_t name = tg_frame_names_intern(&ft->walk.names, label, (size_t)len);
    if (name < 0)
        return (int)name;
    if (tg_grow(&ft->open, &ft->open_cap, t->index + 1, sizeof *ft->open) < 0)
        return TG_ERR_NOMEM;
    uint32_t node = child_of(ft, 0, (uint32_t)name, NULL);
    if (node == TG_FLAME_NONE)
        return TG_ERR_NOMEM;
    ft->open[t->index] = (struct tg_flame_open){.thread_node = node};
    ft->n_open = t->index + 1;
    return 0;
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    tg_flame_tree *ft = ctx;
    struct tg_flame_open *o = &ft->open[t->index];
    size_t level = t->depth - 1;
    if (tg_grow(&o->at, &o->cap, level + 1, sizeof *o->at) < 0)
        return TG_ERR_NOMEM;
    /* the parent: the nearest frame below that the walk named (a call begun before the
     * recording is not named before it ends, after the calls inside it) */
    size_t parent = level;
    while (parent > 0 && t->path[parent - 1] == TG_WALK_IMPLIED)
        parent--;
    uint32_t node = child_of(ft, parent ? o->at[parent - 1] : o->thread_node, name, frame->module);
    if (node == TG_FLAME_NONE)
        return TG_ERR_NOMEM;
    o->at[level] = node;
    return 0;
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    tg_flame_tree *ft = ctx;
    tg_flame_node *n = &ft->nodes[ft->open[t->index].at[call->depth]];
    /* the builder's times: for uftrace data, what uftrace report counts */
    n->total_ns += call->total_ns > 0 ? call->total_ns : 0;
    n->self_ns += call->self_ns > 0 ? call->self_ns : 0;
    n->calls++;
    return 0;
}

static const tg_walk_hooks flame_hooks = {
    .thread_new = on_thread_new,
    .frame_open = on_frame_open,
    .frame_close = on_frame_close,
};

/* The tree with its root alone ("all"). */
static int start_tree(tg_flame_tree *ft, bool merged)
{
    memset(ft, 0, sizeof *ft);
    ft->merged = merged;
    int64_t root_name = tg_frame_names_intern(&ft->walk.names, "all", 3);
    if (root_name < 0 || tg_grow(&ft->nodes, &ft->cap, 1, sizeof *ft->nodes) < 0)
        return TG_ERR_NOMEM;
    ft->nodes[0] = (tg_flame_node){.parent = TG_FLAME_NONE,
                                   .name = (uint32_t)root_name,
                                   .first_child = TG_FLAME_NONE,
                                   .next_sibling = TG_FLAME_NONE,
                                   .last_child = TG_FLAME_NONE};
    ft->n = 1;
    return 0;
}

static int build(tg_flame_tree *ft, tg_iter *it, bool merged)
{
    int rc = start_tree(ft, merged);
    if (rc == 0)
        rc = tg_frame_walk_run(&ft->walk, it, &flame_hooks, ft);
    if (rc < 0)
        return rc;
    /* totals of the thread nodes and the root, for the SVG's widths */
    if (merged) {
        for (uint32_t c = ft->nodes[0].first_child; c != TG_FLAME_NONE;
             c = ft->nodes[c].next_sibling)
            ft->nodes[0].total_ns += ft->nodes[c].total_ns;
        return 0;
    }
    for (uint32_t th = ft->nodes[0].first_child; th != TG_FLAME_NONE;
         th = ft->nodes[th].next_sibling) {
        for (uint32_t c = ft->nodes[th].first_child; c != TG_FLAME_NONE;
             c = ft->nodes[c].next_sibling)
            ft->nodes[th].total_ns += ft->nodes[c].total_ns;
        ft->nodes[0].total_ns += ft->nodes[th].total_ns;
    }
    return 0;
}

int tg_flame_tree_build(tg_flame_tree *ft, tg_iter *it) { return build(ft, it, false); }

int tg_flame_tree_build_merged(tg_flame_tree *ft, tg_iter *it) { return build(ft, it, true); }

/* While the samples are read: a node's module as an index into ft->modules + 1 (0: none),
 * made pointers at the end, once the table no longer moves. */
typedef struct flame_samples {
    tg_flame_tree *ft;
    uint32_t *module_of;
    size_t len, cap;
} flame_samples;

static int64_t sample_name(tg_flame_tree *ft, const char *name)
{
    return tg_frame_names_intern(&ft->walk.names, name, strlen(name));
}

static int add_sample_stack(void *ctx, const tg_sample_stack *stack)
{
    flame_samples *fs = ctx;
    tg_flame_tree *ft = fs->ft;
    int64_t name = sample_name(ft, stack->comm);
    if (name < 0)
        return TG_ERR_NOMEM;
    uint32_t node = child_of(ft, 0, (uint32_t)name, NULL);
    for (size_t i = 0; node != TG_FLAME_NONE && i < stack->depth; i++) {
        if ((name = sample_name(ft, stack->names[i])) < 0)
            return TG_ERR_NOMEM;
        size_t before = ft->n;
        node = child_of(ft, node, (uint32_t)name, NULL);
        if (node == TG_FLAME_NONE || ft->n == before || !stack->modules[i])
            continue;
        int64_t m =
            tg_frame_names_intern(&ft->modules, stack->modules[i], strlen(stack->modules[i]));
        if (m < 0 || (node >= fs->len && tg_grow_zeroed(&fs->module_of, &fs->len, &fs->cap,
                                                        node + 1, sizeof *fs->module_of) < 0))
            return TG_ERR_NOMEM;
        fs->module_of[node] = (uint32_t)m + 1;
    }
    if (node == TG_FLAME_NONE)
        return TG_ERR_NOMEM;
    ft->nodes[node].self_ns++;
    ft->nodes[node].calls++;
    for (uint32_t up = node; up != TG_FLAME_NONE; up = ft->nodes[up].parent)
        ft->nodes[up].total_ns++;
    return 0;
}

int tg_flame_tree_build_samples(tg_flame_tree *ft, tg_iter *it, const tg_options *opts,
                                tg_error **err)
{
    int rc = start_tree(ft, false);
    if (rc < 0)
        return tg_err(err, rc, "out of memory");
    ft->samples = true;
    flame_samples fs = {.ft = ft};
    rc = tg_sample_stacks_walk(it, opts, add_sample_stack, &fs, err);
    for (size_t i = 0; i < fs.len; i++)
        if (fs.module_of[i])
            ft->nodes[i].module = tg_frame_names_get(&ft->modules, fs.module_of[i] - 1);
    free(fs.module_of);
    return rc;
}

int tg_flame_tree_match(const tg_flame_tree *ft, const tg_flame_tree *other, uint32_t *map)
{
    /* each name of ft as a name of other (-1: other has none) */
    size_t n_names = tg_frame_names_count(&ft->walk.names);
    int64_t *xlate = malloc((n_names ? n_names : 1) * sizeof *xlate);
    if (!xlate)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < n_names; i++) {
        const char *name = tg_frame_names_get(&ft->walk.names, i);
        xlate[i] = tg_frame_names_find(&other->walk.names, name, strlen(name));
    }
    /* parents come before their children in the depth-first walk */
    for (uint32_t i = 0; i != TG_FLAME_NONE; i = tg_flame_tree_next(ft, i)) {
        if (i == 0) {
            map[0] = 0;
            continue;
        }
        const tg_flame_node *nd = &ft->nodes[i];
        uint32_t op = map[nd->parent];
        int64_t name = xlate[nd->name];
        map[i] = TG_FLAME_NONE;
        if (op == TG_FLAME_NONE || name < 0)
            continue;
        const uint64_t *child = tg_hash_find(&other->children, (uint64_t)op << 32 | (uint64_t)name);
        if (child)
            map[i] = (uint32_t)*child + 1;
    }
    free(xlate);
    return 0;
}

uint32_t tg_flame_tree_next(const tg_flame_tree *ft, uint32_t node)
{
    if (ft->nodes[node].first_child != TG_FLAME_NONE)
        return ft->nodes[node].first_child;
    for (; node != TG_FLAME_NONE; node = ft->nodes[node].parent)
        if (ft->nodes[node].next_sibling != TG_FLAME_NONE)
            return ft->nodes[node].next_sibling;
    return TG_FLAME_NONE;
}
