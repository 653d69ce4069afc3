/* cli_tc_hist.c - `traceglot hist [-i FILE] [-P] [FILE]`: trace-cmd hist's command line.
 *
 * trace-cmd hist prints the call chains of a trace.dat ending in each function or event
 * (compat/trace-cmd/trace_cmd_hist.c, the "trace-cmd-hist" style of `cat`).  Its options are
 * -i FILE (or the file as the argument; trace.dat when neither) and -P (all pids as one);
 * anything else is refused as trace-cmd refuses it (exit 2). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("hist", why, arg,
                          "trace-cmd's spelling: traceglot hist [-i FILE] [-P] [FILE]");
}

int cli_run_tc_hist(int argc, char **argv)
{
    const char *input = NULL;
    bool compact = false;
    int i = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        for (const char *c = arg + 1; *c; c++) {
            if (*c == 'P')
                compact = true;
            else if (*c == 'i') {
                if (input)
                    return usage("only one input for the histogram, not also", arg);
                if (c[1])
                    input = c + 1;
                else if (i + 1 < argc)
                    input = argv[++i];
                else
                    return usage("a file is needed after", "-i");
                break;
            } else if (*c == 'h') {
                printf("usage: traceglot hist [-i FILE] [-P] [FILE]\n\n"
                       "the call chains of a trace.dat ending in each function or event, as "
                       "trace-cmd hist prints them; -P: all pids as one\n");
                return 0;
            } else
                return usage("trace-cmd hist takes -i FILE and -P, not", arg);
        }
    }
    if (i < argc) {
        if (input)
            return usage("the file is given by -i or as the argument, not both:", argv[i]);
        input = argv[i++];
    }
    if (i < argc)
        return usage("one trace.dat, not also", argv[i]);
    char *args[] = {"--style=trace-cmd-hist",
                    "--no-progress",
                    "--",
                    (char *)(input ? input : "trace.dat"),
                    NULL,
                    NULL};
    if (compact) {
        args[4] = args[3];
        args[3] = args[2];
        args[2] = "--ignore-pids";
    }
    return cli_run_command("cat", compact ? 5 : 4, args);
}
