/* merge.c - the iterator: a k-way merge of every stream of every trace by timestamp.
 *
 * Each stream keeps one decoded event header in a slot; a binary min-heap of slots ordered
 * by (time on the shared timeline, stream number) yields the next event.  Equal times keep stream order, and each
 * stream's own order is kept, as babeltrace's muxer and trace-cmd do.  The event handed out
 * stays valid until the next call, when its stream is advanced.  Memory: one slot per
 * stream, whatever the number of events.
 *
 * Damage: when a stream's next fails, the error is kept in the iterator's list and the
 * stream is asked again (it resumes past the damage); after too many errors in a row it is
 * dropped, so a hopeless stream cannot hang the merge. */
#include "core/filter_internal.h"
#include "core/set_internal.h"

#include <stdlib.h>

#define TG_MAX_ERRORS_IN_A_ROW 64
#define TG_MAX_KEPT_ERRORS 100

struct tg_slot {
    tg_stream *stream;
    tg_event ev;
    int64_t key;           /* the event's time on the shared timeline (+ its trace's shift) */
};

struct tg_iter {
    tg_set *set;
    const tg_filter *filter;
    struct tg_slot *slots;
    size_t *heap;          /* slot indices */
    size_t n_heap;
    size_t last;           /* slot handed out last, to advance on the next call */
    int have_last;
    int primed;
    int done;
    int64_t begin_ns, end_ns;
    int has_begin, has_end;
    int own_times;         /* order by the traces' own clocks, not the shared timeline */
    tg_error *errors;
    size_t n_errors;
};

static int slot_less(const tg_iter *it, size_t a, size_t b)
{
    const struct tg_slot *x = &it->slots[a], *y = &it->slots[b];
    if (x->key != y->key)
        return x->key < y->key;
    return x->stream->index < y->stream->index;
}

static void sift_down(tg_iter *it, size_t i)
{
    size_t n = it->n_heap;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_less(it, it->heap[l], it->heap[m]))
            m = l;
        if (r < n && slot_less(it, it->heap[r], it->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = it->heap[i];
        it->heap[i] = it->heap[m];
        it->heap[m] = t;
        i = m;
    }
}

static void sift_up(tg_iter *it, size_t i)
{
    while (i) {
        size_t p = (i - 1) / 2;
        if (!slot_less(it, it->heap[i], it->heap[p]))
            return;
        size_t t = it->heap[i];
        it->heap[i] = it->heap[p];
        it->heap[p] = t;
        i = p;
    }
}

static void keep_error(tg_iter *it, tg_error *e)
{
    if (it->n_errors++ < TG_MAX_KEPT_ERRORS)
        tg_err_append(&it->errors, e);
    else
        tg_error_free(e);
}

/* Reads the slot's next event: 1 (ready), 0 (stream ended or dropped). */
static int advance(tg_iter *it, size_t slot)
{
    struct tg_slot *s = &it->slots[slot];
    for (int tries = 0; tries < TG_MAX_ERRORS_IN_A_ROW; tries++) {
        tg_error *e = NULL;
        tg_event *ev = &s->ev;
        ev->cls = NULL;
        ev->stream = s->stream;
        ev->cpu = s->stream->cpu;
        ev->tid = s->stream->tid;
        ev->pid = -1;
        ev->depth = -1;
        ev->addr = ev->lost = 0;
        int rc = s->stream->ops->next(s->stream, ev, &e);
        if (rc > 0) {
            ev->stream = s->stream;
            s->key = it->own_times ? ev->ts : ev->ts + s->stream->shift_ns;
            return 1;
        }
        if (rc == 0) {
            tg_error_free(e);
            return 0;
        }
        if (!e)
            tg_err(&e, (tg_status)rc, "%s: stream %s: read error", s->stream->trace->path,
                   s->stream->name);
        keep_error(it, e);
    }
    tg_error *e = NULL;
    tg_err(&e, TG_ERR_FORMAT, "%s: stream %s: too many errors in a row, stream abandoned",
           s->stream->trace->path, s->stream->name);
    keep_error(it, e);
    return 0;
}

tg_iter *tg_iter_new(tg_set *set, const tg_filter *f, tg_error **err)
{
    tg_iter *it = calloc(1, sizeof *it);
    size_t n = set->n_streams;
    if (it) {
        it->slots = calloc(n ? n : 1, sizeof *it->slots);
        it->heap = calloc(n ? n : 1, sizeof *it->heap);
    }
    if (!it || !it->slots || !it->heap) {
        tg_iter_free(it);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    it->set = set;
    it->filter = f;
    size_t k = 0;
    for (size_t t = 0; t < set->n_traces; t++) {
        for (size_t s = 0; s < set->traces[t]->n_streams; s++) {
            tg_stream *st = set->traces[t]->streams[s];
            it->slots[k++].stream = st;
            if (st->ops->rewind && st->ops->rewind(st, err) < 0) {
                tg_iter_free(it);
                return NULL;
            }
        }
    }
    return it;
}

void tg_iter_use_trace_clocks(tg_iter *it) { it->own_times = 1; }

static void prime(tg_iter *it)
{
    for (size_t i = 0; i < it->set->n_streams; i++) {
        if (advance(it, i)) {
            it->heap[it->n_heap++] = i;
            sift_up(it, it->n_heap - 1);
        }
    }
    it->primed = 1;
    const tg_filter *f = it->filter;
    int64_t first = it->n_heap ? it->slots[it->heap[0]].key : 0;
    if (f && f->begin.set) {
        it->has_begin = 1;
        it->begin_ns = f->begin.relative ? first + f->begin.ns : f->begin.ns;
    }
    if (f && f->end.set) {
        it->has_end = 1;
        it->end_ns = f->end.relative ? first + f->end.ns : f->end.ns;
    }
}

int tg_iter_next(tg_iter *it, const tg_event **out)
{
    if (it->done)
        return 0;
    if (!it->primed)
        prime(it);
    for (;;) {
        if (it->have_last) {
            it->have_last = 0;
            if (advance(it, it->heap[0])) {
                sift_down(it, 0);
            } else {
                it->heap[0] = it->heap[--it->n_heap];
                if (it->n_heap)
                    sift_down(it, 0);
            }
        }
        if (!it->n_heap) {
            it->done = 1;
            return 0;
        }
        const struct tg_slot *top = &it->slots[it->heap[0]];
        const tg_event *ev = &top->ev;
        it->have_last = 1;
        if (it->has_end && top->key > it->end_ns) {
            it->done = 1;
            return 0;
        }
        if (it->has_begin && top->key < it->begin_ns)
            continue;
        if (!tg_filter_match(it->filter, ev))
            continue;
        *out = ev;
        return 1;
    }
}

const tg_error *tg_iter_errors(const tg_iter *it) { return it->errors; }

void tg_iter_free(tg_iter *it)
{
    if (!it)
        return;
    tg_error_free(it->errors);
    free(it->slots);
    free(it->heap);
    free(it);
}
