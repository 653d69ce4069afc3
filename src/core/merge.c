/* merge.c - the set's cursor (tg_iter): every stream of every trace merged by timestamp.
 *
 * Each stream is a source (cursor_source.h: read-ahead batches, the damage policy).  The
 * source being read is kept out of a binary min-heap of the others, ordered by (time of
 * their next event, stream number): threads and CPUs run in long bursts, so after each event
 * one comparison with the heap's top says whether the same stream is still ahead of the
 * runner-up, and the heap is touched only when the lead changes.  Equal times keep stream
 * order, and each stream's own order is kept, as babeltrace's muxer and trace-cmd do.  An
 * event handed out stays valid until the next call.  Memory: one source per stream,
 * whatever the number of events.
 *
 * Damage: each error is kept in the iterator's list (the first TG_MAX_KEPT_ERRORS of them)
 * and the stream is asked again; the source closes a stream after too many in a row.
 *
 * Progress (tg_set_progress): an iterator of a set that asks for it sends every event
 * through the general path, which counts it and calls back every so many events with the
 * bytes read (the records' file offsets); without it the fast path is untouched.
 *
 * Read apart (tg_iter_run_apart, cursor.h): a pass whose result a caller can put together in
 * this merge's order (per-class counts) reads each stream on its own thread instead, through
 * tg_streams_run; damage sends the cursor back to its start (streams rewound, or a twin of the
 * set when they cannot rewind) so that it is reported here, in the merge's order. */
#include "core/cursor.h"
#include "core/cursor_source.h"
#include "core/filter_internal.h"
#include "core/kernel_model.h"
#include "core/merge_internal.h"
#include "core/set_internal.h"
#include "core/thread_start.h"

#include <stdint.h>
#include <stdlib.h>

#define TG_MAX_KEPT_ERRORS 100

struct tg_iter {
    tg_set *set;
    const tg_filter *filter;
    struct tg_source *src;
    size_t n_src;
    size_t *heap; /* the sources other than cur that have an event */
    size_t n_heap;
    size_t cur;     /* the source read now: ahead of every source in the heap */
    int64_t lim_ts; /* the runner-up's next event (time, stream number): the current */
    size_t lim_idx; /* source stays ahead while its events come before it */
    bool have_cur, handed, primed, done;
    bool checks; /* bounds or a filter to apply */
    bool has_begin, has_end;
    bool bounds_pending; /* the bounds wait for the first event with a time of its own */
    bool own_times;      /* order by the traces' own clocks, not the shared timeline */
    int64_t begin_ns, end_ns;
    tg_error *errors;
    size_t n_errors;
    /* tg_set_progress: events read, the countdown to the next report, and per source the
     * file offsets of its first record and of the last one seen (NULL: progress off) */
    uint64_t events, progress_left;
    uint64_t (*spans)[2];
    /* the kernel model (tg_iter_kernel_model): fed every event read, before the filter */
    tg_kmodel *kmodel;
    tg_kcursor *kcursor;
    tg_kstep kstep;
    bool own_model;
    bool watch;         /* marks the set's unsure CPUs and threads it meets (tg_filter_check) */
    tg_set *own_set;    /* a twin the cursor reads instead of set (tg_iter_apart_undo) */
    tg_set *origin_set; /* then the set it was made for */
};

static void keep_error(void *ctx, tg_error *e)
{
    tg_iter *it = ctx;
    tg_set_name_inputs(it->set, e);
    if (it->n_errors++ < TG_MAX_KEPT_ERRORS)
        tg_err_append(&it->errors, e);
    else
        tg_error_free(e);
}

/* a's next event comes before b's */
static inline bool src_less(const tg_iter *it, size_t a, size_t b)
{
    const tg_event *x = &it->src[a].buf[it->src[a].pos], *y = &it->src[b].buf[it->src[b].pos];
    int64_t kx = x->ts + it->src[a].shift, ky = y->ts + it->src[b].shift;
    if (kx != ky)
        return kx < ky;
    return it->src[a].s->index < it->src[b].s->index;
}

static void sift_down(tg_iter *it, size_t i)
{
    size_t n = it->n_heap;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && src_less(it, it->heap[l], it->heap[m]))
            m = l;
        if (r < n && src_less(it, it->heap[r], it->heap[m]))
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
        if (!src_less(it, it->heap[i], it->heap[p]))
            return;
        size_t t = it->heap[i];
        it->heap[i] = it->heap[p];
        it->heap[p] = t;
        i = p;
    }
}

tg_iter *tg_iter_new(tg_set *set, const tg_filter *f, tg_error **err)
{
    tg_iter *it = calloc(1, sizeof *it);
    size_t n = set->n_streams;
    if (it) {
        it->src = calloc(n ? n : 1, sizeof *it->src);
        it->heap = calloc(n ? n : 1, sizeof *it->heap);
    }
    if (!it || !it->src || !it->heap) {
        tg_iter_free(it);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    it->set = set;
    it->filter = f;
    if (f && ((f->begin.set && f->begin.kind == TG_BOUND_TIME) ||
              (f->end.set && f->end.kind == TG_BOUND_TIME)))
        set->range_waits_first = true;
    if (set->progress && !(it->spans = calloc(n ? n : 1, sizeof *it->spans))) {
        tg_iter_free(it);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t t = 0; t < set->n_traces; t++) {
        for (size_t s = 0; s < set->traces[t]->n_streams; s++) {
            if (it->n_src == n)
                break;
            if (tg_source_init(&it->src[it->n_src++], set->traces[t]->streams[s], err) < 0) {
                tg_iter_free(it);
                return NULL;
            }
        }
    }
    /* --tid, --pid: on a kernel trace the thread comes from the model */
    if (f && (f->n_tids || f->n_pids) && !tg_iter_kernel_model(it)) {
        tg_iter_free(it);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return it;
}

void tg_iter_use_trace_clocks(tg_iter *it) { it->own_times = true; }

void tg_iter_want_messages(tg_iter *it)
{
    for (size_t i = 0; i < it->n_src; i++)
        it->src[i].s->messages = true;
}

bool tg_set_range_waits_first(const tg_set *set) { return set && set->range_waits_first; }

static inline void set_limit(tg_iter *it)
{
    if (it->n_heap) {
        const struct tg_source *r = &it->src[it->heap[0]];
        it->lim_ts = r->buf[r->pos].ts + r->shift;
        it->lim_idx = r->s->index;
    } else {
        it->lim_ts = INT64_MAX;
        it->lim_idx = SIZE_MAX;
    }
}

/* The event has a time of its own: not a stream's beginning or end, nor a packet's beginning
 * or end whose packet has no time (tg_iter_want_messages gives them the time of the event
 * before them, before every time of the set for a stream's beginning).  babeltrace2's trimmer
 * takes the date of a time-of-day bound from the first message with a clock snapshot. */
static bool has_own_time(const tg_event *ev)
{
    tg_event_kind k = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if (k == TG_KIND_STREAM_BEGIN || k == TG_KIND_STREAM_END)
        return false;
    uint64_t cycles;
    return (k != TG_KIND_PACKET_BEGIN && k != TG_KIND_PACKET_END) ||
           tg_event_clock_value(ev, &cycles);
}

/* The range's bounds, a time of day on the date of first (the first event with a time of its
 * own), a relative bound from it. */
static void resolve_bounds(tg_iter *it, int64_t first)
{
    const tg_filter *f = it->filter;
    it->bounds_pending = false;
    if (it->has_begin)
        it->begin_ns = tg_time_bound_ns(&f->begin, first, f->gmt);
    if (it->has_end)
        it->end_ns = tg_time_bound_ns(&f->end, first, f->gmt);
}

static void prime(tg_iter *it)
{
    for (size_t i = 0; i < it->n_src; i++) {
        it->src[i].shift = it->own_times ? 0 : it->src[i].s->shift_ns;
        if (tg_source_head(&it->src[i], keep_error, it)) {
            it->heap[it->n_heap++] = i;
            sift_up(it, it->n_heap - 1);
        }
    }
    it->primed = true;
    if (it->n_heap) {
        it->cur = it->heap[0];
        it->have_cur = true;
        it->heap[0] = it->heap[--it->n_heap];
        if (it->n_heap)
            sift_down(it, 0);
    }
    set_limit(it);
    const tg_filter *f = it->filter;
    it->has_begin = f && f->begin.set;
    it->has_end = f && f->end.set;
    if (it->has_begin || it->has_end) {
        const tg_event *head = it->have_cur ? &it->src[it->cur].buf[it->src[it->cur].pos] : NULL;
        if (head && !has_own_time(head)) { /* resolved by next_event_slow */
            it->bounds_pending = true;
            it->begin_ns = it->end_ns = INT64_MAX; /* what comes before is before the range */
        } else {
            resolve_bounds(it, head ? head->ts + it->src[it->cur].shift : 0);
        }
    }
    it->watch = f && f == it->set->unsure_filter && it->set->n_unsure;
    it->checks = it->has_begin || it->has_end ||
                 (f && (f->n_globs || f->n_tids || f->n_pids || f->n_cpus)) || it->kcursor;
    if (it->spans) { /* every event through next_event_slow, where it is counted */
        it->checks = true;
        it->progress_left = it->set->progress_every;
        for (size_t i = 0; i < it->n_src; i++) {
            const struct tg_source *c = &it->src[i];
            uint64_t at = c->pos < c->n ? c->buf[c->pos].offset : 0;
            it->spans[i][0] = it->spans[i][1] = at;
        }
    }
}

/* Counts an event read and, every progress_every events, reports the bytes read so far to
 * the set's progress callback: from each stream's first record to the last one seen.  Out of
 * line and cold, so that next_event_slow stays as small as it is without progress. */
__attribute__((noinline, cold)) static void count_progress(tg_iter *it)
{
    it->events++;
    if (--it->progress_left != 0)
        return;
    it->progress_left = it->set->progress_every;
    tg_progress p = {0, it->set->bytes_total, it->events};
    for (size_t i = 0; i < it->n_src; i++) {
        const struct tg_source *c = &it->src[i];
        if (c->pos < c->n && c->buf[c->pos].offset > it->spans[i][1])
            it->spans[i][1] = c->buf[c->pos].offset;
        p.bytes_read += it->spans[i][1] - it->spans[i][0];
    }
    if (it->set->progress) /* turned off during the pass */
        it->set->progress(it->set->progress_ctx, &p);
}

/* The events ended: the model's tables are whole. */
static void end_of_events(tg_iter *it)
{
    it->done = true;
    if (it->watch && it->set->unsure_filter == it->filter) /* every event was read */
        tg_set_unsure_done(it->set);
    if (it->kcursor)
        tg_kcursor_finish(it->kcursor);
}

/* Feeds the event to the model (it owns the read-ahead buffer, so the event may be
 * completed in place); an allocation failure is kept as an error and the event skipped. */
__attribute__((noinline)) static int feed_model(tg_iter *it, tg_event *ev, int64_t key)
{
    int rc = tg_kcursor_feed(it->kcursor, ev, key, &it->kstep);
    if (rc < 0) {
        tg_error *e = NULL;
        tg_err(&e, rc, "kernel model: out of memory");
        keep_error(it, e);
    }
    return rc;
}

/* The set's unsure --cpu and --tid values (filter_check.c) this event has: met.  Out of line:
 * only a run with such a value comes here. */
__attribute__((noinline)) static void watch_event(tg_iter *it, const tg_event *ev)
{
    tg_set *set = it->set;
    for (size_t i = 0; i < set->n_unsure; i++) {
        struct tg_unsure_value *u = &set->unsure[i];
        if (u->value == (u->is_cpu ? ev->cpu : ev->tid))
            u->seen = true;
    }
}

/* --pid: the event's process as the model has it (trace.dat's common_pid is a thread). */
static bool pid_match(const tg_iter *it, const tg_event *ev)
{
    int64_t pid = it->kmodel ? tg_kmodel_pid_of(it->kmodel, ev->utid) : ev->pid;
    return tg_filter_pid_listed(it->filter, pid);
}

/* Moves past the event handed out last: the current source's next event, or the
 * runner-up's when that one comes first now.  false at the end of every stream. */
static inline bool step(tg_iter *it)
{
    struct tg_source *c = &it->src[it->cur];
    c->pos++;
    if (tg_source_head(c, keep_error, it)) {
        if (it->n_heap && src_less(it, it->heap[0], it->cur)) {
            size_t t = it->heap[0];
            it->heap[0] = it->cur;
            sift_down(it, 0);
            it->cur = t;
            set_limit(it);
        }
        return true;
    }
    if (!it->n_heap) {
        it->have_cur = false;
        return false;
    }
    it->cur = it->heap[0];
    it->heap[0] = it->heap[--it->n_heap];
    if (it->n_heap)
        sift_down(it, 0);
    set_limit(it);
    return true;
}

/* The general case of next_event: the first call, a change of stream, a refill, bounds and
 * filters. */
static const tg_event *next_event_slow(tg_iter *it, bool stop_at_refill)
{
    if (it->done)
        return NULL;
    if (!it->primed)
        prime(it);
    for (;;) {
        if (it->handed) {
            struct tg_source *c = &it->src[it->cur];
            if (stop_at_refill && c->pos + 1 >= c->n)
                return NULL;
            it->handed = false;
            if (!step(it)) {
                end_of_events(it);
                return NULL;
            }
        } else if (!it->have_cur) {
            end_of_events(it);
            return NULL;
        }
        const struct tg_source *c = &it->src[it->cur];
        const tg_event *ev = &c->buf[c->pos];
        it->handed = true;
        if (!it->checks)
            return ev;
        if (__builtin_expect(it->spans != NULL, 0))
            count_progress(it);
        int64_t key = ev->ts + c->shift;
        if (__builtin_expect(it->bounds_pending, 0) && has_own_time(ev))
            resolve_bounds(it, key);
        if (it->has_end && key > it->end_ns) {
            it->done = true;
            return NULL;
        }
        if (it->kcursor && feed_model(it, (tg_event *)ev, key) < 0)
            continue;
        if (it->watch)
            watch_event(it, ev);
        if (it->has_begin && key < it->begin_ns)
            continue;
        if (it->filter && !tg_filter_match(it->filter, ev))
            continue;
        if (it->filter && it->filter->n_pids && !pid_match(it, ev))
            continue;
        return ev;
    }
}

/* The next event that passes the bounds and the filter, handed out; NULL at the end.
 * stop_at_refill: return NULL instead of reading the current stream ahead (a batch must not
 * overwrite the events it already holds).  The usual case - the current stream has its next
 * event read ahead and it still comes before the runner-up's - costs one comparison. */
static inline const tg_event *next_event(tg_iter *it, bool stop_at_refill)
{
    if (it->handed && !it->checks) {
        struct tg_source *c = &it->src[it->cur];
        size_t pos = c->pos + 1;
        if (pos < c->n) {
            const tg_event *ev = &c->buf[pos];
            int64_t key = ev->ts + c->shift;
            if (key < it->lim_ts || (key == it->lim_ts && c->s->index < it->lim_idx)) {
                c->pos = pos;
                return ev;
            }
        }
    }
    return next_event_slow(it, stop_at_refill);
}

int tg_iter_next(tg_iter *it, const tg_event **out)
{
    const tg_event *ev = next_event(it, false);
    if (!ev)
        return 0;
    *out = ev;
    return 1;
}

int tg_iter_next_batch(tg_iter *it, const tg_event **evs, size_t max)
{
    size_t n = 0;
    const tg_event *ev;
    if (max == 0)
        return 0;
    if (!(ev = next_event(it, false)))
        return 0;
    evs[n++] = ev;
    while (n < max && (ev = next_event(it, true)))
        evs[n++] = ev;
    return (int)n;
}

const tg_error *tg_iter_errors(const tg_iter *it) { return it->errors; }

tg_kmodel *tg_iter_kernel_model(tg_iter *it)
{
    if (it->kcursor)
        return it->kmodel;
    if (!(it->kmodel = tg_kmodel_new(it->set)))
        return NULL;
    it->own_model = true;
    if (!(it->kcursor = tg_kcursor_new(it->kmodel))) {
        tg_kmodel_free(it->kmodel);
        it->kmodel = NULL;
        return NULL;
    }
    it->checks = true;
    return it->kmodel;
}

int tg_iter_use_kernel_model(tg_iter *it, tg_kmodel *m)
{
    tg_kcursor *c = tg_kcursor_new(m);
    if (!c)
        return TG_ERR_NOMEM;
    tg_kcursor_free(it->kcursor);
    if (it->own_model)
        tg_kmodel_free(it->kmodel);
    it->kmodel = m;
    it->kcursor = c;
    it->own_model = false;
    it->checks = true;
    return 0;
}

int tg_iter_follow_threads(tg_iter *it) { return tg_iter_kernel_model(it) ? 0 : TG_ERR_NOMEM; }

const tg_kstep *tg_iter_kstep(const tg_iter *it) { return it->kcursor ? &it->kstep : NULL; }

tg_iter *tg_iter_twin(const tg_iter *it, tg_set **twin, tg_error **err)
{
    *twin = tg_set_reopen(it->set, err);
    if (!*twin)
        return NULL;
    tg_iter *copy = tg_iter_new(*twin, it->filter, err);
    if (!copy) {
        tg_close(*twin);
        *twin = NULL;
        return NULL;
    }
    copy->own_times = it->own_times;
    return copy;
}

void tg_iter_free(tg_iter *it)
{
    if (!it)
        return;
    tg_error_free(it->errors);
    tg_kcursor_free(it->kcursor);
    if (it->own_model)
        tg_kmodel_free(it->kmodel);
    for (size_t i = 0; it->src && i < it->n_src; i++)
        tg_source_free(&it->src[i]);
    free(it->src);
    free(it->heap);
    free(it->spans);
    tg_set *own = it->own_set;
    free(it);
    tg_close(own);
}

/* ---- streams read apart (tg_iter_run_apart) --------------------------------------------- */

/* Whether `it` can be read stream by stream (own_ok: with the traces' own clocks). */
static size_t streams_apart(const tg_iter *it, bool own_ok)
{
    const tg_filter *f = it->filter;
    if (it->primed || (it->own_times && !own_ok) || it->spans || it->kcursor || it->n_src < 2 ||
        tg_thread_count() < 2)
        return 0;
    if (f && (f->begin.set || f->end.set || f->n_globs || f->n_tids || f->n_pids || f->n_cpus))
        return 0;
    for (size_t i = 0; i < it->n_src; i++)
        if (!it->src[i].s->ops->reads_alone || it->src[i].s->index != i)
            return 0;
    return it->n_src;
}

size_t tg_iter_apart_streams(const tg_iter *it) { return streams_apart(it, false); }

/* ---- read elsewhere (lines_ahead.c) ------------------------------------------------------- */

size_t tg_iter_ahead_streams(const tg_iter *it) { return streams_apart(it, true); }

tg_stream *tg_iter_stream(const tg_iter *it, size_t i) { return it->src[i].s; }

int64_t tg_iter_stream_shift(const tg_iter *it, size_t i)
{
    return it->own_times ? 0 : it->src[i].s->shift_ns;
}

void tg_iter_ahead_taken(tg_iter *it)
{
    it->primed = true;
    it->have_cur = it->handed = false;
}

void tg_iter_ahead_done(tg_iter *it)
{
    if (!it->done)
        end_of_events(it);
}

void tg_iter_keep_error(tg_iter *it, tg_error *e) { keep_error(it, e); }

struct apart_run {
    tg_apart_fn fn;
    void *ctx;
};

static int apart_one(void *ctx, unsigned worker, tg_stream_iter *sit)
{
    (void)worker;
    const struct apart_run *r = ctx;
    return r->fn(r->ctx, tg_stream_iter_stream(sit)->index, sit);
}

int tg_iter_apart_undo(tg_iter *it, tg_error **err)
{
    if (tg_set_rereadable(it->set)) { /* every stream rewinds: the same sources again */
        for (size_t i = 0; i < it->n_src; i++) {
            tg_stream *s = it->src[i].s;
            tg_source_free(&it->src[i]);
            if (tg_source_init(&it->src[i], s, err) < 0)
                return TG_ERR_IO;
        }
        return 0;
    }
    tg_set *twin;
    tg_iter *copy = tg_iter_twin(it, &twin, err);
    if (!copy)
        return err && *err ? tg_error_status(*err) : TG_ERR_IO;
    tg_iter mine = *it; /* it takes the twin's sources; copy the ones read, freed with it */
    *it = *copy;
    *copy = mine;
    it->own_set = twin;
    it->origin_set = mine.origin_set ? mine.origin_set : mine.set;
    copy->own_set = mine.own_set;
    tg_iter_free(copy);
    return 0;
}

tg_trace *tg_iter_trace_origin(const tg_iter *it, tg_trace *t)
{
    if (!it->origin_set)
        return t;
    for (size_t i = 0; i < it->set->n_traces && i < it->origin_set->n_traces; i++)
        if (it->set->traces[i] == t)
            return it->origin_set->traces[i];
    return t;
}

int tg_iter_run_apart(tg_iter *it, tg_apart_fn fn, void *ctx, tg_error **err)
{
    size_t n = tg_iter_apart_streams(it);
    if (!n)
        return 0;
    tg_stream **streams = malloc(n * sizeof *streams);
    if (!streams)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        streams[i] = it->src[i].s;
    struct apart_run r = {fn, ctx};
    tg_error *damage = NULL;
    unsigned workers = tg_thread_count();
    int rc = tg_streams_run(streams, n, workers, apart_one, &r, &damage);
    free(streams);
    if (rc == TG_ERR_FORMAT && damage) {
        /* damage is reported where the merge meets it, among the events: read it so */
        tg_error_free(damage);
        rc = tg_iter_apart_undo(it, err);
        return rc < 0 ? rc : 0;
    }
    tg_error_free(damage);
    if (rc < 0)
        return rc == TG_ERR_NOMEM ? tg_err(err, TG_ERR_NOMEM, "out of memory") : rc;
    return 1;
}
