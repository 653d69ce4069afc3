/* cli_bt_run.c - `traceglot run -c NAME:CLASS -p PARAMS ... -x A:B`: babeltrace2's run
 * command line, for the graphs whose components traceglot has.
 *
 * babeltrace2 run builds a graph from named components and their connections.  traceglot
 * runs the graphs made of a source.ctf.fs (its inputs=[...] the traces), optional
 * filter.utils.muxer and filter.utils.trimmer (begin=, end=) and one sink:
 * sink.text.pretty (the booleans no-delta, clock-seconds, clock-cycles, clock-date,
 * clock-gmt), sink.text.details, sink.ctf.fs (path=DIR) or sink.utils.dummy, as the
 * matching `traceglot cat` or `traceglot convert --to ctf`.  Any other component class or
 * parameter is refused by name (exit 2), never left out silently. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("run", why, arg,
                          "babeltrace2's spelling: traceglot run -c src:src.ctf.fs -p "
                          "'inputs=[\"TRACE\"]' -c mux:filter.utils.muxer -c "
                          "sink:sink.text.pretty -x src:mux -x mux:sink");
}

/* What the graph asks for, gathered from its components. */
struct bt_graph {
    char **inputs;
    size_t n_inputs;
    const char *sink; /* "pretty", "details", "ctf", "dummy" */
    const char *ctf_path;
    char *begin, *end; /* the trimmer's */
    bool no_delta, seconds, cycles, date, gmt;
    size_t n_components, n_connections;
};

static bool class_is(const char *cls, const char *type_short, const char *type_long,
                     const char *plugin_class)
{
    size_t a = strlen(type_short), b = strlen(type_long);
    if (!strncmp(cls, type_short, a) && cls[a] == '.')
        return !strcmp(cls + a + 1, plugin_class);
    if (!strncmp(cls, type_long, b) && cls[b] == '.')
        return !strcmp(cls + b + 1, plugin_class);
    return false;
}

static int pretty_params(struct bt_graph *g, const struct cli_bt_params *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        const struct cli_bt_param *p = &ps->items[i];
        bool *flag = !strcmp(p->key, "no-delta")        ? &g->no_delta
                     : !strcmp(p->key, "clock-seconds") ? &g->seconds
                     : !strcmp(p->key, "clock-cycles")  ? &g->cycles
                     : !strcmp(p->key, "clock-date")    ? &g->date
                     : !strcmp(p->key, "clock-gmt")     ? &g->gmt
                                                        : NULL;
        if (!strcmp(p->key, "color") && p->n_values == 1 && !strcmp(p->values[0], "never"))
            continue;
        int b = flag ? cli_bt_param_bool(p) : -1;
        if (b < 0)
            return usage("sink.text.pretty's parameter not taken by traceglot (it takes the "
                         "booleans no-delta, clock-seconds, clock-cycles, clock-date, "
                         "clock-gmt):",
                         p->key);
        *flag = b;
    }
    return 0;
}

/* One component with its parameters into the graph: 0, or 2 after saying why. */
static int add_component(struct bt_graph *g, const char *spec, const struct cli_bt_params *ps)
{
    const char *colon = strchr(spec, ':');
    if (!colon || colon == spec)
        return usage("a component of run is NAME:TYPE.PLUGIN.CLASS, not", spec);
    const char *cls = colon + 1;
    g->n_components++;
    if (class_is(cls, "src", "source", "ctf.fs")) {
        const struct cli_bt_param *in = cli_bt_params_find(ps, "inputs");
        if (!in || !in->array || in->n_values == 0 || ps->n != 1)
            return usage("source.ctf.fs takes inputs=[\"TRACE\",...] only, not",
                         ps->n ? ps->items[ps->n - 1].key : "nothing");
        for (size_t i = 0; i < in->n_values; i++) {
            char **grown = realloc(g->inputs, (g->n_inputs + 1) * sizeof *grown);
            if (!grown)
                return 1;
            g->inputs = grown;
            g->inputs[g->n_inputs++] = in->values[i];
        }
        return 0;
    }
    if (class_is(cls, "flt", "filter", "utils.muxer"))
        return ps->n ? usage("filter.utils.muxer takes no parameter, not", ps->items[0].key) : 0;
    if (class_is(cls, "flt", "filter", "utils.trimmer")) {
        for (size_t i = 0; i < ps->n; i++) {
            const struct cli_bt_param *p = &ps->items[i];
            char **slot = !strcmp(p->key, "begin") ? &g->begin
                          : !strcmp(p->key, "end") ? &g->end
                                                   : NULL;
            if (!slot || p->array || p->n_values != 1)
                return usage("filter.utils.trimmer takes begin= and end=, not", p->key);
            *slot = p->values[0];
        }
        return 0;
    }
    const char *sink = class_is(cls, "sink", "sink", "text.pretty")    ? "pretty"
                       : class_is(cls, "sink", "sink", "text.details") ? "details"
                       : class_is(cls, "sink", "sink", "ctf.fs")       ? "ctf"
                       : class_is(cls, "sink", "sink", "utils.dummy")  ? "dummy"
                                                                       : NULL;
    if (!sink)
        return usage("component class not in traceglot (it has source.ctf.fs, "
                     "filter.utils.muxer, filter.utils.trimmer, sink.text.pretty, "
                     "sink.text.details, sink.ctf.fs and sink.utils.dummy):",
                     cls);
    if (g->sink)
        return usage("traceglot runs graphs of one sink, not also", spec);
    g->sink = sink;
    if (!strcmp(sink, "pretty"))
        return pretty_params(g, ps);
    if (!strcmp(sink, "ctf")) {
        const struct cli_bt_param *path = cli_bt_params_find(ps, "path");
        if (!path || path->array || path->n_values != 1 || ps->n != 1)
            return usage("sink.ctf.fs takes path=\"DIR\" only, not",
                         ps->n ? ps->items[ps->n - 1].key : "nothing");
        g->ctf_path = path->values[0];
        return 0;
    }
    return ps->n ? usage("this sink takes no parameter in traceglot, not", ps->items[0].key) : 0;
}

/* The graph as a traceglot command line, run. */
static int run_graph(const struct bt_graph *g)
{
    if (!g->n_inputs)
        return usage("the graph needs a source.ctf.fs with inputs=[...]", NULL);
    if (!g->sink)
        return usage("the graph needs a sink component", NULL);
    if (!g->n_connections)
        return usage("the components are connected with -x/--connect UPSTREAM:DOWNSTREAM", NULL);
    char **args = calloc(g->n_inputs + 16, sizeof *args);
    char begin[300], end[300];
    int n = 0;
    if (!args)
        return 1;
    const char *verb = !strcmp(g->sink, "ctf") ? "convert" : "cat";
    if (!strcmp(g->sink, "ctf")) {
        args[n++] = "--to=ctf";
        args[n++] = "-o";
        args[n++] = (char *)g->ctf_path;
    } else
        args[n++] =
            !strcmp(g->sink, "details") ? "--style=babeltrace-details" : "--style=babeltrace";
    if (g->no_delta)
        args[n++] = "--no-delta";
    if (g->seconds)
        args[n++] = "--clock-seconds";
    if (g->cycles)
        args[n++] = "--clock-cycles";
    if (g->date)
        args[n++] = "--clock-date";
    if (g->gmt)
        args[n++] = "--clock-gmt";
    if (g->begin) {
        snprintf(begin, sizeof begin, "--begin=%s", g->begin);
        args[n++] = begin;
    }
    if (g->end) {
        snprintf(end, sizeof end, "--end=%s", g->end);
        args[n++] = end;
    }
    args[n++] = "--";
    for (size_t i = 0; i < g->n_inputs; i++)
        args[n++] = g->inputs[i];
    if (!strcmp(g->sink, "dummy") && !freopen("/dev/null", "w", stdout)) {
        free(args);
        return 1;
    }
    int rc = cli_run_command(verb, n, args);
    free(args);
    return rc;
}

int cli_run_bt_run(int argc, char **argv)
{
    struct bt_graph g = {0};
    struct cli_bt_params *params = calloc((size_t)argc + 1, sizeof *params);
    const char **specs = calloc((size_t)argc + 1, sizeof *specs);
    size_t n = 0;
    int rc = params && specs ? 0 : 1;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *arg = argv[i], *v = NULL;
        bool comp = !strcmp(arg, "-c") || !strcmp(arg, "--component");
        bool par = !strcmp(arg, "-p") || !strcmp(arg, "--params");
        bool conn = !strcmp(arg, "-x") || !strcmp(arg, "--connect");
        if (comp || par || conn) {
            if (i + 1 >= argc) {
                rc = usage("a value is needed after", arg);
                break;
            }
            v = argv[++i];
        } else if (!strncmp(arg, "--component=", 12) || !strncmp(arg, "--params=", 9) ||
                   !strncmp(arg, "--connect=", 10)) {
            v = strchr(arg, '=') + 1;
            comp = arg[2] == 'c' && arg[4] == 'm';
            par = arg[2] == 'p';
            conn = !comp && !par;
        } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            printf("usage: traceglot run -c NAME:CLASS [-p PARAMS] ... -x UP:DOWN ...\n\n"
                   "babeltrace2 run's graphs of source.ctf.fs, filter.utils.muxer, "
                   "filter.utils.trimmer and one of sink.text.pretty, sink.text.details, "
                   "sink.ctf.fs, sink.utils.dummy\n");
            free(params);
            free(specs);
            return 0;
        } else {
            rc = usage("run takes -c, -p and -x, not", arg);
            break;
        }
        if (comp)
            specs[n++] = v;
        else if (par && n == 0)
            rc = usage("-p gives the parameters of the -c before it, and there is none:", v);
        else if (par && cli_bt_params_parse(v, &params[n - 1]) < 0)
            rc = usage("cannot read the parameters", v);
        else if (conn)
            g.n_connections++;
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = add_component(&g, specs[i], &params[i]);
    if (rc == 0)
        rc = run_graph(&g);
    for (size_t i = 0; params && i < n; i++)
        cli_bt_params_free(&params[i]);
    free(params);
    free(specs);
    free(g.inputs);
    return rc;
}
