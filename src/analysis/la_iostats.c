/* la_iostats.c - the I/O analyses' latency figures (la_io.h): --stats (lttng-iolatencystats:
 * count, minimum, average, maximum and standard deviation of the open, read, write and sync
 * calls' durations, then of each disk's block requests) and --freq (lttng-iolatencyfreq:
 * their distributions over --freq-resolution buckets), text and LAMI.
 *
 * Their definitions: a disk is listed when it completed a request in the period, its
 * figures from its requests that pass the filters; the deviation needs two requests; a
 * distribution is left out when it is empty or all its durations are equal; the buckets run
 * from the shortest duration to the longest, in microseconds computed as lttng-analyses
 * does (so their bounds print the same digits). */
#include "analysis/la_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *label, *name;
    uint8_t op;
} calls[4] = {{"Open", "open", LA_IO_OPEN},
              {"Read", "read", LA_IO_READ},
              {"Write", "write", LA_IO_WRITE},
              {"Sync", "sync", LA_IO_SYNC}};

/* the disk's block requests that pass the filters */
static int64_t *disk_durations(la_run *r, la_io *io, const la_io_pdisk *d, size_t *n)
{
    int64_t *xs = malloc((d->n_rqs + 1) * sizeof *xs);
    *n = 0;
    if (!xs)
        return NULL;
    for (size_t i = 0; i < d->n_rqs; i++) {
        const la_iorq *rq = &io->rqs[d->rqs[i]];
        if (la_io_filter(r, rq))
            xs[(*n)++] = rq->end - rq->begin;
    }
    return xs;
}

static void stats_row(la_run *r, tg_buf *out, json_object *t, json_object *obj, const char *label,
                      const int64_t *xs, size_t n)
{
    int64_t min = 0, max = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!i || xs[i] < min)
            min = xs[i];
        if (!i || xs[i] > max)
            max = xs[i];
        total += xs[i];
    }
    double sd = n < 2 ? NAN : la_stdev(xs, n);
    double avg = n ? (double)total / (double)n : 0;
    if (r->conf.json) {
        json_object *row = la_lami_row(t);
        json_object_array_add(row, obj);
        json_object_array_add(row, la_lami_int("number", (int64_t)n));
        json_object_array_add(row, la_lami_int("duration", min));
        json_object_array_add(row, n ? la_lami_value("duration", avg) : la_lami_int("duration", 0));
        json_object_array_add(row, la_lami_int("duration", max));
        json_object_array_add(row, isnan(sd) ? la_lami_unknown() : la_lami_value("duration", sd));
        return;
    }
    char f[6][64];
    snprintf(f[0], sizeof f[0], "%s", label);
    snprintf(f[1], sizeof f[1], "%zu", n);
    snprintf(f[2], sizeof f[2], "%.3f", (double)min / 1000);
    snprintf(f[3], sizeof f[3], "%.3f", avg / 1000);
    snprintf(f[4], sizeof f[4], "%.3f", (double)max / 1000);
    if (isnan(sd))
        snprintf(f[5], sizeof f[5], "?");
    else
        snprintf(f[5], sizeof f[5], "%.3f", sd / 1000);
    for (int k = 0; k < 6; k++) {
        if (k)
            tg_buf_putc(out, ' ');
        la_pad(out, f[k], 14, k ? '>' : '<');
    }
    tg_buf_putc(out, '\n');
}

static void stats_head(tg_buf *out, const char *title, const char *first)
{
    const char *h[6] = {first, "Count", "Min", "Average", "Max", "Stdev"};
    tg_buf_printf(out, "\n%s\n", title);
    for (int k = 0; k < 6; k++) {
        if (k)
            tg_buf_putc(out, ' ');
        la_pad(out, h[k], 14, k ? '>' : '<');
    }
    tg_buf_putc(out, '\n');
    tg_buf_pad(out, '-', 89);
    tg_buf_putc(out, '\n');
}

static json_object *named(const char *cls, const char *key, const char *value)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(o, key, json_object_new_string(value));
    return o;
}

int la_io_stats_view(la_run *r, la_io *io, tg_buf *out)
{
    bool json = r->conf.json;
    json_object *t =
        json ? la_lami_table(r, "syscall-latency-stats", r->period_begin, r->last_ts) : NULL;
    if (!json)
        stats_head(out, "Syscalls latency statistics (usec):", "Type");
    for (size_t k = 0; k < 4; k++) {
        size_t n;
        int64_t *xs = la_io_durations(r, io, calls[k].op, &n);
        if (!xs) {
            json_object_put(t);
            return TG_ERR_NOMEM;
        }
        stats_row(r, out, t, json ? named("string", "value", calls[k].label) : NULL, calls[k].label,
                  xs, n);
        free(xs);
    }
    if (json)
        la_lami_add(r, t);
    if (!io->n_pdisks)
        return 0;
    t = json ? la_lami_table(r, "disk-latency-stats", r->period_begin, r->last_ts) : NULL;
    bool head = false;
    for (size_t i = 0; i < io->n_pdisks; i++) {
        const la_io_pdisk *d = &io->pdisks[i];
        if (!d->n_rqs)
            continue;
        size_t n;
        int64_t *xs = disk_durations(r, io, d, &n);
        if (!xs) {
            json_object_put(t);
            return TG_ERR_NOMEM;
        }
        if (!json && !head)
            stats_head(out, "Disk latency statistics (usec):", "Name");
        head = true;
        const char *name = la_io_text(io, d->name);
        stats_row(r, out, t, json ? named("disk", "name", name) : NULL, name, xs, n);
        free(xs);
    }
    if (json)
        la_lami_add(r, t);
    return 0;
}

/* _fill_freq_result_table: the distribution of xs[0..n) */
static int freq_table(la_run *r, tg_buf *out, const char *sub, const int64_t *xs, size_t n)
{
    long res = r->conf.freq_resolution;
    if (!n || res <= 0)
        return 0;
    int64_t lo = xs[0], hi = xs[0];
    for (size_t i = 1; i < n; i++) {
        lo = xs[i] < lo ? xs[i] : lo;
        hi = xs[i] > hi ? xs[i] : hi;
    }
    double min = (double)lo / 1000, max = (double)hi / 1000;
    double step = (max - min) / (double)res;
    if (step == 0)
        return 0;
    int64_t *counts = calloc((size_t)res, sizeof *counts);
    double *lower = malloc((size_t)res * sizeof *lower);
    if (!counts || !lower) {
        free(counts);
        free(lower);
        return TG_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        long index = (long)(((double)xs[i] / 1000 - min) / step);
        counts[index < res - 1 ? index : res - 1]++;
    }
    char title[160];
    if (r->conf.json) {
        snprintf(title, sizeof title, "I/O request latency distribution [%s]", sub);
        json_object *t = la_lami_table_sub(r, "freq", title, r->period_begin, r->last_ts);
        for (long i = 0; i < res; i++) {
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_value("duration", ((double)i * step + min) * 1000));
            json_object_array_add(row,
                                  la_lami_value("duration", ((double)(i + 1) * step + min) * 1000));
            json_object_array_add(row, la_lami_int("number", counts[i]));
        }
        la_lami_add(r, t);
    } else {
        for (long i = 0; i < res; i++)
            lower[i] = (((double)i * step + min) * 1000) / 1000;
        snprintf(title, sizeof title, "I/O request latency distribution %s", sub);
        la_freq_graph(out, title, "\xc2\xb5s", lower, counts, (size_t)res);
    }
    free(counts);
    free(lower);
    return 0;
}

int la_io_freq_view(la_run *r, la_io *io, tg_buf *out)
{
    for (size_t k = 0; k < 4; k++) {
        size_t n;
        int64_t *xs = la_io_durations(r, io, calls[k].op, &n);
        if (!xs)
            return TG_ERR_NOMEM;
        int rc = freq_table(r, out, calls[k].name, xs, n);
        free(xs);
        TG_TRY(rc);
    }
    for (size_t i = 0; i < io->n_pdisks; i++) {
        size_t n;
        int64_t *xs = disk_durations(r, io, &io->pdisks[i], &n);
        if (!xs)
            return TG_ERR_NOMEM;
        char sub[160];
        snprintf(sub, sizeof sub, "disk: %s", la_io_text(io, io->pdisks[i].name));
        int rc = freq_table(r, out, sub, xs, n);
        free(xs);
        TG_TRY(rc);
    }
    return 0;
}
