/* trace_cmd_file_facts.c - `trace-cmd report` options that print facts about the file
 * instead of its events:
 *
 *   --cpus            List of CPUs in FILE with data:\n  0\n  1
 *   --first-event     ... "  0\tFirst event:    7.000002" (the CPU's first record's time)
 *   --last-event      ... "\tLast event:" (its last record's), after the first with both
 *   -e                file is little endian and host is little endian (alone: trace-cmd
 *                     prints it as it opens the file and stops)
 *   --uname           cpus=N, then the recorded uname and trace-cmd version, or that they
 *                     were not recorded
 *
 * FILE is the path as the user gave it (trace-cmd prints its -i argument as given: a
 * relative path, a symbolic link, spaces and all).  The CPUs are the top instance's that
 * hold a record; the times are the trace's own clock in trace-cmd's time column (12 wide,
 * microseconds rounded, or nanoseconds with -t).  The first and last records of each CPU
 * are found by one pass over the events (the pass the event lines would take). */
#include "compat/trace-cmd/trace_cmd_file_facts.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libtraceevent's time of a record: "%5llu.%06llu" (or %09 with ns), in 12 columns. */
static void put_ts(tg_buf *out, int64_t ts_ns, bool ns)
{
    uint64_t t = (uint64_t)ts_ns, p10 = ns ? 1000000000ull : 1000000ull;
    if (!ns)
        t = (t + 500) / 1000;
    char text[48];
    int n = p10 >= t ? snprintf(text, sizeof text, "%12llu", (unsigned long long)t)
                     : snprintf(text, sizeof text, "%5llu.%0*llu", (unsigned long long)(t / p10),
                                ns ? 9 : 6, (unsigned long long)(t % p10));
    tg_buf_put(out, text, (size_t)n);
}

/* The top instance's streams are named "cpuN" (an instance's "NAME/cpuN"). */
static bool top_instance(const tg_stream *s)
{
    const char *name = s ? tg_stream_name(s) : NULL;
    return !name || !strchr(name, '/');
}

static int cpu_list(tg_set *set, tg_iter *it, const tg_options *opts, int cpus, tg_buf *out,
                    tg_error **err)
{
    bool first = tg_options_flag(opts, "first-event"), last = tg_options_flag(opts, "last-event");
    int64_t *first_ns = calloc((size_t)cpus * 2 + 1, sizeof *first_ns);
    bool *seen = calloc((size_t)cpus + 1, sizeof *seen);
    if (!first_ns || !seen) {
        free(first_ns);
        free(seen);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    int64_t *last_ns = first_ns + cpus;
    tg_iter_use_trace_clocks(it);
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int cpu = tg_event_cpu(ev);
        if (cpu < 0 || cpu >= cpus || tg_event_kind_of(ev) == TG_KIND_LOST ||
            !top_instance(tg_event_stream(ev)))
            continue;
        int64_t ts = tg_event_trace_time_ns(ev);
        if (!seen[cpu])
            first_ns[cpu] = ts;
        seen[cpu] = true;
        last_ns[cpu] = ts;
    }
    if (rc >= 0) {
        const tg_trace *t = tg_set_trace(set, 0);
        const char *path = tg_trace_input_path(t);
        tg_buf_puts(out, "List of CPUs in ");
        tg_buf_puts(out, path ? path : tg_trace_path(t));
        tg_buf_puts(out, " with data:\n");
        bool ns = tg_options_flag(opts, "ns");
        for (int cpu = 0; cpu < cpus; cpu++) {
            if (!seen[cpu])
                continue;
            tg_buf_puts(out, "  ");
            tg_buf_i64(out, cpu);
            if (first) {
                tg_buf_puts(out, "\tFirst event:");
                put_ts(out, first_ns[cpu], ns);
            }
            if (last) {
                tg_buf_puts(out, "\tLast event:");
                put_ts(out, last_ns[cpu], ns);
            }
            tg_buf_putc(out, '\n');
        }
    }
    free(first_ns);
    free(seen);
    return rc < 0 ? rc : 0;
}

static void endianness(const tg_trace *t, tg_buf *out)
{
    const tg_host_info *h = tg_trace_host(t);
    const uint16_t one = 1;
    uint8_t low;
    memcpy(&low, &one, 1);
    tg_buf_puts(out, "file is ");
    tg_buf_puts(out, h && h->byte_order == 2 ? "big" : "little");
    tg_buf_puts(out, " endian and host is ");
    tg_buf_puts(out, low ? "little" : "big");
    tg_buf_puts(out, " endian\n");
}

static void uname_lines(const tg_trace *t, int cpus, tg_buf *out)
{
    tg_buf_puts(out, "cpus=");
    tg_buf_i64(out, cpus);
    tg_buf_putc(out, '\n');
    static const char *const keys[] = {"uname", "version"};
    for (size_t i = 0; i < 2; i++) {
        const tg_env_entry *e = tg_trace_env_find(t, keys[i]);
        if (e && !e->is_integer && e->value) {
            tg_buf_puts(out, e->value);
            tg_buf_putc(out, '\n');
        } else {
            tg_buf_putc(out, ' ');
            tg_buf_puts(out, keys[i]);
            tg_buf_puts(out, " was not recorded in this file\n");
        }
    }
}

int tc_file_facts(tg_set *set, tg_iter *it, const tg_options *opts, int cpus, tg_buf *out, int *rc,
                  tg_error **err)
{
    bool list = tg_options_flag(opts, "cpus") || tg_options_flag(opts, "first-event") ||
                tg_options_flag(opts, "last-event");
    bool endian = tg_options_flag(opts, "endian"), uname = tg_options_flag(opts, "uname");
    if (!list && !endian && !uname)
        return 0;
    *rc = 0;
    const tg_trace *t = tg_set_trace_count(set) ? tg_set_trace(set, 0) : NULL;
    if (!t || strcmp(tg_trace_format(t), "ftrace") != 0) {
        *rc = tg_err(err, TG_ERR_USAGE, "the trace-cmd style's %s reads trace.dat files only",
                     list     ? "--cpus, --first-event and --last-event"
                     : endian ? "-e"
                              : "--uname");
        return 1;
    }
    if (endian)
        endianness(t, out);
    else if (list)
        *rc = cpu_list(set, it, opts, cpus, out, err);
    else if (uname)
        uname_lines(t, cpus, out);
    return 1;
}
