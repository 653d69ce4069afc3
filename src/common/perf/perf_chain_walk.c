/* perf_chain_walk.c - a sample's call chain resolved to maps and symbols (see the header). */
#include "common/perf/perf_chain_walk.h"

#include <string.h>

/* perf_event.h's PERF_CONTEXT_*: markers in a call chain, not addresses */
#define PCW_CONTEXT_MAX ((uint64_t)-4095)
#define PCW_CONTEXT_KERNEL ((uint64_t)-128)

long perf_chain_field(const tg_event *ev, tg_scope scope)
{
    size_t n = tg_event_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) == 0 && v.name && strcmp(v.name, "callchain") == 0 &&
            v.type == TG_VAL_ARRAY)
            return (long)i;
    }
    return -1;
}

long perf_chain_walk(perf_session *s, perf_symbols *syms, const tg_event *ev, tg_scope scope,
                     long field, perf_chain_frame **frames, size_t *cap)
{
    tg_value chain;
    if (field < 0 || tg_event_field(ev, scope, (size_t)field, &chain) < 0 ||
        chain.type != TG_VAL_ARRAY)
        return 0;
    if (tg_grow(frames, cap, chain.count + 1, sizeof **frames) < 0)
        return -1;
    long n = 0;
    bool kernel = false;
    for (size_t i = 0; i < chain.count; i++) {
        tg_value v;
        if (tg_value_child(&chain, i, &v) < 0)
            break;
        if (v.v.u >= PCW_CONTEXT_MAX) {
            kernel = v.v.u == PCW_CONTEXT_KERNEL;
            continue;
        }
        perf_chain_frame *f = &(*frames)[n++];
        f->ip = v.v.u;
        f->kernel = kernel;
        f->map = perf_session_map(s, ev->pid, kernel, v.v.u);
        f->sym = f->map ? perf_symbols_find(syms, f->map->dso, perf_map_addr(f->map, v.v.u)) : NULL;
    }
    return n;
}
