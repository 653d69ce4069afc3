/* perfetto_read_cpu_info.c - a CpuInfo packet (traced_probes' /proc/cpuinfo and cpufreq
 * reading) as the trace's CPU attributes: the cpu table's processor, cluster_id, capacity
 * and args.
 *
 * As trace_processor reads it: the packet's CPUs are numbered in order from 0.  Clusters
 * come from the capacities when every CPU has one (CPUs sorted by capacity, a new cluster at
 * each larger capacity), else from the highest frequency when every CPU lists frequencies
 * (the same on it), else all are cluster 0.  An ARM identifier gives the args
 * arm_cpu_implementer, _architecture, _variant, _part and _revision; the features bitmap
 * gives "cpu_features.<name>" for each feature of traced_probes' list it sets, and the
 * bitmap itself as "cpu_features.raw_bitmap"; a bit past that list counts
 * cpu_info_unknown_cpu_features (trace_processor's info stat), a packet without CPUs
 * cpu_info_empty. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdlib.h>
#include <string.h>

/* traced_probes' feature bits, in bit order (its list is append-only). */
static const char *const cpu_feature_names[] = {"cpu_features.mte", "cpu_features.mte3"};
#define CPU_FEATURE_COUNT (sizeof cpu_feature_names / sizeof *cpu_feature_names)

/* One CPU's sort key for the clusters: its capacity or its highest frequency. */
typedef struct cpu_rank {
    uint64_t key;
    size_t cpu;
} cpu_rank;

static int compare_ranks(const void *a, const void *b)
{
    const cpu_rank *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static uint32_t highest_frequency(const PerfettoRead__CpuInfo__Cpu *c)
{
    uint32_t top = 0;
    for (size_t i = 0; i < c->n_frequencies; i++)
        if (c->frequencies[i] > top)
            top = c->frequencies[i];
    return top;
}

/* The clusters of the n CPUs into cluster[] (0 when nothing tells them apart). */
static int find_clusters(const PerfettoRead__CpuInfo *info, int64_t *cluster)
{
    size_t n = info->n_cpus;
    bool capacities = true, frequencies = true;
    for (size_t i = 0; i < n; i++) {
        capacities = capacities && info->cpus[i]->has_capacity;
        frequencies = frequencies && info->cpus[i]->n_frequencies > 0;
        cluster[i] = 0;
    }
    if (!capacities && !frequencies)
        return 0;
    cpu_rank *ranks = malloc(n * sizeof *ranks);
    if (!ranks)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        ranks[i] =
            (cpu_rank){capacities ? info->cpus[i]->capacity : highest_frequency(info->cpus[i]), i};
    qsort(ranks, n, sizeof *ranks, compare_ranks);
    int64_t id = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && ranks[i].key > ranks[i - 1].key)
            id++;
        cluster[ranks[i].cpu] = id;
    }
    free(ranks);
    return 0;
}

static tg_value uint_arg(const char *name, uint64_t value)
{
    return (tg_value){.type = TG_VAL_UINT, .name = name, .v.u = value, .bits = 64, .base = 10};
}

/* The args of CPU c into args (room for 5 + CPU_FEATURE_COUNT + 1): their count. */
static size_t cpu_args(tg_trace *t, const PerfettoRead__CpuInfo__Cpu *c, tg_value *args, int *rc)
{
    size_t n = 0;
    *rc = 0;
    if (c->identifier_case == PERFETTO_READ__CPU_INFO__CPU__IDENTIFIER_ARM_IDENTIFIER &&
        c->arm_identifier) {
        const PerfettoRead__CpuInfo__ArmCpuIdentifier *a = c->arm_identifier;
        args[n++] = uint_arg("arm_cpu_implementer", a->implementer);
        args[n++] = uint_arg("arm_cpu_architecture", a->architecture);
        args[n++] = uint_arg("arm_cpu_variant", a->variant);
        args[n++] = uint_arg("arm_cpu_part", a->part);
        args[n++] = uint_arg("arm_cpu_revision", a->revision);
    }
    if (c->has_features && c->features) {
        for (size_t bit = 0; bit < CPU_FEATURE_COUNT; bit++)
            if (c->features >> bit & 1) {
                args[n] = uint_arg(cpu_feature_names[bit], 1);
                args[n++].bits = 1; /* a truth value */
            }
        args[n++] = uint_arg("cpu_features.raw_bitmap", c->features);
        if (c->features >> CPU_FEATURE_COUNT)
            *rc = tg_trace_count(t, "cpu_info_unknown_cpu_features", "info", 1);
    }
    return n;
}

int pf_read_cpu_info(tg_trace *t, const PerfettoRead__CpuInfo *info)
{
    if (!info->n_cpus)
        return tg_trace_count(t, "cpu_info_empty", "error", 1);
    int64_t *cluster = malloc(info->n_cpus * sizeof *cluster);
    if (!cluster)
        return TG_ERR_NOMEM;
    int rc = find_clusters(info, cluster);
    for (size_t i = 0; rc == 0 && i < info->n_cpus; i++) {
        const PerfettoRead__CpuInfo__Cpu *c = info->cpus[i];
        tg_value *args = tg_arena_alloc(&t->arena, (6 + CPU_FEATURE_COUNT) * sizeof *args);
        if (!args) {
            rc = TG_ERR_NOMEM;
            break;
        }
        tg_cpu_info cpu = {.cpu = (int64_t)i,
                           .processor = c->processor,
                           .cluster_id = cluster[i],
                           .capacity = c->has_capacity ? (int64_t)c->capacity : -1,
                           .args = args};
        cpu.n_args = cpu_args(t, c, args, &rc);
        if (rc == 0)
            rc = tg_trace_add_cpu_info(t, &cpu);
    }
    free(cluster);
    return rc;
}
