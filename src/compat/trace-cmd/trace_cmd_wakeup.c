/* trace_cmd_wakeup.c - `trace-cmd report -w`: how long each woken task waited for the cpu.
 *
 *   <idle>-0 [000] 5241.981444: sched_switch: swapper/0:0 [120] R ==> bash:28275 [120] Latency: 1.082 usecs
 *   ...
 *   Average wakeup latency: 32.782 usecs
 *   Maximum Latency: 175.599 usecs at timestamp: 5241.988526
 *   Minimum Latency: 1.082 usecs at timestamp: 5241.981444
 *
 * As trace-cmd counts it: a shown sched_wakeup or sched_wakeup_new (whose "success" field,
 * where the format has one, is not 0) starts a wait for its "pid" (a second wakeup restarts
 * it); a shown sched_switch to that pid ("next_pid") ends it, prints the latency on the
 * switch's line and counts it, as real-time when "next_prio" is at most 99.  The summary's
 * times are the switches' (seconds and microseconds, trace-cmd's rounding of the
 * microseconds without a carry into the seconds).  Without sched_wakeup or sched_switch
 * formats, -w changes nothing.
 *
 * Waits are kept in the one hash table by pid; the classes' fields are found at their first
 * event. */
#include "compat/trace-cmd/trace_cmd_wakeup.h"

#include <stdlib.h>
#include <string.h>

enum { W_WAKEUP, W_WAKEUP_NEW, W_SWITCH, W_KINDS };

typedef struct lat_stats {
    uint64_t total, count, max, max_time, min, min_time;
} lat_stats;

struct tc_wakeup {
    const tg_event_class *cls[W_KINDS];
    long task[W_KINDS], success[W_KINDS], prio; /* field indices, -1 none, -2 not looked up */
    bool off;
    tg_hash waits; /* pid -> start time */
    lat_stats all, rt;
};

static long field_index(const tg_event *ev, const char *name)
{
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) == 0 && v.name && strcmp(v.name, name) == 0)
            return (long)i;
    }
    return -1;
}

/* tep_read_number_field: false when the class has no such field */
static bool number(const tg_event *ev, long i, uint64_t *v)
{
    tg_value val;
    if (i < 0 || tg_event_field(ev, TG_SCOPE_PAYLOAD, (size_t)i, &val) < 0)
        return false;
    *v = val.type == TG_VAL_UINT ? val.v.u : val.type == TG_VAL_SINT ? (uint64_t)val.v.s : 0;
    return true;
}

tc_wakeup *tc_wakeup_new(const tg_trace *t)
{
    tc_wakeup *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    static const char *const names[W_KINDS] = {"sched_wakeup", "sched_wakeup_new", "sched_switch"};
    for (size_t i = 0; i < tg_trace_class_count(t); i++) {
        const tg_event_class *c = tg_trace_class(t, i);
        for (int k = 0; k < W_KINDS; k++)
            if (!w->cls[k] && c->system && strcmp(c->system, "sched") == 0 &&
                strcmp(c->name, names[k]) == 0)
                w->cls[k] = c;
    }
    for (int k = 0; k < W_KINDS; k++)
        w->task[k] = w->success[k] = -2;
    w->prio = -2;
    w->off = !w->cls[W_WAKEUP] || !w->cls[W_SWITCH];
    w->all.min = w->rt.min = UINT64_MAX;
    return w;
}

static void count(lat_stats *s, uint64_t lat, uint64_t end)
{
    if (lat > s->max) {
        s->max = lat;
        s->max_time = end;
    }
    if (lat < s->min) {
        s->min = lat;
        s->min_time = end;
    }
    s->total += lat;
    s->count++;
}

/* "%llu.%03llu" of ns as microseconds */
static void usecs(tg_buf *out, uint64_t ns)
{
    tg_buf_u64(out, ns / 1000);
    tg_buf_putc(out, '.');
    tg_buf_u64_pad(out, ns % 1000, 3, '0');
}

int tc_wakeup_event(tc_wakeup *w, const tg_event *ev, tg_buf *out)
{
    if (w->off || !ev->cls)
        return 0;
    int k = ev->cls == w->cls[W_WAKEUP]       ? W_WAKEUP
            : ev->cls == w->cls[W_WAKEUP_NEW] ? W_WAKEUP_NEW
            : ev->cls == w->cls[W_SWITCH]     ? W_SWITCH
                                              : -1;
    if (k < 0)
        return 0;
    if (w->task[k] == -2) {
        w->task[k] = field_index(ev, k == W_SWITCH ? "next_pid" : "pid");
        w->success[k] = field_index(ev, "success");
        if (k == W_SWITCH)
            w->prio = field_index(ev, "next_prio");
        /* trace-cmd turns -w off without these fields */
        if (w->task[k] < 0 || (k == W_SWITCH && w->prio < 0)) {
            w->off = true;
            return 0;
        }
    }
    uint64_t v, pid, t = (uint64_t)tg_event_trace_time_ns(ev);
    if (k != W_SWITCH) {
        if ((number(ev, w->success[k], &v) && !v) || !number(ev, w->task[k], &pid))
            return 0;
        uint64_t *start;
        if (tg_hash_insert(&w->waits, (uint32_t)pid, &start) < 0)
            return TG_ERR_NOMEM;
        *start = t;
        return 0;
    }
    uint64_t prio;
    if (!number(ev, w->prio, &prio) || !number(ev, w->task[k], &pid))
        return 0;
    uint64_t *start = tg_hash_find(&w->waits, (uint32_t)pid);
    if (!start)
        return 0;
    uint64_t lat = t - *start;
    count(&w->all, lat, t);
    if (prio <= 99)
        count(&w->rt, lat, t);
    tg_buf_puts(out, " Latency: ");
    usecs(out, lat);
    tg_buf_puts(out, " usecs");
    tg_hash_remove(&w->waits, (uint32_t)pid);
    return 0;
}

static void timings(tg_buf *out, const lat_stats *s)
{
    tg_buf_puts(out, "\nAverage wakeup latency: ");
    usecs(out, s->total / s->count);
    tg_buf_puts(out, " usecs\nMaximum Latency: ");
    usecs(out, s->max);
    tg_buf_puts(out, " usecs at timestamp: ");
    tg_buf_u64(out, s->max_time / 1000000000);
    tg_buf_putc(out, '.');
    tg_buf_u64_pad(out, (s->max_time + 500) % 1000000000 / 1000, 6, '0');
    tg_buf_puts(out, "\nMinimum Latency: ");
    usecs(out, s->min);
    tg_buf_puts(out, " usecs at timestamp: ");
    tg_buf_u64(out, s->min_time / 1000000000);
    tg_buf_putc(out, '.');
    tg_buf_u64_pad(out, (s->min_time + 500) % 1000000000 / 1000, 6, '0');
    tg_buf_puts(out, "\n\n");
}

void tc_wakeup_finish(const tc_wakeup *w, tg_buf *out)
{
    if (w->off || !w->all.count)
        return;
    timings(out, &w->all);
    if (w->rt.count) {
        tg_buf_puts(out, "RT task timings:\n");
        timings(out, &w->rt);
    }
}

void tc_wakeup_free(tc_wakeup *w)
{
    if (!w)
        return;
    tg_hash_free(&w->waits);
    free(w);
}
