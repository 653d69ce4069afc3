/* kernel_import_kprobe.c - kprobes as Perfetto draws them: on the thread that hit the probe,
 * a probe of type BEGIN opens a slice named by the probe, END closes the thread's innermost,
 * INSTANT is a slice of no duration.
 *
 * Perfetto's ftrace recorder writes a kprobe hit as kprobe_event {name, type}; the slices go
 * on the thread's own track, beside its atrace slices. */
#include "core/kernel_import.h"

enum { KPROBE_BEGIN = 1, KPROBE_END = 2, KPROBE_INSTANT = 3 };

static int kprobe_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member;
    int64_t track = km_imp_thread_track(c, ev->utid), type;
    const char *s;
    size_t n = km_imp_text(ev, "name", &s);
    if (track < 0 || !km_imp_int(ev, "type", &type))
        return 0;
    if (type == KPROBE_END) {
        km_imp_end(c, step, track);
        return 0;
    }
    if (type != KPROBE_BEGIN && type != KPROBE_INSTANT)
        return 0;
    const char *name = km_imp_name(c, n ? s : "", n);
    if (!name)
        return TG_ERR_NOMEM;
    return type == KPROBE_BEGIN ? km_imp_begin(c, step, track, name, NULL, ts)
                                : km_imp_whole(c, step, track, name, NULL, ts, 0);
}

static const char *const kprobe_names[] = {"kprobe_event", NULL};
const km_importer km_import_kprobe = {kprobe_names, kprobe_event};
