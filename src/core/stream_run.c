/* stream_run.c - tg_streams_run: a consumer's callback over many streams on a few worker
 * threads, each stream through its own one-stream cursor (see traceglot.h).
 *
 * Analyses whose result is a sum over threads (uftrace report: each thread's stack is its
 * own) need no merge: each stream can be read on its own, and streams can be read at once on
 * several cores.  Workers take the next stream from a shared counter; worker 0 is the
 * calling thread, so with one worker (or when a thread cannot be started) everything runs in
 * order on the caller's thread.  Damage met in a stream is kept per stream and returned in
 * stream order after all streams ran, so the error list does not depend on scheduling. */
#include "core/cursor_source.h"
#include "core/thread_start.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define TG_MAX_WORKERS 64

struct run {
    tg_stream *const *streams;
    size_t n;
    tg_stream_fn fn;
    void *ctx;
    atomic_size_t next;
    atomic_int failed; /* first negative status of fn (0: none) */
    tg_error **errors; /* per stream */
};

struct worker {
    struct run *run;
    unsigned index;
    pthread_t th;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct run *r = w->run;
    for (;;) {
        size_t i = atomic_fetch_add(&r->next, 1);
        if (i >= r->n || atomic_load(&r->failed))
            break;
        tg_stream_iter *it = tg_stream_iter_new(r->streams[i]);
        int rc = it ? r->fn(r->ctx, w->index, it) : TG_ERR_NOMEM;
        if (it) {
            r->errors[i] = tg_stream_iter_take_errors(it);
            tg_stream_iter_free(it);
        }
        if (rc < 0) {
            int zero = 0;
            atomic_compare_exchange_strong(&r->failed, &zero, rc);
            break;
        }
    }
    return NULL;
}

int tg_streams_run(tg_stream *const *streams, size_t n, unsigned workers, tg_stream_fn fn,
                   void *ctx, tg_error **err)
{
    struct run r = {.streams = streams, .n = n, .fn = fn, .ctx = ctx};
    atomic_init(&r.next, 0);
    atomic_init(&r.failed, 0);
    r.errors = calloc(n ? n : 1, sizeof *r.errors);
    if (!r.errors)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (workers < 1)
        workers = 1;
    if (workers > TG_MAX_WORKERS)
        workers = TG_MAX_WORKERS;
    if (workers > n)
        workers = n ? (unsigned)n : 1;
    struct worker w[TG_MAX_WORKERS];
    bool started[TG_MAX_WORKERS] = {false};
    for (unsigned i = 0; i < workers; i++) {
        w[i] = (struct worker){.run = &r, .index = i};
        if (i > 0)
            started[i] = tg_thread_start(&w[i].th, worker_main, &w[i]);
    }
    worker_main(&w[0]);
    for (unsigned i = 1; i < workers; i++)
        if (started[i])
            pthread_join(w[i].th, NULL);
    int rc = atomic_load(&r.failed);
    tg_error *damage = NULL;
    for (size_t i = 0; i < n; i++)
        if (r.errors[i])
            tg_err_append(&damage, r.errors[i]);
    free(r.errors);
    if (rc < 0) {
        tg_error_free(damage);
        if (rc == TG_ERR_NOMEM)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        return rc;
    }
    if (damage) {
        tg_err_append(err, damage);
        return TG_ERR_FORMAT;
    }
    return 0;
}
