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
 * given), as "name+0xoffset"; an address without one, and every kernel address (kallsyms is
 * not read yet), is "[unknown]". */
#include "compat/perf/perf_session.h"
#include "compat/perf/perf_symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* perf_event.h's PERF_CONTEXT_*: markers in a call chain, not addresses */
#define PS_CONTEXT_MAX ((uint64_t)-4095)
#define PS_CONTEXT_KERNEL ((uint64_t)-128)
#define PS_CONTEXT_USER ((uint64_t)-512)

typedef struct ps_printer {
    perf_session s;
    perf_symbols syms;
    tg_buf *out;
    bool ns;
    int name_width;
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

static bool get_u64(const tg_event *ev, const char *name, uint64_t *v)
{
    tg_value val;
    if (tg_event_field_by_name(ev, sample_scope(ev), name, &val) < 0 ||
        (val.type != TG_VAL_UINT && val.type != TG_VAL_SINT))
        return false;
    *v = val.v.u;
    return true;
}

/* A kernel address: the upper half of a 64-bit address space (x86_64, aarch64), which is
 * what the sample's cpumode says for every sample the kernel takes there. */
static bool kernel_addr(uint64_t a) { return a >> 63; }

/* " sym+0xoff (dso)" of the map-relative address addr in map m (NULL: none) */
static void put_sym_dso(ps_printer *p, const ps_map *m, uint64_t addr)
{
    const ps_sym *sym = m ? perf_symbols_find(&p->syms, m->dso, addr) : NULL;
    if (sym)
        tg_buf_printf(p->out, " %s+0x%" PRIx64 " (", sym->name, addr - sym->start);
    else
        tg_buf_puts(p->out, " [unknown] (");
    tg_buf_puts(p->out, m ? m->dso : "[unknown]");
    tg_buf_putc(p->out, ')');
}

static void put_callchain(ps_printer *p, const tg_value *chain, int32_t pid)
{
    bool kernel = false;
    char line[32];
    for (size_t i = 0; i < chain->count; i++) {
        tg_value v;
        if (tg_value_child(chain, i, &v) < 0)
            break;
        uint64_t ip = v.v.u;
        if (ip >= PS_CONTEXT_MAX) {
            kernel = ip == PS_CONTEXT_KERNEL;
            if (ip != PS_CONTEXT_KERNEL && ip != PS_CONTEXT_USER)
                kernel = false;
            continue;
        }
        const ps_map *m = perf_session_map(&p->s, pid, kernel, ip);
        uint64_t addr = m ? ip - m->start + m->pgoff : ip;
        snprintf(line, sizeof line, "\t%16" PRIx64, addr);
        tg_buf_puts(p->out, line);
        put_sym_dso(p, m, addr);
        tg_buf_putc(p->out, '\n');
    }
}

static void put_time(ps_printer *p, uint64_t t)
{
    char b[48];
    uint64_t secs = t / 1000000000u, nsecs = t % 1000000000u;
    if (p->ns) {
        snprintf(b, sizeof b, "%5" PRIu64 ".%09" PRIu64 ": ", secs, nsecs);
    } else {
        char usec[32];
        snprintf(usec, sizeof usec, "%" PRIu64 ".%06" PRIu64, secs, nsecs / 1000u);
        snprintf(b, sizeof b, "%12s: ", usec);
    }
    tg_buf_puts(p->out, b);
}

static void print_sample(ps_printer *p, const tg_event *ev)
{
    uint64_t pid = (uint64_t)-1, tid = (uint64_t)-1, cpu, period, ip = 0;
    get_u64(ev, "pid", &pid);
    get_u64(ev, "tid", &tid);
    bool has_ip = get_u64(ev, "ip", &ip);
    tg_value chain;
    bool has_chain = tg_event_field_by_name(ev, sample_scope(ev), "callchain", &chain) == 0 &&
                     chain.type == TG_VAL_ARRAY;
    ps_thread *t = perf_session_thread(&p->s, (int32_t)pid, (int32_t)tid);
    const char *comm = t ? t->comm : ":-1";
    char b[64];
    if (has_ip && has_chain) {
        tg_buf_puts(p->out, comm);
        tg_buf_putc(p->out, ' ');
    } else {
        snprintf(b, sizeof b, "%16s ", comm);
        tg_buf_puts(p->out, b);
    }
    snprintf(b, sizeof b, "%5d ", (int)(int32_t)tid);
    tg_buf_puts(p->out, b);
    if (get_u64(ev, "cpu", &cpu)) {
        snprintf(b, sizeof b, "[%03d] ", (int)cpu);
        tg_buf_puts(p->out, b);
    }
    put_time(p, (uint64_t)tg_event_trace_time_ns(ev));
    if (get_u64(ev, "period", &period)) {
        snprintf(b, sizeof b, "%10" PRIu64 " ", period);
        tg_buf_puts(p->out, b);
    }
    /* perf's name of a tracepoint is "system:event" */
    const char *sys = tg_event_class_system(tg_event_class_of(ev));
    if (sys) {
        char name[256];
        snprintf(name, sizeof name, "%s:%s", sys, tg_event_name(ev));
        tg_buf_printf(p->out, "%*s: ", p->name_width, name);
    } else {
        tg_buf_printf(p->out, "%*s: ", p->name_width, tg_event_name(ev));
    }
    if (has_ip) {
        if (has_chain) {
            tg_buf_putc(p->out, '\n');
            put_callchain(p, &chain, (int32_t)pid);
        } else {
            snprintf(b, sizeof b, " %16" PRIx64, ip);
            tg_buf_puts(p->out, b);
            const ps_map *m = perf_session_map(&p->s, (int32_t)pid, kernel_addr(ip), ip);
            put_sym_dso(p, m, m ? ip - m->start + m->pgoff : ip);
        }
    }
    tg_buf_putc(p->out, '\n');
}

static int print_perf(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    ps_printer p = {.out = out, .ns = opts && tg_options_flag(opts, "ns")};
    p.syms.symfs = opts ? tg_options_get(opts, "symfs") : NULL;
    p.name_width = max_name_len(set);
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        perf_session_update(&p.s, ev);
        if (!is_record(tg_event_name(ev)))
            print_sample(&p, ev);
    }
    if ((p.s.nomem || p.syms.nomem) && rc >= 0)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    perf_session_free(&p.s);
    perf_symbols_free(&p.syms);
    return rc;
}

static const tg_option_decl perf_script_options[] = {
    {"ns", TG_OPT_FLAG, NULL, "nanosecond timestamps (trace-cmd report -t, perf script --ns)", NULL,
     NULL, 0, 0, 't'},
    {"symfs", TG_OPT_TEXT, NULL, "perf's --symfs: look for the mapped files under DIR", "DIR"},
    {0},
};

TG_PRINT_STYLE(perf) = {"perf", print_perf, perf_script_options};
