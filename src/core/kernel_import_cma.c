/* kernel_import_cma.c - contiguous memory allocations (CMA) as Perfetto draws them: a slice
 * "mm_cma_alloc" on the allocating thread, from cma_alloc_start to its cma_alloc_info (older
 * kernels) or cma_alloc_finish (newer ones). */
#include "core/kernel_import.h"

enum { CMA_START, CMA_INFO, CMA_FINISH };

static int cma_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t track = km_imp_thread_track(c, ev->utid);
    if (track < 0)
        return 0;
    if (member != CMA_START) {
        km_imp_end(c, step, track);
        return 0;
    }
    static const char name[] = "mm_cma_alloc";
    const char *kept = km_imp_name(c, name, sizeof name - 1);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static const char *const cma_names[] = {"cma_alloc_start", "cma_alloc_info", "cma_alloc_finish",
                                        NULL};
const km_importer km_import_cma = {cma_names, cma_event};
