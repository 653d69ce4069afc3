/* perf_chain_walk.c - a sample's call chain resolved to maps and symbols (see the header). */
#include "common/perf/perf_chain_walk.h"
#include "common/perf/perf_kallsyms.h"

#include <string.h>

const ps_map *perf_resolve(perf_session *s, perf_symbols *syms, int32_t pid, bool kernel,
                           uint64_t ip, const ps_sym **sym)
{
    *sym = NULL;
    const ps_map *m = perf_session_map(s, pid, kernel, ip);
    if (!m)
        return NULL;
    uint64_t addr = perf_map_addr(m, ip);
    if (kernel && strcmp(m->dso, "[kernel.kallsyms]") == 0) {
        /* perf finds the map before it loads the symbols: the address that loads them is
         * in the map whatever they say */
        bool loading = syms->kernel_state == 0;
        const perf_kallsyms *k = perf_symbols_kernel(syms, s);
        if (k) {
            if (!loading && (addr < k->start || addr >= k->end))
                return NULL;
            *sym = perf_kallsyms_find(k, addr);
        }
        return m;
    }
    *sym = perf_symbols_find(syms, m->dso, addr);
    return m;
}

void perf_resolve_sample_ip(perf_session *s, perf_symbols *syms, const tg_event *ev)
{
    const ps_sym *sym;
    if (syms->kernel_state == 0 && perf_sample_space(ev) == 1)
        perf_resolve(s, syms, ev->pid, true, ev->addr, &sym);
}

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
    perf_resolve_sample_ip(s, syms, ev);
    if (field < 0 || tg_event_field(ev, scope, (size_t)field, &chain) < 0 ||
        chain.type != TG_VAL_ARRAY)
        return 0;
    if (tg_grow(frames, cap, chain.count + 1, sizeof **frames) < 0)
        return -1;
    long n = 0;
    int space = 0;
    for (size_t i = 0; i < chain.count; i++) {
        tg_value v;
        if (tg_value_child(&chain, i, &v) < 0)
            break;
        if (v.v.u >= PERF_CHAIN_CONTEXT_MAX) {
            space = perf_chain_context(v.v.u);
            if (space == -2)
                return 0; /* perf drops the chain */
            continue;
        }
        perf_chain_frame *f = &(*frames)[n++];
        f->ip = v.v.u;
        f->kernel = space == 1;
        f->map = space < 0 ? NULL : perf_resolve(s, syms, ev->pid, space == 1, v.v.u, &f->sym);
        if (!f->map)
            f->sym = NULL;
    }
    return n;
}
