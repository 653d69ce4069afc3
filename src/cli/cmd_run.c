/* cmd_run.c - the subcommands: each opens the paths and makes one library call whose
 * output goes to standard output (or -o FILE), then reports the input's errors. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*cli_call)(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err);

/* Opens the set, runs call into a buffer bound to fd, and returns the exit code. */
static int run_to_fd(struct cli_args *a, int fd, cli_call call)
{
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    tg_buf *out = tg_buf_new_fd(fd);
    tg_buf *notes = tg_buf_new_fd(STDERR_FILENO); /* the peer's own stderr lines */
    tg_set_notes(set, notes);
    tg_error *err = NULL;
    struct cli_progress pg;
    cli_progress_begin(&pg, a, set);
    int rc = out && notes ? call(set, a, out, &err) : TG_ERR_NOMEM;
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    cli_progress_end(&pg);
    if (notes)
        tg_buf_flush(notes); /* before the errors, as the peer prints them as it goes */
    tg_set_notes(set, NULL);
    tg_buf_free(notes);
    tg_buf_free(out);
    cli_print_run_warnings(set);
    tg_close(set);
    return cli_finish(rc, err);
}

/* --diff OTHER: the run compared with, opened with the same options (--diff-instr-map, when
 * given, as its --instr-map).  NULL after printing why. */
static tg_set *open_other(struct cli_args *a, tg_error **err)
{
    const char *other = a->diff;
    const char *map = a->diff_instr_map;
    const char *own = tg_options_get(a->opts, "instr-map");
    char *keep = own ? strdup(own) : NULL;
    if (map && tg_options_set(a->opts, "instr-map", map) < 0) {
        free(keep);
        return NULL;
    }
    tg_set *set = tg_open(&other, 1, a->opts, err);
    if (map) /* back to PATH's own (an empty value: none) */
        tg_options_set(a->opts, "instr-map", keep ? keep : "");
    free(keep);
    for (const tg_error *w = set ? tg_set_warnings(set) : NULL; w; w = tg_error_next(w))
        fprintf(stderr, "traceglot: warning: %s: %s\n", other, tg_error_message(w));
    for (size_t i = 0; set && i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_warning_count(t); k++)
            fprintf(stderr, "traceglot: warning: %s\n", tg_trace_warning(t, k));
    }
    return set;
}

typedef int (*cli_diff_call)(tg_set *set, tg_set *other, struct cli_args *a, tg_buf *out,
                             tg_error **err);

/* A --diff command: set against other, both open while call runs. */
static int with_other(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err,
                      cli_diff_call call)
{
    tg_set *other = open_other(a, err);
    if (!other)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    int rc = call(set, other, a, out, err);
    tg_close(other);
    return rc;
}

static int diff_report(tg_set *set, tg_set *other, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_report_diff(set, other, a->filter, a->sink, a->opts, out, err);
}

static int diff_convert(tg_set *set, tg_set *other, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_convert_diff(set, other, a->filter, a->sink, a->opts, out, err);
}

static int diff_stats(tg_set *set, tg_set *other, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_stats_diff(set, other, a->filter, a->opts, out, err);
}

static int call_info(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_info(set, a->opts, out, err);
}

static int call_cat(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_print(set, a->filter, a->sink, a->opts, out, err);
}

static int call_stats(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    if (a->diff)
        return with_other(set, a, out, err, diff_stats);
    return tg_stats(set, a->filter, a->opts, out, err);
}

static int call_convert(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    if (a->diff)
        return with_other(set, a, out, err, diff_convert);
    return tg_convert(set, a->filter, a->sink, a->opts, out, err);
}

static int call_replay(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_replay(set, a->filter, a->opts, out, err);
}

static int call_report(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    if (a->diff)
        return with_other(set, a, out, err, diff_report);
    return tg_report(set, a->filter, a->sink, a->opts, out, err);
}

static int call_graph(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_graph(set, a->filter, a->sink, a->func, a->opts, out, err);
}

static int call_stack(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_stack(set, a->filter, "xray", a->opts, out, err);
}

/* stack: --style=xray, or none (the command's name: xray too). */
int cli_run_stack(struct cli_args *a)
{
    if (a->sink && strcmp(a->sink, "stack") != 0 && strcmp(a->sink, "xray") != 0) {
        fprintf(stderr, "traceglot stack: unknown style '%s' (known: xray)\n", a->sink);
        return 2;
    }
    return run_to_fd(a, STDOUT_FILENO, call_stack);
}

static int call_analyze(tg_set *set, struct cli_args *a, tg_buf *out, tg_error **err)
{
    return tg_analyze(set, a->func, a->opts, out, err);
}

/* analyze NAME PATH...: NAME is the first argument */
int cli_run_analyze(struct cli_args *a)
{
    if (a->n_paths < 2) {
        fprintf(stderr, "traceglot analyze: give the analysis' NAME and the trace's PATH\n");
        return 2;
    }
    a->func = a->paths[0];
    memmove(a->paths, a->paths + 1, (a->n_paths - 1) * sizeof *a->paths);
    a->paths[--a->n_paths] = NULL;
    return run_to_fd(a, STDOUT_FILENO, call_analyze);
}

int cli_run_info(struct cli_args *a) { return run_to_fd(a, STDOUT_FILENO, call_info); }

/* graph --style=xray -output FILE (llvm-xray graph -output): the graph into FILE, replacing
 * it as llvm-xray does, written whole or not at all (a tg_output). */
static int graph_to_path(struct cli_args *a, const char *path)
{
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    tg_error *err = NULL;
    int rc;
    tg_output *o = tg_output_new(path, TG_OUTPUT_FORCE, &err);
    int fd = o ? tg_output_open_file(o, &err) : TG_ERR_NOMEM;
    tg_buf *out = fd >= 0 ? tg_buf_new_fd(fd) : NULL; /* o owns fd */
    if (fd < 0) {
        rc = err ? tg_error_status(err) : fd;
    } else if (!out) {
        rc = TG_ERR_NOMEM;
    } else {
        cli_signals_watch(o);
        struct cli_progress pg;
        cli_progress_begin(&pg, a, set);
        rc = call_graph(set, a, out, &err);
        if (tg_buf_flush(out) < 0 && rc >= 0) {
            fprintf(stderr, "traceglot: error: %s: cannot write the output: %s\n", path,
                    strerror(tg_buf_error(out)));
            rc = TG_ERR_IO;
        }
        cli_progress_end(&pg);
        cli_signals_unwatch(o);
        if (rc >= 0)
            rc = tg_output_commit(o, &err);
    }
    tg_buf_free(out);
    tg_output_free(o);
    cli_print_run_warnings(set);
    tg_close(set);
    return cli_finish(rc, err);
}

/* `traceglot graph PATH... [FUNC]`: the last argument is FUNC when there are two or more and
 * it names no file; `graph FUNC PATH` (uftrace's order, FUNC before the data) when only the
 * last names one; `graph -d DIR FUNC` (cli_parse set FUNC). */
int cli_run_graph(struct cli_args *a)
{
    a->needs_calls = true;
    struct stat st;
    if (!a->func && a->n_paths >= 2 && stat(a->paths[a->n_paths - 1], &st) != 0) {
        a->func = a->paths[--a->n_paths];
        a->paths[a->n_paths] = NULL;
    } else if (!a->func && a->n_paths == 2 && stat(a->paths[0], &st) != 0) {
        a->func = a->paths[0];
        a->paths[0] = a->paths[1];
        a->paths[--a->n_paths] = NULL;
    }
    const char *path = tg_options_get(a->opts, "output");
    if (path && strcmp(path, "-") != 0)
        return graph_to_path(a, path);
    return run_to_fd(a, STDOUT_FILENO, call_graph);
}
int cli_run_cat(struct cli_args *a)
{
    if (a->follow)
        return cli_follow_run(a);
    a->live_show = true; /* a live session's events as they come */
    return run_to_fd(a, STDOUT_FILENO, call_cat);
}
int cli_run_stats(struct cli_args *a) { return run_to_fd(a, STDOUT_FILENO, call_stats); }
int cli_run_replay(struct cli_args *a)
{
    a->needs_calls = true;
    return run_to_fd(a, STDOUT_FILENO, call_replay);
}
/* report: stdout, or the file of llvm-xray account's -output (created or truncated before the
 * trace is read, as llvm-xray opens it; "-" is stdout). */
int cli_run_report(struct cli_args *a)
{
    a->needs_calls = true;
    const char *path = tg_options_get(a->opts, "output");
    if (!path || strcmp(path, "-") == 0)
        return run_to_fd(a, STDOUT_FILENO, call_report);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(stderr, "traceglot: error: Cannot open file '%s' for writing.: %s\n", path,
                strerror(errno));
        return 1;
    }
    int rc = run_to_fd(a, fd, call_report);
    close(fd);
    return rc;
}

/* convert --diff OTHER -o PATH: the differential stream into o's file, committed when whole. */
static int diff_to_output(tg_set *set, struct cli_args *a, tg_output *o, tg_error **err)
{
    int fd = tg_output_open_file(o, err);
    if (fd < 0)
        return fd;
    tg_buf *out = tg_buf_new_fd(fd); /* o owns fd */
    int rc = out ? with_other(set, a, out, err, diff_convert) : TG_ERR_NOMEM;
    if (out && tg_buf_flush(out) < 0 && rc >= 0) { /* what tg_convert_diff left unflushed */
        fprintf(stderr, "traceglot: error: %s: cannot write the output: %s\n", tg_output_path(o),
                strerror(tg_buf_error(out)));
        rc = TG_ERR_IO;
    }
    tg_buf_free(out);
    if (rc >= 0)
        return tg_output_commit(o, err);
    tg_output_discard(o);
    return rc;
}

/* convert -o PATH: through a tg_output (a temporary name renamed when whole), watched by the
 * signal handlers so that an interrupted conversion leaves nothing. */
static int convert_to_path(struct cli_args *a, const char *path)
{
    tg_set *set = cli_open(a);
    if (!set)
        return a->open_exit ? a->open_exit : 1;
    tg_error *err = NULL;
    int rc;
    unsigned flags = tg_options_flag(a->opts, "force") ? TG_OUTPUT_FORCE : 0;
    tg_output *o = tg_output_new(path, flags, &err);
    if (!o) {
        rc = err ? tg_error_status(err) : TG_ERR_NOMEM;
    } else {
        cli_signals_watch(o);
        struct cli_progress pg;
        cli_progress_begin(&pg, a, set);
        rc = a->diff ? diff_to_output(set, a, o, &err)
                     : tg_convert_to(set, a->filter, a->sink, a->opts, o, &err);
        cli_progress_end(&pg);
        cli_signals_unwatch(o);
        tg_output_free(o);
    }
    cli_print_run_warnings(set);
    tg_close(set);
    return cli_finish(rc, err);
}

int cli_run_convert(struct cli_args *a)
{
    if (!a->sink) {
        char known[400];
        cli_values_join(tg_converter_name, known, sizeof known);
        fprintf(stderr, "traceglot convert: --to FORMAT is required (%s)\n", known);
        return 2;
    }
    a->needs_calls = strcmp(a->sink, "folded") == 0 || strcmp(a->sink, "svg") == 0 ||
                     strcmp(a->sink, "speedscope") == 0;
    const char *path = tg_options_get(a->opts, "output");
    int to_dir = tg_convert_writes_dir(a->sink);
    if (to_dir >= 1 && a->diff) {
        fprintf(stderr, "traceglot convert: --diff compares runs in --to svg or folded, not %s\n",
                a->sink);
        return 2;
    }
    if (path && strcmp(path, "-") != 0)
        return convert_to_path(a, path);
    if (to_dir > 0) {
        fprintf(stderr, "traceglot convert: --to %s writes a %s: give -o %s\n", a->sink,
                to_dir == 1 ? "directory" : "file", to_dir == 1 ? "DIR" : "FILE");
        return 2;
    }
    if (tg_convert_is_binary(a->sink) == 1 && isatty(STDOUT_FILENO)) {
        fprintf(stderr,
                "traceglot convert: --to %s writes binary data; not writing it to a terminal: "
                "give -o FILE or redirect the output\n",
                a->sink);
        return 2;
    }
    return run_to_fd(a, STDOUT_FILENO, call_convert);
}
