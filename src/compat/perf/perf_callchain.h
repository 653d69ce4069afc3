/* perf_callchain.h - the call graph perf report draws under an entry (perf's callchain.c).
 *
 * Each entry of perf report keeps a tree of the call chains of its samples: a node holds a
 * run of frames that every chain through it shares, its own hits (the period of the chains
 * that end there) and its children's.  A chain is added frame by frame from the root: a
 * node whose frames match only in part is split, as perf's append_chain splits it.  Frames
 * match by object and symbol start when both have a symbol, else by object and address
 * (perf's CCKEY_FUNCTION).  Before printing, each node's children are sorted by their hits,
 * largest first, those under the threshold dropped; ties keep perf's tree order (object,
 * then address, both descending: an object's rank is the order in which the session met
 * it, as perf's objects lie in memory in the order they were made).  Printed as perf's
 * --stdio "graph" mode prints it (absolute percentages of the event's total). */
#ifndef TG_PERF_CALLCHAIN_H
#define TG_PERF_CALLCHAIN_H

#include "core/consumer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct pcc_frame {
    uint64_t ip;        /* the address as the chain holds it (printed without a symbol) */
    uint64_t sym_start; /* the symbol's start (map-relative) when sym is set */
    const char *sym;    /* the symbol's name, NULL: none */
    uint32_t dso_rank;  /* the object's rank (0: no map) */
} pcc_frame;

typedef struct pcc_node pcc_node;

/* A child with a copy of its first frame, which the look-ups compare: a search among the
 * children reads one array, not each child's node. */
typedef struct pcc_kid {
    pcc_frame first;
    pcc_node *node;
} pcc_kid;

struct pcc_node {
    pcc_frame *val; /* the frames this node holds (in the arena, never changed: a split
                     * node's tail points into them) */
    size_t val_nr;
    uint64_t hit, children_hit;
    pcc_kid *kids; /* perf's tree order */
    size_t n_kids, cap_kids;
    pcc_node **sorted; /* after pcc_sort: by hits, the threshold applied */
    size_t n_sorted;
};

struct pcc_ranked;

typedef struct pcc_root {
    pcc_node node;
    tg_arena *arena;  /* where the nodes live: the caller's (one for many roots), freed by it */
    size_t max_depth; /* the longest chain added */
    struct pcc_ranked *ranked; /* pcc_sort's room */
    size_t cap_ranked;
    bool nomem;
} pcc_root;

/* Adds a chain of n frames (r->arena must be set) (root first as the tree is to be read) with its period. */
void pcc_append(pcc_root *r, const pcc_frame *frames, size_t n, uint64_t period);
/* Sorts every node's children by their hits, dropping those below min_hit. */
void pcc_sort(pcc_root *r, uint64_t min_hit);
/* Prints the graph as perf report --stdio does under an entry: total is the event's
 * period, parent the entry's (its children column when cumulating), skip_first leaves out
 * the first frame of a single root (perf does with --sort sym). */
void pcc_print_graph(tg_buf *out, const pcc_root *r, uint64_t total, uint64_t parent,
                     bool skip_first);
/* Frees what the root holds outside its arena. */
void pcc_free(pcc_root *r);

#endif
