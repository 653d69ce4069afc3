/* stats.c - `traceglot stats`: one row per event class (count, first and last time, rate)
 * and a closing line exactly "total: N events, M lost". */
#include "analysis/class_counts.h"
#include "sinks/sink_run.h"
#include "sinks/value_text.h"

#include <string.h>

static int run_stats(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                     tg_buf *out, tg_error **err)
{
    tg_class_counts cc;
    int rc = tg_class_counts_run(&cc, it);
    int width = 5;
    for (size_t i = 0; i < cc.n; i++) {
        int w = (int)strlen(tg_event_class_name(cc.rows[i].cls));
        if (w > width)
            width = w;
    }
    tg_buf_puts(out, "event");
    tg_buf_pad(out, ' ', width - 5);
    tg_buf_puts(out, "        count            first             last           rate/s\n");
    for (size_t i = 0; i < cc.n; i++) {
        const tg_class_count *r = &cc.rows[i];
        const char *name = tg_event_class_name(r->cls);
        tg_buf_puts(out, name);
        tg_buf_pad(out, ' ', width - (int)strlen(name));
        tg_buf_putc(out, ' ');
        tg_buf_u64_pad(out, r->count, 12, ' ');
        tg_buf *t = tg_buf_new();
        if (t) {
            tg_text_time(t, r->first_ns);
            tg_buf_pad(out, ' ', 17 - (int)tg_buf_len(t));
            tg_buf_puts(out, tg_buf_data(t));
            tg_buf_reset(t);
            tg_text_time(t, r->last_ns);
            tg_buf_pad(out, ' ', 17 - (int)tg_buf_len(t));
            tg_buf_puts(out, tg_buf_data(t));
            tg_buf_free(t);
        }
        int64_t span = cc.last_ns - cc.first_ns;
        if (span > 0)
            tg_buf_printf(out, " %16.1f\n", (double)r->count * 1e9 / (double)span);
        else
            tg_buf_printf(out, " %16s\n", "-");
    }
    tg_buf_puts(out, "total: ");
    tg_buf_u64(out, cc.events);
    tg_buf_puts(out, " events, ");
    tg_buf_u64(out, cc.lost);
    tg_buf_puts(out, " lost\n");
    tg_class_counts_free(&cc);
    return rc < 0 ? rc : 0;
}

int tg_stats(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out,
             tg_error **err)
{
    return tg_sink_run(set, f, opts, out, err, run_stats, NULL);
}
