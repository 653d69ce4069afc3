/* filter_internal.h - the filter's parsed form, shared by filter.c and the merge. */
#ifndef TG_FILTER_INTERNAL_H
#define TG_FILTER_INTERNAL_H

#include "traceglot.h"

#include <stdbool.h>
#include <stdint.h>

enum tg_bound_kind {
    TG_BOUND_NS = 0, /* ns: absolute, or from the first event when relative */
    TG_BOUND_DATE,   /* a date and time (babeltrace2's "YYYY-MM-DD hh:mm[:ss[.ns]]") */
    TG_BOUND_TIME,   /* a time of day on the first event's date ("hh:mm[:ss[.ns]]") */
};

struct tg_time_bound {
    int set;
    int relative; /* ns counts from the first event */
    int64_t ns;
    int kind;  /* enum tg_bound_kind */
    int tm[6]; /* DATE, TIME: year, month, day, hour, minute, second */
    uint32_t tm_ns;
};

struct tg_filter {
    struct tg_time_bound begin, end;
    int gmt; /* dates and times of day are in GMT, not local time */
    char **globs;
    size_t n_globs, cap_globs;
    int *tids;
    size_t n_tids, cap_tids;
    int *pids; /* the iterator matches them against the model's process of the thread */
    size_t n_pids, cap_pids;
    int *cpus;
    size_t n_cpus, cap_cpus;
};

/* Whether pid is one of the filter's. */
bool tg_filter_pid_listed(const tg_filter *f, int64_t pid);

/* The bound in ns on the clock of the events, first being the first event's time. */
int64_t tg_time_bound_ns(const struct tg_time_bound *b, int64_t first, int gmt);

/* "S[.fraction]" seconds or "N<unit>" with unit ns/us/ms/s, without a sign, into ns: the
 * one time parser (time bounds, clock offsets).  -1 when malformed. */
int tg_time_parse(const char *s, int64_t *ns);

#endif
