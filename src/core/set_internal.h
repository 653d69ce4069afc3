/* set_internal.h - the trace set as core/ sees it: the traces opened together. */
#ifndef TG_SET_INTERNAL_H
#define TG_SET_INTERNAL_H

#include "core/format_api.h"

#include <pthread.h>
#include <stdbool.h>

/* A --cpu or --tid value of tg_filter_check's filter that the traces know only from their
 * events: met by the pass (seen) or not. */
struct tg_unsure_value {
    int value;
    bool is_cpu, seen;
};

struct tg_set {
    tg_trace **traces;
    size_t n_traces, cap_traces;
    size_t n_streams; /* streams numbered across the set, for the merge */
    size_t n_classes; /* event classes numbered across the set (tg_event_class.number) */
    const tg_options *opts;
    tg_error *warnings; /* from the alignment (timeline.c) */
    char **paths;       /* as given to tg_open, for tg_set_reopen */
    size_t n_paths;
    /* inputs copied from standard input or pipes (input_spool.c): paths[i] is then the
     * copy's /proc/self/fd path, spool_fds[i] its descriptor (-1: none) */
    int *spool_fds;
    /* what errors call such a copy: "standard input" for "-", else the path as given
     * (shown[i] NULL: paths[i] itself) */
    char **shown;
    bool range_waits_first; /* an iterator's range has a time of day (tg_iter_new) */
    /* tg_set_progress: every iterator reports to fn every progress_every events */
    tg_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_every, bytes_total;
    tg_buf *notes; /* tg_set_notes: the peers' stderr lines (NULL: dropped) */
    /* tg_filter_check's --cpu and --tid values that the traces know only from their events:
     * the first iterator with that filter reading every event marks those it meets (merge.c)
     * and puts the others in run_warnings */
    const tg_filter *unsure_filter;
    struct tg_unsure_value *unsure;
    size_t n_unsure, cap_unsure;
    tg_error *run_warnings;
    /* taken by readers whose streams, read on several threads, share state they make late
     * (tg_trace_lock_set) */
    pthread_mutex_t readers_lock;
};

/* Called by the iterator at the end of a pass that read every event (merge.c): the unsure
 * values it did not meet become run warnings, and none is watched any more. */
void tg_set_unsure_done(tg_set *set);

/* The most confident format for path (its probe's score in *score when not NULL), or NULL
 * with *err set (trace_set.c). */
const struct tg_format *tg_detect_format(const char *path, int *score, tg_error **err);
/* A folder that is no trace itself but holds traces of several formats (folder_traces.c):
 * each opened into set as if given as a path of its own; 1.  0: path is not such a folder
 * (opened as before).  <0: an error naming the trace that could not be read. */
int tg_open_folder_of_traces(tg_set *set, const char *path, const tg_options *opts, tg_error **err);

/* Puts the traces of set on one timeline (options "clock-align", "clock-offset"): sets each
 * trace's and stream's shift_ns, alignment, domain and note.  0, or TG_ERR_USAGE (a bad
 * option) / TG_ERR_NOMEM with *err. */
int tg_timeline_align(tg_set *set, const tg_options *opts, tg_error **err);

/* In every error of list, the /proc/self/fd path of an input read from standard input or a
 * pipe becomes what the user gave ("standard input" for "-"): trace_set.c. */
void tg_set_name_inputs(const tg_set *set, tg_error *list);

#endif
