/* cli_progress.c - the progress line of a long command on a terminal:
 *   "traceglot: 42% of 1.4 GB, 12.3M events, 310 MB/s, 3 s left"
 * on standard error, redrawn in place ("\r" and erase to the end of the line) at most ten
 * times a second, from the second second on, and erased when the command ends, so that
 * nothing of it stays on the screen or in what follows.
 *
 * It is drawn when standard error is a terminal, or with --progress; never with
 * --no-progress.  The library calls back every so many events it reads (tg_set_progress),
 * so the time is looked at once per 64K events, never per event.  For tests,
 * TRACEGLOT_PROGRESS_EVERY=N calls back every N events and draws at each call, at once. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLI_PROGRESS_EVERY 65536
#define CLI_PROGRESS_START_NS 1000000000LL /* nothing drawn in the first second */
#define CLI_PROGRESS_REDRAW_NS 100000000LL /* ten times a second at most */

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* "1.4 GB", "310 MB" */
static void human_bytes(double v, char *buf, size_t size)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
    size_t u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    snprintf(buf, size, u && v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static void human_count(uint64_t n, char *buf, size_t size)
{
    if (n >= 1000000)
        snprintf(buf, size, "%.1fM", (double)n / 1e6);
    else if (n >= 1000)
        snprintf(buf, size, "%.1fk", (double)n / 1e3);
    else
        snprintf(buf, size, "%llu", (unsigned long long)n);
}

static void draw(void *ctx, const tg_progress *p)
{
    struct cli_progress *pg = ctx;
    int64_t now = now_ns();
    if (!pg->every_call &&
        (now - pg->start_ns < CLI_PROGRESS_START_NS || now - pg->drawn_ns < CLI_PROGRESS_REDRAW_NS))
        return;
    pg->drawn_ns = now;
    double secs = (double)(now - pg->start_ns) / 1e9;
    char line[160], total[32], rate[32], events[32];
    size_t n = 0;
    human_count(p->events, events, sizeof events);
    if (p->bytes_total) {
        double f = (double)p->bytes_read / (double)p->bytes_total;
        human_bytes((double)p->bytes_total, total, sizeof total);
        human_bytes(secs > 0 ? (double)p->bytes_read / secs : 0, rate, sizeof rate);
        n = (size_t)snprintf(line, sizeof line, "traceglot: %d%% of %s, %s events, %s/s",
                             (int)(f > 1 ? 100 : f * 100), total, events, rate);
        if (f > 0.01 && f < 1 && n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, ", %.0f s left", secs * (1 - f) / f);
    } else {
        human_count(secs > 0 ? (uint64_t)((double)p->events / secs) : 0, rate, sizeof rate);
        n = (size_t)snprintf(line, sizeof line, "traceglot: %s events, %s events/s", events, rate);
    }
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    pg->shown = 1;
}

void cli_progress_begin(struct cli_progress *pg, const struct cli_args *a, tg_set *set)
{
    memset(pg, 0, sizeof *pg);
    if (a->progress < 0 || (a->progress == 0 && !isatty(STDERR_FILENO)))
        return;
    uint64_t every = CLI_PROGRESS_EVERY;
    const char *env = getenv("TRACEGLOT_PROGRESS_EVERY");
    if (env && *env) {
        every = strtoull(env, NULL, 10);
        pg->every_call = 1;
    }
    pg->set = set;
    pg->start_ns = now_ns();
    tg_set_progress(set, every, draw, pg);
}

void cli_progress_end(struct cli_progress *pg)
{
    if (pg->set)
        tg_set_progress(pg->set, 0, NULL, NULL);
    if (pg->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pg->set = NULL;
    pg->shown = 0;
}
