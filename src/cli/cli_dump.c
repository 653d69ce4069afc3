/* cli_dump.c - `traceglot dump`: what `uftrace dump` prints of a uftrace recording, its
 * records file by file as they lie (the format's own text: tg_trace_render part
 * "uftrace-dump").  Any other trace is refused by name: uftrace reads uftrace data only, and
 * traceglot's view of the other formats' records is `cat`. */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cli_run_dump(struct cli_args *a)
{
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
    tg_error *err = NULL;
    int rc = out ? 0 : TG_ERR_NOMEM;
    for (size_t i = 0; rc >= 0 && i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        rc = tg_trace_render(t, "uftrace-dump", out, &err);
        if (rc == 0) {
            tg_buf_flush(out);
            fprintf(stderr,
                    "traceglot dump: %s is not a uftrace recording (format %s): dump prints "
                    "uftrace recordings only, as uftrace dump does (traceglot cat prints any "
                    "trace's events)\n",
                    tg_trace_path(t), tg_trace_format(t));
            tg_buf_free(out);
            tg_close(set);
            return 1;
        }
    }
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    tg_buf_free(out);
    tg_close(set);
    return cli_finish(rc < 0 ? rc : 0, err);
}
