/* sample_folded.h - folded stacks of a perf.data file's samples (convert --to folded). */
#ifndef TG_SAMPLE_FOLDED_H
#define TG_SAMPLE_FOLDED_H

#include "core/consumer.h"

/* Writes one line per distinct stack of the samples read from it, as Debian perf's
 * `perf script report stackcollapse` writes them.  0 or a negative status. */
int tg_sample_folded(tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err);

#endif
