/* class_counts.h - one pass over a set counting events per event class, with first/last
 * times; shared by `stats` and `info`. */
#ifndef TG_CLASS_COUNTS_H
#define TG_CLASS_COUNTS_H

#include "traceglot.h"

typedef struct tg_class_count {
    const tg_event_class *cls;
    tg_trace *trace;
    uint64_t count;
    int64_t first_ns, last_ns;
} tg_class_count;

typedef struct tg_class_counts {
    tg_class_count *rows; /* in order of first appearance */
    size_t n, cap;
    uint64_t events, lost;     /* events: lost-records markers left out (they count in lost) */
    int64_t first_ns, last_ns; /* of the events */
} tg_class_counts;

/* Counts every event it (already filtered) yields.  Returns tg_iter_next's final status. */
int tg_class_counts_run(tg_class_counts *cc, tg_iter *it);
void tg_class_counts_free(tg_class_counts *cc);

/* One trace's share of the counts: its events, classes, and first and last times (0 when it
 * has no events).  info's text and info/stats's JSON describe a trace from it. */
typedef struct tg_trace_span {
    uint64_t events;
    size_t classes;
    int64_t first_ns, last_ns;
} tg_trace_span;
tg_trace_span tg_class_counts_span(const tg_class_counts *cc, const tg_trace *t);

#endif
