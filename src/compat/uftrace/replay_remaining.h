/* replay_remaining.h - uftrace replay's closing list of the functions left open
 * (replay_remaining.c), for replay.c. */
#ifndef TG_REPLAY_REMAINING_H
#define TG_REPLAY_REMAINING_H

#include "analysis/callstack.h"
#include "compat/uftrace/uftrace_text.h"

/* "uftrace stopped tracing with remaining functions" and each thread's open frames, when
 * any thread has some (uftrace's rules for which are listed), into out. */
void uf_replay_remaining(uf_state *st, tg_set *set, tg_buf *out);

#endif
