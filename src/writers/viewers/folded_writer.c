/* folded_writer.c - Brendan Gregg's folded stacks, `traceglot convert --to folded`.
 *
 * One line per distinct call path that spent time itself: `thread-TID;a;b;c SELF_NS`, the
 * weight being the path's self time in integer nanoseconds (total minus direct children),
 * so that per function the weights add up to the self time `uftrace report` shows; the
 * input of flamegraph.pl, inferno, speedscope and Perfetto's importers.  Paths are written
 * in the call tree's depth-first order (threads in first-seen order). */
#include "core/consumer.h"
#include "writers/viewers/flame_tree.h"

#include "core/grow.h"

#include <stdlib.h>

static int convert_folded(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err)
{
    tg_flame_tree ft;
    int rc = tg_flame_tree_build(&ft, it);
    uint32_t *path = NULL;
    size_t cap = 0;
    for (uint32_t node = 0; rc == 0 && node != TG_FLAME_NONE;
         node = tg_flame_tree_next(&ft, node)) {
        const tg_flame_node *n = &ft.nodes[node];
        if (node == 0 || n->self_ns <= 0 || n->parent == 0)
            continue;
        size_t depth = 0;
        for (uint32_t up = node; up != 0; up = ft.nodes[up].parent) {
            if (tg_grow(&path, &cap, depth + 1, sizeof *path) < 0) {
                rc = TG_ERR_NOMEM;
                break;
            }
            path[depth++] = up;
        }
        while (rc == 0 && depth--) {
            tg_buf_puts(out, tg_flame_node_name(&ft, &ft.nodes[path[depth]]));
            tg_buf_putc(out, depth ? ';' : ' ');
        }
        tg_buf_i64(out, n->self_ns);
        tg_buf_putc(out, '\n');
    }
    free(path);
    tg_flame_tree_free(&ft);
    return rc;
}

TG_CONVERTER(folded) = {"folded", convert_folded};
