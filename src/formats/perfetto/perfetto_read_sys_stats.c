/* perfetto_read_sys_stats.c - a SysStats packet (traced_probes' periodic /proc and /sys
 * readings) as counter values, on the tracks trace_processor makes for them.
 *
 * Each reading is a counter of its own track, told apart by its dimensions: a disk's
 * counters by device and counter name, a CPU's idle time by CPU and state, a thermal zone
 * by its type, the GPU's frequency by GPU.  Disks give the difference since the disk's
 * previous reading (amounts in MB, throughputs in MB/s, flushes, flush time), so their
 * first reading gives nothing, as trace_processor computes them. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdio.h>
#include <string.h>

/* One value on the track of how (made at its first use).  0 or TG_ERR_NOMEM. */
static int push(tg_trace *t, const pf_counter_how *how, int64_t ts, double value, uint64_t offset)
{
    int64_t k = pf_counter_track(t, how);
    return k < 0 ? (int)k : pf_counter_record(t, ts, k, value, NULL, 0, offset);
}

/* A track of no one's, named name, of type and unit, with n dimensions. */
static pf_counter_how global(const char *type, const char *name, const char *unit,
                             const tg_value *dims, size_t n)
{
    return (pf_counter_how){
        .type = type, .name = name, .unit = unit, .dims = dims, .n_dims = n, .pid = -1, .tid = -1};
}

/* /proc/diskstats counts 512-byte sectors. */
#define SECTORS_PER_MB 2048.0

enum {
    DISK_READ,
    DISK_WRITE,
    DISK_DISCARD,
    DISK_FLUSH,
    DISK_READ_MS,
    DISK_WRITE_MS,
    DISK_DISCARD_MS,
    DISK_FLUSH_MS,
    DISK_COUNTS
};

static int disk_counter(tg_trace *t, const char *device, const char *counter, const char *unit,
                        int64_t ts, double value, uint64_t offset)
{
    tg_value dims[2];
    if (!pf_value_text(t, &dims[0], "device_name", device, strlen(device)) ||
        !pf_value_text(t, &dims[1], "counter_name", counter, strlen(counter)))
        return TG_ERR_NOMEM;
    char name[300];
    snprintf(name, sizeof name, "diskstat.[%.200s].%s", device, counter);
    pf_counter_how how = global("diskstat", name, unit, dims, 2);
    return push(t, &how, ts, value, offset);
}

static double throughput(double amount, int64_t ms)
{
    return ms ? amount * 1000.0 / (double)ms : 0;
}

static int disk_stat(tg_trace *t, const PerfettoRead__SysStats__DiskStat *d, int64_t ts,
                     uint64_t offset)
{
    const char *device = d->device_name ? d->device_name : "";
    int64_t now[DISK_COUNTS] = {(int64_t)d->read_sectors,    (int64_t)d->write_sectors,
                                (int64_t)d->discard_sectors, (int64_t)d->flush_count,
                                (int64_t)d->read_time_ms,    (int64_t)d->write_time_ms,
                                (int64_t)d->discard_time_ms, (int64_t)d->flush_time_ms};
    bool fresh;
    int64_t *prev = pf_probe_previous(t->priv, pf_counter_key(0x6469736b, device, strlen(device)),
                                      DISK_COUNTS, &fresh);
    if (!prev)
        return TG_ERR_NOMEM;
    int64_t diff[DISK_COUNTS];
    for (int i = 0; i < DISK_COUNTS; i++) {
        diff[i] = now[i] - prev[i];
        prev[i] = now[i];
    }
    if (fresh)
        return 0;
    double read = (double)diff[DISK_READ] / SECTORS_PER_MB;
    double write = (double)diff[DISK_WRITE] / SECTORS_PER_MB;
    double discard = (double)diff[DISK_DISCARD] / SECTORS_PER_MB;
    const struct {
        const char *name, *unit;
        double value;
    } out[] = {
        {"read_amount", "MB", read},
        {"read_throughput", "MB/s", throughput(read, diff[DISK_READ_MS])},
        {"write_amount", "MB", write},
        {"write_throughput", "MB/s", throughput(write, diff[DISK_WRITE_MS])},
        {"discard_amount", "MB", discard},
        {"discard_throughput", "MB/s", throughput(discard, diff[DISK_DISCARD_MS])},
        {"flush_amount", "count", (double)diff[DISK_FLUSH]},
        {"flush_time", "ms", (double)diff[DISK_FLUSH_MS]},
    };
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        TG_TRY(disk_counter(t, device, out[i].name, out[i].unit, ts, out[i].value, offset));
    return 0;
}

static int cpuidle(tg_trace *t, const PerfettoRead__SysStats__CpuIdleState *c, int64_t ts,
                   uint64_t offset)
{
    for (size_t i = 0; i < c->n_cpuidle_state_entry; i++) {
        const PerfettoRead__SysStats__CpuIdleStateEntry *e = c->cpuidle_state_entry[i];
        const char *state = e->state ? e->state : "";
        tg_value dims[2] = {pf_value_uint("cpu", c->cpu_id)};
        if (!pf_value_text(t, &dims[1], "state", state, strlen(state)))
            return TG_ERR_NOMEM;
        char name[300];
        snprintf(name, sizeof name, "cpuidle%u.%.250s", c->cpu_id, state);
        pf_counter_how how = global("cpu_idle_state", name, "us", dims, 2);
        TG_TRY(push(t, &how, ts, (double)e->duration_us, offset));
    }
    return 0;
}

/* A count of an interrupt (irq) or softirq (type "num_irq", "num_softirq"). */
static int interrupts(tg_trace *t, const char *type, PerfettoRead__SysStats__InterruptCount **ic,
                      size_t n, int64_t ts, uint64_t offset)
{
    for (size_t i = 0; i < n; i++) {
        tg_value dim = pf_value_uint("irq", (uint32_t)ic[i]->irq);
        char name[64];
        snprintf(name, sizeof name, "%s (id: %u)", type, (uint32_t)ic[i]->irq);
        pf_counter_how how = global(type, name, NULL, &dim, 1);
        TG_TRY(push(t, &how, ts, (double)ic[i]->count, offset));
    }
    return 0;
}

static int cpu_times(tg_trace *t, const PerfettoRead__SysStats__CpuTimes *c, int64_t ts,
                     uint64_t offset)
{
    if (!c->has_cpu_id)
        return tg_trace_count(t, "invalid_cpu_times", "error", 1);
    const struct {
        const char *key;
        uint64_t value;
    } times[] = {{"user_ns", c->user_ns},
                 {"user_nice_ns", c->user_nice_ns},
                 {"system_mode_ns", c->system_mode_ns},
                 {"idle_ns", c->idle_ns},
                 {"io_wait_ns", c->io_wait_ns},
                 {"irq_ns", c->irq_ns},
                 {"softirq_ns", c->softirq_ns},
                 {"steal_ns", c->steal_ns}};
    for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
        tg_value dims[2] = {pf_value_uint("cpu", c->cpu_id),
                            {.name = "cpustat_key",
                             .type = TG_VAL_STRING,
                             .v.str = {times[i].key, strlen(times[i].key)}}};
        char name[64];
        snprintf(name, sizeof name, "cpu.times.%s", times[i].key);
        pf_counter_how how = global("cpustat", name, NULL, dims, 2);
        TG_TRY(push(t, &how, ts, (double)times[i].value, offset));
    }
    return 0;
}

static const char *psi_key(int resource)
{
    static const char *const keys[] = {"resource.unspecified",
                                       "cpu.some",
                                       "cpu.full",
                                       "io.some",
                                       "io.full",
                                       "mem.some",
                                       "mem.full"};
    return resource >= 0 && resource < 7 ? keys[resource] : NULL;
}

int pf_read_sys_stats(tg_trace *t, const PerfettoRead__SysStats *st, int64_t ts, uint64_t offset)
{
    for (size_t i = 0; i < st->n_cpu_stat; i++)
        TG_TRY(cpu_times(t, st->cpu_stat[i], ts, offset));
    TG_TRY(interrupts(t, "num_irq", st->num_irq, st->n_num_irq, ts, offset));
    TG_TRY(interrupts(t, "num_softirq", st->num_softirq, st->n_num_softirq, ts, offset));
    const struct {
        bool has;
        const char *name;
        uint64_t value;
    } totals[] = {{st->has_num_forks, "num_forks", st->num_forks},
                  {st->has_num_irq_total, "num_irq_total", st->num_irq_total},
                  {st->has_num_softirq_total, "num_softirq_total", st->num_softirq_total}};
    for (size_t i = 0; i < sizeof totals / sizeof *totals; i++) {
        if (!totals[i].has)
            continue;
        pf_counter_how how = global(totals[i].name, totals[i].name, NULL, NULL, 0);
        TG_TRY(push(t, &how, ts, (double)totals[i].value, offset));
    }
    for (size_t i = 0; i < st->n_disk_stat; i++)
        TG_TRY(disk_stat(t, st->disk_stat[i], ts, offset));
    for (size_t i = 0; i < st->n_psi; i++) {
        const char *key = psi_key((int)st->psi[i]->resource);
        if (!key)
            return tg_trace_count(t, "psi_unknown_resource", "error", 1);
        tg_value dim = {.name = "psi_resource", .type = TG_VAL_STRING, .v.str = {key, strlen(key)}};
        char name[64];
        snprintf(name, sizeof name, "psi.%s", key);
        pf_counter_how how = global("psi", name, NULL, &dim, 1);
        TG_TRY(push(t, &how, ts, (double)st->psi[i]->total_ns, offset));
    }
    for (size_t i = 0; i < st->n_thermal_zone; i++) {
        const char *type = st->thermal_zone[i]->type ? st->thermal_zone[i]->type : "";
        tg_value dim;
        if (!pf_value_text(t, &dim, "thermal_zone", type, strlen(type)))
            return TG_ERR_NOMEM;
        pf_counter_how how = global("thermal_temperature_sys", type, "C", &dim, 1);
        TG_TRY(push(t, &how, ts, (double)st->thermal_zone[i]->temp, offset));
    }
    for (size_t i = 0; i < st->n_cpuidle_state; i++)
        TG_TRY(cpuidle(t, st->cpuidle_state[i], ts, offset));
    for (size_t i = 0; i < st->n_gpufreq_mhz; i++) {
        tg_value dim = pf_value_uint("gpu", 0);
        pf_counter_how how = global("gpu_frequency", "gpufreq", "MHz", &dim, 1);
        TG_TRY(push(t, &how, ts, (double)st->gpufreq_mhz[i], offset));
    }
    return 0;
}
