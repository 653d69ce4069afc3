/* kernel_import_cma.c - contiguous memory allocations (CMA) as Perfetto draws them: a slice
 * "mm_cma_alloc" on the allocating thread, from cma_alloc_start to its cma_alloc_info (older
 * kernels) or cma_alloc_finish (newer ones), with the pages migrated, reclaimed and mapped
 * as args cma_nr_migrated, cma_nr_reclaimed, cma_nr_mapped: cma_alloc_info's own, or those
 * of the thread's last mm_alloc_contig_migrate_range_info before cma_alloc_finish. */
#include "core/kernel_import.h"

enum { CMA_START, CMA_INFO, CMA_FINISH, CMA_MIGRATE_INFO };

static const char *const counts[] = {"nr_migrated", "nr_reclaimed", "nr_mapped"};
static const char *const arg_keys[] = {"cma_nr_migrated", "cma_nr_reclaimed", "cma_nr_mapped"};

/* The pass's number of the thread's last migrate_range_info count i (value + 1: 0 none). */
static uint64_t *saved(tg_kcursor *c, int64_t utid, int i)
{
    int64_t key[2] = {utid, i};
    return km_imp_slot(c, km_imp_key(0x636d61u, key, sizeof key));
}

static int cma_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t track = km_imp_thread_track(c, ev->utid);
    if (track < 0)
        return 0;
    if (member == CMA_MIGRATE_INFO || member == CMA_FINISH) {
        for (int i = 0; i < 3; i++) {
            int64_t v;
            uint64_t *slot = saved(c, ev->utid, i);
            if (!slot)
                return TG_ERR_NOMEM;
            if (member == CMA_MIGRATE_INFO)
                *slot = km_imp_int(ev, counts[i], &v) ? (uint64_t)v + 1 : 0;
            else if (*slot)
                km_imp_arg_int(c, step, arg_keys[i], (int64_t)*slot - 1);
        }
        if (member == CMA_MIGRATE_INFO)
            return 0;
    }
    if (member == CMA_INFO)
        for (int i = 0; i < 3; i++) {
            int64_t v;
            if (km_imp_int(ev, counts[i], &v))
                km_imp_arg_int(c, step, arg_keys[i], v);
        }
    if (member != CMA_START) {
        km_imp_end(c, step, track);
        return 0;
    }
    static const char name[] = "mm_cma_alloc";
    const char *kept = km_imp_name(c, name, sizeof name - 1);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static const char *const cma_names[] = {"cma_alloc_start", "cma_alloc_info", "cma_alloc_finish",
                                        "mm_alloc_contig_migrate_range_info", NULL};
const km_importer km_import_cma = {cma_names, cma_event};
