/* kernel_import_cpu_util.c - a CPU's utilization as Perfetto draws it from
 * sched_cpu_util_cfs (Android kernels): three counters of the CPU the event names, "Cpu N
 * Util" (cpu_util), "Cpu N Cap" (capacity) and "Cpu N Nr Running" (nr_running), in that
 * order. */
#include "core/kernel_import.h"

#include <stdio.h>

static int cpu_util_event(tg_kcursor *c, int member, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    (void)member, (void)ts;
    static const struct {
        const char *field, *name;
    } counters[] = {{"cpu_util", "Util"}, {"capacity", "Cap"}, {"nr_running", "Nr Running"}};
    int64_t cpu;
    if (!km_imp_int(ev, "cpu", &cpu) || cpu < 0 || cpu > 1 << 20)
        return 0;
    for (size_t i = 0; i < sizeof counters / sizeof *counters; i++) {
        int64_t value;
        if (!km_imp_int(ev, counters[i].field, &value))
            continue;
        char name[64];
        int n = snprintf(name, sizeof name, "Cpu %d %s", (int)cpu, counters[i].name);
        km_imp_how how = {.type = TG_KTRACK_CPU_COUNTER,
                          .counter = true,
                          .cpu = (int32_t)cpu,
                          .utid = -1,
                          .upid = -1};
        int64_t track =
            km_imp_track(c, km_imp_key(0x637075u, name, (size_t)n), &how, name, (size_t)n);
        if (track < 0)
            return (int)track;
        TG_TRY(km_imp_counter(c, step, track, (double)value));
    }
    return 0;
}

static const char *const cpu_util_names[] = {"sched_cpu_util_cfs", NULL};
const km_importer km_import_cpu_util = {cpu_util_names, cpu_util_event};
