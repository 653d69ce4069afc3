/* stream_iter.c - the one-stream cursor (tg_stream_iter): a stream on its own, in its own
 * order, without merge or filter (see traceglot.h).
 *
 * Some analyses follow the order a peer tool reads records in, stream after stream (llvm-xray
 * account), or read each thread on its own (uftrace report).  This cursor is one source
 * (cursor_source.h), so it reads ahead in batches and applies the same damage policy as the
 * merge.  Errors go to the caller's err when it passes one, else into the cursor's own list
 * (tg_stream_iter_errors), which is how tg_streams_run collects them. */
#include "core/cursor.h"
#include "core/cursor_source.h"
#include "core/set_internal.h"

#include <stdlib.h>

#define TG_MAX_KEPT_ERRORS 100

struct tg_stream_iter {
    struct tg_source src;
    bool handed; /* buf[pos] was handed out */
    tg_error *errors;
    size_t n_errors;
};

tg_stream_iter *tg_stream_iter_new(tg_stream *s)
{
    tg_stream_iter *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    tg_error *e = NULL;
    int rc = tg_source_init(&it->src, s, &e);
    if (rc == TG_ERR_NOMEM) {
        tg_error_free(e);
        free(it);
        return NULL;
    }
    /* a stream that cannot go back to its start reads nothing; why is the cursor's error */
    if (e) {
        it->errors = e;
        it->n_errors = 1;
    }
    return it;
}

static void keep(tg_stream_iter *it, tg_error **err, tg_error *e)
{
    if (it->src.s->trace)
        tg_set_name_inputs(it->src.s->trace->set, e);
    if (err)
        tg_err_append(err, e);
    else if (it->n_errors++ < TG_MAX_KEPT_ERRORS)
        tg_err_append(&it->errors, e);
    else
        tg_error_free(e);
}

/* Makes buf[pos] the next event: 1, 0 at the end, or the damage's status. */
static inline int advance(tg_stream_iter *it, tg_error **err)
{
    struct tg_source *s = &it->src;
    if (it->handed) {
        s->pos++;
        it->handed = false;
    }
    if (s->pos < s->n)
        return 1;
    tg_error *e = NULL;
    int rc = tg_source_refill(s, &e);
    if (rc < 0)
        keep(it, err, e);
    return rc > 0 ? 1 : rc;
}

int tg_stream_iter_next(tg_stream_iter *it, const tg_event **ev, tg_error **err)
{
    int rc = advance(it, err);
    if (rc <= 0)
        return rc;
    *ev = &it->src.buf[it->src.pos];
    it->handed = true;
    return 1;
}

int tg_stream_iter_next_batch(tg_stream_iter *it, const tg_event **evs, size_t max, tg_error **err)
{
    if (max == 0)
        return 0;
    int rc = advance(it, err);
    if (rc <= 0)
        return rc;
    struct tg_source *s = &it->src;
    size_t n = s->n - s->pos;
    if (n > max)
        n = max;
    for (size_t i = 0; i < n; i++)
        evs[i] = &s->buf[s->pos + i];
    s->pos += n - 1; /* the last one is the handed-out event */
    it->handed = true;
    return (int)n;
}

int tg_stream_iter_next_run(tg_stream_iter *it, const tg_event **first, tg_error **err)
{
    int rc = advance(it, err);
    if (rc <= 0)
        return rc;
    struct tg_source *s = &it->src;
    size_t n = s->n - s->pos;
    *first = &s->buf[s->pos];
    s->pos += n - 1; /* the last one is the handed-out event */
    it->handed = true;
    return (int)n;
}

const tg_error *tg_stream_iter_errors(const tg_stream_iter *it) { return it->errors; }

tg_error *tg_stream_iter_take_errors(tg_stream_iter *it)
{
    tg_error *e = it->errors;
    it->errors = NULL;
    return e;
}

tg_stream *tg_stream_iter_stream(const tg_stream_iter *it) { return it->src.s; }

void tg_stream_iter_free(tg_stream_iter *it)
{
    if (!it)
        return;
    tg_source_free(&it->src);
    tg_error_free(it->errors);
    free(it);
}
