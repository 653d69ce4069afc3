/* trace_cmd_text.c - the "trace-cmd" print style: what `trace-cmd report` prints.
 *
 *   cpus=2
 *             bash-5027  [001]  1142.318836: sched_wake_idle_without_ipi: cpu=0
 *
 * One header line with the CPU count, then per event: the task name right-aligned in 16
 * columns, the pid, the CPU, the time in seconds (microseconds rounded, or nanoseconds with
 * option "ns" = report -t), the event name padded to 20 columns, and the event rendered by
 * its own tracer (tg_event_render: the print fmt, or the raw fields with option "raw" =
 * report -R, which the reader takes at open time).  Lost events print as trace-cmd's
 * "CPU:N [EVENTS DROPPED]" line.  The task name comes from the event model: the COMMON
 * scope's "common_comm" field (the trace's saved cmdlines as trace-cmd resolves them).
 * Everything is written straight into the output buffer, no printf per event. */
#include "core/consumer.h"
#include "core/grow.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Per event class, found once: where its common_comm field is, and the line's tail after
 * the time (": name: " padded to 20 columns of name), ready to copy. */
typedef struct comm_slot {
    long index;             /* -1: the class has no common_comm */
    unsigned char tail_len; /* 0: too long, built per event */
    char tail[95];
} comm_slot;

typedef struct tc_state {
    uint32_t *slot_of; /* class number (set-wide) -> index in slots + 1; 0: not yet */
    size_t slot_of_len, slot_of_cap;
    comm_slot *slots;
    size_t n_slots, slots_cap;
    int ns;
} tc_state;

static void fill_slot(comm_slot *s, const tg_event *ev)
{
    long idx = -1;
    size_t n = tg_event_field_count(ev, TG_SCOPE_COMMON);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) == 0 && v.name &&
            strcmp(v.name, "common_comm") == 0) {
            idx = (long)i;
            break;
        }
    }
    s->index = idx;
    const char *name = tg_event_name(ev);
    size_t nl = strlen(name), tl = 2 + nl + 2 + (nl < 20 ? 20 - nl : 0);
    s->tail_len = 0;
    if (tl <= sizeof s->tail) {
        memcpy(s->tail, ": ", 2);
        memcpy(s->tail + 2, name, nl);
        memcpy(s->tail + 2 + nl, ": ", 2);
        memset(s->tail + 4 + nl, ' ', tl - 4 - nl);
        s->tail_len = (unsigned char)tl;
    }
}

/* The event's class's slot (valid until the next call), or NULL when out of memory. */
static comm_slot *class_slot(tc_state *st, const tg_event *ev)
{
    if (!ev->cls)
        return NULL;
    size_t number = ev->cls->number;
    if (number < st->slot_of_len && st->slot_of[number])
        return &st->slots[st->slot_of[number] - 1];
    if (tg_grow_zeroed(&st->slot_of, &st->slot_of_len, &st->slot_of_cap, number + 1,
                       sizeof *st->slot_of) < 0 ||
        tg_grow(&st->slots, &st->slots_cap, st->n_slots + 1, sizeof *st->slots) < 0)
        return NULL;
    fill_slot(&st->slots[st->n_slots], ev);
    st->slot_of[number] = (uint32_t)++st->n_slots;
    return &st->slots[st->n_slots - 1];
}

/* The line head is written in place at the end of the output buffer: tg_buf_reserve gives
 * room for the longest head, the writers below advance a cursor, tg_buf_commit keeps it. */

static inline char *put_bytes(char *w, const char *s, size_t n)
{
    memcpy(w, s, n);
    return w + n;
}

static inline char *put_pad(char *w, char c, size_t n)
{
    memset(w, c, n);
    return w + n;
}

/* v in decimal, right-aligned in width with pad */
static char *put_u64(char *w, uint64_t v, size_t width, char pad)
{
    char d[24];
    const char *p = tg_digits_dec(d + sizeof d, v);
    size_t len = (size_t)(d + sizeof d - p);
    if (len < width)
        w = put_pad(w, pad, width - len);
    return put_bytes(w, p, len);
}

/* v in decimal, left-aligned in width columns (the pid: "%-5d") */
static char *put_u64_left(char *w, uint64_t v, size_t width)
{
    char d[24];
    const char *p = tg_digits_dec(d + sizeof d, v);
    size_t len = (size_t)(d + sizeof d - p);
    w = put_bytes(w, p, len);
    return len < width ? put_pad(w, ' ', width - len) : w;
}

/* The seconds field changes rarely from one line to the next: kept formatted. */
typedef struct secs_cache {
    uint64_t secs;
    char text[24];
    size_t len;
    bool valid;
} secs_cache;

/* libtraceevent's print_event_time: "%5llu.%0*llu", or "%12llu" below one unit. */
static char *put_time(char *w, secs_cache *sc, int64_t ts_ns, int ns)
{
    uint64_t t = (uint64_t)ts_ns;
    uint64_t p10 = ns ? 1000000000ull : 1000000ull;
    if (!ns)
        t = (t + 500) / 1000;
    if (p10 >= t)
        return put_u64(w, t, 12, ' ');
    uint64_t secs = t / p10;
    if (!sc->valid || sc->secs != secs) {
        sc->len = (size_t)(put_u64(sc->text, secs, 5, ' ') - sc->text);
        sc->secs = secs;
        sc->valid = true;
    }
    w = put_bytes(w, sc->text, sc->len);
    *w++ = '.';
    size_t n = ns ? 9 : 6;
    tg_digits_fixed(w, t - secs * p10, n);
    return w + n;
}

static int trace_cmd_cpus(tg_set *set)
{
    if (!tg_set_trace_count(set))
        return 0;
    const tg_trace *t = tg_set_trace(set, 0);
    const tg_env_entry *cpus = tg_trace_env_find(t, "cpus"); /* the file's cpu count */
    if (cpus && cpus->is_integer && cpus->integer > 0 && cpus->integer <= 65536)
        return (int)cpus->integer;
    int max = -1;
    for (size_t i = 0; i < tg_trace_stream_count(t); i++) {
        int c = tg_stream_cpu(tg_trace_stream(t, i));
        if (c > max)
            max = c;
    }
    return max + 1;
}

/* Trace instances: the reader names an instance's streams "NAME/cpuN".  With instances,
 * trace-cmd starts every line with the instance name right-aligned to the longest one and
 * ": " (the top instance: spaces). */
static const char *instance_of(const tg_stream *s, size_t *len)
{
    const char *n = s ? tg_stream_name(s) : NULL;
    const char *slash = n ? strrchr(n, '/') : NULL;
    *len = slash ? (size_t)(slash - n) : 0;
    return n;
}

static size_t longest_instance(tg_set *set)
{
    size_t max = 0;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        const tg_trace *tr = tg_set_trace(set, t);
        if (strcmp(tg_trace_format(tr), "ftrace") != 0)
            continue;
        for (size_t i = 0; i < tg_trace_stream_count(tr); i++) {
            size_t l;
            instance_of(tg_trace_stream(tr, i), &l);
            if (l > max)
                max = l;
        }
    }
    return max;
}

static int print_trace_cmd(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                           tg_error **err)
{
    tg_iter_use_trace_clocks(it); /* trace-cmd's own times and order */
    size_t inst_width = longest_instance(set);
    bool skip_column = false;
    tc_state st;
    memset(&st, 0, sizeof st);
    secs_cache secs;
    memset(&secs, 0, sizeof secs);
    st.ns = opts && tg_options_flag(opts, "ns");
    tg_buf_puts(out, "cpus=");
    tg_buf_i64(out, trace_cmd_cpus(set));
    tg_buf_putc(out, '\n');
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int cpu = tg_event_cpu(ev);
        if (tg_event_kind_of(ev) == TG_KIND_LOST) {
            /* trace-cmd prints the instance column, then this line, then the next event's
             * line without the column */
            if (inst_width) {
                size_t il;
                const char *in = instance_of(tg_event_stream(ev), &il);
                tg_buf_pad(out, ' ', (int)(inst_width - il));
                tg_buf_put(out, in, il);
                tg_buf_puts(out, il ? ": " : "  ");
                skip_column = true;
            }
            tg_buf_puts(out, "CPU:");
            tg_buf_i64(out, cpu);
            uint64_t n = tg_event_lost_count(ev);
            if (n) {
                tg_buf_puts(out, " [");
                tg_buf_u64(out, n);
                tg_buf_puts(out, " EVENTS DROPPED]\n");
            } else {
                tg_buf_puts(out, " [EVENTS DROPPED]\n");
            }
            continue;
        }
        const char *comm = "<...>";
        size_t clen = 5;
        comm_slot *slot = class_slot(&st, ev);
        long ci = slot ? slot->index : -1;
        tg_value v;
        if (ci >= 0 && tg_event_field(ev, TG_SCOPE_COMMON, (size_t)ci, &v) == 0 &&
            v.type == TG_VAL_STRING) {
            comm = v.v.str.ptr;
            clen = v.v.str.len;
        }
        const char *name = NULL;
        size_t nl = 0;
        if (!slot || !slot->tail_len) {
            name = tg_event_name(ev);
            nl = strlen(name);
        }
        /* the longest head: instance column, comm, pid, cpu, time, tail (or name padded) */
        size_t room = inst_width + 2 + (clen < 16 ? 16 : clen) + 80 + sizeof slot->tail + nl;
        char *start = tg_buf_reserve(out, room);
        if (!start) {
            rc = TG_ERR_NOMEM;
            break;
        }
        char *w = start;
        if (inst_width && skip_column) {
            skip_column = false;
        } else if (inst_width) {
            size_t il;
            const char *in = instance_of(tg_event_stream(ev), &il);
            if (il < inst_width)
                w = put_pad(w, ' ', inst_width - il);
            w = put_bytes(w, in, il);
            w = put_bytes(w, il ? ": " : "  ", 2);
        }
        if (clen < 16)
            w = put_pad(w, ' ', 16 - clen);
        w = put_bytes(w, comm, clen);
        *w++ = '-';
        int pid = tg_event_pid(ev);
        if (pid < 0) {
            *w++ = '-';
            w = put_u64_left(w, (uint64_t) - (int64_t)pid, 4);
        } else {
            w = put_u64_left(w, (uint64_t)pid, 5);
        }
        w = put_bytes(w, " [", 2);
        if (cpu >= 0 && cpu < 1000) {
            tg_digits_fixed(w, (uint64_t)cpu, 3);
            w += 3;
        } else {
            w = put_u64(w, cpu < 0 ? 0 : (uint64_t)cpu, 3, '0');
        }
        w = put_bytes(w, "] ", 2);
        w = put_time(w, &secs, tg_event_trace_time_ns(ev), st.ns);
        if (slot && slot->tail_len && slot->tail_len <= 32) {
            memcpy(w, slot->tail, 32); /* one fixed move; tail has 95 bytes, room counts them */
            w += slot->tail_len;
        } else if (slot && slot->tail_len) {
            w = put_bytes(w, slot->tail, slot->tail_len);
        } else {
            w = put_bytes(w, ": ", 2);
            w = put_bytes(w, name, nl);
            w = put_bytes(w, ": ", 2);
            if (nl < 20)
                w = put_pad(w, ' ', 20 - nl);
        }
        tg_buf_commit(out, (size_t)(w - start));
        /* a function_graph leaf's line shows its exit: trace-cmd reads that record with the
         * entry, so the stream drops it */
        if (tg_event_render(ev, out) == TG_RENDER_WITH_NEXT)
            tg_stream_drop_next(ev->stream);
        tg_buf_putc(out, '\n');
    }
    free(st.slot_of);
    free(st.slots);
    (void)err;
    return rc;
}

/* raw and plugin-option are read by the ftrace reader at open (its print fmts and plugins
 * render them); ns here. */
static const tg_option_decl trace_cmd_options[] = {
    {"raw", TG_OPT_FLAG, NULL, "raw fields (trace-cmd report -R)", NULL, NULL, 0, 0, 'R'},
    {"ns", TG_OPT_FLAG, NULL, "nanosecond timestamps (trace-cmd report -t)", NULL, NULL, 0, 0, 't'},
    {"plugin-option", TG_OPT_LIST, NULL,
     "a plugin option as trace-cmd report -O (ftrace:parent=1); repeatable", "PLUGIN:OPT[=V]", NULL,
     0, 0, 'O'},
    {0},
};

TG_PRINT_STYLE(trace_cmd) = {"trace-cmd", print_trace_cmd, trace_cmd_options};
