/* perf_frame_text.h - perf script's text of a call chain's frame, made once per address.
 *
 * perf script prints every frame of every chain as "%16lx sym+0xoff (dso)": on a profile the
 * same addresses come back in sample after sample, so the text of each (process, kernel or
 * user maps, address, fields shown) is formatted once, when first met, and copied after.
 * The texts depend on the session's maps: they are dropped whenever the maps change
 * (perf_session's maps_version), so each text is the one the maps of its sample give. */
#ifndef TG_PERF_FRAME_TEXT_H
#define TG_PERF_FRAME_TEXT_H

#include "common/perf/perf_chain_walk.h"
#include "core/consumer.h"

/* What the text holds: the symbol, its offset, the object (perf script's -F sym, symoff,
 * dso); PFT_RAW_IP: the address shown is the ip itself, not the map-relative one (perf
 * script's sample ip, where a chain's frames are relative). */
enum { PFT_SYM = 1, PFT_SYMOFF = 2, PFT_DSO = 4, PFT_RAW_IP = 8 };

typedef struct pft_entry {
    uint64_t ip;
    int32_t pid;
    uint32_t key_bits; /* (space + 1) << 4 | PFT_* */
    size_t off, len;   /* the text in the arena */
} pft_entry;

typedef struct perf_frame_text {
    tg_hash index; /* hash of the key -> entry */
    pft_entry *v;
    size_t n, cap;
    char *arena;
    size_t arena_len, arena_cap;
    uint64_t maps_version; /* the session's maps the texts were made with */
    bool nomem;
} perf_frame_text;

/* The text of ip (space: 1 in the kernel's maps, 0 in process pid's, -1 in none) with the parts `what` asks for:
 * the address as "%16lx" (map-relative as perf shows a chain's frames, unless PFT_RAW_IP), then " sym+0xoff" or " sym" and
 * " (dso)"; *len its length.  NULL when out of memory. */
const char *perf_frame_text_of(perf_frame_text *ft, perf_session *s, perf_symbols *syms,
                               int32_t pid, int space, uint64_t ip, unsigned what, size_t *len);
void perf_frame_text_free(perf_frame_text *ft);

#endif
