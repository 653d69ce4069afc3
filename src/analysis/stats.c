/* stats.c - `traceglot stats`: one row per event class (count, first and last time, rate)
 * and a closing line exactly "total: N events, M lost" (--format json: summary_json.c). */
#include "analysis/class_counts.h"
#include "analysis/summary_json.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <string.h>

/* Width of the widest time of the rows (first or last), at least the header's. */
static int time_width(const tg_class_counts *cc, tg_buf *tmp)
{
    int w = 5;
    for (size_t i = 0; i < cc->n; i++) {
        int64_t t[2] = {cc->rows[i].first_ns, cc->rows[i].last_ns};
        for (int k = 0; k < 2; k++) {
            tg_buf_reset(tmp);
            tg_text_time(tmp, t[k]);
            if ((int)tg_buf_len(tmp) > w)
                w = (int)tg_buf_len(tmp);
        }
    }
    return w;
}

static void put_right(tg_buf *out, const char *s, int width)
{
    tg_buf_putc(out, ' ');
    tg_buf_pad(out, ' ', width - (int)strlen(s));
    tg_buf_puts(out, s);
}

static int run_stats(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                     tg_buf *out, tg_error **err)
{
    tg_class_counts cc;
    int rc = tg_class_counts_run(&cc, it);
    if (tg_summary_format(opts, NULL) == 1) {
        int jrc = tg_stats_json(&cc, out, err);
        tg_class_counts_free(&cc);
        return rc < 0 ? rc : jrc;
    }
    tg_buf *tmp = tg_buf_new();
    if (!tmp) {
        tg_class_counts_free(&cc);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    int name_w = 5, count_w = 5, time_w = time_width(&cc, tmp);
    for (size_t i = 0; i < cc.n; i++) {
        int w = (int)strlen(tg_event_class_name(cc.rows[i].cls));
        name_w = w > name_w ? w : name_w;
        tg_buf_reset(tmp);
        tg_buf_u64(tmp, cc.rows[i].count);
        count_w = (int)tg_buf_len(tmp) > count_w ? (int)tg_buf_len(tmp) : count_w;
    }
    tg_buf_puts(out, "event");
    tg_buf_pad(out, ' ', name_w - 5);
    put_right(out, "count", count_w);
    put_right(out, "first", time_w);
    put_right(out, "last", time_w);
    put_right(out, "rate/s", 14);
    tg_buf_putc(out, '\n');
    /* in unsigned arithmetic: damaged or far-apart times may span more than int64_t holds */
    double span = (double)((uint64_t)cc.last_ns - (uint64_t)cc.first_ns);
    if (cc.last_ns < cc.first_ns)
        span = 0;
    for (size_t i = 0; i < cc.n; i++) {
        const tg_class_count *r = &cc.rows[i];
        const char *name = tg_event_class_name(r->cls);
        tg_buf_puts(out, name);
        tg_buf_pad(out, ' ', name_w - (int)strlen(name));
        tg_buf_reset(tmp);
        tg_buf_u64(tmp, r->count);
        put_right(out, tg_buf_data(tmp), count_w);
        int64_t t[2] = {r->first_ns, r->last_ns};
        for (int k = 0; k < 2; k++) {
            tg_buf_reset(tmp);
            tg_text_time(tmp, t[k]);
            put_right(out, tg_buf_data(tmp), time_w);
        }
        tg_buf_reset(tmp);
        if (span > 0)
            tg_buf_printf(tmp, "%.1f", (double)r->count * 1e9 / span);
        else
            tg_buf_puts(tmp, "-");
        put_right(out, tg_buf_data(tmp), 14);
        tg_buf_putc(out, '\n');
    }
    tg_buf_free(tmp);
    tg_buf_puts(out, "total: ");
    tg_buf_u64(out, cc.events);
    tg_buf_puts(out, " events, ");
    tg_buf_u64(out, cc.lost);
    tg_buf_puts(out, " lost\n");
    tg_class_counts_free(&cc);
    return rc < 0 ? rc : 0;
}

int tg_stats(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out, tg_error **err)
{
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "stats", "filter", NULL, err));
    TG_TRY(tg_summary_format(opts, err));
    return tg_sink_run(set, f, opts, out, err, run_stats, NULL);
}
