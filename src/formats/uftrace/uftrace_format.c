/* uftrace_format.c - the uftrace format: recognising a data directory and opening it.
 *
 * A uftrace data directory is recognised by its `info` file starting with "Ftrace!\0", or,
 * while `uftrace record` runs (its .channel pipe is in the directory) and has not written
 * info yet, by a task.txt starting with a SESS line (read as uftrace_session.c says for a
 * growing directory).
 * Opening reads the small metadata files (info, task.txt, maps, events.txt, argument specs)
 * and adds one stream per thread (TID.dat, in the order of info's task list, which is also
 * uftrace's tie-break for equal timestamps) followed by one stream per perf-cpuN.dat.
 * Every module's symbol and debug files are read at open, so a damaged one is reported
 * before any output (naming file and line), and the streams only read shared tables -
 * which lets the report read threads in parallel. */
#include "formats/uftrace/uftrace_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first n bytes of dir/name equal want. */
static bool file_starts(const char *dir, const char *name, const char *want, size_t n)
{
    char *path = tg_path_join(dir, name);
    if (!path)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    free(path);
    if (fd < 0)
        return false;
    char head[8];
    ssize_t got = read(fd, head, n);
    close(fd);
    return got == (ssize_t)n && memcmp(head, want, n) == 0;
}

static int uft_probe(const tg_probe_input *in)
{
    if (!in->is_dir)
        return 0;
    if (file_starts(in->path, "info", "Ftrace!\0", 8))
        return 100;
    /* a recording in progress (uftrace record's .channel pipe is there until it ends):
     * info comes at its end */
    if (!tg_probe_dir_has(in->path, "info") && tg_probe_dir_has(in->path, ".channel") &&
        file_starts(in->path, "task.txt", "SESS ", 5))
        return 60;
    return 0;
}

/* What `uftrace record` writes in info's header by default (its feature mask: PLT hooks,
 * task sessions, symbol-relative addresses, max stack, perf events, auto args; this host's
 * byte order and address size), for a directory whose info is not written yet. */
static void growing_defaults(tg_trace *t, struct uft_data *d)
{
    d->growing = true;
    d->version = 4;
    d->endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? 2 : 1;
    d->big_endian = d->endian == 2;
    d->elf_class = sizeof(void *) == 8 ? 2 : 1;
    d->feat_mask = 0x363;
    d->max_stack = 1024;
    tg_trace_set_version(t, "4");
}

static tg_event_class *add_class(tg_trace *t, const char *name, uint64_t id, tg_event_kind k,
                                 bool *ok)
{
    tg_event_class *c = tg_trace_add_class(t, name, id, k);
    if (!c)
        *ok = false;
    return c;
}

static int read_events_txt(tg_trace *t, struct uft_data *d, tg_error **err)
{
    if (!tg_probe_dir_has(d->dir, "events.txt"))
        return 0;
    char *path = tg_path_join(d->dir, "events.txt");
    char *text = NULL;
    size_t len = 0;
    int rc = path ? tg_read_text_file(path, 16u << 20, &text, &len, err)
                  : tg_err(err, TG_ERR_NOMEM, "out of memory");
    free(path);
    if (rc < 0)
        return rc;
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += text[i] == '\n';
    d->user_events = tg_arena_alloc(&t->arena, cap * sizeof *d->user_events);
    char *line = text;
    while (d->user_events && line < text + len) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        unsigned long long id;
        char name[256];
        if (sscanf(line, "EVENT: %llu %255s", &id, name) == 2 && d->n_user_events < cap) {
            d->user_events[d->n_user_events].id = id;
            d->user_events[d->n_user_events].name = tg_arena_strdup(&t->arena, name);
            d->n_user_events++;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    return 0;
}

static void uft_close(tg_trace *t)
{
    struct uft_data *d = t->priv;
    if (!d)
        return;
    uft_rules_free(d);
    for (size_t i = 0; i < d->n_modules; i++)
        tg_symtab_free(&d->modules[i]->syms);
    free(d->modules);
    free(d->enums);
    free(d->info_text);
    free(d);
    t->priv = NULL;
}

static int uft_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    struct uft_data *d = calloc(1, sizeof *d);
    if (!d)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = d;
    d->dir = tg_arena_strdup(&t->arena, path);
    if (!d->dir)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (tg_probe_dir_has(path, "info"))
        TG_TRY(uft_info_read(t, d, err));
    else
        growing_defaults(t, d);
    TG_TRY(uft_sessions_read(t, d, err));
    if (uft_attrs_fill(t, d) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    TG_TRY(uft_rules_read(t, d, err));
    TG_TRY(read_events_txt(t, d, err));
    bool ok = true;
    d->cls_entry = add_class(t, "uftrace:entry", 0, TG_KIND_FUNC_ENTRY, &ok);
    d->cls_exit = add_class(t, "uftrace:exit", 1, TG_KIND_FUNC_EXIT, &ok);
    d->cls_lost = add_class(t, "uftrace:lost", 2, TG_KIND_LOST, &ok);
    d->cls_event = add_class(t, "uftrace:event", 3, TG_KIND_GENERIC, &ok);
    d->cls_sched_in = add_class(t, "linux:sched-in", UFT_EV_SCHED_IN, TG_KIND_SCHED_IN, &ok);
    d->cls_sched_out = add_class(t, "linux:sched-out", UFT_EV_SCHED_OUT, TG_KIND_SCHED_OUT, &ok);
    d->cls_sched_out_preempt =
        add_class(t, "linux:sched-out (pre-empted)", UFT_EV_SCHED_OUT_PREEMPT,
                  TG_KIND_SCHED_OUT_PREEMPTED, &ok);
    d->cls_task_new = add_class(t, "linux:task-new", UFT_EV_TASK_NEW, TG_KIND_TASK_FORK, &ok);
    d->cls_task_exit = add_class(t, "linux:task-exit", UFT_EV_TASK_EXIT, TG_KIND_TASK_EXIT, &ok);
    d->cls_task_name = add_class(t, "linux:task-name", UFT_EV_TASK_NAME, TG_KIND_TASK_NAME, &ok);
    d->cls_extern = add_class(t, "external-data", UFT_EV_EXTERN, TG_KIND_EXTERN, &ok);
    if (ok)
        ok = uft_builtin_classes_add(t, d);
    if (!ok)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    /* every symbol file now: a damaged one is reported at open, naming file and line */
    for (size_t i = 0; i < d->n_modules; i++)
        TG_TRY(uft_module_load(t, d, d->modules[i], err));
    for (size_t i = 0; i < d->n_tasks; i++) {
        char name[32];
        snprintf(name, sizeof name, "%d.dat", d->tasks[i].tid);
        if (!tg_probe_dir_has(d->dir, name)) {
            if (d->growing) /* nothing flushed yet */
                continue;
            /* uftrace reads the recording without it: a thread asleep when the program ended
             * never flushed its buffer (its context switches in perf-cpuN.dat are skipped
             * with it, as uftrace's are).  Only a warning says so. */
            tg_trace_warn(t,
                          "%s/%s: task %d is listed in info (taskinfo:tids) but has no data "
                          "file: read without it, as uftrace does",
                          d->dir, name, d->tasks[i].tid);
            continue;
        }
        TG_TRY(uft_dat_stream_add(t, d, &d->tasks[i], err));
    }
    if (d->n_tasks == 0)
        return tg_err_at(err, TG_ERR_FORMAT, path, TG_NO_OFFSET,
                         d->growing ? "task.txt has no TASK line yet: no TID.dat to read"
                                    : "info has no task list (taskinfo:tids): no TID.dat to read");
    /* uftrace's order for records of equal time: tasks, kernel, perf, external data */
    TG_TRY(uft_kernel_streams_add(t, d, err));
    TG_TRY(uft_perf_streams_add(t, d, err));
    TG_TRY(uft_extern_stream_add(t, d, err));
    return 0;
}

/* The symbols of every module's .sym file, module after module (uftrace's filters match
 * patterns against them). */
static int uft_func_symbol_at(const tg_trace *t, size_t i, tg_func_symbol *out)
{
    const struct uft_data *d = t->priv;
    memset(out, 0, sizeof *out);
    for (size_t m = 0; d && m < d->n_modules; m++) {
        const tg_symtab *st = &d->modules[m]->syms;
        if (i >= st->n) {
            i -= st->n;
            continue;
        }
        const tg_symbol *sym = &st->syms[i];
        out->name = sym->name;
        out->addr = sym->addr;
        out->size = sym->size;
        out->flags = sym->type == 'P' ? TG_FUNC_PLT : 0;
        return 1;
    }
    return 0; /* not kallsyms: uftrace's filters name user functions only */
}

/* The tracer's own texts of the directory: `uftrace dump` ("uftrace-dump"), `uftrace info
 * --task` ("uftrace-info-task"). */
static int uft_render_part(const tg_trace *t, const char *part, tg_buf *out, tg_error **err)
{
    if (strcmp(part, "uftrace-dump") == 0)
        return uft_dump(t, out, err);
    if (strcmp(part, "uftrace-info-task") == 0)
        return uft_task_table(t, out, err);
    return 0;
}

TG_FORMAT(uftrace) = {
    .name = "uftrace",
    .probe = uft_probe,
    .open = uft_open,
    .describe = uft_describe,
    .render_part = uft_render_part,
    .close = uft_close,
    .func_symbol_at = uft_func_symbol_at,
};
