/* cli_xray_convert.c - `traceglot convert -f yaml|trace_event LOG`: llvm-xray convert's own
 * command line, as an llvm-xray user types it.
 *
 * llvm-xray names the output format with -output-format (-f) where traceglot has --to, so a
 * convert whose arguments spell it is read here, as LLVM's command-line parser reads them
 * (one or two dashes, a value after '=' or as the next argument, a flag's value after '='),
 * and run as `convert --to xray-yaml|xray-trace-event` with the same meaning: -symbolize (-y),
 * -instr_map (-m), -output (-o, '-': standard output, an existing file replaced as llvm-xray
 * replaces it), -sort (-s, its default: the records in time order), -demangle.  What
 * traceglot cannot do as asked is refused by name (exit 2): -f raw (the binary log format),
 * -sort=false (the records in file order), -no-demangle with -symbolize. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("convert", why, arg,
                          "llvm-xray's spelling: traceglot convert -f yaml|trace_event [-y] "
                          "[-m BINARY] [-o FILE] LOG");
}

static int is_name(const char *name, const char *a, const char *b)
{
    return strcmp(name, a) == 0 || (b && strcmp(name, b) == 0);
}

/* Is value babeltrace2's, whose convert spells -f (--fields: trace, trace:hostname, ...,
 * all) and --output-format (text, ctf, dummy, ctf-metadata) too? */
static bool babeltrace_value(const char *name, const char *value)
{
    if (!value)
        return false;
    if (strcmp(name, "f") != 0)
        return !strcmp(value, "text") || !strcmp(value, "ctf") || !strcmp(value, "dummy") ||
               !strcmp(value, "ctf-metadata");
    static const char *const fields[] = {"trace",        "trace:hostname",
                                         "trace:domain", "trace:procname",
                                         "trace:vpid",   "loglevel",
                                         "emf",          "callsite",
                                         "all",          NULL};
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        bool known = false;
        for (const char *const *f = fields; *f && !known; f++)
            known = strlen(*f) == n && !strncmp(*f, p, n);
        if (!known)
            return false;
        p += n + (p[n] == ',');
    }
    return true;
}

int cli_xray_convert_spelled(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        char name[32];
        const char *value;
        if (argv[i][0] != '-' || !argv[i][1])
            continue;
        cli_llvm_option_name(argv[i], name, sizeof name, &value);
        if (!value && i + 1 < argc)
            value = argv[i + 1];
        if (is_name(name, "f", "output-format") && !babeltrace_value(name, value))
            return 1;
    }
    return 0;
}

/* A flag's value as LLVM reads it: none or true/1 on, false/0 off; -1 otherwise. */
static int flag_value(const char *value)
{
    if (!value || !strcmp(value, "true") || !strcmp(value, "TRUE") || !strcmp(value, "True") ||
        !strcmp(value, "1"))
        return 1;
    if (!strcmp(value, "false") || !strcmp(value, "FALSE") || !strcmp(value, "False") ||
        !strcmp(value, "0"))
        return 0;
    return -1;
}

struct xray_convert_args {
    const char *format, *map, *output, *log;
    int symbolize, sort, demangle_pos, no_demangle_pos;
};

static int read_args(int argc, char **argv, struct xray_convert_args *x)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !arg[1]) {
            if (x->log)
                return usage("one LOG only, not also", arg);
            x->log = arg;
            continue;
        }
        char name[32];
        const char *value;
        cli_llvm_option_name(arg, name, sizeof name, &value);
        const char **text = is_name(name, "f", "output-format") ? &x->format
                            : is_name(name, "m", "instr_map") || is_name(name, "instr-map", NULL)
                                ? &x->map
                            : is_name(name, "o", "output") ? &x->output
                                                           : NULL;
        if (text) {
            if (!value && i + 1 >= argc)
                return usage("a value after", arg);
            *text = value ? value : argv[++i];
            continue;
        }
        int on = flag_value(value);
        if (on < 0)
            return usage("a flag takes true or false, not", arg);
        if (is_name(name, "y", "symbolize"))
            x->symbolize = on;
        else if (is_name(name, "s", "sort"))
            x->sort = on;
        else if (is_name(name, "demangle", NULL))
            x->demangle_pos = on ? i + 1 : 0;
        else if (is_name(name, "no-demangle", NULL))
            x->no_demangle_pos = on ? i + 1 : 0;
        else if (is_name(name, "h", "help"))
            return usage("options:", "-f yaml|trace_event, -y/-symbolize, -m/-instr_map BINARY, "
                                     "-o/-output FILE, -s/-sort, -demangle, -no-demangle");
        else
            return usage("unknown option", arg);
    }
    return 0;
}

int cli_run_xray_convert(int argc, char **argv)
{
    struct xray_convert_args x = {.sort = 1};
    int rc = read_args(argc, argv, &x);
    if (rc)
        return rc;
    if (!x.log)
        return usage("give the XRay LOG", NULL);
    const char *to = !x.format                              ? NULL
                     : strcmp(x.format, "yaml") == 0        ? "xray-yaml"
                     : strcmp(x.format, "trace_event") == 0 ? "xray-trace-event"
                                                            : NULL;
    if (x.format && strcmp(x.format, "raw") == 0)
        return usage("-output-format=raw (llvm-xray's binary log) is not written by traceglot:",
                     "use -f yaml or -f trace_event");
    if (!to)
        return usage("-output-format takes yaml or trace_event (raw is llvm-xray's own), not",
                     x.format ? x.format : "nothing");
    if (!x.sort)
        return usage("-sort=false (the records in the log's order) is not honoured: traceglot "
                     "writes them in time order, as",
                     "-sort does");
    if (x.symbolize && x.no_demangle_pos > x.demangle_pos)
        return usage("-no-demangle is not honoured: traceglot names functions demangled;",
                     "leave it out");
    char *args[12];
    int n = 0;
    args[n++] = "--to";
    args[n++] = (char *)to;
    if (x.symbolize)
        args[n++] = "--symbolize";
    if (x.map) {
        args[n++] = "--instr-map";
        args[n++] = (char *)x.map;
    }
    if (x.output && strcmp(x.output, "-") != 0) {
        args[n++] = "-o";
        args[n++] = (char *)x.output;
        args[n++] = "--force";
    }
    args[n++] = "--";
    args[n++] = (char *)x.log;
    args[n] = NULL;
    struct cli_args a;
    rc = cli_parse(cli_command_find("convert"), n, args, &a);
    if (rc == 0)
        rc = cli_run_convert(&a);
    else if (rc == 1)
        rc = 0;
    cli_args_free(&a);
    return rc;
}
