/* graph_dispatch.c - tg_graph: the function call graph in the graph style asked for
 * ("uftrace" by default: uftrace graph, compat/uftrace/graph.c; "xray": llvm-xray graph,
 * compat/llvm-xray/xray_graph.c).  A style that reads the filtered iterator takes the filter
 * options; one that reads the traces as its peer loads them refuses them. */
#include "core/consumer.h"
#include "core/error_internal.h"

#include <string.h>

struct graph_call {
    const struct tg_graph_style *style;
    const char *func;
};

static int run_graph(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                     tg_buf *out, tg_error **err)
{
    const struct graph_call *c = impl;
    return c->style->graph(set, it, c->func, opts, out, err);
}

int tg_graph(tg_set *set, const tg_filter *f, const char *style, const char *func,
             const tg_options *opts, tg_buf *out, tg_error **err)
{
    if (!style)
        style = "uftrace";
    for (size_t i = 0; tg_graph_style_list[i]; i++) {
        const struct tg_graph_style *s = tg_graph_style_list[i];
        if (strcmp(s->name, style) != 0)
            continue;
        TG_TRY(tg_options_check(opts, TG_OWNER_GRAPH_STYLE, style,
                                s->takes_filters ? "filter" : NULL, NULL, err));
        struct graph_call c = {s, func};
        return tg_sink_run(set, s->takes_filters ? f : NULL, opts, out, err, run_graph, &c);
    }
    char known[128];
    tg_names_join(tg_graph_style_name, known, sizeof known);
    return tg_err(err, TG_ERR_USAGE, "unknown graph style '%s' (known: %s)", style, known);
}

const char *tg_graph_style_name(size_t i)
{
    for (size_t k = 0; tg_graph_style_list[k]; k++)
        if (k == i)
            return tg_graph_style_list[k]->name;
    return NULL;
}
