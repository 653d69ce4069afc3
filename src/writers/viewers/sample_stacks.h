/* sample_stacks.h - the call stacks of a perf.data file's samples, as every flame-graph
 * writer draws them (folded, SVG, speedscope).
 *
 * One walk over the events names each sample's stack the way perf's stackcollapse script
 * does (sample_stacks.c): its thread's name at the sample, then its call chain's frames from
 * the outermost to the sampled one, each its symbol's name or "[unknown]", with the module
 * (the mapped file perf found) of each frame.  Tracepoint samples are left out, as the
 * script leaves them.  The writers only count or lay out what the walk hands them, so the
 * folded lines, the SVG's widths and speedscope's sample weights agree by construction. */
#ifndef TG_SAMPLE_STACKS_H
#define TG_SAMPLE_STACKS_H

#include "common/perf/perf_chain_walk.h"
#include "core/consumer.h"

typedef struct tg_sample_stack {
    const tg_event *ev; /* the sample */
    const char *comm;   /* its thread's name, spaces kept */
    int32_t pid, tid;
    size_t depth;
    const char *const *names;      /* depth names, the outermost frame first */
    const char *const *modules;    /* depth modules (a mapped file's name), NULL where none */
    const perf_chain_frame *chain; /* the depth frames resolved, the sampled one first */
} tg_sample_stack;

/* The walk one event at a time, for a writer that reads the iterator itself. */
typedef struct tg_sample_walker tg_sample_walker;
tg_sample_walker *tg_sample_walker_new(const tg_options *opts); /* NULL: out of memory */
void tg_sample_walker_free(tg_sample_walker *w);
/* Feeds ev, in delivery order: 1 with *stack filled (valid until the next call) when it is
 * a sample the flame graphs draw, 0 for any other event, TG_ERR_NOMEM. */
int tg_sample_walker_feed(tg_sample_walker *w, const tg_event *ev, tg_sample_stack *stack);

/* Returns 0 or a negative status, which stops the walk. */
typedef int (*tg_sample_stack_fn)(void *ctx, const tg_sample_stack *stack);

/* Whether the set holds a perf.data file: its flame graphs are of samples. */
bool tg_set_has_samples(const tg_set *set);

/* Reads the whole iterator, calling fn for each sample in delivery order (symbols under
 * the `symfs`, `kallsyms` and `buildid-dir` options).  0 or a negative status. */
int tg_sample_stacks_walk(tg_iter *it, const tg_options *opts, tg_sample_stack_fn fn, void *ctx,
                          tg_error **err);

/* The options of the writers that draw samples: perf's --symfs, --kallsyms, --buildid-dir. */
extern const tg_option_decl tg_sample_stack_options[];

/* `convert --to speedscope` of a perf.data file: sampled profiles (speedscope_samples.c). */
int tg_speedscope_samples(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                          tg_error **err);

#endif
