/* trace_cpus.c - what a trace says about the machine's CPUs (tg_cpu_info: a Perfetto
 * CpuInfo packet's processor names, clusters, capacities and identifiers).
 *
 * A trace attribute like its tasks: the reader lists the CPUs at open, the kernel model
 * counts them among the CPUs of the cpu table, and the SQL layer shows what is listed of
 * each. */
#include "core/format_api.h"

#include "core/grow.h"

#include <string.h>

int tg_trace_add_cpu_info(tg_trace *t, const tg_cpu_info *cpu)
{
    if (tg_grow(&t->cpu_infos, &t->cap_cpu_infos, t->n_cpu_infos + 1, sizeof *t->cpu_infos) < 0)
        return TG_ERR_NOMEM;
    tg_cpu_info copy = *cpu;
    if (cpu->processor && !(copy.processor = tg_arena_strdup(&t->arena, cpu->processor)))
        return TG_ERR_NOMEM;
    t->cpu_infos[t->n_cpu_infos++] = copy;
    return 0;
}

size_t tg_trace_cpu_info_count(const tg_trace *t) { return t->n_cpu_infos; }

const tg_cpu_info *tg_trace_cpu_info(const tg_trace *t, size_t i)
{
    return i < t->n_cpu_infos ? &t->cpu_infos[i] : NULL;
}
