/* stream_iter.c - reading one stream on its own, in its own order (see traceglot.h).
 *
 * The merge (merge.c) interleaves every stream by time; some analyses must instead follow
 * the order a peer tool reads records in, stream after stream.  This iterator is that path:
 * one event slot and the stream's next, with the same per-event defaults the merge sets. */
#include "core/format_api.h"

#include <stdlib.h>

struct tg_stream_iter {
    tg_stream *s;
    tg_event ev;
    int errors_in_a_row;
    int done;
};

#define TG_STREAM_ITER_MAX_ERRORS 64

tg_stream_iter *tg_stream_iter_new(tg_stream *s)
{
    tg_stream_iter *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    it->s = s;
    /* like tg_iter_new: start from the stream's first event when it can go back */
    if (s->ops->rewind && s->ops->rewind(s, NULL) < 0)
        it->done = 1;
    return it;
}

int tg_stream_iter_next(tg_stream_iter *it, const tg_event **ev, tg_error **err)
{
    if (it->done)
        return 0;
    tg_event *e = &it->ev;
    e->cls = NULL;
    e->stream = it->s;
    e->cpu = it->s->cpu;
    e->tid = it->s->tid;
    e->pid = -1;
    e->depth = -1;
    e->addr = e->lost = 0;
    int rc = it->s->ops->next(it->s, e, err);
    if (rc > 0) {
        e->stream = it->s;
        it->errors_in_a_row = 0;
        *ev = e;
        return 1;
    }
    if (rc == 0 || ++it->errors_in_a_row >= TG_STREAM_ITER_MAX_ERRORS)
        it->done = 1;
    return rc;
}

void tg_stream_iter_free(tg_stream_iter *it)
{
    free(it);
}
