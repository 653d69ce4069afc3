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

#endif
