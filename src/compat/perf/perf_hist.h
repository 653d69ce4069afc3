/* perf_hist.h - perf report's entries of one event (perf's hists): keyed, summed, sorted.
 *
 * An entry is what the sort keys (--sort: comm, pid, dso, sym) tell apart; samples with
 * equal keys add to one entry, as perf's hist_entry__cmp merges them (sym: the symbol, or
 * without one the address; pid: the thread).  With --children each sample also adds its
 * period to the entry of every frame of its call chain once (the children column).  The
 * sort is perf's output sort: children, then self, then the keys' own order (command,
 * object and symbol name ascending, threads by tid), ties in perf's tree order (the keys
 * ascending, addresses by signed difference as perf compares them). */
#ifndef TG_PERF_HIST_H
#define TG_PERF_HIST_H

#include "compat/perf/perf_callchain.h"
#include "common/perf/perf_symbols.h"

typedef enum ph_key { PH_COMM, PH_PID, PH_DSO, PH_SYM } ph_key;

typedef struct ph_config {
    ph_key keys[8];
    size_t n_keys;
    bool children; /* the Children column: periods cumulated up the chains */
    bool graph;    /* call graphs built and printed (not -g none) */
    bool caller;   /* chains root first (-g caller; the default with children) */
    double min_percent;
} ph_config;

typedef struct ph_entry {
    char *comm; /* owned */
    int32_t tid;
    const char *dso; /* short name, NULL: no map */
    uint32_t dso_rank;
    const ps_sym *sym;
    uint64_t ip; /* perf's he->ip: map-relative for a sample's own ip, raw from a chain */
    char level;  /* 'k' or '.' */
    uint64_t period, period_acc;
    size_t order; /* rank in perf's tree order (ph_sort) */
    pcc_root chain;
} ph_entry;

typedef struct ph_hists {
    ph_entry *v;
    size_t n, cap;
    tg_hash index;   /* key hash -> entry */
    tg_arena *arena; /* the nodes of the entries' call graphs */
    uint64_t samples, total;
    bool nomem;
} ph_hists;

/* The entry with tmpl's keys (made from tmpl, its comm copied, when new): its index, or -1
 * when out of memory. */
long ph_entry_of(ph_hists *h, const ph_config *cfg, const ph_entry *tmpl);
/* Sorts the entries as perf report prints them. */
void ph_sort(ph_hists *h, const ph_config *cfg);
void ph_free(ph_hists *h);
/* One event's sorted entries as JSON (perf_report_json.c): {"event", "samples",
 * "event_count", "entries": [...]}; comm_of names a thread as the text's pid column does. */
struct json_object *ph_event_json(const char *event, const ph_hists *h, const ph_config *cfg,
                                  const char *(*comm_of)(void *ctx, int32_t tid), void *ctx);

#endif
