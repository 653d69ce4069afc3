/* cli.h - what the subcommands of the traceglot command share: one table of options,
 * parsing into the library's option bag and filter, opening the paths, and turning a
 * library status into an exit code (0 ok, 1 error in the input, 2 usage). */
#ifndef TG_CLI_H
#define TG_CLI_H

#include "traceglot.h"

#include <stddef.h>

enum cli_command {
    CMD_INFO = 1,
    CMD_CAT = 2,
    CMD_STATS = 4,
    CMD_CONVERT = 8,
    CMD_REPLAY = 16,
    CMD_REPORT = 32,
    CMD_SQL = 64,
    CMD_ALL = 127,
    CMD_FILTERING = CMD_CAT | CMD_STATS | CMD_CONVERT | CMD_REPLAY | CMD_REPORT | CMD_SQL,
};

struct cli_option {
    const char *name;  /* long name: also the key in tg_options */
    char short_name;   /* 0: none */
    const char *arg;   /* NULL: a flag; else the argument's name for --help */
    unsigned commands; /* enum cli_command bits */
    const char *help;
    int repeatable; /* given several times: 1 the values joined with newlines, 2 kept apart
                     * (joined with CLI_APART: SQL texts) */
};

struct cli_command_info {
    const char *name;
    enum cli_command id;
    const char *synopsis;
    const char *summary;
    const char *example;
};

#define CLI_APART '\037' /* between the values of an option given several times, kept apart */

extern const struct cli_option cli_options[];
extern const struct cli_command_info cli_commands[];

struct cli_args {
    tg_options *opts;
    tg_filter *filter;
    char **paths;
    size_t n_paths;
    int open_exit; /* cli_open's exit code when it fails (1 input, 2 usage) */
};

/* Parses argv (after the subcommand name).  0: go on; 1: --help was printed (exit 0);
 * 2: usage error printed (exit 2). */
int cli_parse(const struct cli_command_info *cmd, int argc, char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
/* Opens the paths and prints the open's warnings; NULL after printing the error (exit code
 * in a->open_exit). */
tg_set *cli_open(struct cli_args *a);
/* Prints err (every error of its list) as "traceglot: error: ..." and frees it; returns the
 * exit code for rc. */
int cli_finish(int rc, tg_error *err);
void cli_print_command_help(const struct cli_command_info *cmd);

int cli_run_info(struct cli_args *a);
int cli_run_cat(struct cli_args *a);
int cli_run_stats(struct cli_args *a);
int cli_run_convert(struct cli_args *a);
int cli_run_replay(struct cli_args *a);
int cli_run_report(struct cli_args *a);
int cli_run_sql(struct cli_args *a);

#endif
