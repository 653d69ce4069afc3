/* cursor_source.h - one stream's read position, shared by every cursor (merge.c, the merged
 * set; stream_iter.c, one stream on its own).
 *
 * A source reads its stream ahead in batches when the stream can decode a run of records at
 * once (the next_batch op), one event at a time through next() otherwise, and applies the
 * damage policy in this one place: a failed read is handed back with its error, the stream is
 * asked again on the next read (it resumes past the damage), and after
 * TG_SOURCE_MAX_ERRORS failures in a row the source is closed, with a last error saying so,
 * so that a hopeless stream cannot hang a reader.  Memory: TG_SOURCE_BATCH events per
 * stream, whatever the number of events. */
#ifndef TG_CURSOR_SOURCE_H
#define TG_CURSOR_SOURCE_H

#include "core/format_api.h"

#include <stdbool.h>

#define TG_SOURCE_BATCH 128
#define TG_SOURCE_MAX_ERRORS 64

struct tg_source {
    tg_stream *s;
    tg_event *buf; /* buf[pos..n): events read ahead, not handed out yet */
    size_t pos, n;
    size_t cap; /* TG_SOURCE_BATCH with next_batch, else 1 */
    int errors_in_a_row;
    bool done;
    int64_t shift;  /* added to event times for the merge's order (the shared timeline) */
    int pending_rc; /* a read-ahead stopped at damage: reported at the next refill */
    tg_error *pending;
};

/* Allocates the read-ahead and rewinds the stream (so a set can be read more than once).
 * 0, TG_ERR_NOMEM, the stream's rewind error in *err, or TG_ERR_USAGE for a stream without
 * rewind that a cursor has read from already (the source then reads nothing). */
int tg_source_init(struct tg_source *src, tg_stream *s, tg_error **err);
void tg_source_free(struct tg_source *src);

/* Refills buf from the stream once the events read ahead are used up: the number of events
 * now in buf[0..n) (pos reset to 0), 0 at the end (or when the source was closed after too
 * many errors), or a negative status with *err set (call again to go on past the damage). */
int tg_source_refill(struct tg_source *src, tg_error **err);

/* What a failed or final next() of a stream without read-ahead means (rc <= 0, e its error):
 * 0 at the end, or a negative status with *err set, the damage policy applied. */
int tg_source_read_failed(struct tg_source *src, int rc, tg_error *e, tg_error **err);

/* The per-event defaults a stream's next() may leave untouched. */
static inline void tg_source_set_defaults(tg_event *ev, const tg_stream *s)
{
    ev->cls = NULL;
    ev->stream = (tg_stream *)s;
    ev->cpu = s->cpu;
    ev->tid = s->tid;
    ev->pid = -1;
    ev->depth = -1;
    ev->addr = ev->lost = 0;
    ev->cpu_mode = TG_CPU_MODE_UNKNOWN;
}

/* The next event not handed out yet, reading ahead when needed; NULL at the end.  Errors met
 * on the way are passed to keep(ctx, error), which owns them.  A stream without read-ahead
 * (one event at a time: trace-cmd's, CTF's) is read here directly, in line. */
static inline tg_event *tg_source_head(struct tg_source *src, void (*keep)(void *ctx, tg_error *e),
                                       void *ctx)
{
    while (src->pos >= src->n) {
        tg_error *e = NULL;
        int rc;
        if (src->cap == 1 && !src->done) {
            tg_event *ev = src->buf;
            tg_stream *s = src->s;
            tg_source_set_defaults(ev, s);
            s->was_read = true;
            tg_error *why = NULL;
            rc = s->ops->next(s, ev, &why);
            if (rc > 0) {
                ev->stream = s;
                src->pos = 0;
                src->n = 1;
                src->errors_in_a_row = 0;
                break;
            }
            rc = tg_source_read_failed(src, rc, why, &e);
        } else {
            rc = tg_source_refill(src, &e);
        }
        if (rc > 0)
            break;
        if (rc == 0)
            return NULL;
        keep(ctx, e);
    }
    return &src->buf[src->pos];
}

/* The errors a one-stream cursor kept (stream_iter.c), handed to the caller. */
tg_error *tg_stream_iter_take_errors(tg_stream_iter *it);

#endif
