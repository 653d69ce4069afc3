/* la_io.c - `traceglot analyze iolatencytop | iolatencystats | iolatencyfreq | iousagetop |
 * iolog`: lttng-analyses' one I/O command (lttng-io*) with the view each name starts with
 * (--top, --stats, --freq, --usage, --log; more can be asked for), text and LAMI.
 *
 * The state (la_iostate.c) reads every event from the first; the period (la_ioperiod.c) opens
 * with the analysis' period; the views print it in lttng-analyses' order: usage, statistics,
 * top, distributions, log (LAMI: log, statistics, top, usage, distributions).  As in
 * lttng-analyses, --cpu only prints a warning, and the requests a view shows are those whose
 * size and duration pass --minsize/--maxsize and --min/--max. */
#include "analysis/la_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static la_io *io_ctx(la_run *r)
{
    if (r->ctx)
        return r->ctx;
    la_io *io = calloc(1, sizeof *io);
    if (!io)
        return NULL;
    io->run = r;
    r->ctx = io;
    io->unknown_str = la_io_str(io, "unknown", 7);
    io->socket_str = la_io_str(io, "socket", 6);
    io->close_str = la_io_str(io, "close", 5);
    if (io->close_str == LA_IO_NOSTR)
        io->nomem = true;
    return io;
}

static int io_event(la_run *r, const tg_event *ev)
{
    la_io *io = io_ctx(r);
    if (!io || io->nomem)
        return TG_ERR_NOMEM;
    return la_io_state_event(io, ev);
}

static int io_begin(la_run *r)
{
    la_io *io = io_ctx(r);
    if (!io)
        return TG_ERR_NOMEM;
    io->open = true;
    return 0;
}

bool la_io_filter(const la_run *r, const la_iorq *rq)
{
    const la_conf *c = &r->conf;
    if (rq->size != LA_NONE) {
        if (c->has_maxsize && (double)rq->size > c->maxsize)
            return false;
        if (c->has_minsize && (double)rq->size < c->minsize)
            return false;
    }
    double d = (double)(rq->end - rq->begin);
    if (c->has_max && d > c->max)
        return false;
    if (c->has_min && d < c->min)
        return false;
    return !(c->begin != LA_NONE && c->begin && c->end != LA_NONE && c->end && rq->end != LA_NONE &&
             rq->end && rq->begin > c->end);
}

void la_io_size(char *buf, size_t size, int64_t bytes)
{
    static const char *const units[] = {"  B", "KiB", "MiB", "GiB", "TiB",
                                        "PiB", "EiB", "ZiB", "YiB"};
    int e = 0;
    double x = (double)bytes;
    if (bytes > 0) {
        e = (int)(log(x) / log(1024.0));
        if (e > 8)
            e = 8;
        x /= pow(1024.0, e);
    }
    if (e == 0)
        snprintf(buf, size, "%.0f %s", x, units[0]);
    else
        snprintf(buf, size, "%.2f %s", x, units[e]);
}

static int io_end(la_run *r, tg_buf *out)
{
    la_io *io = r->ctx;
    if (io->nomem)
        return TG_ERR_NOMEM;
    const la_conf *c = &r->conf;
    if (c->json) {
        if (c->log)
            TG_TRY(la_io_log_view(r, io, out));
        if (c->stats)
            TG_TRY(la_io_stats_view(r, io, out));
        if (c->top)
            TG_TRY(la_io_top_view(r, io, out));
        if (c->usage)
            TG_TRY(la_io_usage_view(r, io, out));
        if (c->freq)
            TG_TRY(la_io_freq_view(r, io, out));
        return 0;
    }
    if (c->n_cpus)
        tg_buf_puts(out, "Warning: cpu filter not enabled on I/O analysis\n");
    la_print_timerange(r, out, r->period_begin, r->last_ts);
    if (c->usage)
        TG_TRY(la_io_usage_view(r, io, out));
    if (c->stats)
        TG_TRY(la_io_stats_view(r, io, out));
    if (c->top)
        TG_TRY(la_io_top_view(r, io, out));
    if (c->freq)
        TG_TRY(la_io_freq_view(r, io, out));
    if (c->log)
        TG_TRY(la_io_log_view(r, io, out));
    return 0;
}

static void io_free(la_run *r)
{
    la_io *io = r->ctx;
    if (!io)
        return;
    la_io_state_free(io);
    la_io_period_free(io);
    for (size_t i = 0; i < io->n_strs; i++)
        free(io->strs[i]);
    free(io->strs);
    free(io->rqs);
    free(io);
    r->ctx = NULL;
}

static void preset_top(la_conf *c) { c->top = true; }
static void preset_stats(la_conf *c) { c->stats = true; }
static void preset_freq(la_conf *c) { c->freq = true; }
static void preset_usage(la_conf *c) { c->usage = true; }
static void preset_log(la_conf *c) { c->log = true; }

static const char *const io_needs[] = {NULL};

#define IO_KIND(id, view)                                                                          \
    const la_kind la_kind_##id = {                                                                 \
        .name = #id,                                                                               \
        .needs = io_needs,                                                                         \
        .threads = true,                                                                           \
        .preset = preset_##view,                                                                   \
        .begin = io_begin,                                                                         \
        .event = io_event,                                                                         \
        .end = io_end,                                                                             \
        .free = io_free,                                                                           \
    }

IO_KIND(iolatencytop, top);
IO_KIND(iolatencystats, stats);
IO_KIND(iolatencyfreq, freq);
IO_KIND(iousagetop, usage);
IO_KIND(iolog, log);
