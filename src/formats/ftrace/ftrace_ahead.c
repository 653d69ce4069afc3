/* ftrace_ahead.c - compressed trace data inflated ahead of the reader, on a second thread.
 *
 * A v7 trace.dat keeps each cpu's pages in compressed chunks (ftrace_ring.c reads them one
 * after the other).  Inflating them is a fifth of what `cat` spends, and it does not depend
 * on anything the reader does: one worker thread per file inflates the next chunks of every
 * compressed cpu (a lane) while the calling thread decodes and prints the current ones.
 *
 * Memory stays bounded by the lanes, not the events: a lane has AHEAD_SLOTS buffers, chunk
 * k lives in slot k % AHEAD_SLOTS, the reader holds the chunk it reads and the worker may fill
 * only the slots of the chunks after it.  The worker serves the lane with the fewest chunks
 * ready, the one the merge will miss first.  When the reader wants a chunk the worker has not
 * taken yet, it inflates it itself (with its lane's own context) instead of waiting, so a
 * worker that cannot be started, or a machine of one core, reads everything in order as
 * before.  Results are handed over as they were computed (a chunk that does not inflate keeps
 * its status), and ftrace_ring.c reports them where it reports them without the worker: the
 * errors and their order do not depend on the thread.  The worker is started at the first
 * chunk read (opening a file for its header starts nothing) and stopped when the file
 * closes; it touches only the map, the chunk headers scan_chunks checked, and this
 * structure, never a stream. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/cursor.h"
#include "core/grow.h"
#include "core/thread_start.h"

#include <pthread.h>
#include <stdlib.h>

#define AHEAD_SLOTS 3

typedef struct ahead_slot {
    uint8_t *buf;
    size_t cap;
    int rc;     /* ft_decompress_into's status, or TG_ERR_LIMIT (not inflated) */
    bool ready; /* the worker finished it */
} ahead_slot;

typedef struct ahead_lane {
    const uint8_t *base; /* the cpu's data in the map (u32 chunk count, then the chunks) */
    uint32_t n_chunks;
    uint32_t filled; /* chunks taken by the worker or the reader (the next to fill) */
    size_t fill_pos; /* offset of chunk `filled`'s header in base */
    uint32_t taken;  /* chunks the reader took; it holds chunk taken - 1 */
    void *zctx;      /* the reader's context, for chunks it inflates itself */
    ahead_slot slot[AHEAD_SLOTS];
} ahead_lane;

struct ft_ahead {
    int kind; /* ft_decompress_into's: 1 zstd, 2 zlib */
    bool big_endian;
    size_t max_chunk;
    ahead_lane *lanes;
    size_t n_lanes, cap_lanes;
    pthread_mutex_t mu;
    pthread_cond_t work; /* the worker: a slot was freed, or stop */
    pthread_cond_t done; /* the reader: a chunk is ready */
    bool started, tried, stop;
    pthread_t th;
    void *wctx; /* the worker's context */
};

static uint32_t rd32(const ft_ahead *a, const uint8_t *p)
{
    return a->big_endian ? tg_be32(p) : tg_le32(p);
}

ft_ahead *ft_ahead_new(int kind, bool big_endian, size_t max_chunk)
{
    ft_ahead *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->kind = kind;
    a->big_endian = big_endian;
    a->max_chunk = max_chunk;
    if (pthread_mutex_init(&a->mu, NULL) != 0) {
        free(a);
        return NULL;
    }
    if (pthread_cond_init(&a->work, NULL) != 0) {
        pthread_mutex_destroy(&a->mu);
        free(a);
        return NULL;
    }
    if (pthread_cond_init(&a->done, NULL) != 0) {
        pthread_cond_destroy(&a->work);
        pthread_mutex_destroy(&a->mu);
        free(a);
        return NULL;
    }
    return a;
}

int ft_ahead_add_lane(ft_ahead *a, const uint8_t *base, uint32_t n_chunks)
{
    if (tg_grow(&a->lanes, &a->cap_lanes, a->n_lanes + 1, sizeof *a->lanes) != 0)
        return -1;
    a->lanes[a->n_lanes] = (ahead_lane){.base = base, .n_chunks = n_chunks, .fill_pos = 4};
    return (int)a->n_lanes++;
}

/* The first chunk the worker may not fill yet: the reader holds chunk taken - 1. */
static uint32_t fill_limit(const ahead_lane *l)
{
    return (l->taken ? l->taken - 1 : 0) + AHEAD_SLOTS;
}

/* Under the lock: claims chunk l->filled (its slot, source and sizes). */
static ahead_slot *claim(const ft_ahead *a, ahead_lane *l, const uint8_t **src, uint32_t *cs,
                         uint32_t *us)
{
    size_t at = l->fill_pos;
    *cs = rd32(a, l->base + at);
    *us = rd32(a, l->base + at + 4);
    *src = l->base + at + 8;
    l->fill_pos = at + 8 + *cs;
    ahead_slot *sl = &l->slot[l->filled % AHEAD_SLOTS];
    l->filled++;
    sl->ready = false;
    return sl;
}

static int inflate_into(const ft_ahead *a, void **ctx, ahead_slot *sl, const uint8_t *src,
                        uint32_t cs, uint32_t us)
{
    if (us > a->max_chunk)
        return TG_ERR_LIMIT;
    if (a->kind == 1 && !*ctx && !(*ctx = ft_zstd_ctx_new()))
        return TG_ERR_NOMEM;
    return ft_decompress_into(a->kind, *ctx, src, cs, &sl->buf, &sl->cap, us);
}

static void *worker_main(void *arg)
{
    ft_ahead *a = arg;
    pthread_mutex_lock(&a->mu);
    while (!a->stop) {
        ahead_lane *best = NULL;
        for (size_t i = 0; i < a->n_lanes; i++) {
            ahead_lane *l = &a->lanes[i];
            if (l->filled >= l->n_chunks || l->filled >= fill_limit(l))
                continue;
            if (!best || l->filled - l->taken < best->filled - best->taken)
                best = l;
        }
        if (!best) {
            pthread_cond_wait(&a->work, &a->mu);
            continue;
        }
        const uint8_t *src;
        uint32_t cs, us;
        ahead_slot *sl = claim(a, best, &src, &cs, &us);
        pthread_mutex_unlock(&a->mu);
        int rc = inflate_into(a, &a->wctx, sl, src, cs, us);
        pthread_mutex_lock(&a->mu);
        sl->rc = rc;
        sl->ready = true;
        pthread_cond_broadcast(&a->done);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* Under the lock: the worker, once, when there is a second core to run it (one thread:
 * TG_THREADS=1 or a process bound to one CPU, say by taskset, inflates in order). */
static void start(ft_ahead *a)
{
    a->tried = true;
    if (tg_thread_count() < 2)
        return;
    a->started = tg_thread_start(&a->th, worker_main, a);
}

int ft_ahead_take(ft_ahead *a, int lane, const uint8_t **data)
{
    ahead_lane *l = &a->lanes[lane];
    pthread_mutex_lock(&a->mu);
    if (!a->tried)
        start(a);
    uint32_t k = l->taken;
    ahead_slot *sl = &l->slot[k % AHEAD_SLOTS];
    const uint8_t *src = NULL;
    uint32_t cs = 0, us = 0;
    bool mine = k >= l->filled;
    if (mine)
        sl = claim(a, l, &src, &cs, &us);
    else
        while (!sl->ready)
            pthread_cond_wait(&a->done, &a->mu);
    l->taken = k + 1; /* chunk k - 1's slot is free */
    if (a->started)
        pthread_cond_signal(&a->work);
    pthread_mutex_unlock(&a->mu);
    if (mine)
        sl->rc = inflate_into(a, &l->zctx, sl, src, cs, us);
    *data = sl->buf;
    return sl->rc;
}

void ft_ahead_free(ft_ahead *a)
{
    if (!a)
        return;
    if (a->started) {
        pthread_mutex_lock(&a->mu);
        a->stop = true;
        pthread_cond_signal(&a->work);
        pthread_mutex_unlock(&a->mu);
        pthread_join(a->th, NULL);
    }
    for (size_t i = 0; i < a->n_lanes; i++) {
        for (size_t j = 0; j < AHEAD_SLOTS; j++)
            free(a->lanes[i].slot[j].buf);
        if (a->lanes[i].zctx)
            ft_zstd_ctx_free(a->lanes[i].zctx);
    }
    if (a->wctx)
        ft_zstd_ctx_free(a->wctx);
    free(a->lanes);
    pthread_cond_destroy(&a->done);
    pthread_cond_destroy(&a->work);
    pthread_mutex_destroy(&a->mu);
    free(a);
}
