/* babeltrace_text.c - the "babeltrace" print style: babeltrace2 2.0.4's default text output.
 *
 *   [04:02:28.481301253] (+0.000010195) vm lttng_ust_statedump:procname: { cpu_id = 1 },
 *   { vpid = 5086, vtid = 5087, procname = "ust_app-ust" }, { procname = "ust_app" }
 *
 * (one line per event).  What `babeltrace2 PATH` prints with its sink.text.pretty defaults:
 * the time in local time (or seconds since the origin with option "clock-seconds") and the
 * delta to the previous event, the trace's hostname, procname and vpid from its environment,
 * the event name, then the packet context, stream event context, event context and payload
 * that are visible, each as `{ name = value, ... }`.  Discarded events and packets go to
 * babeltrace2's stderr, not its output: its warnings go to the set's notes
 * (babeltrace_discarded.c), the iterator giving the gaps as messages.
 *
 * This file writes the line's frame (time, delta, trace fields, event name); the fields are
 * the format's babeltrace2 rendering (tg_event_render): babeltrace2 reads CTF only, and the
 * CTF reader prints the fields as it decodes them, in one pass over the packet bits (the one
 * babeltrace2 field printer: src/formats/ctf/ctf_text.h and the print mode of
 * ctf_decode.c; docs/design-notes.md says why it lives there).  An event of a format that
 * has no babeltrace2 rendering is an error.
 *
 * The per-trace facts (has a clock, environment) come from the trace's attributes once per trace;
 * everything per event is formatted straight into the output buffer. */
#include "compat/babeltrace2/babeltrace_options.h"
#include "compat/babeltrace2/babeltrace_style.h"
#include "core/consumer.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bt_trace_info {
    const tg_trace *trace;
    bool has_clock;
    char hostname[256], procname[256], vpid[32];
    char dom[600]; /* "host:proc:(vpid) " as printed before the event name */
    size_t dom_len;
} bt_trace_info;

typedef struct bt_state {
    bool seconds;
    bool have_last;
    int64_t last_ts;
    int64_t cached_sec;
    char cached_hms[16];
    bt_trace_info *infos;
    size_t n_infos, cap_infos;
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
    if (tg_grow(&st->infos, &st->cap_infos, st->n_infos + 1, sizeof *st->infos) < 0)
        return NULL;
    bt_trace_info *in = &st->infos[st->n_infos++];
    memset(in, 0, sizeof *in);
    in->trace = t;
    const char *ck = tg_trace_clock_name(t);
    in->has_clock = ck && strcmp(ck, "unknown") != 0;
    env_value(t, "hostname", in->hostname, sizeof in->hostname);
    env_value(t, "procname", in->procname, sizeof in->procname);
    env_value(t, "vpid", in->vpid, sizeof in->vpid);
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

/* ---- events ------------------------------------------------------------------------------- */

/* The 9 digits of a nanosecond count below 10^9, two at a time from core's digit pairs, in
 * 32-bit arithmetic (every event prints two). */
static inline char *digits9(char *o, uint32_t v)
{
    o[8] = (char)('0' + v % 10);
    v /= 10;
    for (int i = 6; i >= 0; i -= 2) {
        unsigned r = v % 100;
        v /= 100;
        o[i] = tg_dec_pairs[2 * r];
        o[i + 1] = tg_dec_pairs[2 * r + 1];
    }
    return o + 9;
}

static char *udec(char *o, uint64_t v)
{
    size_t n = tg_dec_len(v);
    tg_dec_write(o + n, v);
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
            snprintf(st->cached_hms, sizeof st->cached_hms, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min,
                     tm.tm_sec);
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

/* An event babeltrace2's text sink prints a line of: not a gap, not a stream's or packet's
 * boundary (the messages come last in tg_event_kind). */
static inline bool bt_is_text_line(const tg_event *ev)
{
    tg_event_kind k = tg_event_kind_of(ev);
    return k != TG_KIND_LOST && k < TG_KIND_STREAM_BEGIN;
}

static inline bool bt_is_gap(const tg_event *ev)
{
    tg_event_kind k = tg_event_kind_of(ev);
    return k == TG_KIND_LOST || k == TG_KIND_PACKETS_LOST;
}

/* With options: babeltrace_options.c's header, the scopes rendered with the name flags. */
static int print_with_options(tg_set *set, tg_iter *it, const bt_opts *o, tg_buf *out,
                              tg_error **err)
{
    bt_header h, warn;
    bt_trims trims = {0};
    if (o->stream_intersection)
        TG_TRY(bt_intersection_compute(set, &trims, err));
    int rc = bt_header_init(&h, o, set);
    bt_header_init(&warn, o, set); /* the warnings' times: their own cache */
    unsigned flags = bt_opts_render_flags(o);
    tg_buf *notes = tg_set_notes_out(set);
    const tg_event *ev;
    while (rc >= 0 && (rc = tg_iter_next(it, &ev)) > 0) {
        if (!bt_is_text_line(ev)) {
            if (notes && bt_is_gap(ev) && (rc = bt_discarded_warning(&warn, ev, notes)) < 0)
                break;
            continue;
        }
        if (o->stream_intersection && !bt_trims_keep(&trims, ev))
            continue;
        if ((rc = bt_header_put(&h, ev, out)) < 0)
            break;
        if (tg_event_render_with(ev, out, flags) != 1) {
            tg_buf_putc(out, '\n');
            rc = TG_ERR_UNSUPPORTED; /* babeltrace2 reads CTF only: no rendering to copy */
            break;
        }
        tg_buf_putc(out, '\n');
    }
    bt_header_free(&h);
    bt_header_free(&warn);
    bt_trims_free(&trims);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, rc, "out of memory");
    return rc;
}

/* ---- on several cores ------------------------------------------------------------------- */

/* What a worker made of an event (tg_ahead_line.tag): a line with its time and delta to
 * write first, a line without (a trace without clock), a warning for the notes, or nothing
 * (a message that prints no line); UNSUPPORTED: the line of an event without rendering. */
enum { BT_AHEAD_TIMED, BT_AHEAD_PLAIN, BT_AHEAD_NOTE, BT_AHEAD_NONE, BT_AHEAD_UNSUPPORTED = 8 };

typedef struct bt_ahead_ctx {
    const bt_state *st; /* every trace's info, made before the workers start */
    bt_header *warn;    /* one per worker: the warnings' times */
    size_t *last;       /* one per worker: the info found last */
    bool notes;
} bt_ahead_ctx;

/* The worker's part of an event's line: everything but "[time] (+delta) ". */
static int render_ahead(void *ctx, unsigned worker, const tg_event *ev, tg_buf *out,
                        tg_ahead_line *line)
{
    const bt_ahead_ctx *c = ctx;
    if (!bt_is_text_line(ev)) {
        line->tag = BT_AHEAD_NONE;
        if (c->notes && bt_is_gap(ev)) {
            line->tag = BT_AHEAD_NOTE;
            return bt_discarded_warning(&c->warn[worker], ev, out);
        }
        return 0;
    }
    const tg_trace *t = tg_event_trace(ev);
    size_t i = c->last[worker];
    if (c->st->infos[i].trace != t) {
        for (i = 0; i < c->st->n_infos && c->st->infos[i].trace != t; i++)
            ;
        if (i == c->st->n_infos)
            return TG_ERR_NOMEM; /* not made: trace_info ran out of memory */
        c->last[worker] = i;
    }
    const bt_trace_info *ti = &c->st->infos[i];
    line->time = tg_event_trace_time_ns(ev);
    line->tag = ti->has_clock ? BT_AHEAD_TIMED : BT_AHEAD_PLAIN;
    tg_buf_put(out, ti->dom, ti->dom_len);
    tg_buf_puts(out, tg_event_name(ev));
    TG_BUF_LIT(out, ": ");
    if (tg_event_render(ev, out) != 1) {
        tg_buf_putc(out, '\n');
        line->tag |= BT_AHEAD_UNSUPPORTED;
        return 0;
    }
    TG_BUF_LIT(out, "\n");
    return 0;
}

/* The plain style with the streams rendered on worker threads (tg_ahead): the merge writes
 * each line's time and delta, then copies the rest.  1: done (rc in *rc); 0: not possible,
 * nothing read (the caller prints as usual). */
static int print_ahead(tg_set *set, tg_iter *it, const bt_opts *o, tg_buf *out, tg_buf *notes,
                       bt_state *st, int *rc)
{
    unsigned nw = tg_ahead_workers(it);
    if (!nw)
        return 0;
    for (size_t i = 0; i < tg_set_trace_count(set); i++)
        if (!trace_info(st, tg_set_trace(set, i)))
            return 0;
    bt_header *warn = calloc(nw, sizeof *warn);
    size_t *last = calloc(nw, sizeof *last);
    if (!warn || !last || !st->n_infos) {
        free(warn);
        free(last);
        return 0;
    }
    for (unsigned w = 0; w < nw; w++)
        bt_header_init(&warn[w], o, set);
    bt_ahead_ctx c = {st, warn, last, notes != NULL};
    tg_ahead *a = tg_ahead_new(it, render_ahead, &c);
    int done = a != NULL;
    if (a) {
        tg_ahead_line l;
        int r;
        while ((r = tg_ahead_next(a, &l)) > 0) {
            unsigned kind = l.tag & ~(unsigned)BT_AHEAD_UNSUPPORTED;
            if (kind == BT_AHEAD_NONE)
                continue;
            if (kind == BT_AHEAD_NOTE) {
                tg_buf_put(notes, l.text, l.len);
                continue;
            }
            if (kind == BT_AHEAD_TIMED) {
                char line[64];
                char *e = put_time(st, line, l.time);
                tg_buf_put_fast(out, line, (size_t)(e - line));
            }
            tg_buf_put(out, l.text, l.len);
            if (l.tag & BT_AHEAD_UNSUPPORTED) {
                r = TG_ERR_UNSUPPORTED; /* babeltrace2 reads CTF only: no rendering to copy */
                break;
            }
        }
        *rc = r;
        tg_ahead_free(a);
    }
    for (unsigned w = 0; w < nw; w++)
        bt_header_free(&warn[w]);
    free(warn);
    free(last);
    return done;
}

static int print_babeltrace(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                            tg_error **err)
{
    bt_opts o;
    TG_TRY(bt_opts_parse(opts, &o, err));
    if (bt_needs_conversion(set)) /* babeltrace2 reads CTF: print the CTF we write of it */
        return bt_print_converted(set, it, opts, "babeltrace", out, err);
    tg_iter_use_trace_clocks(it); /* babeltrace2's own times and order */
    tg_buf *notes = tg_set_notes_out(set);
    if (notes) /* the discarded events and packets, as babeltrace2's messages have them */
        tg_iter_want_messages(it);
    if (!bt_opts_plain(&o))
        return print_with_options(set, it, &o, out, err);
    bt_state st = {.seconds = o.seconds, .cached_sec = -1};
    int rc = 0;
    /* --debug-info learns the programs' mappings from statedump events in the merge's order:
     * one thread */
    if (!tg_options_flag(opts, "debug-info") && print_ahead(set, it, &o, out, notes, &st, &rc)) {
        free(st.infos);
        return rc;
    }
    bt_header warn;
    bt_header_init(&warn, &o, set);
    const tg_event *ev;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        if (!bt_is_text_line(ev)) {
            if (notes && bt_is_gap(ev) && (rc = bt_discarded_warning(&warn, ev, notes)) < 0)
                break;
            continue;
        }
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
            tg_buf_put_fast(out, line, (size_t)(o - line));
        } else {
            tg_buf_put(out, line, (size_t)(o - line));
            tg_buf_put(out, ti->dom, ti->dom_len);
            tg_buf_puts(out, name);
            tg_buf_puts(out, ": ");
        }
        if (tg_event_render(ev, out) != 1) {
            tg_buf_putc(out, '\n');
            rc = TG_ERR_UNSUPPORTED; /* babeltrace2 reads CTF only: no rendering to copy */
            break;
        }
        TG_BUF_LIT(out, "\n");
    }
    free(st.infos);
    bt_header_free(&warn);
    (void)err;
    return rc;
}

/* The debug-info options are read by the CTF reader at open (formats/ctf/ctf_debuginfo.c),
 * which adds the debug_info fields this style prints. */
static const tg_option_decl babeltrace_options[] = {
    {"clock-seconds", TG_OPT_FLAG, NULL, "timestamps in seconds (babeltrace2 --clock-seconds)"},
    {"clock-cycles", TG_OPT_FLAG, NULL, "timestamps in clock cycles (babeltrace2 --clock-cycles)"},
    {"clock-date", TG_OPT_FLAG, NULL, "the date before each time (babeltrace2 --clock-date)"},
    {"clock-gmt", TG_OPT_FLAG, NULL,
     "times, and --begin/--end times of day, in GMT, not local time (babeltrace2 --clock-gmt)"},
    {"no-delta", TG_OPT_FLAG, NULL, "no time since the previous event (babeltrace2 --no-delta)"},
    {"stream-intersection", TG_OPT_FLAG, NULL,
     "only the events of the time when every stream of their trace is active, from the "
     "streams' latest first packet to their earliest last packet end (babeltrace2 "
     "--stream-intersection)"},
    {"timerange", TG_OPT_TEXT, NULL,
     "the events from BEGIN to END, each in --begin's forms; [BEGIN,END] too (babeltrace2 "
     "--timerange)",
     "BEGIN,END"},
    {"names", TG_OPT_TEXT, NULL,
     "the field names shown: payload (args), context (ctx), scope, header, all, none "
     "(babeltrace2 --names)",
     "NAME[,NAME]", NULL, 0, 0, 'n'},
    {"fields", TG_OPT_TEXT, NULL,
     "the event's fields shown: trace, trace:hostname, trace:domain, trace:procname, "
     "trace:vpid, loglevel, emf, callsite, all (babeltrace2 --fields)",
     "FIELD[,FIELD]", NULL, 0, 0, 'f'},
    {"debug-info", TG_OPT_FLAG, NULL,
     "LTTng-UST events with ip and vpid contexts get debug_info { bin, func, src } "
     "(babeltrace2 --debug-info)"},
    {"debug-info-target-prefix", TG_OPT_TEXT, NULL,
     "with --debug-info: look for the traced binaries under DIR", "DIR"},
    {"debug-info-full-path", TG_OPT_FLAG, NULL,
     "with --debug-info: full paths of binaries and sources"},
    {0},
};

TG_PRINT_STYLE(babeltrace) = {"babeltrace", print_babeltrace, babeltrace_options};
