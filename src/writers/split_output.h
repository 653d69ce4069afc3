/* split_output.h - one converted trace written as several files (--split-size,
 * --split-time), so that each part stays small enough for a viewer.
 *
 * The writer asks before each record whether the current part is full (tg_split_due); if
 * so it closes what is open in the part (a trace viewer must see whole slices), moves to
 * the next file (tg_split_next) and reopens there.  Parts are named after the -o path with
 * a four-digit number before the extension: trace.pftrace -> trace-0001.pftrace, ... */
#ifndef TG_SPLIT_OUTPUT_H
#define TG_SPLIT_OUTPUT_H

#include "traceglot.h"

typedef struct tg_split {
    int active;            /* 0: no splitting asked for; the writer uses its given buffer */
    uint64_t max_bytes;    /* 0: no size limit */
    int64_t max_ns;        /* 0: no time limit */
    const char *path;      /* the -o path the part names derive from */
    unsigned part;         /* number of the current part, from 1 */
    uint64_t part_bytes;   /* written to the current part (as counted by tg_split_count) */
    int64_t part_start_ns;
    int fd;
    tg_buf *out;           /* the current part */
} tg_split;

/* Reads "split-size" ("100M", "1G", "65536": bytes, K/M/G binary multiples), "split-time"
 * ("1s", "250ms", "20us", "500ns"; a bare number is seconds) and "output".  0 with
 * split->active 0 when neither is set; 0 with the first part open; or TG_ERR_USAGE /
 * TG_ERR_IO with *err. */
int tg_split_open(tg_split *split, const tg_options *opts, tg_error **err);
/* 1 when the current part holds something and the next record at time ns should go to a
 * new part.  The first record of a part starts its time span. */
int tg_split_due(tg_split *split, int64_t ns);
static inline void tg_split_count(tg_split *split, size_t n) { split->part_bytes += n; }
/* Closes the current part and opens the next, starting at time ns.  0 or TG_ERR_IO. */
int tg_split_next(tg_split *split, int64_t ns, tg_error **err);
/* Closes the last part.  0 or TG_ERR_IO. */
int tg_split_close(tg_split *split, tg_error **err);

#endif
