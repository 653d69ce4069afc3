/* set_internal.h - the trace set as core/ sees it: the traces opened together. */
#ifndef TG_SET_INTERNAL_H
#define TG_SET_INTERNAL_H

#include "core/format_api.h"

#include <stdbool.h>

struct tg_set {
    tg_trace **traces;
    size_t n_traces, cap_traces;
    size_t n_streams; /* streams numbered across the set, for the merge */
    size_t n_classes; /* event classes numbered across the set (tg_event_class.number) */
    const tg_options *opts;
    tg_error *warnings; /* from the alignment (timeline.c) */
    char **paths;       /* as given to tg_open, for tg_set_reopen */
    size_t n_paths;
    bool range_waits_first; /* an iterator's range has a time of day (tg_iter_new) */
    /* tg_set_progress: every iterator reports to fn every progress_every events */
    tg_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_every, bytes_total;
};

/* Puts the traces of set on one timeline (options "clock-align", "clock-offset"): sets each
 * trace's and stream's shift_ns, alignment, domain and note.  0, or TG_ERR_USAGE (a bad
 * option) / TG_ERR_NOMEM with *err. */
int tg_timeline_align(tg_set *set, const tg_options *opts, tg_error **err);

#endif
