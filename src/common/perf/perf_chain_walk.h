/* perf_chain_walk.h - a sample's call chain as perf resolves it: each address with the map
 * and symbol the session and the ELF files give it.
 *
 * A chain holds addresses and PERF_CONTEXT_* markers (kernel, user, ...): a marker says in
 * whose maps the addresses after it lie and is not a frame.  The folded writer and the SQL
 * tables walk chains through this one function, so they name frames alike (perf script's
 * names: the symbol, "[unknown]" without one). */
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

/* The payload field index of ev's call chain in scope (the sample's fields: a tracepoint's
 * event context, else its payload), or -1 when its samples carry none. */
long perf_chain_field(const tg_event *ev, tg_scope scope);
/* Fills *frames (grown as needed, *cap its room) with the frames of ev's chain (field index
 * field of scope), the sampled one first.  The count, or -1 when out of memory. */
long perf_chain_walk(perf_session *s, perf_symbols *syms, const tg_event *ev, tg_scope scope,
                     long field, perf_chain_frame **frames, size_t *cap);

#endif
