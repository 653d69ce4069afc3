/* split_output.h - one converted trace written as several files (--split-size,
 * --split-time), so that each part stays small enough for a viewer; used by the Chrome
 * JSON and Perfetto writers alike.
 *
 * Before each record the writer calls tg_split_before.  When the current part is full,
 * the split makes the cut: it asks the writer to end every frame it began and has not
 * ended (a trace viewer must see whole slices; the split counts them, as the writer tells
 * it with tg_split_begun/tg_split_ended), to end the part's file, then opens the next file,
 * asks the writer to start it and to begin the same frames again there, by the names the
 * frame walk keeps per depth.  Parts are named after the -o path with a four-digit number
 * before the extension: trace.pftrace -> trace-0001.pftrace, trace.json -> trace-0001.json.
 * A part's size is what its buffer wrote (tg_buf_total), so writers count nothing. */
#ifndef TG_SPLIT_OUTPUT_H
#define TG_SPLIT_OUTPUT_H

#include "traceglot.h"
#include "writers/viewers/frame_walk.h"

/* What a writer does at a cut; each returns 0 or a negative status. */
typedef struct tg_split_ops {
    int (*end_frame)(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns); /* innermost first */
    int (*part_end)(void *ctx);   /* the part's last bytes, before its file is closed */
    int (*part_start)(void *ctx); /* the next part is open (split.out, split.part) */
    int (*begin_frame)(void *ctx, tg_walk_thread *t, uint32_t name, int64_t ns);
} tg_split_ops;

typedef struct tg_split {
    int active;         /* 0: no splitting asked for; the writer uses its given buffer */
    uint64_t max_bytes; /* 0: no size limit */
    int64_t max_ns;     /* 0: no time limit */
    const char *path;   /* the -o path the part names derive from */
    tg_output *output;  /* where the parts are written (renamed when the whole is done) */
    unsigned part;      /* number of the current part, from 1 */
    int64_t part_start_ns;
    int fd;
    tg_buf *out; /* the current part */
    /* private */
    const tg_split_ops *ops;
    void *ctx;
    int cutting;
    size_t *open; /* per walk thread: frames begun in the output and not ended */
    size_t open_cap;
} tg_split;

/* Reads "split-size" ("100M", "1G", "65536": bytes, K/M/G binary multiples) and
 * "split-time" ("1s", "250ms", "20us", "500ns"; a bare number is seconds); the parts are
 * files of the output out is bound to (tg_buf_output: tg_convert_to's, or the one tg_convert
 * makes from "output"), named after its path and moved beside it when the conversion is
 * committed.  0 with split->active 0 when neither is set; 0 with the first part open; or
 * TG_ERR_USAGE / TG_ERR_IO with *err. */
int tg_split_open(tg_split *split, tg_buf *out, const tg_options *opts, const tg_split_ops *ops,
                  void *ctx, tg_error **err);
/* Makes the cut first when the current part holds something and a record at time ns
 * should go to a new part.  0 or a negative status. */
int tg_split_cut_if_due(tg_split *split, const tg_frame_walk *w, int64_t ns, tg_error **err);
static inline int tg_split_before(tg_split *split, const tg_frame_walk *w, int64_t ns,
                                  tg_error **err)
{
    return split->active && !split->cutting ? tg_split_cut_if_due(split, w, ns, err) : 0;
}
/* The writer began / ended a frame of walk thread `thread` in the output. */
int tg_split_begun(tg_split *split, size_t thread);
static inline void tg_split_ended(tg_split *split, size_t thread)
{
    if (split->active && thread < split->open_cap && split->open[thread])
        split->open[thread]--;
}
/* Closes the last part and frees the split.  0 or TG_ERR_IO. */
int tg_split_close(tg_split *split, tg_error **err);

#endif
