/* cli_extract.c - `traceglot extract`: what `llvm-xray extract` prints, an instrumented
 * binary's XRay instrumentation map as YAML (tg_render_file, part "llvm-xray-extract").
 *
 * The argument is a binary, not a trace, so the command reads its own options as LLVM's
 * command line does (one or two dashes, a value after '=' or as the next argument):
 * -s/--symbolize, --demangle, --no-demangle, -o/--output=FILE ('-': standard output). */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("extract", why, arg,
                          "usage: traceglot extract [-s] [--no-demangle] [-o FILE] BINARY");
}

static int write_map(const char *bin, const char *part, const char *path)
{
    tg_error *err = NULL;
    tg_output *o = NULL;
    int fd = STDOUT_FILENO;
    if (path && strcmp(path, "-") != 0) {
        o = tg_output_new(path, TG_OUTPUT_FORCE, &err);
        fd = o ? tg_output_open_file(o, &err) : TG_ERR_NOMEM;
    }
    tg_buf *out = fd >= 0 ? tg_buf_new_fd(fd) : NULL;
    int rc = fd < 0 ? (err ? tg_error_status(err) : fd) : out ? 0 : TG_ERR_NOMEM;
    if (rc >= 0)
        rc = tg_render_file("xray", bin, part, out, &err);
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    if (o && rc >= 0)
        rc = tg_output_commit(o, &err);
    tg_buf_free(out);
    tg_output_free(o);
    return cli_finish(rc < 0 ? rc : 0, err);
}

int cli_run_extract(int argc, char **argv)
{
    bool symbolize = false, demangle = true;
    const char *bin = NULL, *output = NULL;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !arg[1]) {
            if (bin)
                return usage("one BINARY only, not also", arg);
            bin = arg;
            continue;
        }
        char name[32];
        const char *value;
        cli_llvm_option_name(arg, name, sizeof name, &value);
        if (!strcmp(name, "help") || !strcmp(name, "h")) {
            printf("usage: traceglot extract [-s|--symbolize] [--no-demangle] [-o FILE] BINARY\n\n"
                   "the XRay instrumentation map of BINARY as YAML, as llvm-xray extract prints "
                   "it\n");
            return 0;
        }
        if (!strcmp(name, "s") || !strcmp(name, "symbolize"))
            symbolize = true;
        else if (!strcmp(name, "demangle"))
            demangle = true;
        else if (!strcmp(name, "no-demangle"))
            demangle = false;
        else if (!strcmp(name, "o") || !strcmp(name, "output")) {
            if (!value && i + 1 >= argc)
                return usage("a FILE after", arg);
            output = value ? value : argv[++i];
        } else {
            return usage("unknown option", arg);
        }
        if (value && strcmp(name, "o") != 0 && strcmp(name, "output") != 0)
            return usage("takes no value:", arg);
    }
    if (!bin)
        return usage("give the instrumented BINARY", NULL);
    const char *part = !symbolize ? "llvm-xray-extract"
                       : demangle ? "llvm-xray-extract-symbolize"
                                  : "llvm-xray-extract-symbolize-mangled";
    return write_map(bin, part, output);
}
