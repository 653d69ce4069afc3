/* la_iolog.c - the I/O analyses' request lists (la_io.h): --top (lttng-iolatencytop: the
 * longest open, read, write and sync calls) and --log (lttng-iolog: every I/O system call in
 * the order they began), text and LAMI.
 *
 * Their definitions: the requests are the system calls the period's threads completed, in
 * thread then completion order (a sort keeps that order among equals); read includes the
 * calls that both read and write; top shows --limit + 1 rows (lttng-analyses stops past
 * the limit); a row's file is the descriptor its process had at the call's end; a call
 * begun before --begin or ended after --end is marked "*". */
#include "analysis/la_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IORequest.is_equivalent_operation(op, rq's) (op 0: any) */
static bool same_op(uint8_t op, uint8_t rq)
{
    if (!op || op == rq)
        return true;
    if (op == LA_IO_READ_WRITE)
        return rq == LA_IO_READ || rq == LA_IO_WRITE;
    return (op == LA_IO_READ || op == LA_IO_WRITE) && rq == LA_IO_READ_WRITE;
}

/* the period's system call requests of op that pass the filters, in lttng-analyses' order */
static size_t *requests(la_run *r, la_io *io, uint8_t op, size_t *n)
{
    size_t cap = 0, *list = NULL;
    *n = 0;
    for (size_t i = 0; i < io->n_ps; i++)
        for (size_t k = 0; k < io->ps[i].n_rqs; k++) {
            const la_iorq *rq = &io->rqs[io->ps[i].rqs[k]];
            if (rq->block || !same_op(op, rq->op) || !la_io_filter(r, rq))
                continue;
            if (tg_grow(&list, &cap, *n + 1, sizeof *list) < 0) {
                free(list);
                io->nomem = true;
                return NULL;
            }
            list[(*n)++] = io->ps[i].rqs[k];
        }
    if (!list)
        list = malloc(sizeof *list);
    if (!list)
        io->nomem = true;
    return list;
}

static bool by_duration(size_t a, size_t b, const void *arg)
{
    const la_iorq *rqs = arg;
    return rqs[a].end - rqs[a].begin > rqs[b].end - rqs[b].begin;
}

static bool by_begin(size_t a, size_t b, const void *arg)
{
    const la_iorq *rqs = arg;
    return rqs[a].begin < rqs[b].begin;
}

/* _is_io_rq_out_of_range as Python evaluates it: -1 None, 0 False, 1 True */
static int out_of_range(const la_run *r, const la_iorq *rq)
{
    bool has_begin = r->conf.begin != LA_NONE && r->conf.begin;
    bool has_end = r->conf.end != LA_NONE && r->conf.end;
    if (has_begin && rq->begin < r->conf.begin)
        return 1;
    if (!has_end)
        return -1;
    return rq->end > r->conf.end;
}

struct row_file {
    bool has_fd, known;
    const char *path;
};

static struct row_file row_file(la_io *io, const la_iorq *rq)
{
    struct row_file f = {.has_fd = rq->fd != LA_NONE};
    if (!f.has_fd)
        return f;
    la_io_pstats *p = la_io_pstats_of(io, rq->tid);
    if (p && p->pid != LA_NONE) {
        la_io_pstats *parent = la_io_pstats_of(io, p->pid);
        if (parent)
            p = parent;
    }
    la_io_fdstats *fd = la_io_get_fd(io, p, rq->fd, rq->end);
    f.known = fd != NULL;
    f.path = fd ? la_io_text(io, fd->filename) : NULL;
    return f;
}

static void json_row(la_run *r, la_io *io, json_object *table, const la_iorq *rq)
{
    const la_io_pstats *p = la_io_pstats_of(io, rq->tid);
    struct row_file f = row_file(io, rq);
    json_object *row = la_lami_row(table);
    json_object_array_add(row, la_lami_timerange(rq->begin, rq->end));
    json_object *b = json_object_new_object();
    int oor = out_of_range(r, rq);
    json_object_object_add(b, "class", json_object_new_string("bool"));
    json_object_object_add(b, "value", oor < 0 ? NULL : json_object_new_boolean(oor));
    json_object_array_add(row, b);
    json_object_array_add(row, la_lami_int("duration", rq->end - rq->begin));
    json_object *sc = json_object_new_object();
    json_object_object_add(sc, "class", json_object_new_string("syscall"));
    json_object_object_add(sc, "name", json_object_new_string(la_io_text(io, rq->name)));
    json_object_array_add(row, sc);
    json_object_array_add(row, rq->size == LA_NONE ? NULL : la_lami_int("size", rq->size));
    json_object_array_add(row, la_lami_process(p ? p->comm : "", LA_NONE, rq->tid));
    if (!f.has_fd) {
        json_object_array_add(row, NULL);
        json_object_array_add(row, NULL);
        return;
    }
    if (f.known) {
        json_object *path = json_object_new_object();
        json_object_object_add(path, "class", json_object_new_string("path"));
        json_object_object_add(path, "path", json_object_new_string(f.path));
        json_object_array_add(row, path);
    } else {
        json_object_array_add(row, la_lami_unknown());
    }
    json_object *fd = json_object_new_object();
    json_object_object_add(fd, "class", json_object_new_string("fd"));
    json_object_object_add(fd, "fd", json_object_new_int64(rq->fd));
    json_object_array_add(row, fd);
}

static void text_row(la_run *r, la_io *io, tg_buf *out, const la_iorq *rq)
{
    const la_io_pstats *p = la_io_pstats_of(io, rq->tid);
    struct row_file f = row_file(io, rq);
    char b[64], e[64], range[160], dur[48], size[32], tid[24], file[4200];
    bool oor = out_of_range(r, rq) == 1;
    la_timestamp(b, sizeof b, rq->begin, r->conf.multi_day, r->conf.gmt);
    la_timestamp(e, sizeof e, rq->end, r->conf.multi_day, r->conf.gmt);
    snprintf(range, sizeof range, "[%s, %s]%c", b, e, oor ? '*' : ' ');
    snprintf(dur, sizeof dur, "%.3f%c", (double)(rq->end - rq->begin) / 1000, oor ? '*' : ' ');
    if (rq->size == LA_NONE)
        snprintf(size, sizeof size, "N/A");
    else
        la_io_size(size, sizeof size, rq->size);
    snprintf(tid, sizeof tid, "%lld", (long long)rq->tid);
    if (!f.has_fd)
        snprintf(file, sizeof file, "N/A");
    else
        snprintf(file, sizeof file, "%s (fd=%lld)", f.known ? f.path : "unknown",
                 (long long)rq->fd);
    la_pad(out, range, 40, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, la_io_text(io, rq->name), 16, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, dur, 16, '>');
    tg_buf_putc(out, ' ');
    la_pad(out, size, 11, '>');
    tg_buf_puts(out, "  ");
    la_pad(out, p ? p->comm : "", 24, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, tid, 8, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, file, 14, '<');
    tg_buf_putc(out, '\n');
}

/* One table: the requests idx[0..n) (already sorted and cut) under title [sub]. */
static void table(la_run *r, la_io *io, tg_buf *out, const char *title, const char *sub,
                  const size_t *idx, size_t n)
{
    if (r->conf.json) {
        json_object *t;
        if (sub) {
            char full[128];
            snprintf(full, sizeof full, "%s [%s]", title, sub);
            t = la_lami_table_sub(r,
                                  strcmp(title, "I/O operations log") == 0 ? "log" : "top-syscall",
                                  full, r->period_begin, r->last_ts);
        } else {
            t = la_lami_table(r, "log", r->period_begin, r->last_ts);
        }
        for (size_t i = 0; i < n; i++)
            json_row(r, io, t, &io->rqs[idx[i]]);
        la_lami_add(r, t);
        return;
    }
    if (!n)
        return;
    tg_buf_printf(out, "\n%s %s (usec)\n", title, sub ? sub : "None");
    static const char *const head[8] = {"Begin", "End",  "Name", "Duration (usec)",
                                        "Size",  "Proc", "PID",  "Filename"};
    static const int widths[8] = {20, 20, 16, 23, 5, 24, 8, 14};
    for (int k = 0; k < 8; k++) {
        if (k)
            tg_buf_putc(out, ' ');
        la_pad(out, head[k], widths[k], '<');
    }
    tg_buf_putc(out, '\n');
    bool any_oor = false;
    for (size_t i = 0; i < n; i++) {
        text_row(r, io, out, &io->rqs[idx[i]]);
        any_oor |= out_of_range(r, &io->rqs[idx[i]]) == 1;
    }
    if (any_oor)
        tg_buf_puts(out, "*: Syscalls started and/or completed outside of the range specified\n");
}

int la_io_top_view(la_run *r, la_io *io, tg_buf *out)
{
    static const struct {
        const char *name;
        uint8_t op;
    } kinds[4] = {
        {"open", LA_IO_OPEN}, {"read", LA_IO_READ}, {"write", LA_IO_WRITE}, {"sync", LA_IO_SYNC}};
    for (size_t k = 0; k < 4; k++) {
        size_t n;
        size_t *idx = requests(r, io, kinds[k].op, &n);
        if (!idx)
            return TG_ERR_NOMEM;
        if (la_sort(idx, n, by_duration, io->rqs) < 0) {
            free(idx);
            return TG_ERR_NOMEM;
        }
        long limit = r->conf.limit;
        size_t rows = limit < 0 ? 0 : (size_t)limit + 1 < n ? (size_t)limit + 1 : n;
        table(r, io, out, "Top system call latencies", kinds[k].name, idx, rows);
        free(idx);
    }
    return 0;
}

int la_io_log_view(la_run *r, la_io *io, tg_buf *out)
{
    size_t n;
    size_t *idx = requests(r, io, 0, &n);
    if (!idx)
        return TG_ERR_NOMEM;
    if (la_sort(idx, n, by_begin, io->rqs) < 0) {
        free(idx);
        return TG_ERR_NOMEM;
    }
    table(r, io, out, "I/O operations log", NULL, idx, n);
    free(idx);
    return 0;
}

/* for la_iostats.c: the durations of op's requests that pass the filters */
int64_t *la_io_durations(la_run *r, la_io *io, uint8_t op, size_t *n)
{
    size_t *idx = requests(r, io, op, n);
    if (!idx)
        return NULL;
    int64_t *d = malloc((*n + 1) * sizeof *d);
    for (size_t i = 0; d && i < *n; i++)
        d[i] = io->rqs[idx[i]].end - io->rqs[idx[i]].begin;
    free(idx);
    if (!d)
        io->nomem = true;
    return d;
}
