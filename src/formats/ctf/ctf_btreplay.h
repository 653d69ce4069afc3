/* ctf_btreplay.h - the two halves of babeltrace2's recycled empty texts: the replay of its
 * graph (ctf_btcompat.c), which finds what each empty text shows, and the hand-over of those
 * findings to the streams that print (ctf_btfeed.c), which runs the replay on a thread of its
 * own beside the printer. */
#ifndef TG_CTF_BTREPLAY_H
#define TG_CTF_BTREPLAY_H

#include "formats/ctf/ctf_stream.h"

typedef struct ctf_btsim ctf_btsim;

/* What the replay found for the events of stream `index` (in the replay's stream order) that
 * the muxer has just pulled: quirks[0..n) in serial order, their texts at .off in
 * txt[0..txt_len), and that every event of the stream numbered below done_below (UINT64_MAX:
 * all) is now complete.  Returns false to stop the replay. */
typedef bool (*ctf_btsim_sink)(void *ctx, size_t index, const ctf_quirk *quirks, size_t n,
                               const char *txt, size_t txt_len, uint64_t done_below);

/* A replay over every CTF trace of t's set (babeltrace2's muxer spans all the traces on its
 * command line), or NULL when none of them has a text field or memory ran out.  *streams
 * (freed by the caller) lists the real streams in the replay's order, *n_streams of them.
 * Each trace is marked btcompat_done. */
ctf_btsim *ctf_btsim_new(tg_trace *t, tg_stream ***streams, size_t *n_streams);
/* Runs the replay to its end (or until the sink says stop); false when memory ran out. */
bool ctf_btsim_run(ctf_btsim *S, ctf_btsim_sink sink, void *ctx);
/* Frees the replay. */
void ctf_btsim_free(ctf_btsim *S);

/* The feed (ctf_btfeed.c): a stream's reference to the replay goes (ctf_dstream_free). */
void ctf_btfeed_release(ctf_btfeed *f);

#endif
