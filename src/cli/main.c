/* main.c - the traceglot command: dispatch to a subcommand (info, cat, stats, convert,
 * replay, report, graph, sql, fleet), or to what documents them (help, options,
 * completion).  Each subcommand is a thin layer over one library call. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void print_help(FILE *f)
{
    fprintf(f,
            "traceglot %s - read uftrace, CTF (LTTng, barectf), ftrace trace.dat, LLVM XRay and\n"
            "LTTng 0.x traces on one timeline, print them as the peer tools do, convert and\n"
            "analyse them.\n\n"
            "usage: traceglot COMMAND [options] PATH...\n\ncommands:\n",
            TG_VERSION_STRING);
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++)
        fprintf(f, "  %-10s %s\n", e->name, e->summary);
    fprintf(f, "\n'traceglot help COMMAND' (or 'traceglot COMMAND --help') lists a command's "
               "options;\n'man traceglot-COMMAND' says more.  -V, --version: the version.\n");
}

static int run(const struct cli_command_info *cmd, struct cli_args *a)
{
    switch (cmd->id) {
    case CMD_INFO: return cli_run_info(a);
    case CMD_CAT: return cli_run_cat(a);
    case CMD_STATS: return cli_run_stats(a);
    case CMD_CONVERT: return cli_run_convert(a);
    case CMD_REPLAY: return cli_run_replay(a);
    case CMD_REPORT: return cli_run_report(a);
    case CMD_SQL: return cli_run_sql(a);
    case CMD_GRAPH: return cli_run_graph(a);
    case CMD_FLEET: return cli_run_fleet(a);
    case CMD_STACK: return cli_run_stack(a);
    case CMD_ANALYZE: return cli_run_analyze(a);
    case CMD_DUMP: return cli_run_dump(a);
    default: return 2;
    }
}

/* "unknown command 'conver' (did you mean convert? ...)": exit 2.  who is "traceglot" or
 * "traceglot help". */
static int unknown_command(const char *who, const char *verb)
{
    tg_nearest n;
    tg_nearest_init(&n, verb);
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        tg_nearest_offer(&n, c->name);
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++)
        tg_nearest_offer(&n, e->name);
    char near[200];
    if (tg_nearest_say(&n, "", near, sizeof near))
        fprintf(stderr, "%s: unknown command '%s' (did you mean %s? see traceglot --help)\n", who,
                verb, near);
    else
        fprintf(stderr, "%s: unknown command '%s' (see traceglot --help)\n", who, verb);
    return 2;
}

/* `traceglot help [COMMAND]` */
static int run_help(int argc, char **argv)
{
    if (argc == 0) {
        print_help(stdout);
        return 0;
    }
    const struct cli_command_info *c = cli_command_find(argv[0]);
    if (c) {
        cli_print_command_help(c);
        return 0;
    }
    for (const struct cli_extra_command *e = cli_extra_commands; e->name; e++)
        if (strcmp(e->name, argv[0]) == 0) {
            printf("usage: %s\n\n%s.\n", e->synopsis, e->summary);
            return 0;
        }
    return unknown_command("traceglot help", argv[0]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    cli_signals_install();
    const char *verb = argv[1];
    if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0)
        return run_help(0, NULL);
    if (strcmp(verb, "help") == 0)
        return run_help(argc - 2, argv + 2);
    if (strcmp(verb, "--version") == 0 || strcmp(verb, "-V") == 0) {
        printf("traceglot %s\n", TG_VERSION_STRING);
        return 0;
    }
    if (strcmp(verb, "options") == 0)
        return cli_run_options(argc - 2, argv + 2);
    if (strcmp(verb, "extract") == 0)
        return cli_run_extract(argc - 2, argv + 2);
    if (strcmp(verb, "query") == 0)
        return cli_run_bt_query(argc - 2, argv + 2);
    if (strcmp(verb, "fdr-dump") == 0)
        return cli_run_fdr_dump(argc - 2, argv + 2);
    if (strcmp(verb, "completion") == 0)
        return cli_run_completion(argc - 2, argv + 2);
    if (strcmp(verb, "convert") == 0 && cli_xray_convert_spelled(argc - 2, argv + 2))
        return cli_run_xray_convert(argc - 2, argv + 2);
    if (strcmp(verb, "convert") == 0 && cli_bt_convert_spelled(argc - 2, argv + 2))
        return cli_run_bt_convert(argc - 2, argv + 2);
    if (strcmp(verb, "run") == 0)
        return cli_run_bt_run(argc - 2, argv + 2);
    if (strcmp(verb, "hist") == 0)
        return cli_run_tc_hist(argc - 2, argv + 2);
    return cli_run_command(verb, argc - 2, argv + 2);
}

int cli_run_command(const char *verb, int argc, char **argv)
{
    const struct cli_command_info *c = cli_command_find(verb);
    if (!c)
        return cli_refuse_peer_verb(verb) ? 2 : unknown_command("traceglot", verb);
    struct cli_args a;
    int rc = cli_parse(c, argc, argv, &a);
    if (rc == 0)
        rc = run(c, &a);
    else if (rc == 1)
        rc = 0;
    rc = cli_live_finish(&a, rc);
    cli_args_free(&a);
    return rc;
}
