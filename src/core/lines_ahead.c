/* lines_ahead.c - a set's events rendered on worker threads, one stream per worker at a time,
 * and handed out in the merge's order (tg_ahead, cursor.h).
 *
 * A text output spends most of its time turning each event into its line, and most of a
 * line does not depend on the events around it.  Here each stream is read (tg_stream_iter)
 * and rendered by the consumer's callback on a worker thread; what it writes goes, with the
 * event's merge key (time on the merge's timeline), into blocks of lines.  One merge, on the
 * caller's thread, takes the blocks in order: the stream whose next line has the smallest
 * (key, stream number) first, which is exactly the order of tg_iter (merge.c is such a
 * min-merge over each stream's sequence, whether or not a stream is in time order), and the
 * caller writes what depends on that order (babeltrace2's delta to the previous event).
 *
 * Damage: a stream's errors are kept in its sequence where its reader met them, and the
 * merge gives them to the cursor's list when it asks that stream for the line after the last
 * one before the damage, as the cursor's own refill would: same errors, same order.
 *
 * Memory: per stream AHEAD_BLOCKS blocks of at most about AHEAD_TEXT bytes and AHEAD_LINES
 * lines (plus one event's text; smaller blocks when there are so many streams that all of
 * them would pass AHEAD_TEXT_ALL), whatever the number of events.  A worker owns the
 * streams numbered worker, worker + W, ... (W workers, at most tg_thread_count() and the
 * number of streams, so 64 cores run 64 workers over any number of streams); it fills a
 * block of the stream the merge waits for first, else of any of its own with a free one,
 * and sleeps only when all of them are full, so that stream is always being read.
 *
 * Hand-over: each stream's published and released block counts are atomics, one writer
 * each; a side sleeps only after saying so (worker: sleeping; merge: merge_waits) and
 * checking again, and the other side wakes it only when AHEAD_WAKE blocks are ready for it
 * (or the stream ended, or the merge is about to wait for a stream of a sleeping worker),
 * so that the threads trade blocks in bursts, not a wake-up per block. */
#include "core/cursor.h"
#include "core/error_internal.h"
#include "core/grow.h"
#include "core/merge_internal.h"
#include "core/set_internal.h"
#include "core/thread_start.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define AHEAD_BLOCKS 4
#define AHEAD_WAKE 3 /* a sleeping side is woken when this many blocks are ready for it */
#define AHEAD_LINES 1024
#define AHEAD_TEXT ((size_t)64 << 10)
#define AHEAD_TEXT_MIN ((size_t)8 << 10)
#define AHEAD_TEXT_ALL ((size_t)64 << 20) /* all streams' blocks, beyond which they shrink */
#define AHEAD_DAMAGE UINT32_MAX       /* a line that stands for an error of the stream's reader */
#define AHEAD_FAILED (UINT32_MAX - 1) /* the render callback failed: len is its status */

typedef struct ahead_item {
    int64_t key, time;
    uint32_t len, tag; /* len: bytes of text; an error's index for AHEAD_DAMAGE */
} ahead_item;

typedef struct ahead_block {
    tg_buf *text;
    ahead_item *items;
    size_t n, cap;
    tg_error **errs; /* the damage met, in order */
    size_t n_errs, cap_errs;
    bool last; /* the stream ends after this block */
} ahead_block;

typedef struct ahead_stream {
    tg_stream_iter *sit;
    int64_t shift;
    size_t index;
    ahead_block blocks[AHEAD_BLOCKS];
    /* blocks published by the worker, released by the merge: each side writes its own,
     * and reads the other's (sequentially consistent, so that a side going to sleep and the
     * other side waking it cannot miss each other) */
    atomic_size_t filled, taken;
    bool ended; /* the worker read the end (its own) */
    /* the merge's side */
    ahead_block *cur;
    size_t pos;
    const char *text;
} ahead_stream;

typedef struct ahead_worker {
    struct tg_ahead *a;
    unsigned no;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* blocks of its streams were released, or stop */
    atomic_bool sleeping;
    bool started;
} ahead_worker;

struct tg_ahead {
    tg_iter *it;
    tg_ahead_fn fn;
    void *ctx;
    ahead_stream *st;
    size_t n_st;
    ahead_worker *w;
    unsigned n_w;
    size_t *heap; /* streams with a line, by (key, index) */
    size_t n_heap;
    size_t cur;                     /* the stream of the line handed out last */
    size_t text_limit, lines_limit; /* a block's, smaller when there are many streams */
    bool primed, have_cur;
    pthread_mutex_t mu;        /* the merge's sleep */
    pthread_cond_t to_merge;   /* blocks of the stream it waits for were published */
    atomic_size_t merge_waits; /* that stream's number, SIZE_MAX: the merge does not wait */
    atomic_bool go, stop;      /* go: every worker started (none reads before) */
};

unsigned tg_ahead_workers(const tg_iter *it)
{
    size_t n = tg_iter_ahead_streams(it);
    unsigned t = tg_thread_count();
    return n ? (n < t ? (unsigned)n : t) : 0;
}

static int block_add(ahead_block *b, int64_t key, int64_t time, uint32_t len, uint32_t tag)
{
    if (tg_grow(&b->items, &b->cap, b->n + 1, sizeof *b->items) < 0)
        return TG_ERR_NOMEM;
    b->items[b->n++] = (ahead_item){key, time, len, tag};
    return 0;
}

/* Fills b from the stream: up to a block's worth of lines, the end, or damage. */
static void fill_block(struct tg_ahead *a, unsigned worker, ahead_stream *s, ahead_block *b)
{
    b->n = 0;
    b->n_errs = 0;
    b->last = false;
    tg_buf_reset(b->text);
    while (b->n < a->lines_limit && tg_buf_len(b->text) < a->text_limit) {
        const tg_event *first;
        tg_error *e = NULL;
        int rc = tg_stream_iter_next_run(s->sit, &first, &e);
        if (rc == 0) {
            b->last = s->ended = true;
            return;
        }
        if (rc < 0) {
            if (tg_grow(&b->errs, &b->cap_errs, b->n_errs + 1, sizeof *b->errs) < 0 ||
                block_add(b, 0, 0, (uint32_t)b->n_errs, AHEAD_DAMAGE) < 0) {
                tg_error_free(e);
                block_add(b, 0, 0, (uint32_t)TG_ERR_NOMEM, AHEAD_FAILED);
                b->last = s->ended = true;
                return;
            }
            b->errs[b->n_errs++] = e;
            continue;
        }
        for (int i = 0; i < rc; i++) {
            const tg_event *ev = &first[i];
            size_t before = tg_buf_len(b->text);
            tg_ahead_line line = {0};
            int frc = a->fn(a->ctx, worker, ev, b->text, &line);
            if (frc < 0 || block_add(b, ev->ts + s->shift, line.time,
                                     (uint32_t)(tg_buf_len(b->text) - before), line.tag) < 0) {
                block_add(b, 0, 0, (uint32_t)(frc < 0 ? frc : TG_ERR_NOMEM), AHEAD_FAILED);
                b->last = s->ended = true;
                return;
            }
        }
    }
}

/* Free blocks of stream s for its worker. */
static inline size_t room_of(ahead_stream *s)
{
    return AHEAD_BLOCKS - (atomic_load(&s->filled) - atomic_load(&s->taken));
}

/* The worker's next stream to fill: the one the merge waits for when it is the worker's,
 * else the first of its own with a free block; NULL with *open telling whether any of its
 * streams goes on. */
static ahead_stream *pick(struct tg_ahead *a, ahead_worker *w, bool *open)
{
    size_t mw = atomic_load(&a->merge_waits);
    *open = false;
    if (mw != SIZE_MAX && mw % a->n_w == w->no && !a->st[mw].ended && room_of(&a->st[mw])) {
        *open = true;
        return &a->st[mw];
    }
    for (size_t i = w->no; i < a->n_st; i += a->n_w) {
        ahead_stream *s = &a->st[i];
        if (s->ended)
            continue;
        *open = true;
        if (room_of(s))
            return s;
    }
    return NULL;
}

static void *worker_main(void *arg)
{
    ahead_worker *w = arg;
    struct tg_ahead *a = w->a;
    pthread_mutex_lock(&w->mu);
    while (!atomic_load(&a->go) && !atomic_load(&a->stop))
        pthread_cond_wait(&w->wake, &w->mu);
    pthread_mutex_unlock(&w->mu);
    while (!atomic_load(&a->stop)) {
        bool open;
        ahead_stream *todo = pick(a, w, &open);
        if (!open)
            break;
        if (!todo) { /* every stream of its own is full: sleep until the merge takes some */
            pthread_mutex_lock(&w->mu);
            atomic_store(&w->sleeping, true);
            while (!atomic_load(&a->stop) && !pick(a, w, &open) && open)
                pthread_cond_wait(&w->wake, &w->mu);
            atomic_store(&w->sleeping, false);
            pthread_mutex_unlock(&w->mu);
            continue;
        }
        size_t f = atomic_load(&todo->filled);
        fill_block(a, w->no, todo, &todo->blocks[f % AHEAD_BLOCKS]);
        atomic_store(&todo->filled, f + 1);
        if (atomic_load(&a->merge_waits) == todo->index &&
            (f + 1 - atomic_load(&todo->taken) >= AHEAD_WAKE || todo->ended)) {
            pthread_mutex_lock(&a->mu);
            pthread_cond_signal(&a->to_merge);
            pthread_mutex_unlock(&a->mu);
        }
    }
    return NULL;
}

static void wake_worker(ahead_worker *w)
{
    pthread_mutex_lock(&w->mu);
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mu);
}

static void stop_workers(struct tg_ahead *a)
{
    atomic_store(&a->stop, true);
    for (unsigned i = 0; i < a->n_w; i++)
        if (a->w[i].started)
            wake_worker(&a->w[i]);
    for (unsigned i = 0; i < a->n_w; i++)
        if (a->w[i].started) {
            pthread_join(a->w[i].th, NULL);
            a->w[i].started = false;
        }
}

void tg_ahead_free(tg_ahead *a)
{
    if (!a)
        return;
    stop_workers(a);
    for (unsigned i = 0; i < a->n_w; i++) {
        pthread_cond_destroy(&a->w[i].wake);
        pthread_mutex_destroy(&a->w[i].mu);
    }
    for (size_t i = 0; i < a->n_st; i++) {
        ahead_stream *s = &a->st[i];
        for (int k = 0; k < AHEAD_BLOCKS; k++) {
            ahead_block *b = &s->blocks[k];
            tg_buf_free(b->text);
            free(b->items);
            for (size_t j = 0; j < b->n_errs; j++)
                tg_error_free(b->errs[j]);
            free(b->errs);
        }
        tg_stream_iter_free(s->sit);
    }
    pthread_cond_destroy(&a->to_merge);
    pthread_mutex_destroy(&a->mu);
    free(a->st);
    free(a->w);
    free(a->heap);
    free(a);
}

tg_ahead *tg_ahead_new(tg_iter *it, tg_ahead_fn fn, void *ctx)
{
    unsigned nw = tg_ahead_workers(it);
    if (!nw)
        return NULL;
    size_t n = tg_iter_ahead_streams(it);
    struct tg_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->it = it;
    a->fn = fn;
    a->ctx = ctx;
    a->st = calloc(n, sizeof *a->st);
    a->w = calloc(nw, sizeof *a->w);
    a->heap = calloc(n, sizeof *a->heap);
    if (!a->st || !a->w || !a->heap || pthread_mutex_init(&a->mu, NULL) != 0) {
        free(a->st);
        free(a->w);
        free(a->heap);
        free(a);
        return NULL;
    }
    pthread_cond_init(&a->to_merge, NULL);
    a->merge_waits = SIZE_MAX;
    a->text_limit = AHEAD_TEXT_ALL / AHEAD_BLOCKS / n;
    a->text_limit = a->text_limit > AHEAD_TEXT       ? AHEAD_TEXT
                    : a->text_limit < AHEAD_TEXT_MIN ? AHEAD_TEXT_MIN
                                                     : a->text_limit;
    a->lines_limit = AHEAD_LINES * a->text_limit / AHEAD_TEXT;
    a->n_st = n;
    a->n_w = nw;
    for (unsigned i = 0; i < nw; i++) {
        pthread_mutex_init(&a->w[i].mu, NULL);
        pthread_cond_init(&a->w[i].wake, NULL);
    }
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ahead_stream *s = &a->st[i];
        s->index = i;
        s->shift = tg_iter_stream_shift(it, i);
        ok = (s->sit = tg_stream_iter_new(tg_iter_stream(it, i))) != NULL;
        /* read from now on, said before the workers start: a stream's fields are copied
         * by other threads (the CTF reader's babeltrace2 replay) */
        tg_iter_stream(it, i)->was_read = true;
        for (int k = 0; k < AHEAD_BLOCKS && ok; k++)
            ok = (s->blocks[k].text = tg_buf_new()) != NULL;
    }
    for (unsigned i = 0; i < nw && ok; i++) {
        a->w[i].a = a;
        a->w[i].no = i;
        ok = a->w[i].started = tg_thread_start(&a->w[i].th, worker_main, &a->w[i]);
    }
    if (!ok) { /* nothing was read yet: the caller reads `it` as usual */
        tg_ahead_free(a);
        return NULL;
    }
    tg_iter_ahead_taken(it);
    atomic_store(&a->go, true);
    for (unsigned i = 0; i < nw; i++)
        wake_worker(&a->w[i]);
    return a;
}

/* ---- the merge ---------------------------------------------------------------------------- */

static inline const ahead_item *head_of(const struct tg_ahead *a, size_t i)
{
    const ahead_stream *s = &a->st[i];
    return &s->cur->items[s->pos];
}

static inline bool ahead_less(const struct tg_ahead *a, size_t x, size_t y)
{
    int64_t kx = head_of(a, x)->key, ky = head_of(a, y)->key;
    return kx != ky ? kx < ky : x < y;
}

static void sift_down(struct tg_ahead *a, size_t i)
{
    size_t n = a->n_heap;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && ahead_less(a, a->heap[l], a->heap[m]))
            m = l;
        if (r < n && ahead_less(a, a->heap[r], a->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = a->heap[i];
        a->heap[i] = a->heap[m];
        a->heap[m] = t;
        i = m;
    }
}

static void sift_up(struct tg_ahead *a, size_t i)
{
    while (i) {
        size_t p = (i - 1) / 2;
        if (!ahead_less(a, a->heap[i], a->heap[p]))
            return;
        size_t t = a->heap[i];
        a->heap[i] = a->heap[p];
        a->heap[p] = t;
        i = p;
    }
}

/* Stream s's next block, waiting for its worker: false when the stream had ended. */
static bool next_block(struct tg_ahead *a, ahead_stream *s)
{
    ahead_worker *w = &a->w[s->index % a->n_w];
    if (s->cur) {
        bool last = s->cur->last;
        s->cur = NULL;
        size_t t = atomic_load(&s->taken) + 1;
        atomic_store(&s->taken, t);
        if (last)
            return false;
        if (atomic_load(&w->sleeping) && atomic_load(&s->filled) - t == AHEAD_BLOCKS - AHEAD_WAKE)
            wake_worker(w);
    }
    size_t t = atomic_load(&s->taken);
    if (atomic_load(&s->filled) == t) {
        pthread_mutex_lock(&a->mu);
        atomic_store(&a->merge_waits, s->index);
        if (atomic_load(&w->sleeping))
            wake_worker(w);
        while (atomic_load(&s->filled) == t)
            pthread_cond_wait(&a->to_merge, &a->mu);
        atomic_store(&a->merge_waits, SIZE_MAX);
        pthread_mutex_unlock(&a->mu);
    }
    s->cur = &s->blocks[t % AHEAD_BLOCKS];
    s->pos = 0;
    s->text = tg_buf_data(s->cur->text);
    return true;
}

/* Makes s's next line its head, past the damage it gives to the cursor's errors (as the
 * cursor's refill would); false at its end. */
static bool settle(struct tg_ahead *a, ahead_stream *s)
{
    for (;;) {
        while (!s->cur || s->pos >= s->cur->n)
            if (!next_block(a, s))
                return false;
        const ahead_item *h = &s->cur->items[s->pos];
        if (h->tag != AHEAD_DAMAGE)
            return true;
        tg_iter_keep_error(a->it, s->cur->errs[h->len]);
        s->cur->errs[h->len] = NULL;
        s->pos++;
    }
}

/* Takes the heap's top out as the current stream. */
static void pop_top(struct tg_ahead *a)
{
    a->cur = a->heap[0];
    a->heap[0] = a->heap[--a->n_heap];
    if (a->n_heap)
        sift_down(a, 0);
}

int tg_ahead_next(tg_ahead *a, tg_ahead_line *line)
{
    if (!a->primed) {
        a->primed = true;
        for (size_t i = 0; i < a->n_st; i++)
            if (settle(a, &a->st[i])) {
                a->heap[a->n_heap++] = i;
                sift_up(a, a->n_heap - 1);
            }
        if ((a->have_cur = a->n_heap > 0))
            pop_top(a);
    } else if (a->have_cur) {
        /* past the line handed out; the same stream stays while it leads the others */
        ahead_stream *s = &a->st[a->cur];
        s->text += s->cur->items[s->pos].len;
        s->pos++;
        if (settle(a, s)) {
            if (a->n_heap && ahead_less(a, a->heap[0], a->cur)) {
                size_t t = a->heap[0];
                a->heap[0] = a->cur;
                sift_down(a, 0);
                a->cur = t;
            }
        } else if (a->n_heap) {
            pop_top(a);
        } else {
            a->have_cur = false;
        }
    }
    if (!a->have_cur) {
        tg_iter_ahead_done(a->it);
        return 0;
    }
    ahead_stream *s = &a->st[a->cur];
    const ahead_item *h = &s->cur->items[s->pos];
    if (h->tag == AHEAD_FAILED) {
        a->have_cur = false;
        return (int)(int32_t)h->len;
    }
    line->time = h->time;
    line->tag = h->tag;
    line->text = s->text;
    line->len = h->len;
    return 1;
}
