/* class_counts.c - per-class event counting (see class_counts.h).
 *
 * Rows are found by class pointer through a small open-addressing index, so the pass costs
 * a hash probe per event and memory proportional to the number of classes. */
#include "analysis/class_counts.h"
#include "core/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct index {
    size_t *slot; /* row number + 1; 0 empty */
    size_t cap;
};

static size_t hash_ptr(const void *p) { return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull); }

static int index_grow(struct index *ix, const tg_class_counts *cc)
{
    size_t cap = ix->cap ? ix->cap * 2 : 64;
    size_t *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t r = 0; r < cc->n; r++) {
        size_t i = hash_ptr(cc->rows[r].cls) & (cap - 1);
        while (s[i])
            i = (i + 1) & (cap - 1);
        s[i] = r + 1;
    }
    free(ix->slot);
    ix->slot = s;
    ix->cap = cap;
    return 0;
}

static tg_class_count *row_for(tg_class_counts *cc, struct index *ix, const tg_event *ev)
{
    const tg_event_class *cls = tg_event_class_of(ev);
    if (ix->cap) {
        for (size_t i = hash_ptr(cls) & (ix->cap - 1); ix->slot[i]; i = (i + 1) & (ix->cap - 1))
            if (cc->rows[ix->slot[i] - 1].cls == cls)
                return &cc->rows[ix->slot[i] - 1];
    }
    if (tg_grow(&cc->rows, &cc->cap, cc->n + 1, sizeof *cc->rows) < 0)
        return NULL;
    tg_class_count *row = &cc->rows[cc->n++];
    *row = (tg_class_count){cls, tg_event_trace(ev), 0, tg_event_time_ns(ev), 0};
    if (cc->n * 2 > ix->cap) /* rebuilding the index takes in the new row */
        return index_grow(ix, cc) < 0 ? NULL : row;
    size_t i = hash_ptr(cls) & (ix->cap - 1);
    while (ix->slot[i])
        i = (i + 1) & (ix->cap - 1);
    ix->slot[i] = cc->n;
    return row;
}

int tg_class_counts_run(tg_class_counts *cc, tg_iter *it)
{
    memset(cc, 0, sizeof *cc);
    struct index ix = {0};
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
        if (!cc->events)
            cc->first_ns = ts;
        cc->last_ns = ts;
        cc->events++;
        if (tg_event_kind_of(ev) == TG_KIND_LOST)
            cc->lost += tg_event_lost_count(ev);
    }
    free(ix.slot);
    return rc;
}

void tg_class_counts_free(tg_class_counts *cc)
{
    free(cc->rows);
    memset(cc, 0, sizeof *cc);
}
