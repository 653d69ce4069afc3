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

#endif
