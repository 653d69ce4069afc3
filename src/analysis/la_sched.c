/* la_sched.c - `traceglot analyze schedstats|schedtop|schedlog|schedfreq`: lttng-analyses'
 * scheduling latencies (lttng-schedstats, -schedtop, -schedlog, -schedfreq: one command with
 * --stats, --top, --log, --freq and --total/--per-tid/--per-prio), text and LAMI.
 *
 * A latency is from a thread's first wakeup (sched_waking, sched_wakeup or _new, while it
 * runs on no CPU) to the sched_switch that switches it in, on the CPU of that switch; the
 * wakee and waker are printed with the names their records hold at the end (lttng-analyses
 * logs the objects), the per-thread rows with the name the thread had at its first latency,
 * sorted by that name in lower case. */
#include "analysis/la_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sched_ev {
    int64_t wakeup, sw, latency, prio;
    int32_t cpu;
    size_t wakee;
    long waker;
};

struct sched_tid {
    int64_t tid, pid;
    char comm[LA_COMM_MAX];
    int64_t *prios;
    size_t n_prios, cap_prios;
    size_t count;
};

struct sched {
    la_run *run;
    struct sched_ev *evs;
    size_t n_evs, cap_evs;
    struct sched_tid *tids;
    size_t n_tids, cap_tids;
    tg_hash by_tid;
    bool nomem;
};

static struct sched_tid *tid_find(struct sched *s, int64_t tid)
{
    uint64_t *v = tg_hash_find(&s->by_tid, (uint64_t)tid);
    return v ? &s->tids[*v] : NULL;
}

static void add_prio(struct sched *s, struct sched_tid *t, int64_t prio)
{
    if (prio == LA_NONE) /* a tracer that records no priority (LTTng 0.x) */
        return;
    if (tg_grow(&t->prios, &t->cap_prios, t->n_prios + 1, sizeof *t->prios) < 0) {
        s->nomem = true;
        return;
    }
    t->prios[t->n_prios++] = prio;
}

static struct sched_tid *tid_add(struct sched *s, const la_proc *p, int64_t ts)
{
    uint64_t *slot;
    (void)ts;
    if (tg_grow(&s->tids, &s->cap_tids, s->n_tids + 1, sizeof *s->tids) < 0 ||
        tg_hash_insert(&s->by_tid, (uint64_t)p->tid, &slot) < 0) {
        s->nomem = true;
        return NULL;
    }
    *slot = s->n_tids;
    struct sched_tid *t = &s->tids[s->n_tids++];
    memset(t, 0, sizeof *t);
    t->tid = p->tid;
    t->pid = p->pid;
    snprintf(t->comm, sizeof t->comm, "%s", p->comm);
    add_prio(s, t, p->prio);
    return t;
}

static void on_switch(void *ctx, const tg_event *ev, int64_t prev_tid, const char *prev_comm,
                      int64_t next_tid, const char *next_comm, size_t wakee, long waker)
{
    struct sched *s = ctx;
    la_run *r = s->run;
    (void)prev_tid, (void)prev_comm, (void)next_comm;
    const la_proc *wp = la_proc_at(&r->st, wakee);
    if (!la_filter_proc(&r->conf, wp) || !la_filter_cpu(&r->conf, ev->cpu))
        return;
    if (wp->last_wakeup == LA_NONE)
        return;
    int64_t latency = ev->ts - wp->last_wakeup;
    if (r->conf.has_min && (double)latency < r->conf.min)
        return;
    if (r->conf.has_max && (double)latency > r->conf.max)
        return;
    if (waker >= 0) {
        const la_proc *kp = la_proc_at(&r->st, (size_t)waker);
        if (!tid_find(s, kp->tid) && !tid_add(s, kp, ev->ts))
            return;
    }
    struct sched_tid *t = tid_find(s, next_tid);
    if (!t && !(t = tid_add(s, la_proc_at(&r->st, wakee), ev->ts)))
        return;
    t->count++;
    if (tg_grow(&s->evs, &s->cap_evs, s->n_evs + 1, sizeof *s->evs) < 0) {
        s->nomem = true;
        return;
    }
    s->evs[s->n_evs++] = (struct sched_ev){.wakeup = wp->last_wakeup,
                                           .sw = ev->ts,
                                           .latency = latency,
                                           .prio = wp->prio,
                                           .cpu = ev->cpu,
                                           .wakee = wakee,
                                           .waker = waker};
}

static void on_prio(void *ctx, int64_t ts, int64_t tid, int64_t prio)
{
    struct sched *s = ctx;
    (void)ts;
    struct sched_tid *t = tid_find(s, tid);
    if (t)
        add_prio(s, t, prio);
}

static int sched_begin(la_run *r)
{
    struct sched *s = calloc(1, sizeof *s);
    if (!s)
        return TG_ERR_NOMEM;
    s->run = r;
    r->ctx = s;
    r->st.hooks = (la_hooks){.ctx = s, .sched_switch = on_switch, .prio_changed = on_prio};
    return 0;
}

/* one group of latencies (total, a thread's, a priority's) */
struct group {
    int64_t key;
    size_t *evs;
    int64_t *lat; /* the latencies of evs */
    size_t n;
    int64_t min, max, total;
    double stdev;
};

static int group_stats(struct sched *s, struct group *g)
{
    int64_t *lat = g->lat = malloc((g->n + 1) * sizeof *lat);
    if (!lat)
        return TG_ERR_NOMEM;
    g->min = g->max = g->total = 0;
    for (size_t i = 0; i < g->n; i++) {
        int64_t l = s->evs[g->evs[i]].latency;
        lat[i] = l;
        if (i == 0 || l < g->min)
            g->min = l;
        if (i == 0 || l > g->max)
            g->max = l;
        g->total += l;
    }
    g->stdev = la_stdev(lat, g->n);
    return 0;
}

/* the groups of events by key (the thread or the priority), in first-seen order */
static int group_by(struct sched *s, bool by_prio, struct group **out, size_t *n_out)
{
    struct group *gs = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < s->n_evs; i++) {
        int64_t key = by_prio ? s->evs[i].prio : la_proc_at(&s->run->st, s->evs[i].wakee)->tid;
        size_t k = 0;
        while (k < n && gs[k].key != key)
            k++;
        if (k == n) {
            TG_TRY(tg_grow(&gs, &cap, n + 1, sizeof *gs));
            memset(&gs[n], 0, sizeof gs[n]);
            gs[n].key = key;
            gs[n].evs = malloc(s->n_evs * sizeof *gs[n].evs);
            if (!gs[n].evs)
                return TG_ERR_NOMEM;
            n++;
        }
        gs[k].evs[gs[k].n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        TG_TRY(group_stats(s, &gs[k]));
    /* sorted by key */
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && gs[k - 1].key > gs[k].key; k--) {
            struct group tmp = gs[k];
            gs[k] = gs[k - 1];
            gs[k - 1] = tmp;
        }
    *out = gs;
    *n_out = n;
    return 0;
}

static void free_groups(struct group *gs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(gs[i].evs);
        free(gs[i].lat);
    }
    free(gs);
}

static json_object *proc_obj(la_run *r, long i)
{
    if (i < 0)
        return NULL;
    const la_proc *p = la_proc_at(&r->st, (size_t)i);
    return la_lami_process(p->comm, p->pid, p->tid);
}

static void print_events(struct sched *s, tg_buf *out, const char *title, const size_t *idx,
                         size_t n)
{
    la_run *r = s->run;
    tg_buf_printf(out, "\n%s\n", title);
    static const char *const heads[] = {"Wakeup", "Switch", "Latency (us)", "Priority",
                                        "CPU",    "Wakee",  "Waker"};
    la_pad(out, heads[0], 20, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, heads[1], 19, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, heads[2], 15, '>');
    tg_buf_putc(out, ' ');
    la_pad(out, heads[3], 10, '>');
    tg_buf_puts(out, "  ");
    la_pad(out, heads[4], 3, '>');
    tg_buf_puts(out, "   ");
    la_pad(out, heads[5], 25, '<');
    tg_buf_puts(out, "  ");
    la_pad(out, heads[6], 25, '<');
    tg_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++) {
        const struct sched_ev *e = &s->evs[idx[i]];
        char lat[48], prio[32], cpu[16], wakee[LA_COMM_MAX + 24], waker[LA_COMM_MAX + 24];
        la_us3(lat, sizeof lat, (double)e->latency);
        snprintf(prio, sizeof prio, "%lld", (long long)e->prio);
        snprintf(cpu, sizeof cpu, "%d", e->cpu);
        const la_proc *wp = la_proc_at(&r->st, e->wakee);
        snprintf(wakee, sizeof wakee, "%s (%lld)", wp->comm, (long long)wp->tid);
        if (e->waker >= 0) {
            const la_proc *kp = la_proc_at(&r->st, (size_t)e->waker);
            snprintf(waker, sizeof waker, "%s (%lld)", kp->comm, (long long)kp->tid);
        } else {
            snprintf(waker, sizeof waker, "Unknown (N/A)");
        }
        la_log_range(out, &r->conf, e->wakeup, e->sw);
        la_pad(out, lat, 15, '>');
        tg_buf_putc(out, ' ');
        la_pad(out, prio, 10, '>');
        tg_buf_puts(out, "  ");
        la_pad(out, cpu, 3, '>');
        tg_buf_puts(out, "   ");
        la_pad(out, wakee, 25, '<');
        tg_buf_puts(out, "  ");
        la_pad(out, waker, 25, '<');
        tg_buf_putc(out, '\n');
    }
}

static json_object *events_table(struct sched *s, const char *cls, const size_t *idx, size_t n,
                                 int64_t begin, int64_t end)
{
    la_run *r = s->run;
    json_object *t = la_lami_table(r, cls, begin, end);
    for (size_t i = 0; i < n; i++) {
        const struct sched_ev *e = &s->evs[idx[i]];
        json_object *row = la_lami_row(t);
        json_object_array_add(row, la_lami_int("timestamp", e->wakeup));
        json_object_array_add(row, la_lami_int("timestamp", e->sw));
        json_object_array_add(row, la_lami_int("duration", e->latency));
        json_object_array_add(row, la_lami_int("number", e->prio));
        json_object_array_add(row, la_lami_cpu(e->cpu));
        json_object_array_add(row, proc_obj(r, (long)e->wakee));
        json_object_array_add(row, proc_obj(r, e->waker));
    }
    return t;
}

static bool by_latency(size_t a, size_t b, const void *arg)
{
    const struct sched_ev *e = arg;
    return e[a].latency > e[b].latency;
}

static bool by_name(size_t a, size_t b, const void *arg)
{
    const struct sched_tid *t = arg;
    const char *x = t[a].comm, *y = t[b].comm;
    for (;; x++, y++) {
        int cx = (*x >= 'A' && *x <= 'Z') ? *x + 32 : (unsigned char)*x;
        int cy = (*y >= 'A' && *y <= 'Z') ? *y + 32 : (unsigned char)*y;
        if (cx != cy || !cx)
            return cx < cy;
    }
}

/* freq table of a group: lttng-analyses' buckets (lower bounds in us) */
static void freq_fill(struct sched *s, const struct group *g, double *lower, double *upper,
                      int64_t *counts, size_t *n_rows, double umin, double umax)
{
    la_conf *c = &s->run->conf;
    double min = umin, max = umax;
    if (!c->freq_uniform) {
        min = (c->has_min ? c->min : (double)g->min) / 1000;
        max = (c->has_max ? c->max : (double)g->max) / 1000;
        if (!g->n && !c->has_min)
            min = 0;
        if (!g->n && !c->has_max)
            max = 0;
    }
    *n_rows = la_freq_buckets(g->lat, g->n, min, max, c->freq_resolution, lower, upper, counts);
}

static int la_sched_output(struct sched *s, la_run *r, tg_buf *out)
{
    la_conf *c = &r->conf;
    int64_t begin = r->period_begin, end = r->last_ts;
    int rc = 0;
    size_t *all = malloc((s->n_evs + 1) * sizeof *all);
    size_t *tid_idx = malloc((s->n_tids + 1) * sizeof *tid_idx);
    long res = c->freq_resolution;
    double *lower = malloc((size_t)res * sizeof *lower),
           *upper = malloc((size_t)res * sizeof *upper);
    int64_t *counts = malloc((size_t)res * sizeof *counts);
    struct group *tid_groups = NULL, *prio_groups = NULL;
    size_t n_tid_groups = 0, n_prio_groups = 0;
    struct group total = {.evs = all, .n = s->n_evs};
    if (!all || !tid_idx || !lower || !upper || !counts) {
        rc = TG_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < s->n_evs; i++)
        all[i] = i;
    if ((rc = group_stats(s, &total)) < 0 ||
        (rc = group_by(s, false, &tid_groups, &n_tid_groups)) < 0 ||
        (rc = group_by(s, true, &prio_groups, &n_prio_groups)) < 0)
        goto done;
    double total_avg = total.n ? (double)total.total / (double)total.n : 0;
    for (size_t i = 0; i < s->n_tids; i++)
        tid_idx[i] = i;
    la_sort(tid_idx, s->n_tids, by_name, s->tids);
    size_t *top = malloc((s->n_evs + 1) * sizeof *top);
    if (!top) {
        rc = TG_ERR_NOMEM;
        goto done;
    }
    memcpy(top, all, s->n_evs * sizeof *top);
    la_sort(top, s->n_evs, by_latency, s->evs);
    size_t n_top = s->n_evs;
    if (c->limit >= 0 && (size_t)c->limit < n_top)
        n_top = (size_t)c->limit;
    else if (c->limit < 0)
        n_top = (size_t)c->limit + n_top > n_top ? 0 : n_top + (size_t)c->limit;
    /* the uniform buckets: over every latency */
    double umin = 0, umax = 0;
    if (c->freq_uniform) {
        umin = c->has_min ? c->min : (total.n ? (double)total.min / 1000 : 0);
        umax = c->has_max ? c->max : (total.n ? (double)total.max / 1000 : 0);
    }
    if (c->json) {
        if (c->log)
            la_lami_add(r, events_table(s, "log", all, s->n_evs, begin, end));
        if (c->top)
            la_lami_add(r, events_table(s, "top", top, n_top, begin, end));
        if (c->stats && c->total) {
            json_object *t = la_lami_table(r, "total_stats", begin, end);
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_int("number", (int64_t)total.n));
            json_object_array_add(row, la_lami_int("duration", total.min));
            json_object_array_add(row, total.n ? la_lami_value("duration", total_avg)
                                               : la_lami_int("duration", 0));
            json_object_array_add(row, la_lami_int("duration", total.max));
            json_object_array_add(row, la_lami_duration_or_unknown(total.stdev));
            la_lami_add(r, t);
        }
        if (c->stats && c->per_tid) {
            json_object *t = la_lami_table(r, "per_tid_stats", begin, end);
            for (size_t i = 0; i < s->n_tids; i++) {
                const struct sched_tid *st = &s->tids[tid_idx[i]];
                if (!st->count)
                    continue;
                struct group *g = tid_groups;
                while (g->key != st->tid)
                    g++;
                char prios[256];
                la_prio_list(prios, sizeof prios, st->prios, st->n_prios);
                json_object *row = la_lami_row(t);
                json_object_array_add(row, la_lami_process(st->comm, LA_NONE, st->tid));
                json_object_array_add(row, la_lami_int("number", (int64_t)g->n));
                json_object_array_add(row, la_lami_int("duration", g->min));
                json_object_array_add(row,
                                      la_lami_value("duration", (double)g->total / (double)g->n));
                json_object_array_add(row, la_lami_int("duration", g->max));
                json_object_array_add(row, la_lami_duration_or_unknown(g->stdev));
                json_object_array_add(row, la_lami_string(prios));
            }
            la_lami_add(r, t);
        }
        if (c->stats && c->per_prio) {
            json_object *t = la_lami_table(r, "per_prio_stats", begin, end);
            for (size_t i = 0; i < n_prio_groups; i++) {
                const struct group *g = &prio_groups[i];
                json_object *row = la_lami_row(t);
                json_object_array_add(row, la_lami_int("number", g->key));
                json_object_array_add(row, la_lami_int("number", (int64_t)g->n));
                json_object_array_add(row, la_lami_int("duration", g->min));
                json_object_array_add(row,
                                      la_lami_value("duration", (double)g->total / (double)g->n));
                json_object_array_add(row, la_lami_int("duration", g->max));
                json_object_array_add(row, la_lami_duration_or_unknown(g->stdev));
            }
            la_lami_add(r, t);
        }
        if (c->freq) {
            for (int kind = 0; kind < 3; kind++) {
                bool on = kind == 0 ? c->total : kind == 1 ? c->per_tid : c->per_prio;
                if (!on)
                    continue;
                size_t n_g = kind == 0 ? 1 : kind == 1 ? n_tid_groups : n_prio_groups;
                /* --freq-series: the per-tid or per-prio tables as one */
                bool series = kind != 0 && c->freq_series;
                json_object *tables = series ? json_object_new_array() : NULL;
                json_object *subtitles = series ? json_object_new_array() : NULL;
                for (size_t k = 0; k < n_g; k++) {
                    const struct group *g = kind == 0   ? &total
                                            : kind == 1 ? &tid_groups[k]
                                                        : &prio_groups[k];
                    json_object *t;
                    if (kind == 0) {
                        t = la_lami_table(r, "freq", begin, end);
                    } else {
                        char title[128], sub[64];
                        snprintf(sub, sizeof sub, "%s: %lld", kind == 1 ? "TID" : "Priority",
                                 (long long)g->key);
                        snprintf(title, sizeof title,
                                 "Scheduling latency frequency distribution [%s]", sub);
                        t = la_lami_table_sub(r, "freq", title, begin, end);
                        if (series)
                            json_object_array_add(subtitles, json_object_new_string(sub));
                    }
                    size_t n_rows;
                    freq_fill(s, g, lower, upper, counts, &n_rows, umin, umax);
                    for (size_t i = 0; i < n_rows; i++) {
                        json_object *row = la_lami_row(t);
                        json_object_array_add(row, la_lami_value("duration", lower[i]));
                        json_object_array_add(row, la_lami_value("duration", upper[i]));
                        json_object_array_add(row, la_lami_int("number", counts[i]));
                    }
                    if (series)
                        json_object_array_add(tables, t);
                    else
                        la_lami_add(r, t);
                }
                if (series)
                    la_lami_add_series(r, "Scheduling latencies frequency distributions",
                                       "schedulings", tables, subtitles);
            }
        }
        goto done_top;
    }
    la_print_timerange(r, out, begin, end);
    if (c->stats && c->total) {
        char txt[4][48], cnt[32];
        snprintf(cnt, sizeof cnt, "%zu", total.n);
        la_stats_texts(txt, total.min, total_avg, total.max, total.stdev);
        tg_buf_puts(out, "\nScheduling latency stats (total) (us)\n");
        static const char *const h[] = {"Count", "Min", "Avg", "Max", "Stdev"};
        for (int i = 0; i < 5; i++) {
            la_pad(out, h[i], 12, '<');
            tg_buf_putc(out, i < 4 ? ' ' : '\n');
        }
        la_pad(out, cnt, 12, '<');
        for (int i = 0; i < 4; i++) {
            tg_buf_putc(out, ' ');
            la_pad(out, txt[i], 12, '<');
        }
        tg_buf_putc(out, '\n');
    }
    if (c->stats && c->per_tid && s->n_evs) {
        tg_buf_puts(out, "\nScheduling latency stats (per-TID) (us)\n");
        static const char *const h[] = {"Count", "Min", "Avg", "Max", "Stdev"};
        la_pad(out, "Process", 25, '<');
        tg_buf_putc(out, ' ');
        la_pad(out, h[0], 8, '>');
        for (int i = 1; i < 5; i++) {
            tg_buf_puts(out, "  ");
            la_pad(out, h[i], 12, '>');
        }
        tg_buf_puts(out, "   Priorities\n");
        for (size_t i = 0; i < s->n_tids; i++) {
            const struct sched_tid *st = &s->tids[tid_idx[i]];
            if (!st->count)
                continue;
            struct group *g = tid_groups;
            while (g->key != st->tid)
                g++;
            char txt[4][48], name[LA_COMM_MAX + 24], cnt[32], prios[256];
            snprintf(name, sizeof name, "%s (%lld)", st->comm, (long long)st->tid);
            snprintf(cnt, sizeof cnt, "%zu", g->n);
            la_stats_texts(txt, g->min, (double)g->total / (double)g->n, g->max, g->stdev);
            la_prio_list(prios, sizeof prios, st->prios, st->n_prios);
            la_pad(out, name, 25, '<');
            tg_buf_putc(out, ' ');
            la_pad(out, cnt, 8, '>');
            for (int k = 0; k < 4; k++) {
                tg_buf_puts(out, "  ");
                la_pad(out, txt[k], 12, '>');
            }
            tg_buf_printf(out, "   %s\n", prios);
        }
    }
    if (c->stats && c->per_prio && n_prio_groups) {
        tg_buf_puts(out, "\nScheduling latency stats (per-prio) (us)\n");
        static const char *const h[] = {"Count", "Min", "Avg", "Max", "Stdev"};
        la_pad(out, "Prio", 4, '>');
        tg_buf_putc(out, ' ');
        la_pad(out, h[0], 8, '>');
        for (int i = 1; i < 5; i++) {
            tg_buf_puts(out, "  ");
            la_pad(out, h[i], 12, '>');
        }
        tg_buf_putc(out, '\n');
        for (size_t i = 0; i < n_prio_groups; i++) {
            const struct group *g = &prio_groups[i];
            char txt[4][48], p[32], cnt[32];
            snprintf(p, sizeof p, "%lld", (long long)g->key);
            snprintf(cnt, sizeof cnt, "%zu", g->n);
            la_stats_texts(txt, g->min, (double)g->total / (double)g->n, g->max, g->stdev);
            la_pad(out, p, 4, '>');
            tg_buf_putc(out, ' ');
            la_pad(out, cnt, 8, '>');
            for (int k = 0; k < 4; k++) {
                tg_buf_puts(out, "  ");
                la_pad(out, txt[k], 12, '>');
            }
            tg_buf_putc(out, '\n');
        }
    }
    if (c->freq) {
        for (int kind = 0; kind < 3; kind++) {
            bool on = kind == 0 ? c->total : kind == 1 ? c->per_tid : c->per_prio;
            if (!on)
                continue;
            size_t n_g = kind == 0 ? 1 : kind == 1 ? n_tid_groups : n_prio_groups;
            for (size_t k = 0; k < n_g; k++) {
                const struct group *g = kind == 0   ? &total
                                        : kind == 1 ? &tid_groups[k]
                                                    : &prio_groups[k];
                char title[128];
                if (kind == 0)
                    snprintf(title, sizeof title,
                             "Scheduling latency frequency distribution - None");
                else
                    snprintf(title, sizeof title,
                             "Scheduling latency frequency distribution - %s: %lld",
                             kind == 1 ? "TID" : "Priority", (long long)g->key);
                size_t n_rows;
                freq_fill(s, g, lower, upper, counts, &n_rows, umin, umax);
                for (size_t i = 0; i < n_rows; i++)
                    lower[i] = lower[i] / 1000;
                la_freq_graph(out, title, "\xc2\xb5s", lower, counts, n_rows);
            }
        }
    }
    if (c->log)
        print_events(s, out, "Scheduling log", all, s->n_evs);
    if (c->top)
        print_events(s, out, "Scheduling top", top, n_top);
done_top:
    free(top);
done:
    free(all);
    free(total.lat);
    free(tid_idx);
    free(lower);
    free(upper);
    free(counts);
    free_groups(tid_groups, n_tid_groups);
    free_groups(prio_groups, n_prio_groups);
    return rc;
}

static int sched_end(la_run *r, tg_buf *out)
{
    struct sched *s = r->ctx;
    if (s->nomem)
        return TG_ERR_NOMEM;
    return la_sched_output(s, r, out);
}

static void sched_free(la_run *r)
{
    struct sched *s = r->ctx;
    if (!s)
        return;
    for (size_t i = 0; i < s->n_tids; i++)
        free(s->tids[i].prios);
    free(s->tids);
    free(s->evs);
    tg_hash_free(&s->by_tid);
    free(s);
    r->ctx = NULL;
}

static const char *const sched_needs[] = {"sched_switch", NULL};

#define SCHED_KIND(id, preset_fn)                                                                  \
    const la_kind la_kind_##id = {.name = #id,                                                     \
                                  .needs = sched_needs,                                            \
                                  .preset = preset_fn,                                             \
                                  .begin = sched_begin,                                            \
                                  .end = sched_end,                                                \
                                  .free = sched_free}
SCHED_KIND(schedstats, la_preset_stats);
SCHED_KIND(schedtop, la_preset_top);
SCHED_KIND(schedlog, la_preset_log);
SCHED_KIND(schedfreq, la_preset_freq);
