/* cursor.h - what in-tree consumers get from core's cursors beyond the public header.
 *
 * The public batch calls (tg_iter_next_batch, tg_stream_iter_next_batch) fill an array of
 * event pointers, since tg_event is opaque to library users.  Consumers in the tree see the
 * event struct (event_model.h), so the hottest loops (uftrace report) take the cursor's
 * read-ahead as it is: one contiguous array per call. */
#ifndef TG_CURSOR_H
#define TG_CURSOR_H

#include "traceglot.h"

/* A run of the next events of a one-stream cursor as one array first[0..n), valid until the
 * next call: n, 0 at the end, or a negative status for damage (as tg_stream_iter_next_batch,
 * without the array of pointers). */
int tg_stream_iter_next_run(tg_stream_iter *it, const tg_event **first, tg_error **err);

/* Whether a second tg_iter_new over set reads its events again (every stream rewinds); a
 * set whose streams are read once (CTF, trace.dat) needs tg_set_reopen for another pass. */
bool tg_set_rereadable(const tg_set *set);
/* A cursor over the same events as `it` (the same filter and clock choice) on a twin of its
 * set, opened again from the same paths and options, for a consumer that must read the
 * events twice while `it` reads them once (uftrace's time and caller filters decide in a
 * first pass); not every stream can rewind, a twin reads them afresh.  Free the cursor,
 * then tg_close(*twin).  NULL with *err when the paths cannot be opened again. */
tg_iter *tg_iter_twin(const tg_iter *it, tg_set **twin, tg_error **err);

/* How many threads the library may keep busy at once: TG_THREADS when set (1 to 64: 1 keeps
 * every pass on the calling thread), else the CPUs this process may run on
 * (sched_getaffinity, so `taskset -c 0` gives 1), at most 64. */
unsigned tg_thread_count(void);

/* Streams read apart, on several cores: for a pass whose result is made per stream and put
 * together in the merge's order by the caller (per-class counts: a class's first event is
 * the earliest of each stream's first ones, by time on the set's timeline, then stream
 * number, which is the merge's tie-break when every stream is in time order).
 *
 * tg_iter_apart_streams: the number of streams (numbered 0..n-1 as the merge numbers them)
 * when `it` can be read so: not read yet, no filter, bounds, kernel model, progress nor own
 * clocks, several streams all of which read alone (format_api.h), and more than one thread
 * (tg_thread_count); 0 otherwise, and the caller reads `it` as usual.
 *
 * tg_iter_run_apart: fn(ctx, stream number, cursor of that stream) for every stream, on
 * tg_thread_count() workers (fn runs on several threads at once, each call on its own
 * stream).  1: every stream read without damage, the caller owns the result and does not
 * read `it`; 0: not possible, or a stream met damage: `it` is as new (its streams rewound,
 * or read from a twin of the set) and the caller reads it as usual, so that the damage and
 * its order are reported as without threads; or fn's first negative status (or
 * TG_ERR_NOMEM with *err).  tg_iter_apart_undo: the caller drops what fn made (say, a
 * stream was not in time order, which only the merge orders right): `it` as new; 0, or the
 * error of opening the set again.  A cursor that reads a twin hands out the twin's events
 * (their classes and traces live as long as the cursor): tg_iter_trace_origin gives the
 * trace of the set the cursor was made for that a trace of the twin stands for (t itself
 * when the cursor reads its own set). */
typedef int (*tg_apart_fn)(void *ctx, size_t stream_no, tg_stream_iter *it);
size_t tg_iter_apart_streams(const tg_iter *it);
int tg_iter_run_apart(tg_iter *it, tg_apart_fn fn, void *ctx, tg_error **err);
int tg_iter_apart_undo(tg_iter *it, tg_error **err);
tg_trace *tg_iter_trace_origin(const tg_iter *it, tg_trace *t);

/* Lines rendered ahead on several cores (lines_ahead.c): for a text output whose line of an
 * event is mostly the event's own text, with a part that depends on the merge's order (a
 * delta to the previous event) which the caller writes.  fn(ctx, worker, ev, out, line)
 * renders ev's own text at the end of out and sets line->time and line->tag (the caller's:
 * say, which output the text goes to, or none); it runs on worker threads (worker
 * 0..tg_ahead_workers()-1, each worker's calls one after another, each stream's events on
 * one worker in their order), and returns 0, or a negative status that
 * tg_ahead_next returns where the event would come.  Every event of the stream is given to
 * fn, the caller's lines come out in tg_iter's order (time on the merge's timeline, then
 * stream number), and the damage the streams meet goes to the cursor's errors where the
 * cursor would have met it (tg_iter_errors).
 *
 * tg_ahead_workers: how many workers tg_ahead_new would run (fewer than the streams on a
 * machine with fewer cores), 0 when `it` cannot be read so: read, filtered or bounded, the
 * kernel model, progress, one stream, one thread, or a stream that does not read alone
 * (format_api.h).  tg_ahead_new: the workers started, `it` is then read by the tg_ahead
 * only; NULL when not possible or out of resources, and the caller reads `it` as usual.
 * tg_ahead_next: 1 with the next line (text valid until the next call), 0 at the end, or
 * fn's status.  tg_ahead_free stops the workers (before `it` is freed). */
typedef struct tg_ahead tg_ahead;
typedef struct tg_ahead_line {
    int64_t time;     /* set by fn */
    unsigned tag;     /* set by fn */
    const char *text; /* fn's text of the event, len bytes (not terminated) */
    size_t len;
} tg_ahead_line;
typedef int (*tg_ahead_fn)(void *ctx, unsigned worker, const tg_event *ev, tg_buf *out,
                           tg_ahead_line *line);
unsigned tg_ahead_workers(const tg_iter *it);
tg_ahead *tg_ahead_new(tg_iter *it, tg_ahead_fn fn, void *ctx);
int tg_ahead_next(tg_ahead *a, tg_ahead_line *line);
void tg_ahead_free(tg_ahead *a);

#endif
