/* perf_chain_walk.h - a sample's call chain as perf resolves it: each address with the map
 * and symbol the session and the ELF files give it.
 *
 * A chain holds addresses and PERF_CONTEXT_* markers (kernel, user, ...): a marker says in
 * whose maps the addresses after it lie and is not a frame.  The folded writer and the SQL
 * tables walk chains through this one function, so they name frames alike (perf script's
 * names: the symbol, "[unknown]" without one); every consumer resolves an address through
 * perf_resolve. */
#ifndef TG_PERF_CHAIN_WALK_H
#define TG_PERF_CHAIN_WALK_H

#include "common/perf/perf_session.h"
#include "common/perf/perf_symbols.h"
#include "core/consumer.h"

typedef struct perf_chain_frame {
    uint64_t ip;
    bool kernel;       /* the address is in the kernel's maps */
    const ps_map *map; /* NULL: no map holds it */
    const ps_sym *sym; /* NULL: no symbol */
} perf_chain_frame;

/* The map and symbol perf finds for ip in the kernel's maps or process pid's: the map, NULL
 * when none holds it (the kernel's map ends where its kallsyms do: perf_kallsyms.h); *sym
 * the symbol there, NULL when none. */
const ps_map *perf_resolve(perf_session *s, perf_symbols *syms, int32_t pid, bool kernel,
                           uint64_t ip, const ps_sym **sym);

/* Whose maps hold a sample's own ip, by its cpumode: 1 the kernel's, 0 its process's, -1
 * none (perf's thread__find_map looks in none for a hypervisor's or a guest's sample). */
static inline int perf_sample_space(const tg_event *ev)
{
    tg_cpu_mode m = tg_event_cpu_mode(ev);
    return m == TG_CPU_MODE_KERNEL ? 1 : m == TG_CPU_MODE_USER ? 0 : -1;
}

/* A call chain's entries from PERF_CONTEXT_MAX up are markers (perf_event.h), not frames. */
#define PERF_CHAIN_CONTEXT_MAX ((uint64_t)-4095)
/* Whose maps the frames after a marker lie in: 1 the kernel's, 0 the process's, -1 none (the
 * hypervisor's); -2 for a marker perf 6.1 does not know (a guest's, or a corrupt chain):
 * perf then drops the whole chain (thread__resolve_callchain_sample). */
static inline int perf_chain_context(uint64_t marker)
{
    return marker == (uint64_t)-128   ? 1
           : marker == (uint64_t)-512 ? 0
           : marker == (uint64_t)-32  ? -1
                                      : -2;
}

/* perf resolves a sample's own ip (machine__resolve) before its chain, whatever it prints:
 * the first kernel ip is where the kernel's symbols are loaded (perf_resolve).  Called for
 * each sample before its chain is resolved; a no-op once they are loaded. */
void perf_resolve_sample_ip(perf_session *s, perf_symbols *syms, const tg_event *ev);

/* The payload field index of ev's call chain in scope (the sample's fields: a tracepoint's
 * event context, else its payload), or -1 when its samples carry none. */
long perf_chain_field(const tg_event *ev, tg_scope scope);
/* Fills *frames (grown as needed, *cap its room) with the frames of ev's chain (field index
 * field of scope), the sampled one first.  The count, or -1 when out of memory. */
long perf_chain_walk(perf_session *s, perf_symbols *syms, const tg_event *ev, tg_scope scope,
                     long field, perf_chain_frame **frames, size_t *cap);

#endif
