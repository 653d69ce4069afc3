/* class_counts.c - per-class event counting (see class_counts.h).
 *
 * Rows are found by class pointer through core's hash table (class pointer to row number),
 * so the pass costs a hash probe per event and memory proportional to the number of
 * classes. */
#include "analysis/class_counts.h"
#include "core/consumer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static tg_class_count *row_for(tg_class_counts *cc, tg_hash *ix, const tg_event *ev)
{
    const tg_event_class *cls = tg_event_class_of(ev);
    uint64_t *row_no = tg_hash_find(ix, (uintptr_t)cls);
    if (row_no)
        return &cc->rows[*row_no];
    if (tg_grow(&cc->rows, &cc->cap, cc->n + 1, sizeof *cc->rows) < 0 ||
        tg_hash_insert(ix, (uintptr_t)cls, &row_no) < 0)
        return NULL;
    *row_no = cc->n;
    tg_class_count *row = &cc->rows[cc->n++];
    *row = (tg_class_count){cls, tg_event_trace(ev), 0, tg_event_time_ns(ev), 0};
    return row;
}

int tg_class_counts_run(tg_class_counts *cc, tg_iter *it)
{
    memset(cc, 0, sizeof *cc);
    tg_hash ix = {0};
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int64_t ts = tg_event_time_ns(ev);
        tg_class_count *row = row_for(cc, &ix, ev);
        if (!row) {
            rc = TG_ERR_NOMEM;
            break;
        }
        row->count++;
        row->last_ns = ts;
        if (tg_event_kind_of(ev) == TG_KIND_LOST) {
            /* a lost-records marker says how many the tracer lost: it is not an event */
            cc->lost += tg_event_lost_count(ev);
            continue;
        }
        if (!cc->events)
            cc->first_ns = ts;
        cc->last_ns = ts;
        cc->events++;
    }
    tg_hash_free(&ix);
    return rc;
}

void tg_class_counts_free(tg_class_counts *cc)
{
    free(cc->rows);
    memset(cc, 0, sizeof *cc);
}

tg_trace_span tg_class_counts_span(const tg_class_counts *cc, const tg_trace *t)
{
    tg_trace_span sp = {0};
    for (size_t i = 0; i < cc->n; i++) {
        const tg_class_count *r = &cc->rows[i];
        if (r->trace != t)
            continue;
        if (!sp.events || r->first_ns < sp.first_ns)
            sp.first_ns = r->first_ns;
        if (!sp.events || r->last_ns > sp.last_ns)
            sp.last_ns = r->last_ns;
        sp.events += r->count;
        sp.classes++;
    }
    return sp;
}
