/* cli_peer_command.c - what the commands that take a peer's own command line share.
 *
 * `extract`, `fdr-dump`, `query` and llvm-xray's `convert -f` read their arguments as the
 * peer does (LLVM's -name, --name, -name=VALUE), not with traceglot's option table, and
 * refuse a bad one with the same shape of message: the command, what was wrong, and the
 * peer's usage line. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

const char *cli_llvm_option_name(const char *arg, char *name, size_t size, const char **value)
{
    const char *p = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(p, '=');
    size_t n = eq ? (size_t)(eq - p) : strlen(p);
    if (n >= size)
        n = size - 1;
    memcpy(name, p, n);
    name[n] = 0;
    *value = eq ? eq + 1 : NULL;
    return name;
}

int cli_peer_usage(const char *cmd, const char *why, const char *arg, const char *hint)
{
    fprintf(stderr, "traceglot %s: %s%s%s (%s)\n", cmd, why, arg ? " " : "", arg ? arg : "", hint);
    return 2;
}
