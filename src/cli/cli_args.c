/* cli_args.c - parsing a subcommand's arguments, opening the paths, and reporting errors the
 * way every subcommand does:
 *   traceglot: error: <file>: offset 0x...: <what was expected>     (exit 1)
 *   traceglot cat: unknown option '--x' (see traceglot cat --help)   (exit 2)
 *
 * A command takes its own options (cli_options.c) and the options the library declares for
 * it: those of opening (core and the formats), of the command (replay's, the filters), and
 * of each style or converter it can run.  An option of another style than the chosen one is
 * a usage error that names the chosen style, never ignored. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One option as the parser resolved it: the command line's own, or a declaration. */
struct resolved {
    const char *name;
    const char *arg; /* NULL: takes no value */
    const struct cli_option *own;
    const tg_option_decl *decl;
    const char *foreign; /* found only among another style's declarations: that style */
};

/* Does d answer to the long name (name, len), as its key or its peer's spelling? */
static int long_name_is(const tg_option_decl *d, const char *name, size_t len)
{
    return (strlen(d->name) == len && strncmp(d->name, name, len) == 0) ||
           (d->spelling && strlen(d->spelling) == len && strncmp(d->spelling, name, len) == 0);
}

/* The option named (name, len) or with short letter c (name NULL) that cmd offers.  Among
 * several declarations, one of opening, of the command or of the chosen sink comes first;
 * one of another style only (r->foreign names it) when no other has that spelling. */
static int find_option(const struct cli_command_info *cmd, const char *sink, const char *name,
                       size_t len, char c, struct resolved *r)
{
    for (const struct cli_option *o = cli_options; o->name; o++)
        if ((o->commands & cmd->id) &&
            (!o->only_style || cmd->sink == TG_OWNER_COMMAND ||
             (sink && strcmp(sink, o->only_style) == 0)) &&
            (name ? strlen(o->name) == len && strncmp(o->name, name, len) == 0
                  : o->short_name == c)) {
            *r = (struct resolved){o->name, o->arg, o, NULL, NULL};
            return 1;
        }
    int found = 0, found_own = 0;
    tg_option_owner owner;
    const char *oname;
    const tg_option_decl *d;
    for (size_t i = 0; (d = tg_option_declared(i, &owner, &oname)) != NULL; i++) {
        if (name ? !long_name_is(d, name, len) : d->short_name != c)
            continue;
        if (!cli_offers(cmd, owner, oname))
            continue;
        /* the chosen style's own spelling wins over a command group's (graph --style=xray's
         * -e is llvm-xray graph's -edge-label, not the filters' -e) */
        int styled =
            owner == cmd->sink && owner != TG_OWNER_COMMAND && sink && strcmp(oname, sink) == 0;
        int own = owner != cmd->sink || owner == TG_OWNER_COMMAND || styled;
        if (styled) {
            *r = (struct resolved){d->name, cli_arg_name(d), NULL, d, NULL};
            return 1;
        }
        if (found_own)
            continue;
        if (!found || own || cli_takes(cmd, sink, d->name)) {
            *r = (struct resolved){d->name, cli_arg_name(d), NULL, d, own ? NULL : oname};
            found = 1;
            found_own = own;
        }
    }
    return found;
}

static int usage_error(const struct cli_command_info *cmd, const char *what, const char *arg)
{
    fprintf(stderr, "traceglot %s: %s '%s' (see traceglot %s --help)\n", cmd->name, what, arg,
            cmd->name);
    return 2;
}

static void offer_option(const struct cli_command_info *cmd, const struct cli_opt *o, void *ctx)
{
    (void)cmd;
    tg_nearest_offer(ctx, o->name);
}

static int unknown_option(const struct cli_command_info *cmd, const char *arg, const char *name,
                          size_t len)
{
    char key[64], near[300];
    snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), name);
    tg_nearest n;
    tg_nearest_init(&n, key);
    cli_each_option(cmd, offer_option, &n);
    if (tg_nearest_say(&n, "--", near, sizeof near)) {
        fprintf(stderr,
                "traceglot %s: unknown option '%s' (did you mean %s? see traceglot %s --help)\n",
                cmd->name, arg, near, cmd->name);
        return 2;
    }
    return usage_error(cmd, "unknown option", arg);
}

/* trace-cmd's -v: the -F filters after it hide what they match.  Its place among them is an
 * empty item of the "filter" list (the trace-cmd style reads it so). */
static int mark_invert(tg_options *opts, tg_error **err)
{
    const char *before = tg_options_get(opts, "filter");
    size_t n = before ? strlen(before) : 0;
    char *v = malloc(n + 2);
    if (!v) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        exit(1);
    }
    snprintf(v, n + 2, "%s%s", before ? before : "", before ? "\n" : "");
    int rc = tg_options_put(opts, "filter", v, err);
    free(v);
    return rc;
}

/* Applies one option: the command line's own to a, filters to the filter, everything else
 * (filters too, so that a report sees that its input is filtered) to the options. */
/* Is value one of a choice declaration's "a|b|c" (1 for any other type)? */
static int choice_ok(const tg_option_decl *d, const char *value)
{
    if (d->type != TG_OPT_CHOICE || !d->choices)
        return 1;
    size_t n = strlen(value);
    for (const char *c = d->choices; c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, value, n) == 0)
            return 1;
        c = bar ? bar + 1 : NULL;
    }
    return 0;
}

/* babeltrace2's sink component (-c/--component, the only kind `cat` takes) as the style
 * that prints what it prints, or NULL. */
static const char *component_style(const char *component)
{
    if (!component)
        return NULL;
    if (strcmp(component, "sink.text.pretty") == 0)
        return "babeltrace";
    if (strcmp(component, "sink.text.details") == 0)
        return "babeltrace-details";
    return NULL;
}

/* babeltrace2's --timerange=BEGIN,END (or [BEGIN,END]): --begin BEGIN --end END.  A value
 * without the comma is said here: 1 (the caller exits 2). */
static int set_timerange(tg_filter *f, const char *value, tg_error **err)
{
    char range[256];
    size_t n = strlen(value);
    if (n >= 2 && value[0] == '[' && value[n - 1] == ']') {
        value++;
        n -= 2;
    }
    char *comma = NULL;
    if (n < sizeof range) {
        snprintf(range, sizeof range, "%.*s", (int)n, value);
        comma = strchr(range, ',');
    }
    if (!comma) {
        fprintf(stderr,
                "traceglot cat: invalid --timerange '%.*s': expecting BEGIN,END or "
                "[BEGIN,END], as babeltrace2\n",
                (int)n, value);
        return 1;
    }
    *comma = 0;
    int rc = tg_filter_set_begin(f, range, err);
    return rc < 0 ? rc : tg_filter_set_end(f, comma + 1, err);
}

/* uftrace dump's views (--chrome, --flame-graph, --graphviz): said, naming the option and
 * what traceglot offers instead (its help), exit 2. */
static int refuse_dump_view(const struct resolved *o)
{
    const char *why = strstr(o->own->help, "): ");
    fprintf(stderr, "traceglot dump: '--%s' is not taken%s%s\n", o->name, why ? ": " : "",
            why ? why + 3 : "");
    return 2;
}

static int apply(const struct cli_command_info *cmd, struct cli_args *a, const struct resolved *o,
                 const char *value)
{
    if (o->own) {
        if (strcmp(o->name, "help") == 0) {
            cli_print_command_help(cmd);
            return 1;
        }
        if (strcmp(o->name, "diff") == 0)
            a->diff = value;
        else if (strcmp(o->name, "diff-instr-map") == 0)
            a->diff_instr_map = value;
        else if (strcmp(o->name, "scheduler") == 0)
            a->scheduler = value;
        else if (strcmp(o->name, "workers") == 0)
            a->workers = value;
        else if (strcmp(o->name, "folders") == 0)
            a->folders = value;
        else if (strcmp(o->name, "progress") == 0)
            a->progress = 1;
        else if (strcmp(o->name, "follow") == 0)
            a->follow = true;
        else if (strcmp(o->name, "no-progress") == 0)
            a->progress = -1;
        else if (strcmp(o->name, "data") == 0)
            a->data = value;
        else if (cmd->id == CMD_DUMP) /* uftrace dump's --chrome, --flame-graph, --graphviz */
            return refuse_dump_view(o);
        else if (strcmp(o->name, "input") == 0)
            a->paths[a->n_paths++] = (char *)value;
        else if (strcmp(o->name, "component") == 0) {
            if (!(a->sink = component_style(value))) {
                fprintf(stderr,
                        "traceglot %s: component '%s' is not one traceglot prints (it takes "
                        "sink.text.pretty and sink.text.details)\n",
                        cmd->name, value);
                return 2;
            }
        } else
            a->sink = value; /* --style, --to */
        return 0;
    }
    tg_error *err = NULL;
    int rc = 0;
    if (strcmp(o->name, "begin") == 0)
        rc = tg_filter_set_begin(a->filter, value, &err);
    else if (strcmp(o->name, "end") == 0)
        rc = tg_filter_set_end(a->filter, value, &err);
    else if (strcmp(o->name, "events") == 0)
        rc = tg_filter_set_events(a->filter, value, &err);
    else if (strcmp(o->name, "tid") == 0)
        rc = tg_filter_set_tids(a->filter, value, &err);
    else if (strcmp(o->name, "pid") == 0 && !a->style_pid)
        rc = tg_filter_set_pids(a->filter, value, &err);
    else if (strcmp(o->name, "cpu") == 0)
        rc = tg_filter_set_cpus(a->filter, value, &err);
    else if (strcmp(o->name, "timerange") == 0 && (rc = set_timerange(a->filter, value, &err)) > 0)
        return 2;
    else if (strcmp(o->name, "invert") == 0 && o->decl->type == TG_OPT_FLAG)
        rc = mark_invert(a->opts, &err);
    else if (strcmp(o->name, "clock-gmt") == 0) /* babeltrace2: --begin/--end in GMT too */
        rc = tg_filter_set_gmt(a->filter, true);
    int list = o->decl->type == TG_OPT_LIST || o->decl->type == TG_OPT_TEXTS;
    const char *before = list ? tg_options_get(a->opts, o->name) : NULL;
    char *joined = NULL;
    if (rc >= 0 && before && value && (joined = malloc(strlen(before) + strlen(value) + 2))) {
        sprintf(joined, "%s%c%s", before, o->decl->type == TG_OPT_TEXTS ? TG_OPT_APART : '\n',
                value);
        value = joined;
    }
    if (rc >= 0 && value && !choice_ok(o->decl, value)) {
        /* a key other commands declare too (format) takes only this command's values */
        fprintf(stderr, "traceglot %s: bad %s '%s': expected ", cmd->name, o->name, value);
        for (const char *c = o->decl->choices; c;) { /* "a, b or c", as the library says it */
            const char *bar = strchr(c, '|');
            int len = bar ? (int)(bar - c) : (int)strlen(c);
            fprintf(stderr, "%s%.*s", c == o->decl->choices ? "" : bar ? ", " : " or ", len, c);
            c = bar ? bar + 1 : NULL;
        }
        tg_nearest n;
        tg_nearest_init(&n, value);
        char choices[400], near[300];
        snprintf(choices, sizeof choices, "%s", o->decl->choices);
        for (char *c = choices, *bar; c; c = bar) {
            if ((bar = strchr(c, '|')) != NULL)
                *bar++ = 0;
            tg_nearest_offer(&n, c);
        }
        if (tg_nearest_say(&n, "", near, sizeof near))
            fprintf(stderr, " (did you mean %s?)", near);
        fprintf(stderr, "\n");
        return 2;
    }
    if (rc >= 0)
        rc = tg_options_put(a->opts, o->name, value ? value : "1", &err);
    free(joined);
    if (rc < 0) {
        fprintf(stderr, "traceglot %s: %s\n", cmd->name, tg_error_message(err));
        tg_error_free(err);
        return 2;
    }
    return 0;
}

/* The value of --style/--to on the command line, before the options are parsed (a short
 * option's meaning may depend on it), or NULL. */
static const char *prescan_sink(int argc, char **argv)
{
    const char *sink = NULL;
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *s = argv[i];
        if (strncmp(s, "-c", 2) == 0 || strncmp(s, "--component", 11) == 0) { /* babeltrace2's */
            const char *v = s[1] == 'c'                  ? (s[2]           ? s + 2
                                                            : i + 1 < argc ? argv[i + 1]
                                                                           : NULL)
                            : s[11] == '='               ? s + 12
                            : s[11] == 0 && i + 1 < argc ? argv[i + 1]
                                                         : NULL;
            if (component_style(v))
                sink = component_style(v);
            continue;
        }
        for (const char *n = "style\0to\0"; *n; n += strlen(n) + 1) {
            size_t len = strlen(n);
            if (strncmp(s, "--", 2) != 0 || strncmp(s + 2, n, len) != 0)
                continue;
            if (s[2 + len] == '=')
                sink = s + 3 + len;
            else if (s[2 + len] == 0 && i + 1 < argc)
                sink = argv[i + 1];
        }
    }
    return sink;
}

/* A --style or --to that nothing registers: said with the known ones before anything is
 * opened (1), else 0. */
static int unknown_sink(const struct cli_command_info *cmd, const char *sink)
{
    if (cmd->sink == TG_OWNER_COMMAND || !sink)
        return 0;
    for (const struct cli_option *o = cli_options; o->name; o++) {
        if (!(o->commands & cmd->id) || !o->values)
            continue;
        for (size_t i = 0; o->values(i); i++)
            if (strcmp(o->values(i), sink) == 0)
                return 0;
        char known[400], near[300];
        cli_values_join(o->values, known, sizeof known);
        tg_nearest n;
        tg_nearest_init(&n, sink);
        for (size_t i = 0; o->values(i); i++)
            tg_nearest_offer(&n, o->values(i));
        const char *word = cmd->sink == TG_OWNER_CONVERTER ? "target" : "style";
        if (tg_nearest_say(&n, "", near, sizeof near))
            fprintf(stderr, "traceglot %s: unknown %s '%s' (did you mean %s? known: %s)\n",
                    cmd->name, word, sink, near, known);
        else
            fprintf(stderr, "traceglot %s: unknown %s '%s' (known: %s)\n", cmd->name, word, sink,
                    known);
        return 1;
    }
    return 0;
}

int cli_parse(const struct cli_command_info *cmd, int argc, char **argv, struct cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->command = cmd->name;
    a->opts = tg_options_new();
    a->filter = tg_filter_new();
    a->paths = calloc((size_t)argc + 1, sizeof *a->paths);
    if (!a->opts || !a->filter || !a->paths) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        return 2;
    }
    const char *sink = prescan_sink(argc, argv);
    if (!sink)
        sink = cmd->sink == TG_OWNER_COMMAND ? cmd->name : cmd->sink_default;
    int llvm = cli_single_dash(cmd, sink);
    /* a peer's own --pid (trace-cmd report's: common_pid, pid or next_pid) replaces the
     * filter by processes */
    a->style_pid = sink && tg_option_taken("pid", TG_OWNER_PRINT_STYLE, sink) == 1;
    int only_paths = 0;
    for (int i = 0; i < argc; i++) {
        char *arg = argv[i];
        if (only_paths || arg[0] != '-' || arg[1] == 0) {
            a->paths[a->n_paths++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_paths = 1;
            continue;
        }
        struct resolved o;
        const char *value = NULL;
        /* LLVM's spellings: -name=V, -name V and -x=V, never -x with "ame=V" */
        int single_long = llvm && arg[1] != '-' && arg[2] && arg[2] != '=';
        if (arg[1] == '-' || single_long) {
            const char *name = arg + (single_long ? 1 : 2), *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            if (!find_option(cmd, sink, name, len, 0, &o)) {
                if (!single_long)
                    return unknown_option(cmd, arg, name, len);
                char key[64], near[300];
                snprintf(key, sizeof key, "%.*s", (int)(len < 63 ? len : 63), name);
                tg_nearest n;
                tg_nearest_init(&n, key);
                cli_each_option(cmd, offer_option, &n);
                tg_nearest_say(&n, "-", near, sizeof near);
                fprintf(stderr,
                        "traceglot %s: unknown option '%s' (%s%s%sthe %s %s takes LLVM's "
                        "spellings, -name=VALUE; see traceglot %s --help)\n",
                        cmd->name, arg, n.count ? "did you mean " : "", near, n.count ? "? " : "",
                        sink, cli_sink_word(cmd), cmd->name);
                return 2;
            }
            if (eq) { /* a flag may say --flag=0 (the library checks the value) */
                if (!o.arg && !(o.decl && o.decl->type == TG_OPT_FLAG))
                    return usage_error(cmd, "option takes no value", arg);
                value = eq + 1;
            }
        } else {
            if (!find_option(cmd, sink, NULL, 0, arg[1], &o))
                return usage_error(cmd, "unknown option", arg);
            if (arg[2] == '=' && llvm) { /* -m=BIN */
                if (!o.arg && !(o.decl && o.decl->type == TG_OPT_FLAG))
                    return usage_error(cmd, "option takes no value", arg);
                value = arg + 3;
            } else if (arg[2]) {
                if (!o.arg)
                    return usage_error(cmd, "unknown option", arg);
                value = arg + 2;
            }
        }
        if (o.foreign && cli_takes(cmd, sink, o.name)) {
            /* another style's short letter or peer spelling of a key the sink takes under its
             * own name (-m under report --style=uftrace): refused all the same */
            fprintf(stderr,
                    "traceglot %s: the %s %s does not take %.*s (the %s %s does; see traceglot %s "
                    "--help)\n",
                    cmd->name, sink ? sink : "(none)", cli_sink_word(cmd), (int)strcspn(arg, "="),
                    arg, o.foreign, cli_sink_word(cmd), cmd->name);
            return 2;
        }
        if (o.arg && !value) {
            if (i + 1 >= argc)
                return usage_error(cmd, "option needs a value", arg);
            value = argv[++i];
        }
        if (!o.own && sink && !cli_takes(cmd, sink, o.name)) {
            char who[128];
            cli_who_takes(cmd, o.name, who, sizeof who);
            fprintf(stderr,
                    "traceglot %s: the %s %s does not take --%s (the %s %s%s %s; see traceglot "
                    "%s --help)\n",
                    cmd->name, sink ? sink : "(none)", cli_sink_word(cmd), o.name, who,
                    cli_sink_word(cmd), strchr(who, ',') ? "s" : "",
                    strchr(who, ',') ? "do" : "does", cmd->name);
            return 2;
        }
        int rc = apply(cmd, a, &o, value);
        if (rc)
            return rc;
    }
    if (!a->sink)
        a->sink = sink;
    if (unknown_sink(cmd, a->sink))
        return 2;
    if (a->data && cmd->id == CMD_GRAPH) { /* uftrace graph -d DIR [FUNC] */
        if (a->n_paths > 1) {
            fprintf(stderr, "traceglot graph: with -d DIR, one FUNC at most (got %zu)\n",
                    a->n_paths);
            return 2;
        }
        a->func = a->n_paths ? a->paths[0] : NULL;
        a->n_paths = 0;
    }
    if (a->data)
        a->paths[a->n_paths++] = (char *)a->data;
    if (a->n_paths == 0) {
        fprintf(stderr, "traceglot %s: no trace given\nusage: %s\n", cmd->name, cmd->synopsis);
        return 2;
    }
    return 0;
}

void cli_args_free(struct cli_args *a)
{
    tg_options_free(a->opts);
    tg_filter_free(a->filter);
    free(a->paths);
}

int cli_finish(int rc, tg_error *err)
{
    for (const tg_error *e = err; e; e = tg_error_next(e))
        fprintf(stderr, "traceglot: error: %s\n", tg_error_message(e));
    if (rc < 0 && !err)
        fprintf(stderr, "traceglot: error: failed (status %d)\n", rc);
    tg_error_free(err);
    if (rc == TG_ERR_USAGE)
        return 2;
    return rc < 0 ? 1 : 0;
}

tg_set *cli_open(struct cli_args *a)
{
    if (cli_live_prepare(a)) {
        a->open_exit = 1;
        return NULL;
    }
    tg_error *err = NULL;
    tg_set *set = tg_open((const char *const *)a->paths, a->n_paths, a->opts, &err);
    if (!set) {
        a->open_exit = cli_finish(err ? tg_error_status(err) : TG_ERR_FORMAT, err);
        return NULL;
    }
    /* an unknown event is refused, a CPU or thread the trace lacks is said (even under -q:
     * an empty answer explains itself) */
    tg_error *filtered = NULL;
    if (tg_filter_check(a->filter, set, &filtered, &err) < 0) {
        for (const tg_error *e = err; e; e = tg_error_next(e))
            fprintf(stderr, "traceglot %s: %s\n", a->command, tg_error_message(e));
        tg_error_free(err);
        tg_error_free(filtered);
        tg_close(set);
        a->open_exit = 2;
        return NULL;
    }
    for (const tg_error *w = filtered; w; w = tg_error_next(w))
        fprintf(stderr, "traceglot: warning: %s\n", tg_error_message(w));
    tg_error_free(filtered);
    if (a->needs_calls && cli_refuse_without_calls(a, set)) {
        tg_close(set);
        a->open_exit = 1;
        return NULL;
    }
    cli_print_warnings(a, set);
    return set;
}

void cli_print_run_warnings(const tg_set *set)
{
    for (const tg_error *w = tg_set_run_warnings(set); w; w = tg_error_next(w))
        fprintf(stderr, "traceglot: warning: %s\n", tg_error_message(w));
}

void cli_print_warnings(const struct cli_args *a, const tg_set *set)
{
    if (tg_options_flag(a->opts, "quiet")) /* trace-cmd report -q */
        return;
    for (const tg_error *w = set ? tg_set_warnings(set) : NULL; w; w = tg_error_next(w))
        fprintf(stderr, "traceglot: warning: %s\n", tg_error_message(w));
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_warning_count(t); k++)
            fprintf(stderr, "traceglot: warning: %s\n", tg_trace_warning(t, k));
    }
}
