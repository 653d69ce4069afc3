/* kernel_import_memory.c - Android's shared-memory allocators (ION, DMA-BUF heaps) as
 * Perfetto draws them from ion_stat and dma_heap_stat.
 *
 * Each event gives the heap's total now and one buffer's change (len: positive when it is
 * allocated, negative when freed).  Three things come of it, as trace_processor makes them:
 *   - a global counter of the total: "mem.ion" (track type "ion"), "mem.dma_heap"
 *     ("android_dma_heap");
 *   - a counter of the change on the thread that made it: "mem.ion_change" ("ion_change"),
 *     "mem.dma_heap_change" ("android_dma_heap_change");
 *   - each buffer's life as a slice named by its size ("<len / 1024> kB") from its
 *     allocation to its release, on "mem.ion_buffer" / "mem.dma_buffer" tracks: buffers alive
 *     at once take a track each, a buffer the first track free at its allocation (Perfetto's
 *     track compressor), so the slices of one track never overlap. */
#include "core/kernel_import.h"

#include <stdio.h>
#include <string.h>

enum { MEM_ION_STAT, MEM_DMA_HEAP_STAT };

typedef struct heap_rules {
    const char *buffer_field; /* the field naming a buffer */
    const char *total_name, *total_type, *change_name, *change_type;
    const char *buffers_name, *buffers_type;
} heap_rules;

static const heap_rules rules[] = {
    [MEM_ION_STAT] = {"buffer_id", "mem.ion", "ion", "mem.ion_change", "ion_change",
                      "mem.ion_buffer", "android_ion_allocations"},
    [MEM_DMA_HEAP_STAT] = {"inode", "mem.dma_heap", "android_dma_heap", "mem.dma_heap_change",
                           "android_dma_heap_change", "mem.dma_buffer", "android_dma_allocations"},
};

/* A buffer allocated (len > 0) or released: its slice begins on the first free track of its
 * family's set, or ends on the track it holds. */
static int buffer_slice(tg_kcursor *c, tg_kstep *step, int member, int64_t buffer, int64_t len,
                        int64_t ts)
{
    const heap_rules *r = &rules[member];
    km_imp_how how = {
        .type = TG_KTRACK_GLOBAL, .type_name = r->buffers_type, .cpu = -1, .utid = -1, .upid = -1};
    uint64_t set = km_imp_key_int(0x6d656d62u, member);
    size_t n = strlen(r->buffers_name);
    if (len <= 0) {
        int64_t track = km_imp_set_end(c, set, (uint64_t)buffer, &how, r->buffers_name, n);
        if (track >= 0)
            km_imp_end(c, step, track);
        return track == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
    }
    int64_t track = km_imp_set_begin(c, set, (uint64_t)buffer, ts, &how, r->buffers_name, n);
    if (track < 0)
        return track == TG_ERR_NOMEM ? TG_ERR_NOMEM : 0;
    char name[32];
    int len_n = snprintf(name, sizeof name, "%lld kB", (long long)(len / 1024));
    const char *kept = km_imp_name(c, name, (size_t)len_n);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static int memory_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    const heap_rules *r = &rules[member];
    int64_t total, len = 0, buffer = 0;
    if (km_imp_int(ev, "total_allocated", &total)) {
        km_imp_how how = {.type = TG_KTRACK_GLOBAL,
                          .type_name = r->total_type,
                          .counter = true,
                          .cpu = -1,
                          .utid = -1,
                          .upid = -1};
        int64_t track = km_imp_track(c, km_imp_key(0x6d656du + (uint64_t)member, "total", 5), &how,
                                     r->total_name, strlen(r->total_name));
        if (track < 0)
            return (int)track;
        TG_TRY(km_imp_counter(c, step, track, (double)total));
    }
    bool has_len = km_imp_int(ev, "len", &len);
    if (has_len && ev->utid >= 0) {
        km_imp_how how = {.type = TG_KTRACK_COUNTER,
                          .type_name = r->change_type,
                          .counter = true,
                          .cpu = -1,
                          .utid = ev->utid,
                          .upid = -1};
        int64_t track = km_imp_track(c, km_imp_key_int(0x6d656d75u + (uint64_t)member, ev->utid),
                                     &how, r->change_name, strlen(r->change_name));
        if (track < 0)
            return (int)track;
        TG_TRY(km_imp_counter(c, step, track, (double)len));
    }
    if (has_len && km_imp_int(ev, r->buffer_field, &buffer))
        return buffer_slice(c, step, member, buffer, len, ts);
    return 0;
}

static const char *const memory_names[] = {"ion_stat", "dma_heap_stat", NULL};
const km_importer km_import_memory = {memory_names, memory_event};
