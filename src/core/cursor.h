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

#endif
