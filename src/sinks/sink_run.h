/* sink_run.h - running a printer, converter or report over a filtered iterator, with the
 * input's damage turned into the returned error after the output is written. */
#ifndef TG_SINK_RUN_H
#define TG_SINK_RUN_H

#include "traceglot.h"

typedef int (*tg_sink_fn)(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                          tg_buf *out, tg_error **err);

int tg_sink_run(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out,
                tg_error **err, tg_sink_fn fn, const void *impl);

#endif
