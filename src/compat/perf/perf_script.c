/* perf_script.c - `cat --style=perf`: what `perf script` prints for each sample.
 *
 * perf script's default fields (tools/perf/builtin-script.c, perf 6.1) for hardware and
 * software events: the thread's name (%16s, or %s with a call chain), the tid (%5d), the
 * cpu when sampled ([%03d]), the time (%12s of seconds.microseconds, or %5lu.%09lu with
 * --ns), the period (%10lu), the event name right-aligned to the longest one of the file,
 * then the ip (%16lx) with its symbol and shared object, or with a call chain a newline and
 * one "\t%16lx sym (dso)" line per frame (addresses inside a map relative to it, as perf's
 * callchain cursor holds them) and an empty line.  The session (perf_session.c) names
 * threads and maps from the records before the sample, as perf's machine does.  Symbols of
 * user-space objects come from their ELF files (perf_symbols.c; under --symfs DIR when
 * given), as "name+0xoffset", the kernel's from kallsyms (perf_kallsyms.h: --kallsyms FILE,
 * or perf's search); an address without one is "[unknown]", and one outside every map
 * (the sample's cpumode says in whose maps to look) "[unknown] ([unknown])".  A tracepoint's line has no ip unless it has a call chain,
 * and after its name the payload as the tracepoint's print fmt prints it (perf script's
 * trace field, libtraceevent's text: the reader renders it). */
#include "compat/perf/perf_frame_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf script's output fields (-F) */
enum {
    PF_COMM = 1 << 0,
    PF_TID = 1 << 1,
    PF_PID = 1 << 2,
    PF_CPU = 1 << 3,
    PF_TIME = 1 << 4,
    PF_PERIOD = 1 << 5,
    PF_EVENT = 1 << 6,
    PF_TRACE = 1 << 7,
    PF_IP = 1 << 8,
    PF_SYM = 1 << 9,
    PF_SYMOFF = 1 << 10,
    PF_DSO = 1 << 11,
};

static const struct {
    const char *name;
    unsigned bit;
} field_names[] = {
    {"comm", PF_COMM}, {"tid", PF_TID},       {"pid", PF_PID},       {"cpu", PF_CPU},
    {"time", PF_TIME}, {"period", PF_PERIOD}, {"event", PF_EVENT},   {"trace", PF_TRACE},
    {"ip", PF_IP},     {"sym", PF_SYM},       {"symoff", PF_SYMOFF}, {"dso", PF_DSO},
};

/* perf script's defaults: hardware and software events', and tracepoints' (with the ip,
 * symbol and object too when the event has call chains) */
#define PF_DEFAULT                                                                                 \
    (PF_COMM | PF_TID | PF_CPU | PF_TIME | PF_EVENT | PF_IP | PF_SYM | PF_SYMOFF | PF_DSO |        \
     PF_PERIOD)
#define PF_TRACEPOINT (PF_COMM | PF_TID | PF_CPU | PF_TIME | PF_EVENT | PF_TRACE)
#define PF_CHAIN (PF_IP | PF_SYM | PF_SYMOFF | PF_DSO)

typedef struct ps_printer {
    perf_session s;
    perf_symbols syms;
    perf_frame_text frames; /* the frames' texts, made once */
    tg_buf *out;
    bool ns;
    int name_width;
    /* -F: the fields asked for (user_set), or the defaults with these added and removed */
    bool user_set;
    unsigned fields, add, remove;
    const char *missing; /* a field asked for that an event's samples lack: the error */
    const char *missing_event;
    bool no_sym;               /* symoff without sym: perf refuses */
    struct ps_layout *layouts; /* by class number */
    size_t n_layouts, cap_layouts;
} ps_printer;

static bool is_record(const char *name) { return strncmp(name, "PERF_RECORD_", 12) == 0; }

/* evlist__max_name_len: over the events of the files, not the records */
static int max_name_len(tg_set *set)
{
    int w = 0;
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < tg_trace_class_count(t); k++) {
            const tg_event_class *c = tg_trace_class(t, k);
            const char *n = tg_event_class_name(c), *sys = tg_event_class_system(c);
            int len = n ? (int)strlen(n) + (sys ? (int)strlen(sys) + 1 : 0) : 0;
            if (n && !is_record(n) && len > w)
                w = len;
        }
    }
    return w;
}

/* Where a sample's own fields are: a tracepoint's payload is its format's fields, and the
 * sample's (ip, tid, time, ...) are its event context. */
static tg_scope sample_scope(const tg_event *ev)
{
    return tg_event_class_system(tg_event_class_of(ev)) ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
}

static void put_spaces(tg_buf *out, size_t n)
{
    static const char sp[] = "                                ";
    while (n) {
        size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
        tg_buf_put(out, sp, k);
        n -= k;
    }
}

/* "%16lx sym+0xoff (dso)" of ip, the parts that fields ask for, after the character lead:
 * a tab before a chain's frame (its address relative to its map), a space before a sample's
 * own ip (the ip itself) */
static void put_frame(ps_printer *p, char lead, unsigned fields, int32_t pid, int space,
                      uint64_t ip)
{
    unsigned what = (fields & PF_SYM ? PFT_SYM : 0) | (fields & PF_SYMOFF ? PFT_SYMOFF : 0) |
                    (fields & PF_DSO ? PFT_DSO : 0) | (lead == ' ' ? PFT_RAW_IP : 0);
    size_t len;
    const char *text = perf_frame_text_of(&p->frames, &p->s, &p->syms, pid, space, ip, what, &len);
    if (!text)
        return;
    char *o = tg_buf_room(p->out, len + 1);
    if (!o)
        return;
    *o = lead;
    memcpy(o + 1, text, len);
    p->out->len += len + 1;
}

/* Whether perf keeps the chain: false when a marker is one it does not know. */
static bool chain_kept(const tg_value *chain)
{
    uint64_t ips[64];
    for (size_t i = 0; i < chain->count;) {
        size_t got = tg_value_uints(chain, i, ips, sizeof ips / sizeof *ips);
        if (!got)
            break;
        i += got;
        for (size_t k = 0; k < got; k++)
            if (ips[k] >= PERF_CHAIN_CONTEXT_MAX && perf_chain_context(ips[k]) == -2)
                return false;
    }
    return true;
}

static void put_callchain(ps_printer *p, unsigned fields, const tg_value *chain, int32_t pid)
{
    if (!chain_kept(chain))
        return; /* perf drops a corrupt chain whole */
    int space = 0;
    uint64_t ips[64];
    for (size_t i = 0; i < chain->count;) {
        size_t got = tg_value_uints(chain, i, ips, sizeof ips / sizeof *ips);
        if (!got)
            break;
        i += got;
        for (size_t k = 0; k < got; k++) {
            uint64_t ip = ips[k];
            if (ip >= PERF_CHAIN_CONTEXT_MAX) {
                space = perf_chain_context(ip);
                continue;
            }
            put_frame(p, '\t', fields, pid, space, ip);
            TG_BUF_LIT(p->out, "\n");
        }
    }
}

static void put_time(ps_printer *p, uint64_t t)
{
    uint64_t secs = t / 1000000000u, nsecs = t % 1000000000u;
    if (p->ns) { /* "%5lu.%09lu: " */
        tg_buf_u64_pad(p->out, secs, 5, ' ');
        tg_buf_putc(p->out, '.');
        tg_buf_u64_pad(p->out, nsecs, 9, '0');
    } else { /* "%12s: " of "secs.usecs" */
        int digits = 1;
        for (uint64_t x = secs / 10; x; x /= 10)
            digits++;
        if (digits + 7 < 12)
            put_spaces(p->out, (size_t)(12 - digits - 7));
        tg_buf_u64(p->out, secs);
        tg_buf_putc(p->out, '.');
        tg_buf_u64_pad(p->out, nsecs / 1000u, 6, '0');
    }
    tg_buf_puts(p->out, ": ");
}

/* Where a class's sample fields are, found at its first sample: the fields printed per
 * sample are then read by index (the thread, cpu and ip the reader put in the event). */
typedef struct ps_layout {
    bool known, has_ip, has_cpu, has_tid;
    tg_scope scope;
    int period, chain; /* field index, -1: none */
    unsigned fields;   /* PF_* printed for the event's samples */
} ps_layout;

/* perf_session__check_output_opt: the defaults drop what the samples lack; fields asked for
 * that they lack are an error (perf refuses to print). */
static void choose_fields(ps_printer *p, ps_layout *l, bool tracepoint)
{
    unsigned have = PF_COMM | PF_TIME | PF_EVENT | PF_SYM | PF_SYMOFF | PF_DSO;
    if (l->has_tid)
        have |= PF_TID | PF_PID;
    if (l->has_cpu)
        have |= PF_CPU;
    if (l->period >= 0)
        have |= PF_PERIOD;
    if (l->has_ip)
        have |= PF_IP;
    if (tracepoint)
        have |= PF_TRACE;
    if (p->user_set) {
        /* perf ignores a tracepoint's trace field asked of other events (with a warning) */
        l->fields = tracepoint ? p->fields : p->fields & ~PF_TRACE;
        unsigned lacking = l->fields & ~have;
        for (size_t i = 0; lacking && !p->missing && i < sizeof field_names / sizeof *field_names;
             i++)
            if (lacking & field_names[i].bit)
                p->missing = field_names[i].name;
        return;
    }
    unsigned f = tracepoint ? PF_TRACEPOINT : PF_DEFAULT;
    if (tracepoint && l->chain >= 0 && !p->add && !p->remove)
        f |= PF_CHAIN; /* not when -F changed the defaults: perf's user_set */
    l->fields = ((f & have) | p->add) & ~p->remove;
    if ((l->fields & PF_SYMOFF) && !(l->fields & PF_SYM))
        p->no_sym = true;
}

static const ps_layout *layout_of(ps_printer *p, const tg_event *ev)
{
    const tg_event_class *c = tg_event_class_of(ev);
    if (tg_grow_zeroed(&p->layouts, &p->n_layouts, &p->cap_layouts, c->number + 1,
                       sizeof *p->layouts) < 0) {
        p->s.nomem = true;
        return NULL;
    }
    ps_layout *l = &p->layouts[c->number];
    if (l->known)
        return l;
    l->known = true;
    l->scope = sample_scope(ev);
    l->period = l->chain = -1;
    size_t n = tg_event_field_count(ev, l->scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, l->scope, i, &v) < 0 || !v.name)
            continue;
        if (strcmp(v.name, "ip") == 0)
            l->has_ip = true;
        else if (strcmp(v.name, "cpu") == 0)
            l->has_cpu = true;
        else if (strcmp(v.name, "tid") == 0)
            l->has_tid = true;
        else if (strcmp(v.name, "period") == 0)
            l->period = (int)i;
        else if (strcmp(v.name, "callchain") == 0 && v.type == TG_VAL_ARRAY)
            l->chain = (int)i;
    }
    choose_fields(p, l, tg_event_class_system(c) != NULL);
    if (p->missing && !p->missing_event)
        p->missing_event = tg_event_class_name(c);
    return l;
}

/* "%*d" of a value that may be negative */
static void put_int(tg_buf *out, int64_t v, int width)
{
    if (v >= 0) {
        tg_buf_u64_pad(out, (uint64_t)v, width, ' ');
        return;
    }
    char b[32];
    snprintf(b, sizeof b, "%*" PRId64, width, v);
    tg_buf_puts(out, b);
}

static void print_sample(ps_printer *p, const tg_event *ev)
{
    const ps_layout *l = layout_of(p, ev);
    if (!l)
        return;
    if (p->missing || p->no_sym)
        return;
    unsigned f = l->fields;
    int32_t pid = ev->pid, tid = ev->tid;
    uint64_t ip = ev->addr;
    tg_value chain;
    bool has_chain = l->chain >= 0 && tg_event_field(ev, l->scope, (size_t)l->chain, &chain) == 0 &&
                     chain.type == TG_VAL_ARRAY;
    if (!(f & PF_IP) || has_chain) /* else the ip printed is resolved first */
        perf_resolve_sample_ip(&p->s, &p->syms, ev);
    if (f & PF_COMM) {
        ps_thread *t = perf_session_thread(&p->s, pid, tid);
        const char *comm = t ? t->comm : ":-1";
        size_t cl = strlen(comm);
        if (!((f & PF_IP) && l->chain >= 0) && cl < 16)
            put_spaces(p->out, 16 - cl);
        tg_buf_put(p->out, comm, cl);
        tg_buf_putc(p->out, ' ');
    }
    if ((f & PF_PID) && (f & PF_TID)) { /* "%5d/%-5d " */
        put_int(p->out, pid, 5);
        tg_buf_putc(p->out, '/');
        char b[16];
        int n = snprintf(b, sizeof b, "%-5d ", (int)tid);
        tg_buf_put(p->out, b, (size_t)n);
    } else if (f & (PF_PID | PF_TID)) {
        put_int(p->out, (f & PF_PID) ? pid : tid, 5);
        tg_buf_putc(p->out, ' ');
    }
    if (f & PF_CPU) {
        tg_buf_putc(p->out, '[');
        tg_buf_u64_pad(p->out, (uint64_t)(uint32_t)ev->cpu, 3, '0');
        tg_buf_puts(p->out, "] ");
    }
    if (f & PF_TIME)
        put_time(p, (uint64_t)tg_event_trace_time_ns(ev));
    const char *sys = tg_event_class_system(tg_event_class_of(ev));
    tg_value period;
    if ((f & PF_PERIOD) && tg_event_field(ev, l->scope, (size_t)l->period, &period) == 0) {
        tg_buf_u64_pad(p->out, period.v.u, 10, ' ');
        tg_buf_putc(p->out, ' ');
    }
    if (f & PF_EVENT) { /* perf's name of a tracepoint is "system:event" */
        const char *name = tg_event_name(ev);
        size_t nl = strlen(name) + (sys ? strlen(sys) + 1 : 0);
        if ((int)nl < p->name_width)
            put_spaces(p->out, (size_t)p->name_width - nl);
        if (sys) {
            tg_buf_puts(p->out, sys);
            tg_buf_putc(p->out, ':');
        }
        tg_buf_puts(p->out, name);
        tg_buf_puts(p->out, ": ");
    }
    /* a tracepoint's trace field: its payload as its print fmt prints it */
    if (f & PF_TRACE)
        tg_event_render(ev, p->out);
    if (f & PF_IP) {
        if (has_chain) {
            tg_buf_putc(p->out, '\n');
            put_callchain(p, f, &chain, pid);
        } else {
            put_frame(p, ' ', f, pid, perf_sample_space(ev), ip);
        }
    }
    tg_buf_putc(p->out, '\n');
}

/* -F LIST: "f1,f2" (those fields), or "+f1,-f2" (the defaults with f1, without f2). */
static int parse_fields(ps_printer *p, const char *list, tg_error **err)
{
    const char *s = list;
    bool modify = *s == '+' || *s == '-';
    p->user_set = !modify;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char sign = 0;
        if (*s == '+' || *s == '-') {
            sign = *s++;
            n--;
        } else if (modify) {
            sign = '+';
        }
        unsigned bit = 0;
        for (size_t i = 0; i < sizeof field_names / sizeof *field_names; i++)
            if (strlen(field_names[i].name) == n && strncmp(field_names[i].name, s, n) == 0)
                bit = field_names[i].bit;
        if (!bit)
            return tg_err(err, TG_ERR_USAGE,
                          "perf script -F: '%.*s' is not a field this style prints (comm, tid, "
                          "pid, cpu, time, period, event, trace, ip, sym, symoff, dso)",
                          (int)n, s);
        if (sign == '-')
            p->remove |= bit;
        else if (sign == '+')
            p->add |= bit;
        else
            p->fields |= bit;
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}

static int print_perf(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    ps_printer p = {.out = out, .ns = opts && tg_options_flag(opts, "ns")};
    perf_symbols_configure(&p.syms, opts);
    p.name_width = max_name_len(set);
    const char *fields = opts ? tg_options_get(opts, "script-fields") : NULL;
    if (fields && parse_fields(&p, fields, err) < 0)
        return TG_ERR_USAGE;
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        perf_session_update(&p.s, ev);
        if (!is_record(tg_event_name(ev)))
            print_sample(&p, ev);
    }
    if (p.no_sym && rc >= 0)
        rc = tg_err(err, TG_ERR_USAGE, "Display of offsets requested but symbol is not selected.");
    if (p.missing && rc >= 0)
        rc = tg_err(err, TG_ERR_USAGE,
                    "Samples for '%s' event do not have %s attribute set. Cannot print '%s' "
                    "field.",
                    p.missing_event ? p.missing_event : "?", p.missing, p.missing);
    if ((p.s.nomem || p.syms.nomem || p.frames.nomem) && rc >= 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    perf_session_free(&p.s);
    perf_symbols_free(&p.syms);
    perf_frame_text_free(&p.frames);
    free(p.layouts);
    return rc;
}

static const tg_option_decl perf_script_options[] = {
    {"ns", TG_OPT_FLAG, NULL, "nanosecond timestamps (trace-cmd report -t, perf script --ns)", NULL,
     NULL, 0, 0, 't'},
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {"kallsyms", TG_OPT_TEXT, NULL,
     "perf's --kallsyms: the kernel's symbols from FILE (default: /proc/kallsyms when the "
     "recorded kernel is the running one, else the build-id cache's copy)",
     "FILE"},
    {"buildid-dir", TG_OPT_TEXT, NULL,
     "perf's --buildid-dir: the build-id cache holding the recorded kernel's kallsyms "
     "(default: $PERF_BUILDID_DIR, ~/.debug)",
     "DIR"},
    {"script-fields", TG_OPT_TEXT, NULL,
     "perf script -F: the fields printed (comm, tid, pid, cpu, time, period, event, trace, ip, "
     "sym, symoff, dso), or +FIELD/-FIELD to the defaults",
     "FIELD[,FIELD]", NULL, 0, 0, 'F', "fields"},
    {0},
};

TG_PRINT_STYLE(perf) = {"perf", print_perf, perf_script_options};
