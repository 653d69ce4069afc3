/* tej_nesting.c - complete (X) events that do not nest, counted as trace_processor counts them.
 *
 * A complete event that begins inside another one of its thread but ends after it cannot
 * nest there: trace_processor moves it to an overflow track of the thread and counts it as
 * slice_spill_overlapping_complete_event.  This walk finds them in the sorted records: per
 * thread a stack of the ends of the complete events still open at the current time; an event
 * beginning past the top's end pops it, and one ending past the top's end spills (it is not
 * pushed: what begins inside it nests in the slice below).  The slices themselves stay on
 * their thread (the overflow track is a display matter); nothing is dropped. */
#include "formats/json/tej_internal.h"

#include "core/grow.h"

#include <stdlib.h>

struct open_ends {
    int64_t *end;
    size_t n, cap;
};

int tej_count_spills(tg_trace *t)
{
    tej_trace *j = t->priv;
    tg_hash by_tid = {0};
    struct open_ends *threads = NULL;
    size_t n_threads = 0, cap_threads = 0;
    int64_t spills = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < j->n_recs; i++) {
        const tej_record *r = &j->recs[i];
        if (r->cls != j->begin || r->longer >= 0)
            continue; /* only complete events that last */
        int added = 0;
        int64_t k = tg_hash_index(&by_tid, (uint32_t)r->tid, &added);
        if (k < 0 ||
            (added && tg_grow(&threads, &cap_threads, n_threads + 1, sizeof *threads) < 0)) {
            rc = TG_ERR_NOMEM;
            break;
        }
        if (added)
            threads[n_threads++] = (struct open_ends){0};
        struct open_ends *o = &threads[k];
        while (o->n && o->end[o->n - 1] <= r->ts)
            o->n--;
        int64_t end = -r->longer > INT64_MAX - r->ts ? INT64_MAX : r->ts - r->longer;
        if (o->n && end > o->end[o->n - 1])
            spills++;
        else if (tg_grow(&o->end, &o->cap, o->n + 1, sizeof *o->end) < 0)
            rc = TG_ERR_NOMEM;
        else
            o->end[o->n++] = end;
    }
    for (size_t k = 0; k < n_threads; k++)
        free(threads[k].end);
    free(threads);
    tg_hash_free(&by_tid);
    if (rc == 0)
        rc = tg_trace_count(t, "slice_spill_overlapping_complete_event", "error", spills);
    return rc;
}
