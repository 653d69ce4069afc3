/* cli_args.c - parsing a subcommand's arguments with the option table, opening the paths,
 * and reporting errors the way every subcommand does:
 *   traceglot: error: <file>: offset 0x...: <what was expected>     (exit 1)
 *   traceglot cat: unknown option '--x' (see traceglot cat --help)   (exit 2) */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_option *find_long(const char *name, size_t len, unsigned cmd)
{
    for (const struct cli_option *o = cli_options; o->name; o++)
        if ((o->commands & cmd) && strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

static const struct cli_option *find_short(char c, unsigned cmd)
{
    for (const struct cli_option *o = cli_options; o->name; o++)
        if ((o->commands & cmd) && o->short_name == c)
            return o;
    return NULL;
}

void cli_print_command_help(const struct cli_command_info *cmd)
{
    printf("usage: %s\n\n%s.\n\noptions:\n", cmd->synopsis, cmd->summary);
    for (const struct cli_option *o = cli_options; o->name; o++) {
        if (!(o->commands & cmd->id))
            continue;
        char left[64];
        int n = snprintf(left, sizeof left, "%s%c%s--%s%s%s", o->short_name ? "-" : "",
                         o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
                         o->arg ? " " : "", o->arg ? o->arg : "");
        printf("  %s%*s%s\n", left, n < 28 ? 28 - n : 1, "", o->help);
    }
    printf("\nexample:\n  %s\n", cmd->example);
}

static int usage_error(const struct cli_command_info *cmd, const char *what, const char *arg)
{
    fprintf(stderr, "traceglot %s: %s '%s' (see traceglot %s --help)\n", cmd->name, what, arg,
            cmd->name);
    return 2;
}

/* Applies one option: filters go to the filter, everything to the option bag. */
static int apply(const struct cli_command_info *cmd, struct cli_args *a, const struct cli_option *o,
                 const char *value)
{
    if (strcmp(o->name, "help") == 0) {
        cli_print_command_help(cmd);
        return 1;
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
    else if (strcmp(o->name, "cpu") == 0)
        rc = tg_filter_set_cpus(a->filter, value, &err);
    if (rc < 0) {
        fprintf(stderr, "traceglot %s: %s\n", cmd->name, tg_error_message(err));
        tg_error_free(err);
        return 2;
    }
    const char *before = o->repeatable ? tg_options_get(a->opts, o->name) : NULL;
    char *joined = NULL;
    if (before && value && (joined = malloc(strlen(before) + strlen(value) + 2)) != NULL) {
        sprintf(joined, "%s%c%s", before, o->repeatable == 2 ? CLI_APART : '\n', value);
        value = joined;
    }
    rc = tg_options_set(a->opts, o->name, value ? value : "1");
    free(joined);
    if (rc < 0) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        return 2;
    }
    return 0;
}

int cli_parse(const struct cli_command_info *cmd, int argc, char **argv, struct cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->opts = tg_options_new();
    a->filter = tg_filter_new();
    a->paths = calloc((size_t)argc + 1, sizeof *a->paths);
    if (!a->opts || !a->filter || !a->paths) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        return 2;
    }
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
        const struct cli_option *o;
        const char *value = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            o = find_long(name, eq ? (size_t)(eq - name) : strlen(name), cmd->id);
            if (!o)
                return usage_error(cmd, "unknown option", arg);
            if (eq) {
                if (!o->arg)
                    return usage_error(cmd, "option takes no value", arg);
                value = eq + 1;
            }
        } else {
            o = find_short(arg[1], cmd->id);
            if (!o)
                return usage_error(cmd, "unknown option", arg);
            if (arg[2]) {
                if (!o->arg)
                    return usage_error(cmd, "unknown option", arg);
                value = arg + 2;
            }
        }
        if (o->arg && !value) {
            if (i + 1 >= argc)
                return usage_error(cmd, "option needs a value", arg);
            value = argv[++i];
        }
        int rc = apply(cmd, a, o, value);
        if (rc)
            return rc;
    }
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
    tg_error *err = NULL;
    tg_set *set = tg_open((const char *const *)a->paths, a->n_paths, a->opts, &err);
    if (!set)
        a->open_exit = cli_finish(err ? tg_error_status(err) : TG_ERR_FORMAT, err);
    for (const tg_error *w = set ? tg_set_warnings(set) : NULL; w; w = tg_error_next(w))
        fprintf(stderr, "traceglot: warning: %s\n", tg_error_message(w));
    for (size_t i = 0; set && i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_warning_count(t); k++)
            fprintf(stderr, "traceglot: warning: %s\n", tg_trace_warning(t, k));
    }
    return set;
}
