/* ftrace_attrs.c - a trace.dat file's typed trace attributes.
 *
 * The file header gives the host's byte order, long size and page size; the options give the
 * rest: UNAME ("sysname nodename release machine"), VERSION (trace-cmd's), TRACECLOCK (the
 * clock list with the one in use in brackets), OFFSET (ns added to every timestamp),
 * TSC2NSEC (x86-tsc counts converted to ns with mult/shift) and DATE (`trace-cmd record
 * --date`: the offset from the trace clock to the wall clock).  The options are also the
 * environment; the saved cmdlines are the tasks the trace lists (pid and command). */
#include "formats/ftrace/ftrace_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Token i (0-based, space-separated) of s into out; false when s has fewer tokens. */
static bool token(const char *s, int i, char *out, size_t cap)
{
    for (;;) {
        s += strspn(s, " ");
        size_t n = strcspn(s, " ");
        if (!n)
            return false;
        if (i-- == 0) {
            if (n >= cap)
                n = cap - 1;
            memcpy(out, s, n);
            out[n] = 0;
            return true;
        }
        s += n;
    }
}

int ft_attrs_fill(ft_file *f, const char *clock)
{
    tg_trace *t = f->trace;
    tg_clock_info c = {.name = clock,
                       .origin = tg_clock_origin_of_name(clock),
                       .frequency_hz = 1000000000u,
                       .offset_ns = f->ts_offset};
    if (c.origin == TG_CLOCK_CYCLES || strcmp(clock, "counter") == 0) {
        c.raw_cycles = !f->have_tsc2nsec;
        c.frequency_hz = 0;
        if (f->have_tsc2nsec && f->tsc_mult) /* ns = cycles * mult >> shift */
            c.frequency_hz = (uint64_t)((1e9 * (double)(1ull << f->tsc_shift)) / f->tsc_mult);
    }
    if (f->date) {
        long long date = strtoll(f->date, NULL, 0);
        c.sync_origin = TG_CLOCK_REALTIME;
        c.sync_offset_ns = (int64_t)date + f->ts_offset;
    }
    TG_TRY(tg_trace_set_clock_info(t, &c));

    char sysname[64] = "", host[256] = "", release[192] = "", machine[64] = "", kernel[256] = "";
    if (f->uname) {
        token(f->uname, 0, sysname, sizeof sysname);
        token(f->uname, 1, host, sizeof host);
        token(f->uname, 2, release, sizeof release);
        token(f->uname, 3, machine, sizeof machine);
        if (sysname[0] && release[0])
            snprintf(kernel, sizeof kernel, "%s %s", sysname, release);
    }
    tg_host_info h = {
        .hostname = host[0] ? host : NULL,
        .kernel = kernel[0] ? kernel : NULL,
        .arch = machine[0] ? machine : NULL,
        .word_bits = f->long_size * 8,
        .byte_order = f->big_endian ? 2 : 1,
        .page_size = f->page_size,
    };
    TG_TRY(tg_trace_set_host(t, &h));

    char version[64] = "";
    if (f->tc_version)
        token(f->tc_version, 0, version, sizeof version);
    TG_TRY(tg_trace_set_tracer(t, "trace-cmd", version[0] ? version : NULL));

    const struct {
        const char *key, *value;
    } env[] = {
        {"uname", f->uname}, {"version", f->tc_version}, {"trace_clock", f->trace_clock},
        {"date", f->date},   {"offset", f->offset_str},
    };
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        if (env[i].value)
            TG_TRY(tg_trace_add_env(t, env[i].key, env[i].value, false, 0));
    if (f->cpus > 0)
        TG_TRY(tg_trace_add_env_int(t, "cpus", f->cpus));
    if (f->have_traceid)
        TG_TRY(tg_trace_add_env_int(t, "traceid", (int64_t)f->traceid));
    for (size_t i = 0; i < f->n_comms; i++) /* the saved cmdlines: the tasks the file names */
        if (f->comms[i].pid >= 0)
            TG_TRY(tg_trace_add_task(
                t, &(tg_task_info){
                       .tid = f->comms[i].pid, .pid = -1, .ppid = -1, .name = f->comms[i].comm}));
    return 0;
}
