/* flame_tree.h - the call tree that flame graphs are drawn from (folded stacks, SVG).
 *
 * Built from the frames the call-stack builder ends (through frame_walk): node 0 is the root
 * ("all"), its children are the threads ("thread-TID"), and below them one node per distinct
 * call path (or, merged, the outermost frames of every thread right under the root, for
 * comparing runs whose thread ids differ).  Each node adds up the self time (total minus direct children) and the total time
 * of the calls on its path, and keeps the module of the function (a name found in two modules
 * under one parent is one node, of the first one's module).  Memory is bounded by distinct call
 * paths, not by events. */
#ifndef TG_FLAME_TREE_H
#define TG_FLAME_TREE_H

#include "writers/viewers/frame_walk.h"
#include "writers/viewers/sample_stacks.h"

#define TG_FLAME_NONE UINT32_MAX

typedef struct tg_flame_node {
    uint32_t parent, name;                          /* name: index in the walk's name table */
    uint32_t first_child, next_sibling, last_child; /* TG_FLAME_NONE when none */
    int64_t self_ns, total_ns;
    uint64_t calls;
    const char *module; /* of the path's first call (tg_call.module; the set owns it), or NULL */
} tg_flame_node;

typedef struct tg_flame_tree {
    tg_frame_walk walk; /* names and threads */
    tg_flame_node *nodes;
    size_t n, cap;
    bool merged;            /* no thread nodes: the threads' call paths merged under the root */
    bool samples;           /* a perf.data file's samples: self_ns and total_ns count samples */
    tg_frame_names modules; /* the samples' modules (the nodes' module points here) */
    /* private */
    tg_hash children;           /* (parent, name) -> node */
    struct tg_flame_open *open; /* per thread: node of the frame at each depth */
    size_t n_open, open_cap;
} tg_flame_tree;

/* Reads the whole iterator into the tree.  0 or a negative status. */
int tg_flame_tree_build(tg_flame_tree *ft, tg_iter *it);
/* The same with the threads merged: a call path is its functions' names alone. */
int tg_flame_tree_build_merged(tg_flame_tree *ft, tg_iter *it);
/* The tree of a perf.data file's samples (sample_stacks.h): under the root one node per
 * thread name, below it each stack's frames, the outermost first; a node's self_ns counts
 * the samples whose stack ends there, total_ns those whose stack passes through it.
 * 0 or a negative status. */
int tg_flame_tree_build_samples(tg_flame_tree *ft, tg_iter *it, const tg_options *opts,
                                tg_error **err);
/* Matches two trees by call path: map[i] (ft->n entries) is the node of other on the path of
 * ft's node i (names compared as text), or TG_FLAME_NONE; the roots match.  0 or NOMEM. */
int tg_flame_tree_match(const tg_flame_tree *ft, const tg_flame_tree *other, uint32_t *map);
void tg_flame_tree_free(tg_flame_tree *ft);
/* The next node of a depth-first walk from the root (children in first-seen order), or
 * TG_FLAME_NONE after the last. */
uint32_t tg_flame_tree_next(const tg_flame_tree *ft, uint32_t node);
static inline const char *tg_flame_node_name(const tg_flame_tree *ft, const tg_flame_node *n)
{
    return tg_frame_names_get(&ft->walk.names, n->name);
}

#endif
