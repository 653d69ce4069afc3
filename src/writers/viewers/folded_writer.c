/* folded_writer.c - Brendan Gregg's folded stacks, `traceglot convert --to folded` (and
 * --diff: two runs' self times per call path, as difffolded.pl writes them).
 *
 * One line per distinct call path that spent time itself: `thread-TID;a;b;c SELF_NS`, the
 * weight being the path's self time in integer nanoseconds (total minus direct children),
 * so that per function the weights add up to the self time `uftrace report` shows; the
 * input of flamegraph.pl, inferno, speedscope and Perfetto's importers.  Paths are written
 * in the call tree's depth-first order (threads in first-seen order).  A perf.data file's
 * samples are counted per stack instead, as perf's stackcollapse does (sample_folded.c). */
#include "core/consumer.h"
#include "writers/viewers/flame_tree.h"
#include "writers/viewers/sample_folded.h"
#include "writers/viewers/sample_stacks.h"

#include <string.h>

#include "core/grow.h"

#include <stdlib.h>

/* The names from the first frame below the root to node, ';'-separated, then sep. */
static int put_path(const tg_flame_tree *ft, uint32_t node, tg_buf *out, uint32_t **path,
                    size_t *cap, char sep)
{
    size_t depth = 0;
    for (uint32_t up = node; up != 0; up = ft->nodes[up].parent) {
        if (tg_grow(path, cap, depth + 1, sizeof **path) < 0)
            return TG_ERR_NOMEM;
        (*path)[depth++] = up;
    }
    while (depth--) {
        tg_buf_puts(out, tg_flame_node_name(ft, &ft->nodes[(*path)[depth]]));
        tg_buf_putc(out, depth ? ';' : sep);
    }
    return 0;
}

static int convert_folded(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    if (tg_set_has_samples(set))
        return tg_sample_folded(it, opts, out, err);
    tg_flame_tree ft;
    int rc = tg_flame_tree_build(&ft, it);
    uint32_t *path = NULL;
    size_t cap = 0;
    for (uint32_t node = 0; rc == 0 && node != TG_FLAME_NONE;
         node = tg_flame_tree_next(&ft, node)) {
        const tg_flame_node *n = &ft.nodes[node];
        if (node == 0 || n->self_ns <= 0 || n->parent == 0)
            continue;
        rc = put_path(&ft, node, out, &path, &cap, ' ');
        tg_buf_i64(out, n->self_ns);
        tg_buf_putc(out, '\n');
    }
    free(path);
    tg_flame_tree_free(&ft);
    return rc;
}

/* --diff: flamegraph.pl's difffolded.pl output, `path OTHER_NS PATH_NS` per call path that
 * spent time itself in either run (threads merged, so that paths of runs with other thread
 * ids match): PATH's paths in depth-first order, then the paths only OTHER has. */
static int convert_folded_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                               const tg_options *opts, tg_buf *out, tg_error **err)
{
    tg_flame_tree ft, fo;
    int rc = tg_flame_tree_build_merged(&fo, other_it);
    int rc2 = tg_flame_tree_build_merged(&ft, it);
    rc = rc < 0 ? rc : rc2;
    uint32_t *map = rc == 0 ? malloc(ft.n * sizeof *map) : NULL;
    uint8_t *matched = rc == 0 ? calloc(fo.n ? fo.n : 1, 1) : NULL;
    if (rc == 0 && (!map || !matched))
        rc = TG_ERR_NOMEM;
    if (rc == 0)
        rc = tg_flame_tree_match(&ft, &fo, map);
    uint32_t *path = NULL;
    size_t cap = 0;
    for (uint32_t node = 1; rc == 0 && node < ft.n; node = tg_flame_tree_next(&ft, node)) {
        int64_t before = map[node] != TG_FLAME_NONE ? fo.nodes[map[node]].self_ns : 0;
        if (map[node] != TG_FLAME_NONE)
            matched[map[node]] = 1;
        if (ft.nodes[node].self_ns <= 0 && before <= 0)
            continue;
        rc = put_path(&ft, node, out, &path, &cap, ' ');
        tg_buf_i64(out, before > 0 ? before : 0);
        tg_buf_putc(out, ' ');
        tg_buf_i64(out, ft.nodes[node].self_ns > 0 ? ft.nodes[node].self_ns : 0);
        tg_buf_putc(out, '\n');
    }
    for (uint32_t node = 1; rc == 0 && node < fo.n; node = tg_flame_tree_next(&fo, node)) {
        if (matched[node] || fo.nodes[node].self_ns <= 0)
            continue;
        rc = put_path(&fo, node, out, &path, &cap, ' ');
        tg_buf_i64(out, fo.nodes[node].self_ns);
        tg_buf_puts(out, " 0\n");
    }
    free(path);
    free(map);
    free(matched);
    tg_flame_tree_free(&ft);
    tg_flame_tree_free(&fo);
    return rc;
}

TG_CONVERTER(folded) = {"folded", convert_folded, .convert_diff = convert_folded_diff,
                        .options = tg_sample_stack_options};
