/* class_counts.c - per-class event counting (see class_counts.h).
 *
 * Rows are found by class pointer through core's hash table (class pointer to row number),
 * so the pass costs a hash probe per event and memory proportional to the number of
 * classes.
 *
 * On several cores the streams are counted apart (tg_iter_run_apart), one table per stream,
 * and the tables put together as the merge would have met the events: when every stream is
 * in time order, the merge's order is (time, stream number, position), so a class's first
 * event is the least (time, stream) of the streams' first ones, its last the greatest of
 * their last ones.  A stream out of time order (only the merge knows where its events fall)
 * or damage sends the pass back to the merged cursor, so the output, the errors and their
 * order are the same on any number of threads.  Memory: streams x classes. */
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

/* Counts one event at time ts into its class's row: a lost-records marker says how many the
 * tracer lost, it is not an event.  NOMEM when the row cannot be made. */
static int count_event(tg_class_counts *cc, tg_hash *ix, const tg_event *ev, int64_t ts)
{
    tg_class_count *row = row_for(cc, ix, ev);
    if (!row)
        return TG_ERR_NOMEM;
    row->count++;
    row->last_ns = ts;
    if (tg_event_kind_of(ev) == TG_KIND_LOST) {
        cc->lost += tg_event_lost_count(ev);
        return 0;
    }
    if (!cc->events)
        cc->first_ns = ts;
    cc->last_ns = ts;
    cc->events++;
    return 0;
}

/* ---- one table per stream ------------------------------------------------------------------ */

typedef struct stream_counts {
    tg_class_counts cc; /* rows in the stream's order; first_ns/last_ns: of its events */
    bool in_order;      /* every event's time >= the one before */
} stream_counts;

static int count_stream(void *ctx, size_t no, tg_stream_iter *sit)
{
    stream_counts *sc = &((stream_counts *)ctx)[no];
    tg_class_counts *cc = &sc->cc;
    tg_hash ix = {0};
    const tg_event *run;
    int n, rc = 0;
    int64_t prev = INT64_MIN;
    sc->in_order = true;
    while ((n = tg_stream_iter_next_run(sit, &run, NULL)) != 0) {
        if (n < 0) /* damage, kept by the cursor: the merged pass reports it */
            break;
        for (int k = 0; k < n; k++) {
            const tg_event *ev = &run[k];
            int64_t ts = tg_event_time_ns(ev);
            if (ts < prev)
                sc->in_order = false;
            prev = ts;
            if ((rc = count_event(cc, &ix, ev, ts)) < 0)
                goto out;
        }
        if (!sc->in_order)
            break; /* the merged pass it is */
    }
out:
    tg_hash_free(&ix);
    return rc;
}

/* (time, stream) a before (time, stream) b */
static bool before(int64_t ta, size_t sa, int64_t tb, size_t sb)
{
    return ta != tb ? ta < tb : sa < sb;
}

typedef struct first_of {
    int64_t ts;
    size_t stream, row; /* the stream's row of the class */
} first_of;

static int cmp_first(const void *a, const void *b)
{
    const first_of *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->stream < y->stream ? -1 : x->stream > y->stream;
}

/* The streams' tables as one, in the merge's order (see the top of the file). */
static int join_streams(tg_class_counts *cc, const stream_counts *sc, size_t n)
{
    size_t total = 0;
    for (size_t s = 0; s < n; s++)
        total += sc[s].cc.n;
    first_of *firsts = malloc((total ? total : 1) * sizeof *firsts);
    size_t *last_stream = malloc((total ? total : 1) * sizeof *last_stream); /* per row */
    if (!firsts || !last_stream) {
        free(firsts);
        free(last_stream);
        return TG_ERR_NOMEM;
    }
    size_t k = 0, first_s = 0, last_s = 0;
    for (size_t s = 0; s < n; s++) {
        const tg_class_counts *c = &sc[s].cc;
        for (size_t r = 0; r < c->n; r++)
            firsts[k++] = (first_of){c->rows[r].first_ns, s, r};
        if (!c->events)
            continue;
        if (!cc->events || before(c->first_ns, s, cc->first_ns, first_s))
            cc->first_ns = c->first_ns, first_s = s;
        if (!cc->events || !before(c->last_ns, s, cc->last_ns, last_s))
            cc->last_ns = c->last_ns, last_s = s;
        cc->events += c->events;
    }
    for (size_t s = 0; s < n; s++)
        cc->lost += sc[s].cc.lost;
    qsort(firsts, total, sizeof *firsts, cmp_first);
    tg_hash ix = {0};
    int rc = 0;
    if (total && tg_grow(&cc->rows, &cc->cap, total, sizeof *cc->rows) < 0)
        rc = TG_ERR_NOMEM;
    for (size_t i = 0; i < total && rc == 0; i++) {
        size_t s = firsts[i].stream;
        const tg_class_count *from = &sc[s].cc.rows[firsts[i].row];
        uint64_t *row_no;
        int added = tg_hash_insert(&ix, (uintptr_t)from->cls, &row_no);
        if (added < 0) {
            rc = TG_ERR_NOMEM;
            break;
        }
        if (added) { /* the class's first event: a new row, in the merge's order */
            *row_no = cc->n;
            last_stream[cc->n] = s;
            cc->rows[cc->n++] = *from;
            continue;
        }
        tg_class_count *row = &cc->rows[*row_no];
        row->count += from->count;
        if (!before(from->last_ns, s, row->last_ns, last_stream[*row_no])) {
            row->last_ns = from->last_ns;
            last_stream[*row_no] = s;
        }
    }
    tg_hash_free(&ix);
    free(firsts);
    free(last_stream);
    return rc;
}

/* The counts from the streams read apart: 1 done, 0 the merged pass is needed (it is as new
 * then), or a negative status. */
static int run_apart(tg_class_counts *cc, tg_iter *it)
{
    size_t n = tg_iter_apart_streams(it);
    if (!n)
        return 0;
    stream_counts *sc = calloc(n, sizeof *sc);
    if (!sc)
        return TG_ERR_NOMEM;
    int rc = tg_iter_run_apart(it, count_stream, sc, NULL);
    if (rc > 0) {
        bool in_order = true;
        for (size_t s = 0; s < n; s++)
            in_order = in_order && sc[s].in_order;
        if (!in_order)
            rc = tg_iter_apart_undo(it, NULL);
        else if ((rc = join_streams(cc, sc, n)) == 0)
            rc = 1;
    }
    for (size_t s = 0; s < n; s++)
        free(sc[s].cc.rows);
    free(sc);
    return rc;
}

int tg_class_counts_run(tg_class_counts *cc, tg_iter *it)
{
    memset(cc, 0, sizeof *cc);
    int apart = run_apart(cc, it);
    if (apart != 0) {
        if (apart < 0)
            tg_class_counts_free(cc);
        return apart < 0 ? apart : 0;
    }
    tg_hash ix = {0};
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if ((rc = count_event(cc, &ix, ev, tg_event_time_ns(ev))) < 0)
            break;
    }
    tg_hash_free(&ix);
    for (size_t i = 0; i < cc->n; i++) /* read from a twin of the set: its traces stand for */
        cc->rows[i].trace = tg_iter_trace_origin(it, cc->rows[i].trace);
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
