/* set_internal.h - the trace set as core/ sees it: the traces opened together. */
#ifndef TG_SET_INTERNAL_H
#define TG_SET_INTERNAL_H

#include "core/format_api.h"

struct tg_set {
    tg_trace **traces;
    size_t n_traces, cap_traces;
    size_t n_streams;          /* streams numbered across the set, for the merge */
    const tg_options *opts;
};

#endif
