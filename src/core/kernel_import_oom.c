/* kernel_import_oom.c - the kernel's out-of-memory killer as Perfetto draws it: mark_victim
 * (the task the killer chose, by its pid field: a thread id) is an instant "mem.oom_kill" on
 * that thread's track, not on the track of the thread that ran the killer. */
#include "core/kernel_import.h"

static int oom_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member;
    int64_t victim;
    if (!km_imp_int(ev, "pid", &victim))
        return 0;
    int64_t utid = km_imp_utid_of_tid(c, victim);
    if (utid < 0)
        return (int)utid;
    int64_t track = km_imp_thread_track(c, utid);
    if (track < 0)
        return 0;
    static const char name[] = "mem.oom_kill";
    const char *kept = km_imp_name(c, name, sizeof name - 1);
    return kept ? km_imp_whole(c, step, track, kept, NULL, ts, 0) : TG_ERR_NOMEM;
}

static const char *const oom_names[] = {"mark_victim", NULL};
const km_importer km_import_oom = {oom_names, oom_event};
