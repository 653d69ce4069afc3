/* cli_bt_convert.c - `traceglot convert TRACE` as babeltrace2's convert command line.
 *
 * babeltrace2 converts with `babeltrace2 [convert] [OPTIONS] TRACE...`: the text of
 * sink.text.pretty by default, `-o ctf -w DIR` (--output-format, --output) a CTF 1.8 copy,
 * `-o dummy` nothing.  traceglot's own convert always names its target with --to, so a
 * convert without --to is babeltrace2's: it runs as `traceglot cat --style=babeltrace` with
 * the same options (--names, --fields, --clock-*, --begin/--end, --timerange, -c
 * sink.text.pretty|sink.text.details, ...), or as `traceglot convert --to ctf -o DIR`.
 * What cannot be honoured (another output format, --input-format other than ctf, an
 * explicit component traceglot does not have, --run-args) is refused by name, exit 2. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("convert", why, arg,
                          "babeltrace2's spelling: traceglot convert [-o text|ctf|dummy] "
                          "[-w DIR] [sink.text.pretty options] TRACE...");
}

/* The options of sink.text.pretty and the trimmer that take a value in the next argument
 * when not written NAME=VALUE: passed on with it. */
static bool takes_value(const char *arg)
{
    static const char *const with_value[] = {"-n",
                                             "--names",
                                             "-f",
                                             "--fields",
                                             "--begin",
                                             "--end",
                                             "--timerange",
                                             "--color",
                                             "--clock-offset",
                                             "--clock-offset-ns",
                                             "-l",
                                             "--log-level",
                                             "--debug-info-dir",
                                             "--debug-info-target-prefix",
                                             "--retry-duration",
                                             NULL};
    for (const char *const *w = with_value; *w; w++)
        if (strcmp(arg, *w) == 0)
            return true;
    return false;
}

/* babeltrace2 convert's options (long ones also as --NAME=VALUE). */
static bool babeltrace_option(const char *arg)
{
    static const char *const known[] = {"-o",
                                        "--output-format",
                                        "-w",
                                        "--output",
                                        "-i",
                                        "--input-format",
                                        "-c",
                                        "--component",
                                        "-p",
                                        "--params",
                                        "-n",
                                        "--names",
                                        "-f",
                                        "--fields",
                                        "--no-delta",
                                        "--clock-cycles",
                                        "--clock-date",
                                        "--clock-gmt",
                                        "--clock-seconds",
                                        "--clock-offset",
                                        "--clock-offset-ns",
                                        "--clock-force-correlate",
                                        "--color",
                                        "--begin",
                                        "--end",
                                        "--timerange",
                                        "--stream-intersection",
                                        "--debug-info",
                                        "--debug-info-dir",
                                        "--debug-info-full-path",
                                        "--debug-info-target-prefix",
                                        "--run-args",
                                        "--run-args-0",
                                        "-l",
                                        "--log-level",
                                        "--retry-duration",
                                        NULL};
    size_t n = strcspn(arg, "=");
    for (const char *const *k = known; *k; k++)
        if (strlen(*k) == n && !strncmp(*k, arg, n))
            return true;
    /* a short option with its value joined (-octf, -nall) */
    return arg[1] && arg[1] != '-' && arg[2] && strchr("owicpnfl", arg[1]);
}

int cli_bt_convert_spelled(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--to") || !strncmp(argv[i], "--to=", 5))
            return 0;
        if (argv[i][0] == '-' && argv[i][1] && !babeltrace_option(argv[i]))
            return 0; /* traceglot's convert says what is wrong (--too: did you mean --to?) */
        if ((takes_value(argv[i]) || !strcmp(argv[i], "-o") || !strcmp(argv[i], "-w") ||
             !strcmp(argv[i], "-i") || !strcmp(argv[i], "-c") || !strcmp(argv[i], "-p")) &&
            i + 1 < argc)
            i++;
    }
    return 1;
}

/* -x VALUE, -xVALUE, --long VALUE, --long=VALUE: the value (advancing *i), or NULL when arg
 * is not that option; *missing set when the value is not there. */
static const char *option_value(int argc, char **argv, int *i, const char *shrt, const char *lng,
                                bool *missing)
{
    const char *arg = argv[*i];
    size_t ln = strlen(lng);
    if (!strncmp(arg, lng, ln) && arg[ln] == '=')
        return arg + ln + 1;
    if (shrt && !strncmp(arg, shrt, 2) && arg[2])
        return arg + 2;
    if ((shrt && !strcmp(arg, shrt)) || !strcmp(arg, lng)) {
        if (*i + 1 >= argc) {
            *missing = true;
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}

/* A component of -c/--component ([NAME:]TYPE.PLUGIN.CLASS) without its name. */
static const char *component_class(const char *spec)
{
    const char *colon = strchr(spec, ':');
    return colon ? colon + 1 : spec;
}

static bool is_class(const char *cls, const char *plugin_class)
{
    for (const char *type = "source\0src\0filter\0flt\0sink\0"; *type; type += strlen(type) + 1) {
        size_t n = strlen(type);
        if (!strncmp(cls, type, n) && cls[n] == '.' && !strcmp(cls + n + 1, plugin_class))
            return true;
    }
    return false;
}

int cli_run_bt_convert(int argc, char **argv)
{
    const char *format = "text", *output = NULL, *sink = NULL;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int n_rest = 0, rc = 0;
    if (!rest)
        return 1;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *arg = argv[i], *v;
        bool missing = false;
        if (!strcmp(arg, "--")) {
            while (i < argc)
                rest[n_rest++] = argv[i++];
        } else if ((v = option_value(argc, argv, &i, "-o", "--output-format", &missing)))
            format = v;
        else if ((v = option_value(argc, argv, &i, "-w", "--output", &missing)))
            output = v;
        else if ((v = option_value(argc, argv, &i, "-i", "--input-format", &missing))) {
            if (strcmp(v, "ctf") != 0)
                rc = usage("traceglot reads CTF traces from files (--input-format=ctf), not", v);
        } else if ((v = option_value(argc, argv, &i, "-c", "--component", &missing))) {
            const char *cls = component_class(v);
            if (is_class(cls, "text.pretty") || is_class(cls, "text.details"))
                sink = is_class(cls, "text.pretty") ? "sink.text.pretty" : "sink.text.details";
            else if (!is_class(cls, "ctf.fs") && !is_class(cls, "utils.muxer"))
                rc = usage("component class not in traceglot (it has src.ctf.fs, "
                           "filter.utils.muxer, sink.text.pretty and sink.text.details):",
                           v);
        } else if (!strcmp(arg, "-p") || !strncmp(arg, "--params", 8))
            rc = usage("component parameters are taken by `traceglot run`, not by convert:", arg);
        else if (!strcmp(arg, "--run-args") || !strcmp(arg, "--run-args-0"))
            rc = usage("traceglot does not print run's arguments:", arg);
        else if (missing)
            ;
        else {
            rest[n_rest++] = argv[i];
            if (takes_value(arg) && i + 1 < argc)
                rest[n_rest++] = argv[++i];
        }
        if (missing)
            rc = usage("a value is needed after", arg);
    }
    if (rc == 0 && strcmp(format, "text") && strcmp(format, "ctf") && strcmp(format, "dummy"))
        rc = usage("traceglot writes --output-format text, ctf or dummy, not", format);
    if (rc == 0 && !strcmp(format, "ctf") && !output)
        rc = usage("--output-format=ctf writes into the folder --output DIR, missing for", "ctf");
    if (rc == 0 && !strcmp(format, "ctf") && sink)
        rc = usage("--output-format=ctf takes no sink component, not", sink);
    if (rc != 0) {
        free(rest);
        return rc;
    }
    char **args = calloc((size_t)n_rest + 4, sizeof *args);
    int n = 0;
    if (!args) {
        free(rest);
        return 1;
    }
    const char *verb = "cat";
    if (!strcmp(format, "ctf")) {
        verb = "convert";
        args[n++] = "--to=ctf";
        args[n++] = "-o";
        args[n++] = (char *)output;
    } else {
        args[n++] = sink && !strcmp(sink, "sink.text.details") ? "--style=babeltrace-details"
                                                               : "--style=babeltrace";
        const char *to = !strcmp(format, "dummy") ? "/dev/null" : output;
        if (to && !freopen(to, "w", stdout)) {
            perror(to);
            free(rest);
            free(args);
            return 1;
        }
    }
    for (int k = 0; k < n_rest; k++)
        args[n++] = rest[k];
    rc = cli_run_command(verb, n, args);
    free(rest);
    free(args);
    return rc;
}
