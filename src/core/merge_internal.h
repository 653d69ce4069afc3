/* merge_internal.h - what core's other readers of a set's cursor (lines_ahead.c) need of
 * merge.c: its streams, their shifts, and a way to keep the errors they meet in the
 * cursor's list, so that a cursor read elsewhere ends as if it had read itself. */
#ifndef TG_MERGE_INTERNAL_H
#define TG_MERGE_INTERNAL_H

#include "core/format_api.h"

/* The number of streams when `it` can be read stream by stream on several threads: not read
 * yet, no filter, bounds, kernel model nor progress, several streams all of which read alone
 * (format_api.h), more than one thread; 0 otherwise.  Streams numbered 0..n-1 as the merge
 * numbers them. */
size_t tg_iter_ahead_streams(const tg_iter *it);
tg_stream *tg_iter_stream(const tg_iter *it, size_t i);
/* What the merge adds to stream i's event times for its order. */
int64_t tg_iter_stream_shift(const tg_iter *it, size_t i);
/* The cursor is read elsewhere from now on: it hands out no event itself. */
void tg_iter_ahead_taken(tg_iter *it);
/* That reading ended: every event was read. */
void tg_iter_ahead_done(tg_iter *it);
/* An error met by that reading, kept in the cursor's list as its own (owned from now). */
void tg_iter_keep_error(tg_iter *it, tg_error *e);

#endif
