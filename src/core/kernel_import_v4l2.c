/* kernel_import_v4l2.c - Video4Linux2 buffer ioctls as Perfetto draws them: each v4l2_qbuf and
 * v4l2_dqbuf is an instant on the calling thread, category "Video 4 Linux 2", named
 * "VIDIOC_QBUF minor=<device minor> seq=<sequence> type=<buffer type> index=<index>"
 * (VIDIOC_DQBUF for a dequeue), and a flow goes from a buffer's queueing to its dequeueing
 * (the same minor, sequence, type and index). */
#include "core/kernel_import.h"

#include <stdio.h>

enum { V4L2_QBUF, V4L2_DQBUF };

static int v4l2_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int64_t track = km_imp_thread_track(c, ev->utid), minor = 0, seq = 0, type = 0, index = 0;
    if (track < 0)
        return 0;
    km_imp_int(ev, "minor", &minor);
    km_imp_int(ev, "sequence", &seq);
    km_imp_int(ev, "type", &type);
    km_imp_int(ev, "index", &index);
    char name[160];
    int n = snprintf(name, sizeof name, "%s minor=%lld seq=%lld type=%lld index=%lld",
                     member == V4L2_QBUF ? "VIDIOC_QBUF" : "VIDIOC_DQBUF", (long long)minor,
                     (long long)seq, (long long)type, (long long)index);
    const char *kept = km_imp_name(c, name, (size_t)n);
    if (!kept)
        return TG_ERR_NOMEM;
    TG_TRY(km_imp_whole(c, step, track, kept, "Video 4 Linux 2", ts, 0));
    /* the buffer's queueing flows into its dequeueing */
    int64_t buffer[4] = {minor, seq, type, index};
    uint64_t flow = km_imp_key(0x76346c32u, buffer, sizeof buffer) | 1ull << 63;
    km_imp_flow(c, step, flow, member == V4L2_QBUF ? TG_FLOW_OUT : TG_FLOW_IN | TG_FLOW_END);
    return 0;
}

static const char *const v4l2_names[] = {"v4l2_qbuf", "v4l2_dqbuf", NULL};
const km_importer km_import_v4l2 = {v4l2_names, v4l2_event};
