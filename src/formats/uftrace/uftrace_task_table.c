/* uftrace_task_table.c - `uftrace info --task`: the recording's tasks, one line each, as
 * uftrace 0.13 lists them: the task's start, its flags (F: a process, its tid is its pid; S:
 * it began a session), its tid, its name and the size of its TID.dat in MB.
 *
 * It is the format's own rendering of the directory (tg_trace_render part
 * "uftrace-info-task"): the start is the time of the task's first perf COMM or FORK record
 * where the recording has perf data and the task its TID.dat (uftrace takes the task's start
 * from the record that told of it), else its task.txt line's; the tasks come in the order of their tids. */
#include "formats/uftrace/uftrace_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int by_tid(const void *a, const void *b)
{
    int x = (*(const struct uft_task *const *)a)->tid,
        y = (*(const struct uft_task *const *)b)->tid;
    return (x > y) - (x < y);
}

/* The size of DIR/TID.dat (0 when it cannot be read, as uftrace's stat failing). */
static uint64_t dat_size(const struct uft_data *d, int tid)
{
    char name[32];
    snprintf(name, sizeof name, "%d.dat", tid);
    char *path = tg_path_join(d->dir, name);
    struct stat sb;
    uint64_t size = path && stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    free(path);
    return size;
}

int uft_task_table(const tg_trace *t, tg_buf *out, tg_error **err)
{
    const struct uft_data *d = t->priv;
    const struct uft_task **order = d->n_tasks ? malloc(d->n_tasks * sizeof *order) : NULL;
    if (d->n_tasks && !order)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < d->n_tasks; i++)
        order[i] = &d->tasks[i];
    if (d->n_tasks > 1)
        qsort(order, d->n_tasks, sizeof *order, by_tid);
    tg_buf_printf(out, "#%23s  %5s  %8s  %-16s  %s\n", "TIMESTAMP     ", "FLAGS", "  TID  ", "TASK",
                  "DATA SIZE");
    for (size_t i = 0; i < d->n_tasks; i++) {
        const struct uft_task *tk = order[i];
        /* uftrace reads the perf records of the tasks that have their data file only */
        bool perf = tk->has_dat && tk->perf_ts;
        int64_t ts = perf && (!tk->ts || tk->perf_ts < tk->ts) ? tk->perf_ts : tk->ts;
        char flags[6] = "     ";
        if (tk->tid == tk->pid)
            flags[0] = 'F';
        for (size_t k = 0; k < d->n_sessions; k++)
            if (d->sessions[k].pid == tk->tid)
                flags[1] = 'S';
        uint64_t stamp = ts > 0 ? (uint64_t)ts : 0;
        tg_buf_printf(out, " %13" PRIu64 ".%09" PRIu64 " ", stamp / 1000000000u,
                      stamp % 1000000000u);
        tg_buf_printf(out, " %s  [%6d]  %-16s ", flags, tk->tid, tk->comm);
        uint64_t size = dat_size(d, tk->tid);
        if (size) {
            uint64_t kb = size / 1024, rem = kb % 1024;
            tg_buf_printf(out, " %5" PRIu64 ".%03" PRIu64 " MB\n", kb / 1024,
                          rem >= 1000 ? 999 : rem);
        } else {
            tg_buf_putc(out, '\n');
        }
    }
    free(order);
    return 1;
}
