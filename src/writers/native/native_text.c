/* native_text.c - traceglot's own text style: one line per event, readable and greppable.
 *
 *   1142.318836123 cpu=1 tid=5027 sched_wakeup: comm="bash" pid=12 prio=120
 *   12.000104512 tid=5056 entry: func=main depth=0
 *
 * Time on the trace clock in seconds, cpu and tid where known, the event name, then the
 * payload fields as name=value (function events: the function and depth; lost events: how
 * many).  Written straight into the output buffer, no printf per event. */
#include "core/consumer.h"

static void put_fields(tg_buf *out, const tg_event *ev, tg_scope scope, int *first)
{
    size_t n = tg_event_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) < 0)
            break;
        tg_buf_putc(out, ' ');
        *first = 0;
        tg_buf_puts(out, v.name ? v.name : "?");
        tg_buf_putc(out, '=');
        tg_text_value(out, &v);
    }
}

static int print_native(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                        tg_error **err)
{
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        tg_text_time(out, tg_event_time_ns(ev));
        if (tg_event_cpu(ev) >= 0) {
            tg_buf_puts(out, " cpu=");
            tg_buf_i64(out, tg_event_cpu(ev));
        }
        if (tg_event_tid(ev) >= 0) {
            tg_buf_puts(out, " tid=");
            tg_buf_i64(out, tg_event_tid(ev));
        }
        tg_buf_putc(out, ' ');
        tg_buf_puts(out, tg_event_name(ev));
        tg_buf_putc(out, ':');
        int first = 1;
        switch (tg_event_kind_of(ev)) {
        case TG_KIND_FUNC_ENTRY:
        case TG_KIND_FUNC_EXIT:
        case TG_KIND_FUNC_TAIL_EXIT: {
            const char *fn = tg_event_func_name(ev);
            tg_buf_puts(out, " func=");
            if (fn) {
                tg_buf_puts(out, fn);
            } else {
                tg_buf_puts(out, "0x");
                tg_buf_hex(out, tg_event_func_addr(ev));
            }
            if (tg_event_depth(ev) >= 0) {
                tg_buf_puts(out, " depth=");
                tg_buf_i64(out, tg_event_depth(ev));
            }
            first = 0;
            break;
        }
        case TG_KIND_LOST:
            tg_buf_puts(out, " count=");
            tg_buf_u64(out, tg_event_lost_count(ev));
            first = 0;
            break;
        default: break;
        }
        put_fields(out, ev, TG_SCOPE_PAYLOAD, &first);
        put_fields(out, ev, TG_SCOPE_RETURN, &first);
        tg_buf_putc(out, '\n');
    }
    return rc;
}

TG_PRINT_STYLE(native) = {"native", print_native};
