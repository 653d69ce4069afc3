/* sample_stacks.c - the walk that names each sample's call stack (see sample_stacks.h).
 *
 * Threads, maps and symbols are perf's session's (common/perf), fed every PERF_RECORD_*
 * event in delivery order; a sample's chain is resolved by the walk the SQL tables use
 * (perf_chain_walk), so a frame is named alike everywhere.  A sample without a chain has no
 * frames (perf hands stackcollapse an empty chain).  The per-class lookup of the chain's
 * field is kept, since classes are few and samples many. */
#include "writers/viewers/sample_stacks.h"
#include "common/perf/perf_chain_walk.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

typedef struct ss_class {
    const tg_event_class *cls;
    long chain; /* field index of the call chain, -1: none */
} ss_class;

struct tg_sample_walker {
    perf_session s;
    perf_symbols syms;
    ss_class *classes;
    size_t n_classes, cap_classes;
    perf_chain_frame *frames; /* the current sample's frames, callee first */
    size_t cap_frames;
    const char **names, **modules; /* the current sample's, the outermost first */
    size_t cap_names, cap_modules;
};
typedef struct tg_sample_walker ss_walk;

const tg_option_decl tg_sample_stack_options[] = {
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {"kallsyms", TG_OPT_TEXT, NULL, "perf's --kallsyms: the kernel's symbols from FILE", "FILE"},
    {"buildid-dir", TG_OPT_TEXT, NULL, "perf's --buildid-dir: the build-id cache", "DIR"},
    {0},
};

bool tg_set_has_samples(const tg_set *set)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        if (strcmp(tg_trace_format(tg_set_trace(set, i)), "perf") == 0)
            return true;
    return false;
}

static const ss_class *class_of(ss_walk *w, const tg_event *ev)
{
    const tg_event_class *c = tg_event_class_of(ev);
    for (size_t i = 0; i < w->n_classes; i++)
        if (w->classes[i].cls == c)
            return &w->classes[i];
    if (tg_grow(&w->classes, &w->cap_classes, w->n_classes + 1, sizeof *w->classes) < 0)
        return NULL;
    ss_class *k = &w->classes[w->n_classes++];
    k->cls = c;
    k->chain = perf_chain_field(ev, TG_SCOPE_PAYLOAD);
    return k;
}

static int visit_sample(ss_walk *w, const tg_event *ev, tg_sample_stack *out)
{
    const ss_class *k = class_of(w, ev);
    if (!k)
        return TG_ERR_NOMEM;
    if (tg_event_class_system(k->cls)) /* a tracepoint: not stackcollapse's */
        return 0;
    long n = perf_chain_walk(&w->s, &w->syms, ev, TG_SCOPE_PAYLOAD, k->chain, &w->frames,
                             &w->cap_frames);
    if (n < 0)
        return TG_ERR_NOMEM;
    size_t depth = (size_t)n;
    if (tg_grow(&w->names, &w->cap_names, depth + 1, sizeof *w->names) < 0 ||
        tg_grow(&w->modules, &w->cap_modules, depth + 1, sizeof *w->modules) < 0)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < depth; i++) {
        const perf_chain_frame *f = &w->frames[depth - 1 - i];
        w->names[i] = f->sym ? f->sym->name : "[unknown]";
        w->modules[i] = f->map ? f->map->dso : NULL;
    }
    const ps_thread *t = perf_session_thread(&w->s, ev->pid, ev->tid);
    *out = (tg_sample_stack){.ev = ev,
                             .comm = t ? t->comm : ":-1",
                             .pid = ev->pid,
                             .tid = ev->tid,
                             .depth = depth,
                             .names = w->names,
                             .modules = w->modules,
                             .chain = w->frames};
    return 1;
}

tg_sample_walker *tg_sample_walker_new(const tg_options *opts)
{
    ss_walk *w = calloc(1, sizeof *w);
    if (w)
        perf_symbols_configure(&w->syms, opts);
    return w;
}

int tg_sample_walker_feed(tg_sample_walker *w, const tg_event *ev, tg_sample_stack *stack)
{
    if (strncmp(tg_event_name(ev), "PERF_RECORD_", 12) == 0) {
        perf_session_update(&w->s, ev);
        return w->s.nomem ? TG_ERR_NOMEM : 0;
    }
    int rc = visit_sample(w, ev, stack);
    return rc >= 0 && (w->s.nomem || w->syms.nomem) ? TG_ERR_NOMEM : rc;
}

void tg_sample_walker_free(tg_sample_walker *w)
{
    if (!w)
        return;
    free(w->classes);
    free(w->frames);
    free(w->names);
    free(w->modules);
    perf_session_free(&w->s);
    perf_symbols_free(&w->syms);
    free(w);
}

int tg_sample_stacks_walk(tg_iter *it, const tg_options *opts, tg_sample_stack_fn fn, void *ctx,
                          tg_error **err)
{
    tg_sample_walker *w = tg_sample_walker_new(opts);
    int rc = w ? 0 : TG_ERR_NOMEM;
    const tg_event *ev;
    while (rc == 0 && (rc = tg_iter_next(it, &ev)) > 0) {
        tg_sample_stack stack;
        rc = tg_sample_walker_feed(w, ev, &stack);
        if (rc > 0)
            rc = fn(ctx, &stack);
    }
    if (rc == TG_ERR_NOMEM)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_sample_walker_free(w);
    return rc;
}
