/* kernel_cpu.c - what the kernel model draws on each CPU's own tracks: hard IRQs and softirqs
 * as slices, cpu_frequency and cpu_idle as counters, as Perfetto draws them.
 *
 * Perfetto's ftrace importer puts irq_handler_entry/exit on a CPU track "Irq Cpu N" as a
 * slice "IRQ (<handler name>)" of category "irq", softirq_entry/exit on "SoftIrq Cpu N" as
 * a slice named by the vector's action (HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL, TASKLET,
 * SCHED, HRTIMER, RCU; another vector makes none), cpu_frequency's state on the counter
 * track "cpufreq" of the CPU the event names (kHz) and cpu_idle's on "cpuidle".  The same
 * events of LTTng (irq_softirq_*, power_cpu_*) and LTTng 0.x (kernel.irq_entry with irq_id
 * and no name: "IRQ (<number>)") are drawn alike.  A track is made when its first event comes
 * (ids in the order of the events, as every track); an exit whose entry was not seen (the
 * trace began inside it) ends nothing.  Slices nest per track (an IRQ inside an IRQ). */
#include "core/kernel_internal.h"

#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const softirq_names[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                            "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};

static const struct {
    tg_ktrack_type type;
    const char *name; /* "%d": the CPU */
} kinds[KM_CPU_KINDS] = {
    [KM_CPU_IRQ] = {TG_KTRACK_CPU_IRQ, "Irq Cpu %d"},
    [KM_CPU_SOFTIRQ] = {TG_KTRACK_CPU_SOFTIRQ, "SoftIrq Cpu %d"},
    [KM_CPU_FREQ] = {TG_KTRACK_CPU_FREQ, "cpufreq"},
    [KM_CPU_IDLE] = {TG_KTRACK_CPU_IDLE, "cpuidle"},
};

/* The CPU's track of a kind, made at its first event. */
static int64_t cpu_track(tg_kcursor *c, int cpu, int kind)
{
    if ((size_t)cpu >= c->n_cpu || c->cpu[cpu].track[kind] >= 0)
        return (size_t)cpu < c->n_cpu ? c->cpu[cpu].track[kind] : -1;
    tg_kmodel *m = c->m;
    const char *name = NULL;
    if (km_at_frontier(c)) {
        char text[64];
        int n = snprintf(text, sizeof text, kinds[kind].name, cpu);
        name = km_intern(m, text, (size_t)n);
    }
    int64_t id = km_track_create(c, kinds[kind].type, -1, cpu, name);
    if (id < 0)
        return id;
    if (km_at_frontier(c) && kind == KM_CPU_FREQ)
        m->tracks[id].unit = "kHz";
    c->cpu[cpu].track[kind] = id;
    return id;
}

/* The slice name of an IRQ entry: Perfetto's "IRQ (name)", the number where no name. */
static const char *irq_name(tg_kcursor *c, const km_class *k, const tg_event *ev)
{
    char text[96];
    tg_value v;
    int n = -1;
    if (k->field[KM_IRQ_NAME] >= 0 &&
        tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)k->field[KM_IRQ_NAME], &v) == 0 &&
        (v.type == TG_VAL_STRING || (v.type == TG_VAL_BYTES && (v.flags & TG_VALF_TEXT))))
        n = snprintf(text, sizeof text, "IRQ (%.*s)",
                     (int)strnlen(v.v.str.ptr, v.v.str.len < 80 ? v.v.str.len : 80), v.v.str.ptr);
    else
        n = snprintf(text, sizeof text, "IRQ (%lld)",
                     (long long)km_int_field(ev, k->field[KM_IRQ]));
    return km_intern(c->m, text, (size_t)n);
}

static void slice_begin(tg_kcursor *c, int cpu, int which, int64_t track, const char *name,
                        int64_t ts, tg_kstep *step)
{
    km_cpu *pc = &c->cpu[cpu];
    int depth = pc->depth[which];
    if (depth < KM_OPEN_MAX)
        pc->open[which][depth] = (km_open){ts, name};
    if (depth < 255)
        pc->depth[which]++;
    if (step) {
        step->what |= TG_KSTEP_SLICE_BEGIN;
        step->cpu = cpu;
        step->slice_track = track;
        step->slice_name = name;
        step->slice_category = "irq";
        step->slice_depth = depth;
        step->slice_begin_ts = ts;
    }
}

static void slice_end(tg_kcursor *c, int cpu, int which, int64_t track, tg_kstep *step)
{
    km_cpu *pc = &c->cpu[cpu];
    if (!pc->depth[which])
        return; /* its entry came before the trace */
    int depth = --pc->depth[which];
    if (!step || depth >= KM_OPEN_MAX)
        return;
    step->what |= TG_KSTEP_SLICE_END;
    step->cpu = cpu;
    step->slice_track = track;
    step->slice_name = pc->open[which][depth].name;
    step->slice_category = "irq";
    step->slice_depth = depth;
    step->slice_begin_ts = pc->open[which][depth].ts;
}

int km_cpu_event(tg_kcursor *c, const km_class *k, const tg_event *ev, int64_t ts, tg_kstep *step)
{
    int cpu = ev->cpu;
    int64_t track, vec, at;
    switch (k->role) {
    case KM_ROLE_IRQ_ENTRY:
    case KM_ROLE_IRQ_EXIT:
        if (cpu < 0 || (track = cpu_track(c, cpu, KM_CPU_IRQ)) < 0)
            return cpu < 0 ? 0 : (int)track;
        if (k->role == KM_ROLE_IRQ_EXIT) {
            slice_end(c, cpu, 0, track, step);
            return 0;
        }
        {
            const char *name = irq_name(c, k, ev);
            if (!name)
                return TG_ERR_NOMEM;
            slice_begin(c, cpu, 0, track, name, ts, step);
        }
        return 0;
    case KM_ROLE_SOFTIRQ_ENTRY:
    case KM_ROLE_SOFTIRQ_EXIT:
        vec = km_int_field(ev, k->field[KM_VEC]);
        if (cpu < 0 || vec < 0 || vec >= (int64_t)(sizeof softirq_names / sizeof *softirq_names))
            return 0;
        if ((track = cpu_track(c, cpu, KM_CPU_SOFTIRQ)) < 0)
            return (int)track;
        if (k->role == KM_ROLE_SOFTIRQ_EXIT)
            slice_end(c, cpu, 1, track, step);
        else
            slice_begin(c, cpu, 1, track, softirq_names[vec], ts, step);
        return 0;
    case KM_ROLE_CPU_FREQ:
    case KM_ROLE_CPU_IDLE:
        at = km_int_field(ev, k->field[KM_CPU_ID]);
        if (at < 0)
            at = cpu;
        if (at > 1 << 20)
            return 0; /* no such CPU: a damaged field */
        TG_TRY(km_cpu_room(c, (int)at));
        if (!c->cpu[at].seen && km_at_frontier(c))
            TG_TRY(km_cpu_seen(c->m, (int32_t)at));
        c->cpu[at].seen = true;
        track = cpu_track(c, (int)at, k->role == KM_ROLE_CPU_FREQ ? KM_CPU_FREQ : KM_CPU_IDLE);
        if (track < 0)
            return (int)track;
        {
            tg_value v;
            double value;
            if (k->field[KM_STATE] < 0 ||
                tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)k->field[KM_STATE], &v) < 0)
                return 0;
            if (v.type == TG_VAL_UINT)
                value = (double)v.v.u;
            else if (v.type == TG_VAL_SINT)
                value = (double)v.v.s;
            else
                return 0;
            if (step) {
                step->what |= TG_KSTEP_COUNTER;
                step->cpu = (int32_t)at;
                step->counter_track = track;
                step->value = value;
            }
        }
        return 0;
    default: return 0;
    }
}
