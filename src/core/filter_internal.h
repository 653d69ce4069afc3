/* filter_internal.h - the filter's parsed form, shared by filter.c and the merge. */
#ifndef TG_FILTER_INTERNAL_H
#define TG_FILTER_INTERNAL_H

#include "traceglot.h"

struct tg_time_bound {
    int set;
    int relative; /* ns counts from the first event */
    int64_t ns;
};

struct tg_filter {
    struct tg_time_bound begin, end;
    char **globs;
    size_t n_globs, cap_globs;
    int *tids;
    size_t n_tids, cap_tids;
    int *cpus;
    size_t n_cpus, cap_cpus;
};

/* "S[.fraction]" seconds or "N<unit>" with unit ns/us/ms/s, without a sign, into ns: the
 * one time parser (time bounds, clock offsets).  -1 when malformed. */
int tg_time_parse(const char *s, int64_t *ns);

#endif
