/* kernel_import_drm.c - GPU scheduler and fence events (the kernel's DRM subsystem) as
 * Perfetto draws them on the threads that cause them:
 *   - a job queued to a GPU scheduler ring (drm_sched_job; drm_sched_job_queue since Linux
 *     6.17) is an instant "drm_sched_job_queue" of the queuing thread, with args "gpu sched
 *     ring" (the ring's name) and "gpu sched job" (the job's id), or, for the newer event,
 *     "fence context" and "fence seqno" (its finished fence);
 *   - a thread waiting for a fence (dma_fence_wait_start to dma_fence_wait_end) is a slice
 *     "dma_fence_wait" of the thread, with args "fence context" and "fence seqno".
 * The rings' and fences' own timelines (a job from run to done, a fence from emit to
 * signal) are not drawn. */
#include "core/kernel_import.h"

enum { DRM_SCHED_JOB, DRM_SCHED_JOB_QUEUE, DRM_FENCE_WAIT_START, DRM_FENCE_WAIT_END };

static int fence_args(tg_kcursor *c, const tg_event *ev, tg_kstep *step, const char *context,
                      const char *seqno)
{
    int64_t v;
    if (km_imp_int(ev, context, &v))
        km_imp_arg_int(c, step, "fence context", v);
    if (km_imp_int(ev, seqno, &v))
        km_imp_arg_int(c, step, "fence seqno", v);
    return 0;
}

static int drm_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t track = km_imp_thread_track(c, ev->utid), id;
    if (track < 0)
        return 0;
    if (member == DRM_FENCE_WAIT_END) {
        km_imp_end(c, step, track);
        return 0;
    }
    if (member == DRM_FENCE_WAIT_START) {
        static const char wait[] = "dma_fence_wait";
        const char *name = km_imp_name(c, wait, sizeof wait - 1);
        if (!name)
            return TG_ERR_NOMEM;
        fence_args(c, ev, step, "context", "seqno");
        return km_imp_begin(c, step, track, name, NULL, ts);
    }
    static const char queue[] = "drm_sched_job_queue";
    const char *name = km_imp_name(c, queue, sizeof queue - 1), *ring;
    if (!name)
        return TG_ERR_NOMEM;
    size_t n = km_imp_text(ev, "name", &ring);
    TG_TRY(km_imp_arg_text(c, step, "gpu sched ring", n ? ring : "", n));
    if (member == DRM_SCHED_JOB && km_imp_int(ev, "id", &id))
        km_imp_arg_int(c, step, "gpu sched job", id);
    if (member == DRM_SCHED_JOB_QUEUE)
        fence_args(c, ev, step, "fence_context", "fence_seqno");
    return km_imp_whole(c, step, track, name, NULL, ts, 0);
}

static const char *const drm_names[] = {"drm_sched_job", "drm_sched_job_queue",
                                        "dma_fence_wait_start", "dma_fence_wait_end", NULL};
const km_importer km_import_drm = {drm_names, drm_event};
