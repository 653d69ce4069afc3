/* perf_frame_text.c - the frame texts of perf script, formatted once (see the header). */
#include "compat/perf/perf_frame_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(int32_t pid, uint32_t bits, uint64_t ip)
{
    uint64_t h = (ip ^ ((uint64_t)(uint32_t)pid << 29) ^ bits) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 31);
}

typedef struct pft_probe {
    const perf_frame_text *ft;
    int32_t pid;
    uint32_t bits;
    uint64_t ip;
} pft_probe;

static int entry_eq(const void *ctx, uint64_t value)
{
    const pft_probe *p = ctx;
    const pft_entry *e = &p->ft->v[value];
    return e->ip == p->ip && e->pid == p->pid && e->key_bits == p->bits;
}

/* Appends n bytes of s to the arena. */
static int arena_put(perf_frame_text *ft, const char *s, size_t n)
{
    TG_TRY(tg_grow(&ft->arena, &ft->arena_cap, ft->arena_len + n, 1));
    memcpy(ft->arena + ft->arena_len, s, n);
    ft->arena_len += n;
    return 0;
}

/* The text perf script prints for the address: "%16lx" and the parts asked for. */
static int format(perf_frame_text *ft, perf_session *s, perf_symbols *syms, int32_t pid, int space,
                  uint64_t ip, unsigned what)
{
    const ps_sym *sym = NULL;
    const ps_map *m = space < 0 ? NULL : perf_resolve(s, syms, pid, space > 0, ip, &sym);
    uint64_t addr = perf_map_addr(m, ip);
    char head[64];
    int n = snprintf(head, sizeof head, "%16" PRIx64, (what & PFT_RAW_IP) ? ip : addr);
    TG_TRY(arena_put(ft, head, (size_t)n));
    if (what & PFT_SYM) {
        const char *name = sym ? sym->name : "[unknown]";
        TG_TRY(arena_put(ft, " ", 1));
        TG_TRY(arena_put(ft, name, strlen(name)));
        if (sym && (what & PFT_SYMOFF)) {
            n = snprintf(head, sizeof head, "+0x%" PRIx64, addr - sym->start);
            TG_TRY(arena_put(ft, head, (size_t)n));
        }
    }
    if (what & PFT_DSO) {
        const char *dso = m ? m->dso : "[unknown]";
        TG_TRY(arena_put(ft, " (", 2));
        TG_TRY(arena_put(ft, dso, strlen(dso)));
        TG_TRY(arena_put(ft, ")", 1));
    }
    return 0;
}

const char *perf_frame_text_of(perf_frame_text *ft, perf_session *s, perf_symbols *syms,
                               int32_t pid, int space, uint64_t ip, unsigned what, size_t *len)
{
    if (ft->maps_version != s->maps_version) { /* texts of other maps */
        tg_hash_clear(&ft->index);
        ft->n = ft->arena_len = 0;
        ft->maps_version = s->maps_version;
    }
    if (space != 0)
        pid = -1; /* the kernel's maps are every process's; no maps: no process's */
    uint32_t bits = (uint32_t)(space + 1) << 4 | (what & 15u);
    uint64_t hash = key_hash(pid, bits, ip);
    pft_probe probe = {ft, pid, bits, ip};
    uint64_t *found = tg_hash_find_by(&ft->index, hash, entry_eq, &probe);
    if (found) {
        const pft_entry *e = &ft->v[*found];
        *len = e->len;
        return ft->arena + e->off;
    }
    size_t off = ft->arena_len;
    uint64_t *slot;
    if (tg_grow(&ft->v, &ft->cap, ft->n + 1, sizeof *ft->v) < 0 ||
        format(ft, s, syms, pid, space, ip, what) < 0 || tg_hash_add(&ft->index, hash, &slot) < 0) {
        ft->nomem = true;
        return NULL;
    }
    *slot = ft->n;
    ft->v[ft->n++] = (pft_entry){ip, pid, bits, off, ft->arena_len - off};
    *len = ft->arena_len - off;
    return ft->arena + off;
}

void perf_frame_text_free(perf_frame_text *ft)
{
    tg_hash_free(&ft->index);
    free(ft->v);
    free(ft->arena);
    memset(ft, 0, sizeof *ft);
}
