/* la_irq.c - `traceglot analyze irqstats|irqlog|irqfreq`: lttng-analyses' interrupt analysis
 * (lttng-irqstats, -irqlog, -irqfreq: one command with --stats, --log, --freq, --irq and
 * --softirq), text and LAMI.
 *
 * Its definitions: a hard IRQ lasts from irq_handler_entry to the irq_handler_exit of the
 * same number on its CPU (an exit of another number, or after a nested entry replaced the
 * first, ends none); a softirq from its softirq_entry to its exit, raised at the first
 * softirq_raise of its vector still pending on that CPU (a second raise before the entry is
 * the same softirq); only the events named softirq_raise/entry/exit count (lttng-modules 2.8
 * names them irq_softirq_*, which lttng-analyses 0.6.1 does not read).  A hard IRQ's name is
 * every name its number had in the period, joined with ", ". */
#include "analysis/la_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const softirq_names[] = {
    "HI_SOFTIRQ",           "TIMER_SOFTIRQ",   "NET_TX_SOFTIRQ", "NET_RX_SOFTIRQ",  "BLOCK_SOFTIRQ",
    "BLOCK_IOPOLL_SOFTIRQ", "TASKLET_SOFTIRQ", "SCHED_SOFTIRQ",  "HRTIMER_SOFTIRQ", "RCU_SOFTIRQ"};

struct irq_stats {
    int32_t id;
    bool hard, seen;
    bool unnamed;   /* hard, no entry named it: "unknown", or the statedump's name at the end */
    char name[256]; /* hard: the names joined */
    size_t *irqs;   /* indexes into irq_state.list */
    size_t n, cap;
    int64_t min, max, total;
    int64_t raise_count, raise_min, raise_max, raise_total;
};

struct irq_state {
    la_run *run;
    la_irq *list;
    size_t n_list, cap_list;
    struct irq_stats hard[1024], soft[32]; /* by number (hard numbers past 1023 share 1023) */
    bool nomem;
};

static struct irq_stats *hard_of(struct irq_state *s, int32_t id)
{
    return &s->hard[id >= 0 && id < 1024 ? id : 1023];
}

static void on_entry(void *ctx, int32_t id, const char *name, size_t len)
{
    struct irq_state *s = ctx;
    struct irq_stats *st = hard_of(s, id);
    char nm[128];
    snprintf(nm, sizeof nm, "%.*s", (int)len, name);
    if (!st->seen) {
        st->seen = true;
        st->id = id;
        st->hard = true;
        snprintf(st->name, sizeof st->name, "%s", nm);
        return;
    }
    /* a name not among those it had: appended */
    const char *p = st->name;
    size_t n = strlen(nm);
    for (;;) {
        const char *sep = strstr(p, ", ");
        size_t l = sep ? (size_t)(sep - p) : strlen(p);
        if (l == n && memcmp(p, nm, n) == 0)
            return;
        if (!sep)
            break;
        p = sep + 2;
    }
    size_t used = strlen(st->name);
    snprintf(st->name + used, sizeof st->name - used, ", %s", nm);
}

static void record(struct irq_state *s, const la_irq *irq, struct irq_stats *st)
{
    la_conf *c = &s->run->conf;
    if (!la_filter_cpu(c, irq->cpu) || irq->begin == LA_NONE)
        return;
    int64_t d = irq->end - irq->begin;
    if ((c->has_min && (double)d < c->min) || (c->has_max && (double)d > c->max))
        return;
    if (tg_grow(&s->list, &s->cap_list, s->n_list + 1, sizeof *s->list) < 0 ||
        tg_grow(&st->irqs, &st->cap, st->n + 1, sizeof *st->irqs) < 0) {
        s->nomem = true;
        return;
    }
    s->list[s->n_list] = *irq;
    if (!st->seen) {
        st->seen = true;
        st->id = irq->id;
        st->hard = irq->hard;
        st->unnamed = irq->hard;
        snprintf(st->name, sizeof st->name, "%s",
                 irq->hard                        ? "unknown"
                 : (irq->id >= 0 && irq->id < 10) ? softirq_names[irq->id]
                                                  : "?");
    }
    if (!st->n || d < st->min)
        st->min = d;
    if (!st->n || d > st->max)
        st->max = d;
    st->total += d;
    st->irqs[st->n++] = s->n_list++;
    if (!irq->hard && irq->raise != LA_NONE) {
        int64_t l = irq->begin - irq->raise;
        if (!st->raise_count || l < st->raise_min)
            st->raise_min = l;
        if (!st->raise_count || l > st->raise_max)
            st->raise_max = l;
        st->raise_total += l;
        st->raise_count++;
    }
}

static void on_exit_hard(void *ctx, const la_irq *irq)
{
    struct irq_state *s = ctx;
    record(s, irq, hard_of(s, irq->id));
}

static void on_exit_soft(void *ctx, const la_irq *irq)
{
    struct irq_state *s = ctx;
    if (irq->id >= 0 && irq->id < 32)
        record(s, irq, &s->soft[irq->id]);
}

static int irq_begin(la_run *r)
{
    struct irq_state *s = calloc(1, sizeof *s);
    if (!s)
        return TG_ERR_NOMEM;
    s->run = r;
    r->ctx = s;
    r->st.hooks = (la_hooks){
        .ctx = s, .irq_entry = on_entry, .irq_exit = on_exit_hard, .softirq_exit = on_exit_soft};
    return 0;
}

static bool in_list(char **list, size_t n, int32_t id)
{
    char t[16];
    snprintf(t, sizeof t, "%d", id);
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], t) == 0)
            return true;
    return false;
}

/* --irq/--softirq for the log */
static bool filter_irq(const la_conf *c, const la_irq *irq)
{
    if (irq->hard) {
        if (c->n_irqs)
            return in_list(c->irqs, c->n_irqs, irq->id);
        return !c->n_softirqs;
    }
    if (c->n_softirqs)
        return in_list(c->softirqs, c->n_softirqs, irq->id);
    return !c->n_irqs;
}

/* st's durations (raise: its raise latencies) into xs (room for st->n); their number */
static size_t durations(const struct irq_state *s, const struct irq_stats *st, bool raise,
                        int64_t *xs)
{
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++) {
        const la_irq *q = &s->list[st->irqs[i]];
        if (!raise)
            xs[n++] = q->end - q->begin;
        else if (q->raise != LA_NONE)
            xs[n++] = q->begin - q->raise;
    }
    return n;
}

static double stdev_of(const struct irq_state *s, const struct irq_stats *st, bool raise)
{
    int64_t *xs = malloc((st->n + 1) * sizeof *xs);
    if (!xs)
        return NAN;
    double v = la_stdev(xs, durations(s, st, raise, xs));
    free(xs);
    return v;
}

/* the stats tables' rows in their order: hard IRQs by number, then softirqs */
static size_t stats_rows(struct irq_state *s, struct irq_stats **rows)
{
    const la_conf *c = &s->run->conf;
    size_t n = 0;
    if (c->n_irqs || !c->n_softirqs)
        for (int i = 0; i < 1024; i++) {
            struct irq_stats *st = &s->hard[i];
            if (st->seen && st->n && (!c->n_irqs || in_list(c->irqs, c->n_irqs, st->id)))
                rows[n++] = st;
        }
    if (c->n_softirqs || !c->n_irqs)
        for (int i = 0; i < 32; i++) {
            struct irq_stats *st = &s->soft[i];
            if (st->seen && st->n &&
                (!c->n_softirqs || in_list(c->softirqs, c->n_softirqs, st->id)))
                rows[n++] = st;
        }
    return n;
}

/* the frequency buckets of st (lower bounds in ns); 0 rows when the step is 0 */
static size_t freq_fill(struct irq_state *s, const struct irq_stats *st, double *lower,
                        double *upper, int64_t *counts)
{
    const la_conf *c = &s->run->conf;
    double min = (c->has_min ? c->min : (double)st->min) / 1000;
    double max = (c->has_max ? c->max : (double)st->max) / 1000;
    if (c->freq_uniform) { /* over every interrupt of the period */
        double lo = 0, hi = 0;
        for (size_t i = 0; i < s->n_list; i++) {
            double d = (double)(s->list[i].end - s->list[i].begin) / 1000;
            if (i == 0 || d < lo)
                lo = d;
            if (i == 0 || d > hi)
                hi = d;
        }
        min = c->has_min ? c->min : lo;
        max = c->has_max ? c->max : hi;
    }
    int64_t *xs = malloc((st->n + 1) * sizeof *xs);
    if (!xs)
        return 0;
    size_t n = la_freq_buckets(xs, durations(s, st, false, xs), min, max, c->freq_resolution, lower,
                               upper, counts);
    free(xs);
    return n;
}

static void put_stats_row(struct irq_state *s, tg_buf *out, const struct irq_stats *st)
{
    char nr[24], name[300], cnt[24], t[4][48];
    snprintf(nr, sizeof nr, "%d:", st->id);
    snprintf(name, sizeof name, "<%s>", st->name);
    snprintf(cnt, sizeof cnt, "%zu", st->n);
    la_stats_texts(t, st->min, (double)st->total / (double)st->n, st->max,
                   st->n < 2 ? NAN : stdev_of(s, st, false));
    la_pad(out, nr, 3, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, name, 18, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, cnt, 5, '>');
    for (int i = 0; i < 4; i++) {
        tg_buf_putc(out, ' ');
        la_pad(out, t[i], 12, '>');
    }
    tg_buf_puts(out, "  |");
    if (!st->hard && st->raise_count) {
        char rc[24];
        snprintf(rc, sizeof rc, "%lld", (long long)st->raise_count);
        la_stats_texts(t, st->raise_min, (double)st->raise_total / (double)st->raise_count,
                       st->raise_max, st->raise_count < 2 ? NAN : stdev_of(s, st, true));
        tg_buf_putc(out, ' ');
        la_pad(out, rc, 6, '>');
        for (int i = 0; i < 4; i++) {
            tg_buf_putc(out, ' ');
            la_pad(out, t[i], 12, '>');
        }
    }
    tg_buf_putc(out, '\n');
}

static void put_header(tg_buf *out, bool hard)
{
    if (hard) {
        la_pad(out, "Hard IRQ", 52, '<');
        tg_buf_putc(out, ' ');
        la_pad(out, "Duration (us)", 12, '<');
        tg_buf_putc(out, '\n');
    } else {
        la_pad(out, "Soft IRQ", 52, '<');
        tg_buf_putc(out, ' ');
        la_pad(out, "Duration (us)", 52, '<');
        tg_buf_putc(out, ' ');
        la_pad(out, "Raise latency (us)", 12, '<');
        tg_buf_putc(out, '\n');
    }
    static const char *const cols[] = {"", "count", "min", "avg", "max", "stdev"};
    static const int widths[] = {22, 14, 12, 12, 10, 12};
    for (int i = 0; i < 6; i++) {
        if (i)
            tg_buf_putc(out, ' ');
        la_pad(out, hard || i < 5 ? cols[i] : cols[i], hard || i < 5 ? widths[i] : 4, '<');
    }
    if (!hard) {
        /* ... {:<4} {:<3} {:<14} {:<12} {:<12} {:<10} {:<12} with "stdev", " |", count.. */
        tg_buf_putc(out, ' ');
        la_pad(out, " |", 3, '<');
        static const int w2[] = {14, 12, 12, 10, 12};
        for (int i = 1; i < 6; i++) {
            tg_buf_putc(out, ' ');
            la_pad(out, cols[i], w2[i - 1], '<');
        }
    }
    tg_buf_putc(out, '\n');
    tg_buf_pad(out, '-', 82);
    tg_buf_putc(out, '|');
    if (!hard)
        tg_buf_pad(out, '-', 60);
    tg_buf_putc(out, '\n');
}

static void put_freq(tg_buf *out, const struct irq_stats *st, double *lower, const int64_t *counts,
                     size_t n)
{
    char title[400];
    snprintf(title, sizeof title, "Handler duration frequency distribution %s (%d)", st->name,
             st->id);
    for (size_t i = 0; i < n; i++)
        lower[i] = lower[i] / 1000;
    la_freq_graph(out, title, "\xc2\xb5s", lower, counts, n);
}

static json_object *irq_obj(bool hard, int32_t nr, const char *name)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string("irq"));
    json_object_object_add(o, "hard", json_object_new_boolean(hard));
    json_object_object_add(o, "nr", json_object_new_int(nr));
    json_object_object_add(o, "name", json_object_new_string(name));
    return o;
}

static void json_output(struct irq_state *s, la_run *r, struct irq_stats **rows, size_t n_rows,
                        double *lower, double *upper, int64_t *counts)
{
    const la_conf *c = &r->conf;
    int64_t begin = r->period_begin, end = r->last_ts;
    if (c->log) {
        json_object *t = la_lami_table(r, "log", begin, end);
        for (size_t i = 0; i < s->n_list; i++) {
            const la_irq *q = &s->list[i];
            if (!filter_irq(c, q))
                continue;
            const struct irq_stats *st = q->hard ? hard_of(s, q->id) : &s->soft[q->id];
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_timerange(q->begin, q->end));
            json_object_array_add(row, q->hard               ? NULL
                                       : q->raise == LA_NONE ? la_lami_unknown()
                                                             : la_lami_int("timestamp", q->raise));
            json_object_array_add(row, la_lami_cpu(q->cpu));
            json_object_array_add(row, irq_obj(q->hard, q->id, st->name));
        }
        la_lami_add(r, t);
    }
    if (c->stats) {
        json_object *ht = la_lami_table(r, "hard-stats", begin, end);
        json_object *st_ = la_lami_table(r, "soft-stats", begin, end);
        for (size_t i = 0; i < n_rows; i++) {
            const struct irq_stats *st = rows[i];
            json_object *row = la_lami_row(st->hard ? ht : st_);
            json_object_array_add(row, irq_obj(st->hard, st->id, st->name));
            json_object_array_add(row, la_lami_int("number", (int64_t)st->n));
            json_object_array_add(row, la_lami_int("duration", st->min));
            json_object_array_add(row,
                                  la_lami_value("duration", (double)st->total / (double)st->n));
            json_object_array_add(row, la_lami_int("duration", st->max));
            json_object_array_add(
                row, la_lami_duration_or_unknown(st->n < 2 ? NAN : stdev_of(s, st, false)));
            if (st->hard)
                continue;
            json_object_array_add(row, la_lami_int("number", st->raise_count));
            if (!st->raise_count) {
                for (int k = 0; k < 4; k++)
                    json_object_array_add(row, la_lami_unknown());
                continue;
            }
            json_object_array_add(row, la_lami_int("duration", st->raise_min));
            json_object_array_add(
                row, la_lami_value("duration", (double)st->raise_total / (double)st->raise_count));
            json_object_array_add(row, la_lami_int("duration", st->raise_max));
            json_object_array_add(row, la_lami_duration_or_unknown(
                                           st->raise_count < 2 ? NAN : stdev_of(s, st, true)));
        }
        la_lami_add(r, ht);
        la_lami_add(r, st_);
    }
    if (!c->freq)
        return;
    /* --freq-series: the tables as one */
    json_object *tables = c->freq_series ? json_object_new_array() : NULL;
    json_object *subtitles = c->freq_series ? json_object_new_array() : NULL;
    for (size_t i = 0; i < n_rows; i++) {
        char title[400], sub[320];
        snprintf(sub, sizeof sub, "%s (%d)", rows[i]->name, rows[i]->id);
        snprintf(title, sizeof title, "Interrupt handler duration frequency distribution [%s]",
                 sub);
        json_object *t = la_lami_table_sub(r, "freq", title, begin, end);
        size_t n = freq_fill(s, rows[i], lower, upper, counts);
        for (size_t k = 0; k < n; k++) {
            json_object *row = la_lami_row(t);
            json_object_array_add(row, la_lami_value("duration", lower[k]));
            json_object_array_add(row, la_lami_value("duration", upper[k]));
            json_object_array_add(row, la_lami_int("number", counts[k]));
        }
        if (tables) {
            json_object_array_add(tables, t);
            json_object_array_add(subtitles, json_object_new_string(sub));
        } else {
            la_lami_add(r, t);
        }
    }
    if (tables)
        la_lami_add_series(r, "Interrupt handlers duration frequency distributions", "interrupts",
                           tables, subtitles);
}

static void put_log(struct irq_state *s, la_run *r, tg_buf *out)
{
    const la_conf *c = &r->conf;
    static const char *const h[] = {"Begin", "End", "Duration (us)", "CPU", "Type", "#", "Name"};
    la_pad(out, h[0], 20, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, h[1], 19, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, h[2], 15, '>');
    tg_buf_putc(out, ' ');
    la_pad(out, h[3], 4, '>');
    tg_buf_puts(out, "  ");
    la_pad(out, h[4], 9, '<');
    tg_buf_putc(out, ' ');
    la_pad(out, h[5], 4, '>');
    tg_buf_puts(out, "  ");
    la_pad(out, h[6], 22, '<');
    tg_buf_putc(out, '\n');
    for (size_t i = 0; i < s->n_list; i++) {
        const la_irq *q = &s->list[i];
        if (!filter_irq(c, q))
            continue;
        const struct irq_stats *st = q->hard ? hard_of(s, q->id) : &s->soft[q->id];
        char d[48], cpu[16], nr[16], name[400], raised[64];
        la_us3(d, sizeof d, (double)(q->end - q->begin));
        snprintf(cpu, sizeof cpu, "%d", q->cpu);
        snprintf(nr, sizeof nr, "%d", q->id);
        if (!q->hard && q->raise != LA_NONE) {
            la_timestamp(raised, sizeof raised, q->raise, c->multi_day, c->gmt);
            snprintf(name, sizeof name, "%s (raised at %s)", st->name, raised);
        } else {
            snprintf(name, sizeof name, "%s", st->name);
        }
        la_log_range(out, c, q->begin, q->end);
        la_pad(out, d, 15, '>');
        tg_buf_putc(out, ' ');
        la_pad(out, cpu, 4, '>');
        tg_buf_puts(out, "  ");
        la_pad(out, q->hard ? "IRQ" : "SoftIRQ", 9, '<');
        tg_buf_putc(out, ' ');
        la_pad(out, nr, 4, '>');
        tg_buf_puts(out, "  ");
        la_pad(out, name, 22, '<');
        tg_buf_putc(out, '\n');
    }
}

static int irq_end(la_run *r, tg_buf *out)
{
    struct irq_state *s = r->ctx;
    const la_conf *c = &r->conf;
    if (s->nomem)
        return TG_ERR_NOMEM;
    long res = c->freq_resolution;
    for (int32_t id = 0; id < 1024; id++) { /* LTTng 0.x: named by its statedump */
        const char *name = la_state_irq_name(&r->st, id);
        if (s->hard[id].unnamed && name)
            snprintf(s->hard[id].name, sizeof s->hard[id].name, "%s", name);
    }
    struct irq_stats **rows = malloc((1024 + 32) * sizeof *rows);
    double *lower = malloc((size_t)res * sizeof *lower);
    double *upper = malloc((size_t)res * sizeof *upper);
    int64_t *counts = malloc((size_t)res * sizeof *counts);
    int rc = 0;
    if (!rows || !lower || !upper || !counts) {
        rc = TG_ERR_NOMEM;
        goto done;
    }
    size_t n_rows = stats_rows(s, rows);
    if (c->json) {
        json_output(s, r, rows, n_rows, lower, upper, counts);
        goto done;
    }
    la_print_timerange(r, out, r->period_begin, r->last_ts);
    if (c->stats || c->freq) {
        if (c->stats && n_rows) {
            bool hard_done = false, soft_done = false;
            for (size_t i = 0; i < n_rows; i++) {
                const struct irq_stats *st = rows[i];
                if (c->freq) {
                    put_header(out, st->hard);
                    put_stats_row(s, out, st);
                    size_t n = freq_fill(s, st, lower, upper, counts);
                    if (n) {
                        tg_buf_putc(out, '\n');
                        put_freq(out, st, lower, counts, n);
                    }
                    tg_buf_putc(out, '\n');
                    continue;
                }
                if (st->hard && !hard_done) {
                    put_header(out, true);
                    hard_done = true;
                } else if (!st->hard && !soft_done) {
                    if (hard_done)
                        tg_buf_putc(out, '\n');
                    put_header(out, false);
                    soft_done = true;
                }
                put_stats_row(s, out, st);
            }
        } else if (c->freq) {
            for (size_t i = 0; i < n_rows; i++) {
                size_t n = freq_fill(s, rows[i], lower, upper, counts);
                if (n) {
                    tg_buf_putc(out, '\n');
                    put_freq(out, rows[i], lower, counts, n);
                }
            }
        }
        if (c->log)
            tg_buf_putc(out, '\n');
    }
    if (c->log)
        put_log(s, r, out);
done:
    free(rows);
    free(lower);
    free(upper);
    free(counts);
    return rc;
}

static void irq_free(la_run *r)
{
    struct irq_state *s = r->ctx;
    if (!s)
        return;
    for (int i = 0; i < 1024; i++)
        free(s->hard[i].irqs);
    for (int i = 0; i < 32; i++)
        free(s->soft[i].irqs);
    free(s->list);
    free(s);
    r->ctx = NULL;
}

static const char *const irq_needs[] = {"irq_handler_entry", "softirq_entry", NULL};

#define IRQ_KIND(id, preset_fn)                                                                    \
    const la_kind la_kind_##id = {.name = #id,                                                     \
                                  .needs = irq_needs,                                              \
                                  .preset = preset_fn,                                             \
                                  .begin = irq_begin,                                              \
                                  .end = irq_end,                                                  \
                                  .free = irq_free}
IRQ_KIND(irqstats, la_preset_stats);
IRQ_KIND(irqlog, la_preset_log);
IRQ_KIND(irqfreq, la_preset_freq);
