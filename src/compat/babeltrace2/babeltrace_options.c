/* babeltrace_options.c - babeltrace2's text options and the event header they shape.
 *
 *   --names=all:     timestamp = 05:46:10.120254774, delta = +?.?????????, trace:hostname = vm,
 *                    name = lttng_ust_statedump:start, stream.packet.context = { cpu_id = 1 }, ...
 *   --fields=all:    [05:46:10.120254774] (+?.?????????) vmvm:ust:TRACE_DEBUG_LINE (13) name: ...
 *   --clock-cycles:  [00000000001234567890] (+000000001234) ...
 *   --clock-date:    [2024-03-01 05:46:10.120254774] ...
 *
 * babeltrace2's command line turns --names and --fields into sink.text.pretty's parameters
 * (a list naming some items hides the others: `--names=payload` shows the payload's names
 * only), and the sink prints the header with them: the time (cycles, date, GMT, seconds), the
 * delta, the trace's name and environment fields (hostname, domain, procname, vpid), the
 * class's log level and EMF URI, the event name, each with its name or without.  This is
 * that header, written as babeltrace2 writes it, quirks kept: the trace name runs into what
 * follows it without a separator, a negative time falls back to seconds with a warning.
 * Only runs with options pay for it: babeltrace_text.c keeps its own fast header for the
 * default output. */
#include "compat/babeltrace2/babeltrace_options.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The comma list's items, trimmed, one by one: false at the end. */
static bool next_item(const char **p, char *item, size_t cap)
{
    const char *s = *p;
    while (*s == ',' || isspace((unsigned char)*s))
        s++;
    if (!*s)
        return false;
    size_t n = strcspn(s, ",");
    const char *e = s + n;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    size_t len = (size_t)(e - s) < cap ? (size_t)(e - s) : cap - 1;
    memcpy(item, s, len);
    item[len] = 0;
    *p = s + n;
    return true;
}

static int parse_names(const char *list, bt_opts *o, tg_error **err)
{
    bool all = false, none = false, item = false, payload = false, context = false, scope = false,
         header = false;
    char it[64];
    for (const char *p = list; next_item(&p, it, sizeof it);) {
        if (!strcmp(it, "payload") || !strcmp(it, "args") || !strcmp(it, "arg"))
            item = payload = true;
        else if (!strcmp(it, "context") || !strcmp(it, "ctx"))
            item = context = true;
        else if (!strcmp(it, "scope"))
            item = scope = true;
        else if (!strcmp(it, "header"))
            item = header = true;
        else if (!strcmp(it, "all"))
            all = true;
        else if (!strcmp(it, "none"))
            none = true;
        else
            return tg_err(err, TG_ERR_USAGE, "--names: unknown name: `%s`", it);
    }
    if (all && none)
        return tg_err(err, TG_ERR_USAGE,
                      "--names: only either `all` or `none` can be given, but not both");
    /* babeltrace2: naming items hides the others */
    bool show = all;
    if (all || none || item)
        o->payload_names = o->context_names = o->header_names = o->scope_names = show;
    o->payload_names |= payload;
    o->context_names |= context;
    o->scope_names |= scope;
    o->header_names |= header;
    return 0;
}

static int parse_fields(const char *list, bt_opts *o, tg_error **err)
{
    bool all = false, item = false;
    bt_opts f = {0};
    char it[64];
    for (const char *p = list; next_item(&p, it, sizeof it);) {
        item = true;
        if (!strcmp(it, "trace"))
            f.f_trace = true;
        else if (!strcmp(it, "trace:hostname"))
            f.f_hostname = true;
        else if (!strcmp(it, "trace:domain"))
            f.f_domain = true;
        else if (!strcmp(it, "trace:procname"))
            f.f_procname = true;
        else if (!strcmp(it, "trace:vpid"))
            f.f_vpid = true;
        else if (!strcmp(it, "loglevel"))
            f.f_loglevel = true;
        else if (!strcmp(it, "emf"))
            f.f_emf = true;
        else if (!strcmp(it, "callsite"))
            ; /* no call-site information in CTF 1.8 traces: nothing to print */
        else if (!strcmp(it, "all"))
            all = true;
        else
            return tg_err(err, TG_ERR_USAGE, "--fields: unknown field: `%s`", it);
    }
    if (!item)
        return 0;
    o->f_trace = all || f.f_trace;
    o->f_hostname = all || f.f_hostname;
    o->f_domain = all || f.f_domain;
    o->f_procname = all || f.f_procname;
    o->f_vpid = all || f.f_vpid;
    o->f_loglevel = all || f.f_loglevel;
    o->f_emf = all || f.f_emf;
    return 0;
}

int bt_opts_parse(const tg_options *opts, bt_opts *o, tg_error **err)
{
    *o = (bt_opts){
        .seconds = tg_options_flag(opts, "clock-seconds") != 0,
        .date = tg_options_flag(opts, "clock-date") != 0,
        .gmt = tg_options_flag(opts, "clock-gmt") != 0,
        .cycles = tg_options_flag(opts, "clock-cycles") != 0,
        .delta = !tg_options_flag(opts, "no-delta"),
        .stream_intersection = tg_options_flag(opts, "stream-intersection") != 0,
        .payload_names = true,
        .context_names = true,
        .f_hostname = true,
        .f_procname = true,
        .f_vpid = true,
    };
    const char *names = tg_options_get(opts, "names"), *fields = tg_options_get(opts, "fields");
    if (names)
        TG_TRY(parse_names(names, o, err));
    if (fields)
        TG_TRY(parse_fields(fields, o, err));
    return 0;
}

bool bt_opts_plain(const bt_opts *o)
{
    return !o->stream_intersection && !o->date && !o->gmt && !o->cycles && o->delta &&
           !o->header_names && !o->scope_names && o->payload_names && o->context_names &&
           !o->f_trace && o->f_hostname && !o->f_domain && o->f_procname && o->f_vpid &&
           !o->f_loglevel && !o->f_emf;
}

unsigned bt_opts_render_flags(const bt_opts *o)
{
    return (o->payload_names ? 0 : TG_RENDER_NO_PAYLOAD_NAMES) |
           (o->context_names ? 0 : TG_RENDER_NO_CONTEXT_NAMES) |
           (o->scope_names ? TG_RENDER_SCOPE_NAMES : 0);
}

/* ---- per trace ------------------------------------------------------------------------------ */

static const char *env_string(const tg_trace *t, const char *key)
{
    const tg_env_entry *e = tg_trace_env_find(t, key);
    return e && !e->is_integer ? e->value : NULL;
}

int bt_header_init(bt_header *h, const bt_opts *o, tg_set *set)
{
    memset(h, 0, sizeof *h);
    h->o = o;
    h->cached_sec = INT64_MIN;
    (void)set;
    return 0;
}

void bt_header_free(bt_header *h)
{
    for (size_t i = 0; i < h->n_traces; i++)
        free((char *)h->traces[i].name);
    free(h->traces);
}

static const bt_trace_fields *fields_of(bt_header *h, const tg_trace *t)
{
    for (size_t i = 0; i < h->n_traces; i++)
        if (h->traces[i].trace == t)
            return &h->traces[i];
    if (tg_grow(&h->traces, &h->cap_traces, h->n_traces + 1, sizeof *h->traces) < 0)
        return NULL;
    bt_trace_fields *f = &h->traces[h->n_traces++];
    memset(f, 0, sizeof *f);
    f->trace = t;
    const char *ck = tg_trace_clock_name(t);
    f->has_clock = ck && strcmp(ck, "unknown") != 0;
    f->hostname = env_string(t, "hostname");
    f->domain = env_string(t, "domain");
    f->procname = env_string(t, "procname");
    const tg_env_entry *vp = tg_trace_env_find(t, "vpid");
    f->has_vpid = vp && vp->is_integer;
    f->vpid = vp ? vp->integer : 0;
    /* babeltrace2's trace name: the hostname, then the trace's folder below the path given
     * ("vm/ust/uid/0/64-bit" for an LTTng session folder) */
    const char *path = tg_trace_path(t), *in = tg_trace_input_path(t), *rel = "";
    size_t il = in ? strlen(in) : 0;
    while (il > 1 && in[il - 1] == '/')
        il--;
    if (path && in && strncmp(path, in, il) == 0 && (path[il] == '/' || !path[il]))
        rel = path + il;
    while (*rel == '/')
        rel++;
    /* (empty without a hostname: babeltrace2 2.0 names every CTF trace) */
    size_t n = (f->hostname ? strlen(f->hostname) : 0) + strlen(rel) + 2;
    char *name = malloc(n);
    if (name)
        snprintf(name, n, "%s%s%s", f->hostname ? f->hostname : "", *rel ? "/" : "", rel);
    f->name = name;
    return f;
}

/* ---- the header ------------------------------------------------------------------------------ */

static void name_equal(tg_buf *out, const char *name)
{
    tg_buf_puts(out, name);
    tg_buf_puts(out, " = ");
}

/* print_timestamp_wall: local time or GMT, with the date or not, seconds when negative */
void bt_put_wall(bt_header *h, tg_buf *out, int64_t ns)
{
    const bt_opts *o = h->o;
    int64_t sec = ns / 1000000000, frac = ns % 1000000000;
    bool neg = false;
    uint64_t sec_abs, ns_abs;
    if (sec >= 0 && frac >= 0) {
        sec_abs = (uint64_t)sec;
        ns_abs = (uint64_t)frac;
    } else if (sec > 0 && frac < 0) {
        sec_abs = (uint64_t)(sec - 1);
        ns_abs = (uint64_t)(1000000000 + frac);
    } else if (sec == 0 && frac < 0) {
        neg = true;
        sec_abs = 0;
        ns_abs = (uint64_t)-frac;
    } else if (sec < 0 && frac > 0) {
        neg = true;
        sec_abs = (uint64_t) - (sec + 1);
        ns_abs = (uint64_t)(1000000000 - frac);
    } else {
        neg = true;
        sec_abs = (uint64_t)-sec;
        ns_abs = (uint64_t)-frac;
    }
    if (!o->seconds && !(neg && (h->warned_negative = true))) {
        if ((int64_t)sec_abs != h->cached_sec) {
            time_t tt = (time_t)sec_abs;
            struct tm tm;
            if (!(o->gmt ? gmtime_r(&tt, &tm) : localtime_r(&tt, &tm)))
                memset(&tm, 0, sizeof tm);
            size_t n = 0;
            if (o->date)
                n = strftime(h->cached, sizeof h->cached, "%Y-%m-%d ", &tm);
            n += (size_t)snprintf(h->cached + n, sizeof h->cached - n, "%02d:%02d:%02d.",
                                  tm.tm_hour, tm.tm_min, tm.tm_sec);
            h->cached_len = n;
            h->cached_sec = (int64_t)sec_abs;
        }
        tg_buf_put(out, h->cached, h->cached_len);
        tg_buf_u64_pad(out, ns_abs, 9, '0');
        return;
    }
    if (neg)
        tg_buf_putc(out, '-');
    tg_buf_u64(out, sec_abs);
    tg_buf_putc(out, '.');
    tg_buf_u64_pad(out, ns_abs, 9, '0');
}

static void put_time_and_delta(bt_header *h, const tg_event *ev, tg_buf *out)
{
    const bt_opts *o = h->o;
    bool names = o->header_names;
    tg_buf_puts(out, names ? "timestamp = " : "[");
    if (o->cycles) {
        uint64_t c = 0;
        tg_event_clock_value(ev, &c);
        tg_buf_u64_pad(out, c, 20, '0');
        if (h->have_last_cycles) {
            h->delta_cycles = c - h->last_cycles;
            h->have_delta_cycles = true;
        }
        h->last_cycles = c;
        h->have_last_cycles = true;
    } else {
        int64_t ns = tg_event_trace_time_ns(ev);
        if (h->have_last_ns) {
            h->delta_ns = (uint64_t)ns - (uint64_t)h->last_ns;
            h->have_delta_ns = true;
        }
        h->last_ns = ns;
        h->have_last_ns = true;
        bt_put_wall(h, out, ns);
    }
    if (!names)
        tg_buf_puts(out, "] ");
    if (!o->delta)
        return;
    tg_buf_puts(out, names ? ", delta = " : "(");
    if (o->cycles) {
        if (h->have_delta_cycles) {
            tg_buf_putc(out, '+');
            tg_buf_u64_pad(out, h->delta_cycles, 12, '0');
        } else {
            tg_buf_puts(out, "+????????????");
        }
    } else if (h->have_delta_ns) {
        tg_buf_putc(out, '+');
        tg_buf_u64(out, h->delta_ns / 1000000000);
        tg_buf_putc(out, '.');
        tg_buf_u64_pad(out, h->delta_ns % 1000000000, 9, '0');
    } else {
        tg_buf_puts(out, "+?.?????????");
    }
    if (!names)
        tg_buf_puts(out, ") ");
}

static const char *const log_level_names[] = {
    "TRACE_EMERG",          "TRACE_ALERT",         "TRACE_CRIT",         "TRACE_ERR",
    "TRACE_WARNING",        "TRACE_NOTICE",        "TRACE_INFO",         "TRACE_DEBUG_SYSTEM",
    "TRACE_DEBUG_PROGRAM",  "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
    "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",    "TRACE_DEBUG",
};

/* One environment field: ", " unless the line starts here, its name, or ':' after another. */
static void put_dom(tg_buf *out, bool start_line, bool names, const char *name, int *dom)
{
    if (!start_line)
        tg_buf_puts(out, ", ");
    if (names)
        name_equal(out, name);
    else if (*dom)
        tg_buf_putc(out, ':');
    *dom = 1;
}

int bt_header_put(bt_header *h, const tg_event *ev, tg_buf *out)
{
    const bt_opts *o = h->o;
    const bt_trace_fields *f = fields_of(h, tg_event_trace(ev));
    if (!f)
        return TG_ERR_NOMEM;
    bool names = o->header_names, start_line = true;
    int dom = 0;
    if (f->has_clock) {
        put_time_and_delta(h, ev, out);
        start_line = !names;
    }
    if (o->f_trace && f->name) {
        if (!start_line)
            tg_buf_puts(out, ", ");
        if (names)
            name_equal(out, "trace");
        tg_buf_puts(out, f->name);
        if (names)
            tg_buf_puts(out, ", ");
    }
    if (o->f_hostname && f->hostname) {
        if (!start_line)
            tg_buf_puts(out, ", ");
        if (names)
            name_equal(out, "trace:hostname");
        tg_buf_puts(out, f->hostname);
        dom = 1;
    }
    if (o->f_domain && f->domain) {
        put_dom(out, start_line, names, "trace:domain", &dom);
        tg_buf_puts(out, f->domain);
    }
    if (o->f_procname && f->procname) {
        put_dom(out, start_line, names, "trace:procname", &dom);
        tg_buf_puts(out, f->procname);
    }
    if (o->f_vpid && f->has_vpid) {
        put_dom(out, start_line, names, "trace:vpid", &dom);
        tg_buf_printf(out, "(%lld)", (long long)f->vpid);
    }
    const tg_event_class *c = tg_event_class_of(ev);
    int level;
    if (o->f_loglevel && c && tg_event_class_log_level(c, &level) && level >= 0 && level <= 14) {
        put_dom(out, start_line, names, "loglevel", &dom);
        tg_buf_printf(out, "%s (%d)", log_level_names[level], level);
    }
    const char *emf = c ? tg_event_class_emf_uri(c) : NULL;
    if (o->f_emf && emf) {
        put_dom(out, start_line, names, "model.emf.uri", &dom);
        tg_buf_puts(out, emf);
    }
    if (dom && !names)
        tg_buf_putc(out, ' ');
    if (!start_line)
        tg_buf_puts(out, ", ");
    if (names)
        name_equal(out, "name");
    tg_buf_puts(out, tg_event_name(ev));
    tg_buf_puts(out, names ? ", " : ": ");
    return 0;
}
