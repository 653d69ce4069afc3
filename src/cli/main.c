/* main.c - the traceglot command: dispatch to a subcommand (info, cat, stats, convert,
 * replay, report, sql).  Each subcommand is a thin layer over one library call. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void print_help(void)
{
    printf("traceglot %s - read uftrace, CTF (LTTng, barectf), ftrace trace.dat and LLVM XRay\n"
           "traces on one timeline, print them as the peer tools do, convert and analyse them.\n\n"
           "usage: traceglot COMMAND [options] PATH...\n\ncommands:\n",
           TG_VERSION_STRING);
    for (const struct cli_command_info *c = cli_commands; c->name; c++)
        printf("  %-9s %s\n", c->name, c->summary);
    printf("  %-9s %s\n", "options", "the options each command takes, as Markdown tables");
    printf("\n'traceglot COMMAND --help' lists a command's options.\n");
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
    default: return 2;
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help();
        return 2;
    }
    cli_signals_install();
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help();
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("traceglot %s\n", TG_VERSION_STRING);
        return 0;
    }
    if (strcmp(argv[1], "options") == 0)
        return cli_run_options(argc - 2, argv + 2);
    for (const struct cli_command_info *c = cli_commands; c->name; c++) {
        if (strcmp(argv[1], c->name) != 0)
            continue;
        struct cli_args a;
        int rc = cli_parse(c, argc - 2, argv + 2, &a);
        if (rc == 0)
            rc = run(c, &a);
        else if (rc == 1)
            rc = 0;
        cli_args_free(&a);
        return rc;
    }
    fprintf(stderr, "traceglot: unknown command '%s' (see traceglot --help)\n", argv[1]);
    return 2;
}
