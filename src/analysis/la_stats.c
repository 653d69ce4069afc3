/* la_stats.c - the pieces every latency command of lttng-analyses prints alike (schedstats,
 * irqstats and their --freq and --log views): a duration in microseconds, the min/avg/max/stdev
 * columns of a stats row, the frequency buckets of --freq, the "[begin, end] " of a log line.
 * One copy here, so the commands cannot drift apart where lttng-analyses does not. */
#include "analysis/la_run.h"

#include <math.h>
#include <stdio.h>

void la_us3(char *buf, size_t size, double ns) { snprintf(buf, size, "%0.03f", ns / 1000); }

void la_stats_texts(char txt[4][48], int64_t min, double avg, int64_t max, double stdev)
{
    la_us3(txt[0], sizeof txt[0], (double)min);
    la_us3(txt[1], sizeof txt[1], avg);
    la_us3(txt[2], sizeof txt[2], (double)max);
    if (isnan(stdev))
        snprintf(txt[3], sizeof txt[3], "?");
    else
        la_us3(txt[3], sizeof txt[3], stdev);
}

/* lttng-analyses' _get_freq_table: res buckets of (max - min) / res from min; a duration past
 * the last bucket counts in it only when it is the max; Python's negative indexes wrap. */
size_t la_freq_buckets(const int64_t *ns, size_t n, double min_us, double max_us, long res,
                       double *lower, double *upper, int64_t *counts)
{
    double step = (max_us - min_us) / (double)res;
    if (step == 0)
        return 0;
    for (long i = 0; i < res; i++)
        counts[i] = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)ns[i] / 1000;
        long idx = (long)((d - min_us) / step);
        if (idx >= res) {
            if (d == max_us)
                counts[idx - 1 < res ? idx - 1 : res - 1]++;
            continue;
        }
        counts[idx < 0 ? res + idx : idx]++;
    }
    for (long i = 0; i < res; i++) {
        lower[i] = ((double)i * step + min_us) * 1000;
        upper[i] = ((double)(i + 1) * step + min_us) * 1000;
    }
    return (size_t)res;
}

void la_log_range(tg_buf *out, const la_conf *c, int64_t begin, int64_t end)
{
    char a[64], b[64];
    la_timestamp(a, sizeof a, begin, c->multi_day, c->gmt);
    la_timestamp(b, sizeof b, end, c->multi_day, c->gmt);
    tg_buf_putc(out, '[');
    la_pad(out, a, 18, '<');
    tg_buf_puts(out, ", ");
    la_pad(out, b, 18, '<');
    tg_buf_puts(out, "] ");
}

json_object *la_lami_duration_or_unknown(double v)
{
    return isnan(v) ? la_lami_unknown() : la_lami_value("duration", v);
}

void la_preset_stats(la_conf *c) { c->stats = true; }
void la_preset_top(la_conf *c) { c->top = true; }
void la_preset_log(la_conf *c) { c->log = true; }
void la_preset_freq(la_conf *c) { c->freq = true; }
