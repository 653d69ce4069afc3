/* kernel_import_adreno.c - Adreno GPU command batches (Qualcomm's kgsl driver) as Perfetto
 * draws them: each retired batch is a slice "GPU" from its start to its retire time, on a
 * track per process, context and priority, "GPU <process> (Ctx=<id>, Prio=<prio>)", of type
 * adreno_gpu_cmdbatch.
 *
 * The batch's times are the GPU's always-on counter, which ticks at 19.2 MHz;
 * kgsl_adreno_cmdbatch_sync relates a tick count to the event's time, and a retired batch
 * is placed by the last such relation (none yet: no slice). */
#include "core/kernel_import.h"

#include <stdio.h>

enum { ADRENO_SYNC, ADRENO_RETIRED };

/* The pass's numbers: the last sync's ticks and time (time + 1: 0 none). */
static const uint64_t sync_ticks_key = 0x61647274u, sync_time_key = 0x61647473u;

static int64_t ticks_to_ns(int64_t ticks, int64_t sync_ticks, int64_t sync_time)
{
    /* 1e9 / 19.2e6 ns per tick = 625 / 12 */
    return sync_time + (ticks - sync_ticks) * 625 / 12;
}

static int adreno_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t ticks, id, prio, start, retire;
    if (member == ADRENO_SYNC) {
        if (!km_imp_int(ev, "ticks", &ticks))
            return 0;
        uint64_t *slot = km_imp_slot(c, sync_ticks_key);
        if (!slot)
            return TG_ERR_NOMEM;
        *slot = (uint64_t)ticks;
        if (!(slot = km_imp_slot(c, sync_time_key)))
            return TG_ERR_NOMEM;
        *slot = (uint64_t)ts + 1;
        return 0;
    }
    uint64_t *slot = km_imp_slot(c, sync_time_key);
    if (!slot)
        return TG_ERR_NOMEM;
    int64_t sync_time = (int64_t)*slot - 1;
    if (!*slot || !km_imp_int(ev, "id", &id) || !km_imp_int(ev, "prio", &prio) ||
        !km_imp_int(ev, "start", &start) || !km_imp_int(ev, "retire", &retire))
        return 0;
    if (!(slot = km_imp_slot(c, sync_ticks_key)))
        return TG_ERR_NOMEM;
    int64_t sync_ticks = (int64_t)*slot;
    const tg_kmodel *m = c->m;
    int64_t upid =
        ev->utid >= 0 && (size_t)ev->utid < m->n_threads ? m->threads[ev->utid].upid : -1;
    const char *process = upid >= 0 && m->procs[upid].name ? m->procs[upid].name : "";
    char name[256];
    int n = snprintf(name, sizeof name, "GPU %.200s (Ctx=%lld, Prio=%lld)", process, (long long)id,
                     (long long)prio);
    int64_t key[3] = {upid, id, prio};
    km_imp_how how = {.type = TG_KTRACK_GLOBAL,
                      .type_name = "adreno_gpu_cmdbatch",
                      .cpu = -1,
                      .utid = -1,
                      .upid = upid};
    int64_t track =
        km_imp_track(c, km_imp_key(0x61647265u, key, sizeof key), &how, name, (size_t)n);
    if (track < 0)
        return (int)track;
    int64_t begin = ticks_to_ns(start, sync_ticks, sync_time);
    int64_t end = ticks_to_ns(retire, sync_ticks, sync_time);
    static const char gpu[] = "GPU";
    const char *kept = km_imp_name(c, gpu, sizeof gpu - 1);
    return kept ? km_imp_whole(c, step, track, kept, NULL, begin, end - begin) : TG_ERR_NOMEM;
}

static const char *const adreno_names[] = {"kgsl_adreno_cmdbatch_sync",
                                           "kgsl_adreno_cmdbatch_retired", NULL};
const km_importer km_import_adreno = {adreno_names, adreno_event};
