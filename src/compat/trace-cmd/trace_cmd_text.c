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
#include "compat/trace-cmd/trace_cmd_file_facts.h"
#include "compat/trace-cmd/trace_cmd_filter.h"
#include "compat/trace-cmd/trace_cmd_wakeup.h"
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
    long flags, pc;         /* common_flags, common_preempt_count (-l); -1: none */
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
    s->index = s->flags = s->pc = -1;
    size_t n = tg_event_field_count(ev, TG_SCOPE_COMMON);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) != 0 || !v.name)
            continue;
        if (strcmp(v.name, "common_comm") == 0)
            s->index = (long)i;
        else if (strcmp(v.name, "common_flags") == 0)
            s->flags = (long)i;
        else if (strcmp(v.name, "common_preempt_count") == 0)
            s->pc = (long)i;
    }
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

static comm_slot *class_slot_new(tc_state *st, const tg_event *ev);

/* The event's class's slot (valid until the next call), or NULL when out of memory. */
static inline __attribute__((always_inline)) comm_slot *class_slot(tc_state *st, const tg_event *ev)
{
    if (!ev->cls)
        return NULL;
    size_t number = ev->cls->number;
    if (number < st->slot_of_len && st->slot_of[number])
        return &st->slots[st->slot_of[number] - 1];
    return class_slot_new(st, ev);
}

/* A class seen for the first time (out of line). */
static comm_slot *class_slot_new(tc_state *st, const tg_event *ev)
{
    size_t number = ev->cls->number;
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
    tg_copy_short(w, s, n);
    return w + n;
}

/* A pad of up to 16 columns is one fixed 16-byte store (no call): every pad is written in
 * the head's room, or the seconds cache's text, which have 16 bytes to spare past it. */
static inline char *put_pad(char *w, char c, size_t n)
{
    if (n <= 16)
        memset(w, c, 16);
    else
        memset(w, c, n);
    return w + n;
}

/* v in decimal, right-aligned in width with pad (digits written in place, inline) */
static inline char *put_u64(char *w, uint64_t v, size_t width, char pad)
{
    size_t len = tg_dec_len(v);
    if (len < width)
        w = put_pad(w, pad, width - len);
    tg_dec_write(w + len, v);
    return w + len;
}

/* v in decimal, left-aligned in width columns (the pid: "%-5d") */
static inline char *put_u64_left(char *w, uint64_t v, size_t width)
{
    size_t len = tg_dec_len(v);
    tg_dec_write(w + len, v);
    w += len;
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
static inline __attribute__((always_inline)) char *put_time(char *w, secs_cache *sc, int64_t ts_ns,
                                                            int ns)
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
    tg_dec_fixed(w, t - secs * p10, n);
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

/* "CPU:N [COUNT EVENTS DROPPED]": with instances, the instance column first, and the next
 * event's line goes without it (*skip_column). */
static void put_lost(tg_buf *out, const tg_event *ev, uint64_t n, size_t inst_width,
                     bool *skip_column)
{
    if (inst_width) {
        size_t il;
        const char *in = instance_of(tg_event_stream(ev), &il);
        tg_buf_pad(out, ' ', (int)(inst_width - il));
        tg_buf_put(out, in, il);
        tg_buf_puts(out, il ? ": " : "  ");
        *skip_column = true;
    }
    tg_buf_puts(out, "CPU:");
    tg_buf_i64(out, tg_event_cpu(ev));
    if (n) {
        tg_buf_puts(out, " [");
        tg_buf_u64(out, n);
        tg_buf_puts(out, " EVENTS DROPPED]\n");
    } else {
        tg_buf_puts(out, " [EVENTS DROPPED]\n");
    }
}

/* --stat, -E, -P: what trace-cmd report prints about the file instead of its events. */
static int print_part(tg_set *set, const char *part, const char *option, tg_buf *out,
                      tg_error **err)
{
    size_t n = strcmp(part, "stat") == 0 ? tg_set_trace_count(set) : 1;
    for (size_t i = 0; i < n && i < tg_set_trace_count(set); i++) {
        int rc = tg_trace_render(tg_set_trace(set, i), part, out, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return tg_err(err, TG_ERR_USAGE, "the trace-cmd style's %s reads trace.dat files only",
                          option);
    }
    return 0;
}

/* -F, -v and --pid, as trace-cmd adds them: the -F filters in order (those after -v, an
 * empty item of the list, hide what they match), then one filter of the --pid tasks. */
static int add_filters(tc_filters *fs, const tg_options *opts, tg_error **err)
{
    const char *list = tg_options_get(opts, "filter");
    bool neg = false;
    for (const char *p = list; p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n == 0) {
            if (neg)
                return tg_err(err, TG_ERR_USAGE, "only one -v can be given, as in trace-cmd");
            neg = true;
        } else {
            char *one = strndup(p, n);
            if (!one)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            int rc = tc_filters_add(fs, one, neg, err);
            free(one);
            if (rc < 0)
                return rc;
        }
        p = nl ? nl + 1 : NULL;
    }
    const char *pids = tg_options_get(opts, "pid");
    if (!pids)
        return 0;
    /* ".*:(common_pid==P)||(pid==P)||(next_pid==P)||..." for each pid */
    tg_buf *b = tg_buf_new();
    if (!b)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_buf_puts(b, ".*:");
    bool first = true;
    for (const char *p = pids; *p;) {
        size_t n = strcspn(p, ",\n");
        if (n) {
            tg_buf_printf(b, "%s(common_pid==%.*s)||(pid==%.*s)||(next_pid==%.*s)",
                          first ? "" : "||", (int)n, p, (int)n, p, (int)n, p);
            first = false;
        }
        p += n + (p[n] ? 1 : 0);
    }
    int rc = tc_filters_add(fs, tg_buf_data(b), false, err);
    tg_buf_free(b);
    return rc;
}

typedef struct tc_run {
    tc_filters *filters; /* NULL: every event */
    tc_wakeup *wakeup;   /* NULL: no -w */
    tg_hash lost;        /* filters: stream -> lost count + 1, printed with its next event */
    bool ts_diff, diff_usecs;
    bool latency; /* -l */
    uint64_t last_ts;
} tc_run;

/* A common field as a number, 0 when the class has none. */
static uint64_t common_number(const tg_event *ev, long index)
{
    tg_value v;
    if (index < 0 || tg_event_field(ev, TG_SCOPE_COMMON, (size_t)index, &v) != 0)
        return 0;
    return v.type == TG_VAL_SINT ? (uint64_t)v.v.s : v.type == TG_VAL_UINT ? v.v.u : 0;
}

/* -l: "%8.8s-%-5d %3d" of comm, pid and cpu, then libtraceevent's latency columns from
 * common_flags and common_preempt_count: irqs off (d; X: not supported), need resched (N),
 * hard/soft IRQ (H both, h, s), the preempt depth and the migrate-disable depth (the count's
 * two nibbles, in hex; '.' for 0). */
static char *put_latency_head(char *w, const char *comm, size_t clen, int pid, int cpu,
                              const comm_slot *slot, const tg_event *ev)
{
    size_t shown = clen < 8 ? clen : 8;
    w = put_pad(w, ' ', 8 - shown);
    w = put_bytes(w, comm, shown);
    *w++ = '-';
    if (pid < 0) {
        *w++ = '-';
        w = put_u64_left(w, (uint64_t) - (int64_t)pid, 4);
    } else {
        w = put_u64_left(w, (uint64_t)pid, 5);
    }
    *w++ = ' ';
    w = put_u64(w, cpu < 0 ? 0 : (uint64_t)cpu, 3, ' ');
    uint64_t flags = slot ? common_number(ev, slot->flags) : 0;
    uint64_t pc = slot ? common_number(ev, slot->pc) : 0;
    static const char hex[] = "0123456789abcdef";
    bool hard = flags & 0x08, soft = flags & 0x10;
    *w++ = flags & 0x01 ? 'd' : flags & 0x02 ? 'X' : '.';
    *w++ = flags & 0x04 ? 'N' : '.';
    *w++ = hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
    *w++ = pc & 0xf ? hex[pc & 0xf] : '.';
    *w++ = pc & 0xf0 ? hex[(pc >> 4) & 0xf] : '.';
    *w++ = ' ';
    return w;
}

/* --ts-diff: " %-8s" of "(+N)" after the time (microseconds unless -t, as trace-cmd rounds
 * them when the file names its clock). */
static char *put_ts_diff(char *w, tc_run *r, const tg_event *ev)
{
    uint64_t ts = (uint64_t)tg_event_trace_time_ns(ev);
    if (r->diff_usecs)
        ts = (ts + 500) / 1000;
    char buf[24];
    size_t n = 0;
    if (r->last_ts) {
        char d[24];
        const char *p = tg_digits_dec(d + sizeof d, ts - r->last_ts);
        size_t len = (size_t)(d + sizeof d - p);
        buf[n++] = '(';
        buf[n++] = '+';
        memcpy(buf + n, p, len);
        n += len;
        buf[n++] = ')';
    }
    r->last_ts = ts;
    *w++ = ':';
    *w++ = ' ';
    w = put_bytes(w, buf, n);
    return n < 8 ? put_pad(w, ' ', 8 - n) : w;
}

static int setup(tg_set *set, const tg_options *opts, tc_run *r, bool ns, tg_error **err)
{
    memset(r, 0, sizeof *r);
    if (tg_options_get(opts, "filter") || tg_options_get(opts, "pid")) {
        if (!(r->filters = tc_filters_new(set)))
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        TG_TRY(add_filters(r->filters, opts, err));
    }
    if (tg_options_flag(opts, "wakeup") && tg_set_trace_count(set)) {
        if (tg_set_trace_count(set) > 1)
            return tg_err(err, TG_ERR_USAGE, "-w (wakeup latencies) reads one trace only");
        if (!(r->wakeup = tc_wakeup_new(tg_set_trace(set, 0))))
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    r->ts_diff = tg_options_flag(opts, "ts-diff");
    r->latency = tg_options_flag(opts, "latency");
    /* trace-cmd counts the difference in microseconds when the file names its trace clock */
    r->diff_usecs = !ns && tg_set_trace_count(set) &&
                    tg_trace_env_find(tg_set_trace(set, 0), "trace_clock") != NULL;
    return 0;
}

static void teardown(tc_run *r)
{
    tc_filters_free(r->filters);
    tc_wakeup_free(r->wakeup);
    tg_hash_free(&r->lost);
}

/* What one run of the printer keeps: the classes' line tails, the seconds last printed, the
 * instance column, and the options' state. */
typedef struct tc_ctx {
    tc_state st;
    secs_cache secs;
    size_t inst_width;
    bool skip_column;
    tc_run run;
} tc_ctx;

/* The event loop, compiled twice: `extras` is a constant, false when no option asks for
 * filters, --ts-diff or -w, so that the plain report pays nothing for them. */
static inline __attribute__((always_inline)) int event_loop(tc_ctx *c, tg_iter *it, tg_buf *out,
                                                            tg_error **err, const bool extras)
{
    tc_run *run = &c->run;
    const tg_event *ev;
    int rc;
    while ((rc = tg_iter_next(it, &ev)) > 0) {
        int cpu = tg_event_cpu(ev);
        if (tg_event_kind_of(ev) == TG_KIND_LOST) {
            if (extras && run->filters) { /* trace-cmd tells of a loss with the record after it */
                uint64_t *n;
                if (tg_hash_insert(&run->lost, (uintptr_t)tg_event_stream(ev), &n) < 0) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                *n = tg_event_lost_count(ev) + 1;
                continue;
            }
            put_lost(out, ev, tg_event_lost_count(ev), c->inst_width, &c->skip_column);
            continue;
        }
        if (extras && run->filters) {
            int show = tc_filters_show(run->filters, ev, err);
            uint64_t *lost =
                run->lost.n ? tg_hash_find(&run->lost, (uintptr_t)tg_event_stream(ev)) : NULL;
            if (show < 0) {
                rc = show;
                break;
            }
            if (lost) {
                if (show)
                    put_lost(out, ev, *lost - 1, c->inst_width, &c->skip_column);
                tg_hash_remove(&run->lost, (uintptr_t)tg_event_stream(ev));
            }
            if (!show)
                continue;
        }
        const char *comm = "<...>";
        size_t clen = 5;
        comm_slot *slot = class_slot(&c->st, ev);
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
        size_t room = c->inst_width + 2 + (clen < 16 ? 16 : clen) + 80 + sizeof slot->tail + nl;
        char *start = tg_buf_room(out, room);
        if (!start) {
            rc = TG_ERR_NOMEM;
            break;
        }
        char *w = start;
        if (c->inst_width && c->skip_column) {
            c->skip_column = false;
        } else if (c->inst_width) {
            size_t il;
            const char *in = instance_of(tg_event_stream(ev), &il);
            if (il < c->inst_width)
                w = put_pad(w, ' ', c->inst_width - il);
            w = put_bytes(w, in, il);
            w = put_bytes(w, il ? ": " : "  ", 2);
        }
        int pid = tg_event_pid(ev);
        if (extras && run->latency) {
            w = put_latency_head(w, comm, clen, pid, cpu, slot, ev);
        } else {
            if (clen < 16)
                w = put_pad(w, ' ', 16 - clen);
            w = put_bytes(w, comm, clen);
            *w++ = '-';
            if (pid < 0) {
                *w++ = '-';
                w = put_u64_left(w, (uint64_t) - (int64_t)pid, 4);
            } else {
                w = put_u64_left(w, (uint64_t)pid, 5);
            }
            w = put_bytes(w, " [", 2);
            if (cpu >= 0 && cpu < 1000) {
                tg_dec_fixed(w, (uint64_t)cpu, 3);
                w += 3;
            } else {
                w = put_u64(w, cpu < 0 ? 0 : (uint64_t)cpu, 3, '0');
            }
            w = put_bytes(w, "] ", 2);
        }
        w = put_time(w, &c->secs, tg_event_trace_time_ns(ev), c->st.ns);
        size_t skip = 0; /* --ts-diff writes the ':' after the time itself */
        if (extras && run->ts_diff) {
            w = put_ts_diff(w, run, ev);
            skip = 1;
        }
        if (slot && slot->tail_len && slot->tail_len <= 32 && !skip) {
            memcpy(w, slot->tail, 32); /* one fixed move; tail has 95 bytes, room counts them */
            w += slot->tail_len;
        } else if (slot && slot->tail_len) {
            w = put_bytes(w, slot->tail + skip, slot->tail_len - skip);
        } else {
            w = put_bytes(w, &": "[skip], 2 - skip);
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
        if (extras && run->wakeup && (rc = tc_wakeup_event(run->wakeup, ev, out)) < 0)
            break;
        TG_BUF_LIT(out, "\n");
    }
    return rc;
}

static int print_trace_cmd(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                           tg_error **err)
{
    static const struct {
        const char *key, *part, *option;
    } parts[] = {
        {"stat", "stat", "--stat"}, {"formats", "events", "-E"}, {"printk", "printk", "-P"}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (tg_options_flag(opts, parts[i].key))
            return print_part(set, parts[i].part, parts[i].option, out, err);
    int facts_rc;
    if (tc_file_facts(set, it, opts, trace_cmd_cpus(set), out, &facts_rc, err))
        return facts_rc;
    tg_iter_use_trace_clocks(it); /* trace-cmd's own times and order */
    tc_ctx c;
    memset(&c, 0, sizeof c);
    c.inst_width = longest_instance(set);
    c.st.ns = opts && tg_options_flag(opts, "ns");
    int rc = setup(set, opts, &c.run, c.st.ns, err);
    if (rc >= 0) {
        tg_buf_puts(out, "cpus=");
        tg_buf_i64(out, trace_cmd_cpus(set));
        tg_buf_putc(out, '\n');
        if (c.run.filters || c.run.ts_diff || c.run.wakeup || c.run.latency)
            rc = event_loop(&c, it, out, err, true);
        else
            rc = event_loop(&c, it, out, err, false);
        if (rc >= 0 && c.run.wakeup)
            tc_wakeup_finish(c.run.wakeup, out);
    }
    teardown(&c.run);
    free(c.st.slot_of);
    free(c.st.slots);
    return rc;
}

/* raw and plugin-option are read by the ftrace reader at open (its print fmts and plugins
 * render them); ns here. */
static const tg_option_decl trace_cmd_options[] = {
    {"raw", TG_OPT_FLAG, NULL, "raw fields (trace-cmd report -R)", NULL, NULL, 0, 0, 'R'},
    {"ns", TG_OPT_FLAG, NULL, "nanosecond timestamps (trace-cmd report -t, perf script --ns)", NULL,
     NULL, 0, 0, 't'},
    {"plugin-option", TG_OPT_LIST, NULL,
     "a plugin option as trace-cmd report -O (ftrace:parent=1); repeatable", "PLUGIN:OPT[=V]", NULL,
     0, 0, 'O'},
    {"filter", TG_OPT_LIST, NULL,
     "only the events a libtraceevent filter matches, as trace-cmd report -F "
     "('sched_switch:prev_pid > 0 && next_comm =~ \"^k\"'); repeatable: any may match; an "
     "empty item stands for -v",
     "FILTER", NULL, 0, 0, 'F'},
    {"invert", TG_OPT_FLAG, NULL,
     "the -F filters given after it hide the events they match (trace-cmd report -v)", NULL, NULL,
     0, 0, 'v'},
    {"pid", TG_OPT_LIST, NULL,
     "the events of these tasks: common_pid, pid or next_pid (trace-cmd report --pid); "
     "repeatable",
     "PID[,PID]"},
    {"wakeup", TG_OPT_FLAG, NULL,
     "the latency of each wakeup at its sched_switch, and their summary (trace-cmd report -w)",
     NULL, NULL, 0, 0, 'w'},
    {"ts-diff", TG_OPT_FLAG, NULL,
     "the time since the previous event (trace-cmd report --ts-diff)"},
    {"latency", TG_OPT_FLAG, NULL,
     "the latency columns after the CPU: IRQs off, need resched, hard/soft IRQ, preempt and "
     "migrate-disable depths (trace-cmd report -l)",
     NULL, NULL, 0, 0, 'l'},
    {"no-plugins", TG_OPT_FLAG, NULL,
     "events as their print fmt prints them, without the plugins (sched_switch, sched_wakeup, "
     "function, function_graph, kernel_stack, hrtimer, kmem, tlb, futex) nor the task names "
     "they learn (trace-cmd report -N)",
     NULL, NULL, 0, 0, 'N'},
    {"irq-global", TG_OPT_FLAG, NULL,
     "accepted as trace-cmd report -G: it changes only --profile, which traceglot does not "
     "print, so the report is the same",
     NULL, NULL, 0, 0, 'G'},
    {"ts-offset", TG_OPT_TEXT, NULL,
     "accepted as trace-cmd report -i FILE --ts-offset N: trace-cmd 3.1.6 prints the same "
     "times with it, so does traceglot (--clock-offset moves a trace's times)",
     "N"},
    {"stat", TG_OPT_FLAG, NULL,
     "the recorder's buffer statistics instead of the events (trace-cmd report --stat)"},
    {"formats", TG_OPT_FLAG, NULL,
     "the event formats the file stores instead of the events (trace-cmd report -E)", NULL, NULL, 0,
     0, 'E'},
    {"printk", TG_OPT_FLAG, NULL,
     "the printk formats the file stores instead of the events (trace-cmd report -P)", NULL, NULL,
     0, 0, 'P'},
    {"quiet", TG_OPT_FLAG, NULL, "no warnings (trace-cmd report -q)", NULL, NULL, 0, 0, 'q'},
    {"cpus", TG_OPT_FLAG, NULL,
     "the CPUs that hold records instead of the events (trace-cmd report --cpus)"},
    {"first-event", TG_OPT_FLAG, NULL,
     "each CPU's first record's time instead of the events (trace-cmd report --first-event)"},
    {"last-event", TG_OPT_FLAG, NULL,
     "each CPU's last record's time instead of the events (trace-cmd report --last-event)"},
    {"endian", TG_OPT_FLAG, NULL,
     "the file's and this machine's byte order instead of the events (trace-cmd report -e)", NULL,
     NULL, 0, 0, 'e'},
    {"uname", TG_OPT_FLAG, NULL,
     "the recording machine's uname and trace-cmd's version instead of the events (trace-cmd "
     "report --uname)"},
    {0},
};

TG_PRINT_STYLE(trace_cmd) = {"trace-cmd", print_trace_cmd, trace_cmd_options};
