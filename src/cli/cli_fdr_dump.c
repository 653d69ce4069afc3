/* cli_fdr_dump.c - `traceglot fdr-dump LOG`: what `llvm-xray fdr-dump` prints, every record
 * of an XRay FDR-mode log in file order (tg_render_file, part "llvm-xray-fdr-dump").
 *
 * The command dumps the file's bytes as records, not a trace's events, so it reads its own
 * arguments as LLVM's command line does.  llvm-xray's -verify (the records grouped and checked
 * per buffer) is not done by traceglot and refused by name (exit 2). */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("fdr-dump", why, arg, "usage: traceglot fdr-dump LOG");
}

int cli_run_fdr_dump(int argc, char **argv)
{
    const char *log = NULL;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !arg[1]) {
            if (log)
                return usage("one LOG only, not also", arg);
            log = arg;
            continue;
        }
        char name[32];
        const char *value;
        cli_llvm_option_name(arg, name, sizeof name, &value);
        if (!strcmp(name, "help") || !strcmp(name, "h")) {
            printf("usage: traceglot fdr-dump LOG\n\nevery record of an XRay FDR-mode log, as "
                   "llvm-xray fdr-dump prints them\n");
            return 0;
        }
        if (!strcmp(name, "verify"))
            return usage("-verify (llvm-xray's per-buffer check of the records) is not done by "
                         "traceglot:",
                         arg);
        return usage("unknown option", arg);
    }
    if (!log)
        return usage("give the FDR-mode LOG", NULL);
    tg_error *err = NULL;
    tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
    int rc = out ? tg_render_file("xray", log, "llvm-xray-fdr-dump", out, &err) : TG_ERR_NOMEM;
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    tg_buf_free(out);
    return cli_finish(rc < 0 ? rc : 0, err);
}
