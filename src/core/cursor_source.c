/* cursor_source.c - one stream's read position with its read-ahead and the damage policy
 * (see cursor_source.h).  Every reader of events goes through here: the merge, the
 * one-stream iterator and the parallel stream runner. */
#include "core/cursor_source.h"

#include <stdlib.h>

int tg_source_init(struct tg_source *src, tg_stream *s, tg_error **err)
{
    *src = (struct tg_source){.s = s};
    src->cap = s->ops->next_batch || s->ops->events_independent ? TG_SOURCE_BATCH : 1;
    src->buf = calloc(src->cap, sizeof *src->buf);
    if (!src->buf)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < src->cap; i++)
        tg_source_set_defaults(&src->buf[i], s);
    if (s->ops->rewind && s->ops->rewind(s, err) < 0) {
        src->done = true;
        return TG_ERR_IO;
    }
    if (!s->ops->rewind && s->was_read) {
        /* going on where the last cursor stopped would lose the events it read ahead */
        src->done = true;
        return tg_err(err, TG_ERR_USAGE,
                      "%s: stream %s is read once and a cursor has read from it: open the "
                      "trace again (tg_set_reopen) for another pass",
                      s->trace->path, s->name);
    }
    return 0;
}

void tg_source_free(struct tg_source *src)
{
    tg_error_free(src->pending);
    src->pending = NULL;
    free(src->buf);
    src->buf = NULL;
    src->pos = src->n = 0;
}

/* Streams whose events stay valid: several next() calls ahead.  A failure after some events
 * is kept for the next refill, so the damage is reported where it was met. */
static int read_ahead(struct tg_source *src)
{
    tg_stream *s = src->s;
    size_t k = 0;
    while (k < src->cap) {
        tg_event *ev = &src->buf[k];
        tg_source_set_defaults(ev, s);
        tg_error *e = NULL;
        int rc = s->ops->next(s, ev, &e);
        if (rc > 0) {
            ev->stream = s;
            k++;
            continue;
        }
        if (rc == 0) {
            tg_error_free(e);
            src->done = true;
        } else {
            src->pending = e;
            src->pending_rc = rc;
        }
        break;
    }
    src->n = k;
    if (k)
        src->errors_in_a_row = 0;
    return (int)k;
}

int tg_source_refill(struct tg_source *src, tg_error **err)
{
    tg_stream *s = src->s;
    if (!s->was_read) /* set before streams are read on several threads (lines_ahead.c) */
        s->was_read = true;
    src->pos = src->n = 0;
    int rc;
    tg_error *e = NULL;
    if (src->pending_rc) {
        rc = src->pending_rc;
        e = src->pending;
        src->pending_rc = 0;
        src->pending = NULL;
        goto failed;
    }
    if (src->done)
        return 0;
    if (src->cap > 1 && !s->ops->next_batch) {
        int k = read_ahead(src);
        if (k > 0)
            return k;
        if (src->done)
            return 0;
        rc = src->pending_rc;
        e = src->pending;
        src->pending_rc = 0;
        src->pending = NULL;
        goto failed;
    }
    if (src->cap > 1) {
        /* a run of common records at once; the reader fills what next() would, except the
         * stream and cpu, which the slots keep from init */
        size_t n = s->ops->next_batch(s, src->buf, src->cap);
        if (n) {
            src->n = n;
            src->errors_in_a_row = 0;
            return (int)n;
        }
    }
    tg_event *ev = &src->buf[0];
    tg_source_set_defaults(ev, s);
    rc = s->ops->next(s, ev, &e);
    if (rc > 0) {
        ev->stream = s;
        src->n = 1;
        src->errors_in_a_row = 0;
        return 1;
    }
failed:
    return tg_source_read_failed(src, rc, e, err);
}

int tg_source_read_failed(struct tg_source *src, int rc, tg_error *e, tg_error **err)
{
    tg_stream *s = src->s;
    src->pos = src->n = 0;
    if (rc == 0) {
        tg_error_free(e);
        src->done = true;
        return 0;
    }
    if (!e)
        tg_err(&e, (tg_status)rc, "%s: stream %s: read error", s->trace->path, s->name);
    if (++src->errors_in_a_row >= TG_SOURCE_MAX_ERRORS) {
        tg_err(&e, TG_ERR_FORMAT, "%s: stream %s: too many errors in a row, stream abandoned",
               s->trace->path, s->name);
        src->done = true;
    }
    tg_err_append(err, e);
    return rc;
}
