/* kernel_import_wakesource.c - wakeup sources (wakelocks) as Perfetto draws them: one track
 * per source name, "Wakelock(<name>)", and on it one slice of that name from the first
 * wakeup_source_activate to the deactivate that balances every activate since. */
#include "core/kernel_import.h"

#include <stdio.h>

enum { WAKE_ACTIVATE, WAKE_DEACTIVATE };

static int wakesource_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts,
                            tg_kstep *step)
{
    const char *s;
    size_t n = km_imp_text(ev, "name", &s);
    char name[160];
    int len = snprintf(name, sizeof name, "Wakelock(%.*s)", (int)(n < 128 ? n : 128), n ? s : "");
    uint64_t key = km_imp_key(0x77616b65u, name, (size_t)len);
    uint64_t *active = km_imp_slot(c, key);
    if (!active)
        return TG_ERR_NOMEM;
    if (member == WAKE_DEACTIVATE && *active == 0)
        return 0; /* activated before the trace */
    uint64_t was = *active;
    *active = member == WAKE_ACTIVATE ? was + 1 : was - 1;
    static const km_imp_how how = {.type = TG_KTRACK_GLOBAL, .cpu = -1, .utid = -1, .upid = -1};
    int64_t track = km_imp_track(c, key, &how, name, (size_t)len);
    if (track < 0)
        return (int)track;
    if (member == WAKE_DEACTIVATE) {
        if (was == 1)
            km_imp_end(c, step, track);
        return 0;
    }
    if (was)
        return 0;
    const char *kept = km_imp_name(c, name, (size_t)len);
    return kept ? km_imp_begin(c, step, track, kept, NULL, ts) : TG_ERR_NOMEM;
}

static const char *const wakesource_names[] = {"wakeup_source_activate", "wakeup_source_deactivate",
                                               NULL};
const km_importer km_import_wakesource = {wakesource_names, wakesource_event};
