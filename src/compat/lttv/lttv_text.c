/* lttv_text.c - the text dump of LTTV (the LTTng 0.x viewer), `cat --style=lttv`.
 *
 *   Trace set contains 1 traces
 *
 *   kernel.syscall_entry: 13589.765477444 (P/kernel_0), 1283, 1280, rsyslogd, , 1, 0x0,
 *   SYSCALL { ip = 0xb7739416, syscall_id = 78 [syscall 78] }
 *   ...
 *   End trace set
 *
 * (one line per event).  Channel and event name, the time in seconds, the tracefile path
 * (--path-prefix P, default the trace's path, then the tracefile's name), then the running
 * process of the event's cpu as LTTV's state model has it (lttv_state.c): pid, tgid, command,
 * brand, parent pid, the current user function (always 0x0 without user-space function
 * events) and the execution mode; then the payload.  Payload fields print as LTTV prints
 * them from the marker's format: integers through the marker's own conversion with a
 * 64-bit length ("%lu" prints as "%llu", "0x%lX" as "0x%llX", "%c" as a character),
 * pointers as 0x<hex>, strings quoted, and a system call or soft irq id followed by its
 * name from the state's name tables.  Lost-event records are not LTTV events: not printed. */
#include "compat/lttv/lttv_state.h"
#include "core/consumer.h"

#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

/* One integer through the marker's conversion text, as LTTV's printf with "ll" does. */
static void put_conv(tg_buf *out, const char *conv, uint64_t u, int64_t s, bool is_signed)
{
    const char *pct = conv ? strchr(conv, '%') : NULL;
    if (!pct) {
        if (is_signed)
            tg_buf_i64(out, s);
        else
            tg_buf_u64(out, u);
        return;
    }
    tg_buf_put(out, conv, (size_t)(pct - conv)); /* literal text: "0x" */
    const char *p = pct + 1;
    const char *flags = p;
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || (*p >= '0' && *p <= '9'))
        p++;
    size_t n_flags = (size_t)(p - flags);
    while (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 'Z' || *p == 't')
        p++;
    char letter = *p ? *p : 'd';
    uint64_t bits = is_signed ? (uint64_t)s : u;
    if (n_flags) { /* rare: let printf apply the flags */
        char fmt[32];
        snprintf(fmt, sizeof fmt, "%%%.*sll%c", (int)(n_flags > 20 ? 20 : n_flags), flags,
                 letter == 'c' ? 'u' : letter);
        if (letter == 'c')
            tg_buf_putc(out, (char)bits);
        else
            tg_buf_printf(out, fmt, bits);
        return;
    }
    switch (letter) {
    case 'd':
    case 'i': tg_buf_i64(out, (int64_t)bits); break;
    case 'x': tg_buf_hex(out, bits); break;
    case 'X': tg_buf_printf(out, "%llX", (unsigned long long)bits); break;
    case 'o': tg_buf_printf(out, "%llo", (unsigned long long)bits); break;
    case 'c': tg_buf_putc(out, (char)bits); break;
    default: tg_buf_u64(out, bits); break;
    }
}

static void put_field(tg_buf *out, lttv_state *st, const char *channel, const tg_event *ev,
                      const tg_value *v)
{
    tg_buf_puts(out, v->name ? v->name : "");
    tg_buf_puts(out, " = ");
    switch (v->type) {
    case TG_VAL_STRING:
        tg_buf_putc(out, '"');
        /* LTTV prints the C string: up to its first NUL */
        tg_buf_put(out, v->v.str.ptr, strnlen(v->v.str.ptr, v->v.str.len));
        tg_buf_putc(out, '"');
        return;
    case TG_VAL_SINT: put_conv(out, v->fmt, 0, v->v.s, true); return;
    case TG_VAL_UINT:
        if (v->flags & TG_VALF_POINTER) {
            tg_buf_puts(out, "0x");
            tg_buf_hex(out, v->v.u);
            return;
        }
        put_conv(out, v->fmt, v->v.u, 0, false);
        break;
    default: return;
    }
    /* system call and soft irq ids of the kernel channel are followed by their names */
    if (strcmp(channel, "kernel") != 0)
        return;
    const char *ev_name = tg_event_name(ev);
    lttv_names *t = NULL;
    if (strcmp(ev_name, "syscall_entry") == 0 && strcmp(v->name, "syscall_id") == 0)
        t = &st->syscalls;
    else if ((strcmp(ev_name, "softirq_entry") == 0 || strcmp(ev_name, "softirq_exit") == 0 ||
              strcmp(ev_name, "softirq_raise") == 0) &&
             strcmp(v->name, "softirq_id") == 0)
        t = &st->softirqs;
    const char *nm = t ? lttv_names_get(t, v->v.u) : NULL;
    if (nm) {
        tg_buf_puts(out, " [");
        tg_buf_puts(out, nm);
        tg_buf_putc(out, ']');
    }
}

/* "kernel_0" -> "kernel" */
static size_t channel_len(const char *stream)
{
    const char *us = strrchr(stream, '_');
    return us ? (size_t)(us - stream) : strlen(stream);
}

static int print_lttv(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    const char *prefix = opts ? tg_options_get(opts, "path-prefix") : NULL;
    size_t n_cpus = 1;
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_stream_count(t); k++) {
            int c = tg_stream_cpu(tg_trace_stream(t, k));
            if (c >= 0 && (size_t)c + 1 > n_cpus && c < 65536)
                n_cpus = (size_t)c + 1;
        }
    }
    lttv_state st;
    if (lttv_state_init(&st, n_cpus) < 0) {
        lttv_state_free(&st);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    tg_buf_printf(out, "Trace set contains %zu traces\n\n", tg_set_trace_count(set));
    const tg_event *ev;
    int rc;
    char channel[256];
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (tg_event_kind_of(ev) == TG_KIND_LOST)
            continue;
        tg_stream *s = tg_event_stream(ev);
        const char *sname = tg_stream_name(s);
        size_t cl = channel_len(sname);
        if (cl >= sizeof channel)
            cl = sizeof channel - 1;
        memcpy(channel, sname, cl);
        channel[cl] = 0;
        lttv_state_update(&st, channel, ev);

        tg_buf_puts(out, channel);
        tg_buf_putc(out, '.');
        tg_buf_puts(out, tg_event_name(ev));
        tg_buf_puts(out, ": ");
        tg_text_time(out, tg_event_time_ns(ev));
        tg_buf_puts(out, " (");
        tg_buf_puts(out, prefix ? prefix : tg_trace_path(tg_stream_trace(s)));
        tg_buf_putc(out, '/');
        tg_buf_puts(out, sname);
        tg_buf_puts(out, "), ");
        int cpu = tg_event_cpu(ev);
        const lttv_process *p = lttv_state_running(&st, cpu < 0 ? 0 : (size_t)cpu);
        if (p) {
            tg_buf_u64(out, p->pid);
            tg_buf_puts(out, ", ");
            tg_buf_u64(out, p->tgid);
            tg_buf_puts(out, ", ");
            tg_buf_puts(out, p->name);
            tg_buf_puts(out, ", ");
            tg_buf_puts(out, p->brand);
            tg_buf_puts(out, ", ");
            tg_buf_u64(out, p->ppid);
            tg_buf_puts(out, ", 0x0, ");
            tg_buf_puts(out, lttv_mode_name((lttv_mode)p->stack[p->depth - 1].mode));
        } else {
            tg_buf_puts(out, "0, 0, , , 0, 0x0, MODE_UNKNOWN");
        }
        size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
        for (size_t i = 0; i < n; i++) {
            tg_value v;
            if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
                break;
            tg_buf_puts(out, i ? ", " : " { ");
            put_field(out, &st, channel, ev, &v);
        }
        tg_buf_puts(out, n ? " }\n" : "\n");
    }
    tg_buf_puts(out, "End trace set\n\n");
    if (st.nomem && rc >= 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    lttv_state_free(&st);
    return rc;
}

static const tg_option_decl lttv_options[] = {
    {"path-prefix", TG_OPT_TEXT, NULL, "the trace path printed before each tracefile", "P"},
    {0},
};

TG_PRINT_STYLE(lttv) = {"lttv", print_lttv, lttv_options};
