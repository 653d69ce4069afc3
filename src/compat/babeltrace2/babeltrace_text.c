/* babeltrace_text.c - the "babeltrace" print style: babeltrace2 2.0.4's default text output.
 *
 *   [04:02:28.481301253] (+0.000010195) vm lttng_ust_statedump:procname: { cpu_id = 1 },
 *   { vpid = 5086, vtid = 5087, procname = "ust_app-ust" }, { procname = "ust_app" }
 *
 * (one line per event).  What `babeltrace2 PATH` prints with its sink.text.pretty defaults:
 * the time in local time (or seconds since the origin with option "clock-seconds") and the
 * delta to the previous event, the trace's hostname, procname and vpid from its environment,
 * the event name, then the packet context, stream event context, event context and payload
 * that are visible, each as `{ name = value, ... }`.  Integers in their display base (hex
 * upper-case, octal with a leading 0, binary with 0b and all the bits), enumerations as
 * `( "LABEL" : container = N )`, arrays and sequences as `[ [0] = x, ... ]`, variants as
 * `{ option }`, floats with %g, strings with babeltrace2's escapes.  Lost-event records go
 * to babeltrace2's stderr, not its output, so they are not printed here.
 *
 * The per-trace facts (has a clock, environment) come from the trace's attributes once per trace;
 * everything per event is formatted straight into the output buffer. */
#include "core/consumer.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bt_trace_info {
    const tg_trace *trace;
    bool has_clock;
    bool render;       /* CTF: the format renders the fields itself (same text, faster) */
    char hostname[256], procname[256], vpid[32];
    char dom[600];     /* "host:proc:(vpid) " as printed before the event name */
    size_t dom_len;
} bt_trace_info;

typedef struct bt_state {
    bool seconds;
    bool generic;      /* option "babeltrace-generic": never use the format's rendering */
    bool have_last;
    int64_t last_ts;
    int64_t cached_sec;
    char cached_hms[16];
    bt_trace_info *infos;
    size_t n_infos;
    const bt_trace_info *last_info;
} bt_state;

/* Copies the value of environment key (text of strings and integers alike); "" when absent. */
static void env_value(const tg_trace *t, const char *key, char *out, size_t cap)
{
    const tg_env_entry *e = tg_trace_env_find(t, key);
    snprintf(out, cap, "%s", e ? e->value : "");
}

static const bt_trace_info *trace_info(bt_state *st, const tg_trace *t)
{
    if (st->last_info && st->last_info->trace == t)
        return st->last_info;
    for (size_t i = 0; i < st->n_infos; i++)
        if (st->infos[i].trace == t)
            return st->last_info = &st->infos[i];
    bt_trace_info *v = realloc(st->infos, (st->n_infos + 1) * sizeof *v);
    if (!v)
        return NULL;
    st->infos = v;
    bt_trace_info *in = &v[st->n_infos++];
    memset(in, 0, sizeof *in);
    in->trace = t;
    const char *ck = tg_trace_clock_name(t);
    in->has_clock = ck && strcmp(ck, "unknown") != 0;
    env_value(t, "hostname", in->hostname, sizeof in->hostname);
    env_value(t, "procname", in->procname, sizeof in->procname);
    env_value(t, "vpid", in->vpid, sizeof in->vpid);
    in->render = !st->generic && !strcmp(tg_trace_format(t), "ctf");
    /* hostname, then procname and vpid, joined by ':' (babeltrace2's trace fields) */
    size_t n = 0;
    const char *parts[3] = {in->hostname, in->procname, in->vpid};
    for (int k = 0; k < 3; k++) {
        if (!parts[k][0])
            continue;
        n += (size_t)snprintf(in->dom + n, sizeof in->dom - n, k == 2 ? "%s(%s)" : "%s%s",
                              n ? ":" : "", parts[k]);
    }
    if (n)
        n += (size_t)snprintf(in->dom + n, sizeof in->dom - n, " ");
    in->dom_len = n < sizeof in->dom ? n : sizeof in->dom - 1;
    st->last_info = NULL;
    return in;
}

/* ---- values ------------------------------------------------------------------------------- */

static void put_escaped(tg_buf *out, const char *s, size_t n)
{
    tg_buf_putc(out, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0)
            break; /* babeltrace2 prints a C string */
        const char *esc = NULL;
        char hex[8];
        switch (c) {
        case '\\': esc = "\\\\"; break;
        case '\'': esc = "\\'"; break;
        case '"': esc = "\\\""; break;
        case '?': esc = "\\?"; break;
        case '\a': esc = "\\a"; break;
        case '\b': esc = "\\b"; break;
        case 27: esc = "\\e"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\v': esc = "\\v"; break;
        default:
            if (c < 32 || c == 127) {
                snprintf(hex, sizeof hex, "\\x%02x", c);
                esc = hex;
            }
        }
        if (!esc) {
            run++;
            continue;
        }
        if (run)
            tg_buf_put(out, s + i - run, run);
        run = 0;
        tg_buf_puts(out, esc);
    }
    size_t len = strnlen(s, n);
    if (run)
        tg_buf_put(out, s + len - run, run);
    tg_buf_putc(out, '"');
}

static void put_int(tg_buf *out, const tg_value *v)
{
    uint64_t u = v->v.u;
    unsigned len = v->bits ? v->bits : 64;
    bool sig = v->type == TG_VAL_SINT;
    char tmp[80];
    switch (v->base) {
    case 2: {
        tg_buf_puts(out, "0b");
        for (unsigned k = len; k-- > 0;)
            tg_buf_putc(out, (u >> k) & 1 ? '1' : '0');
        return;
    }
    case 8:
        if (sig && len < 64) {
            unsigned r = ((len - 1) / 3 + 1) * 3;
            if (r < 64)
                u &= (1ull << r) - 1;
        }
        snprintf(tmp, sizeof tmp, "0%llo", (unsigned long long)u);
        tg_buf_puts(out, tmp);
        return;
    case 16:
        if (len < 64) {
            unsigned r = (len + 3) & ~3u;
            if (r < 64)
                u &= (1ull << r) - 1;
        }
        tg_buf_puts(out, "0x");
        {
            char *p = tmp + sizeof tmp;
            *--p = 0;
            do {
                *--p = "0123456789ABCDEF"[u & 15];
                u >>= 4;
            } while (u);
            tg_buf_puts(out, p);
        }
        return;
    default:
        if (sig)
            tg_buf_i64(out, v->v.s);
        else
            tg_buf_u64(out, u);
    }
}

static void put_value(tg_buf *out, const tg_value *v);

static void put_children(tg_buf *out, const tg_value *v, bool indexed)
{
    for (size_t i = 0; i < v->count; i++) {
        tg_value c;
        if (tg_value_child(v, i, &c) < 0)
            break;
        tg_buf_puts(out, i ? ", " : " ");
        if (indexed) {
            tg_buf_putc(out, '[');
            tg_buf_u64(out, i);
            tg_buf_puts(out, "] = ");
        } else {
            tg_buf_puts(out, c.name ? c.name : "");
            tg_buf_puts(out, " = ");
        }
        put_value(out, &c);
    }
}

static void put_value(tg_buf *out, const tg_value *v)
{
    switch (v->type) {
    case TG_VAL_SINT:
    case TG_VAL_UINT:
        if (v->flags & TG_VALF_ENUM) {
            tg_buf_puts(out, "( ");
            if (v->label) {
                /* several labels come separated by \x1f */
                const char *l = v->label;
                for (;;) {
                    const char *sep = strchr(l, '\x1f');
                    size_t n = sep ? (size_t)(sep - l) : strlen(l);
                    put_escaped(out, l, n);
                    if (!sep)
                        break;
                    tg_buf_puts(out, ", ");
                    l = sep + 1;
                }
            } else {
                tg_buf_puts(out, "<unknown>");
            }
            tg_buf_puts(out, " : container = ");
            put_int(out, v);
            tg_buf_puts(out, " )");
        } else {
            put_int(out, v);
        }
        return;
    case TG_VAL_FLOAT: {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%g", v->v.f);
        tg_buf_puts(out, tmp);
        return;
    }
    case TG_VAL_STRING:
    case TG_VAL_BYTES:
        put_escaped(out, v->v.str.ptr, v->v.str.len);
        return;
    case TG_VAL_STRUCT:
        tg_buf_putc(out, '{');
        put_children(out, v, false);
        tg_buf_puts(out, " }");
        return;
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE:
        tg_buf_putc(out, '[');
        put_children(out, v, true);
        tg_buf_puts(out, " ]");
        return;
    case TG_VAL_VARIANT: {
        tg_value c;
        tg_buf_puts(out, "{ ");
        if (v->count && tg_value_child(v, 0, &c) >= 0)
            put_value(out, &c);
        tg_buf_puts(out, " }");
        return;
    }
    default:
        return;
    }
}

/* ---- events ------------------------------------------------------------------------------- */

/* The 9 digits of a nanosecond count below 10^9, two at a time (every event prints two). */
static inline char *digits9(char *o, uint32_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
                                "31323334353637383940414243444546474849505152535455565758596061"
                                "62636465666768697071727374757677787980818283848586878889909192"
                                "93949596979899";
    o[8] = (char)('0' + v % 10);
    v /= 10;
    for (int i = 6; i >= 0; i -= 2) {
        unsigned r = v % 100;
        v /= 100;
        o[i] = pairs[2 * r];
        o[i + 1] = pairs[2 * r + 1];
    }
    return o + 9;
}

static char *udec(char *o, uint64_t v)
{
    char tmp[24], *q = tmp + 24;
    do {
        *--q = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t n = (size_t)(tmp + 24 - q);
    memcpy(o, q, n);
    return o + n;
}

/* "[time] (+delta) " into o; returns the end. */
static char *put_time(bt_state *st, char *o, int64_t ts)
{
    bool neg = ts < 0;
    uint64_t abs_ns = neg ? (uint64_t)0 - (uint64_t)ts : (uint64_t)ts;
    uint64_t sec = abs_ns / 1000000000u, ns = abs_ns % 1000000000u;
    *o++ = '[';
    if (st->seconds) {
        if (neg)
            *o++ = '-';
        o = udec(o, sec);
    } else {
        int64_t s = neg ? -(int64_t)sec : (int64_t)sec;
        if (s != st->cached_sec || !st->cached_hms[0]) {
            time_t tt = (time_t)sec;
            struct tm tm;
            if (!localtime_r(&tt, &tm))
                memset(&tm, 0, sizeof tm);
            snprintf(st->cached_hms, sizeof st->cached_hms, "%02d:%02d:%02d", tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
            st->cached_sec = s;
        }
        size_t n = strlen(st->cached_hms);
        memcpy(o, st->cached_hms, n);
        o += n;
    }
    *o++ = '.';
    o = digits9(o, (uint32_t)ns);
    memcpy(o, "] (", 3);
    o += 3;
    if (st->have_last) {
        uint64_t delta = (uint64_t)ts - (uint64_t)st->last_ts;
        *o++ = '+';
        o = udec(o, delta / 1000000000u);
        *o++ = '.';
        o = digits9(o, (uint32_t)(delta % 1000000000u));
    } else {
        memcpy(o, "+?.?????????", 12);
        o += 12;
    }
    memcpy(o, ") ", 2);
    o += 2;
    st->last_ts = ts;
    st->have_last = true;
    return o;
}

static bool put_scope(tg_buf *out, const tg_event *ev, tg_scope scope, bool always, bool first)
{
    size_t n = tg_event_field_count(ev, scope);
    if (!n && !always)
        return first;
    if (!first)
        tg_buf_puts(out, ", ");
    tg_buf_putc(out, '{');
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) < 0)
            break;
        tg_buf_puts(out, i ? ", " : " ");
        tg_buf_puts(out, v.name ? v.name : "");
        tg_buf_puts(out, " = ");
        put_value(out, &v);
    }
    tg_buf_puts(out, " }");
    return false;
}

static int print_babeltrace(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                            tg_error **err)
{
    tg_iter_use_trace_clocks(it); /* babeltrace2's own times and order */
    bt_state st = {.seconds = tg_options_flag(opts, "clock-seconds") != 0,
                   .generic = tg_options_flag(opts, "babeltrace-generic") != 0,
                   .cached_sec = -1};
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (tg_event_kind_of(ev) == TG_KIND_LOST)
            continue;
        const bt_trace_info *ti = trace_info(&st, tg_event_trace(ev));
        if (!ti) {
            rc = TG_ERR_NOMEM;
            break;
        }
        /* "[time] (+delta) host:proc:(vpid) name: " in one put */
        char line[1024];
        char *o = line;
        if (ti->has_clock)
            o = put_time(&st, line, tg_event_trace_time_ns(ev));
        const char *name = tg_event_name(ev);
        size_t nl = strlen(name);
        if (ti->dom_len + nl + 2 <= sizeof line - (size_t)(o - line)) {
            memcpy(o, ti->dom, ti->dom_len);
            o += ti->dom_len;
            memcpy(o, name, nl);
            o += nl;
            *o++ = ':';
            *o++ = ' ';
            tg_buf_put(out, line, (size_t)(o - line));
        } else {
            tg_buf_put(out, line, (size_t)(o - line));
            tg_buf_put(out, ti->dom, ti->dom_len);
            tg_buf_puts(out, name);
            tg_buf_puts(out, ": ");
        }
        if (ti->render && tg_event_render(ev, out) == 1) {
            tg_buf_putc(out, '\n');
            continue;
        }
        bool first = true;
        first = put_scope(out, ev, TG_SCOPE_PACKET_CONTEXT, false, first);
        first = put_scope(out, ev, TG_SCOPE_STREAM_CONTEXT, false, first);
        first = put_scope(out, ev, TG_SCOPE_EVENT_CONTEXT, false, first);
        put_scope(out, ev, TG_SCOPE_PAYLOAD, true, first);
        tg_buf_putc(out, '\n');
    }
    free(st.infos);
    (void)set;
    (void)err;
    return rc;
}

TG_PRINT_STYLE(babeltrace) = {"babeltrace", print_babeltrace};
