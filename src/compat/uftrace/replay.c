/* replay.c - tg_replay: the function-call timeline, byte for byte as `uftrace replay`.
 *
 * Every record goes through uftrace's stack rules (uftrace_fstack.c) in merged time order.
 * An entry whose very next record (in the merged order, past events uftrace hides) is the
 * same thread's exit at the same depth is folded into one line `foo();` - so the replay
 * needs to look one event ahead, never more: memory stays bounded by the number of threads.
 * A sched-out directly followed by the thread's sched-in folds into `linux:schedule` the
 * same way.  Columns come from the "fields" option (-f): duration, tid, addr, time, delta,
 * elapsed, printed in uftrace's column order; "+name" adds to the default duration,tid.
 * The option is read as "output-fields" (the CLI's -f, as uftrace names it) or "fields".
 * The common line (default columns, a known symbol, no arguments, indentation up to
 * PAD_ROOM) is written in one piece of output room with fixed-size moves (line_start); the
 * others piece by piece.  The closing list of open functions is replay_remaining.c's. */
#include "analysis/callstack.h"
#include "compat/uftrace/replay_remaining.h"
#include "compat/uftrace/uftrace_text.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <stdlib.h>
#include <string.h>

enum { F_DURATION, F_TID, F_ADDR, F_TIME, F_DELTA, F_ELAPSED, F_COUNT };

static const struct {
    const char *name, *header;
} field_table[F_COUNT] = {
    {"duration", " DURATION "},     {"tid", "   TID  "},     {"addr", "   ADDRESS  "},
    {"time", "     TIMESTAMP    "}, {"delta", " TIMEDELTA"}, {"elapsed", "  ELAPSED "},
};

struct rp {
    uf_state st;
    tg_buf *out;
    struct uf_digits digits;
    struct {
        uint64_t addr;
        const void *trace;
        const char *name;
        size_t len; /* strlen(name), 0 for none */
        bool set;
    } names[4096]; /* function address -> symbol and its length (names repeat on every line) */
    tg_buf *args, *ret, *evtext;
    const tg_trace *args_trace; /* the trace args_ok was found for */
    bool args_ok;
    bool field_on[F_COUNT];
    uint8_t order[F_COUNT]; /* the columns shown, in their order */
    int n_fields;
    bool plain; /* the default columns, duration and tid: lines take line_start */
    int64_t prev_time;
    uf_filter *filter; /* uftrace's filters, when any is given (callstack_filter.h) */
};

static int parse_fields(struct rp *p, const char *spec, tg_error **err)
{
    p->field_on[F_DURATION] = p->field_on[F_TID] = true;
    if (!spec)
        return 0;
    if (spec[0] != '+')
        memset(p->field_on, 0, sizeof p->field_on);
    else
        spec++;
    const char *s = spec;
    while (*s) {
        size_t n = strcspn(s, ",");
        bool found = n == 4 && !strncmp(s, "none", 4);
        for (int i = 0; i < F_COUNT && !found; i++)
            if (strlen(field_table[i].name) == n && !strncmp(s, field_table[i].name, n)) {
                p->field_on[i] = true;
                found = true;
            }
        if (!found)
            return tg_err(err, TG_ERR_USAGE,
                          "unknown replay field '%.*s' (known: duration, "
                          "tid, addr, time, delta, elapsed, none)",
                          (int)n, s);
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}

/* Lines go straight into the output buffer through its inline room check
 * (core/buf_inline.h): one comparison and a copy per piece, no line buffer of its own. */
static inline void out_put(struct rp *p, const char *s, size_t n)
{
    char *o = tg_buf_room(p->out, n);
    if (o) {
        memcpy(o, s, n);
        p->out->len += n;
    }
}

/* The indentation (two spaces a level) as 32-byte stores from a row of spaces into room
 * for PAD_ROOM bytes, not a call to memset per line; deeper lines take the general path. */
enum { PAD_ROOM = 128 };
static const char spaces[32] = "                                ";

static inline void out_pad(struct rp *p, int n)
{
    if (n <= 0)
        return;
    if (n > PAD_ROOM) {
        tg_buf_pad(p->out, ' ', n);
        return;
    }
    char *o = tg_buf_room(p->out, PAD_ROOM);
    if (!o)
        return;
    for (int i = 0; i < n; i += 32)
        memcpy(o + i, spaces, 32);
    p->out->len += (size_t)n;
}

/* A symbol (len: its length) or "<hexaddr>"; a short name as two overlapping fixed-size
 * moves (tg_buf_put_fast), not a call to memcpy. */
static inline __attribute__((always_inline)) void out_name(struct rp *p, const char *name,
                                                           size_t len, uint64_t addr)
{
    if (!name) {
        char tmp[24];
        int n = 0;
        do {
            tmp[n++] = "0123456789abcdef"[addr & 15];
            addr >>= 4;
        } while (addr);
        out_put(p, "<", 1);
        while (n)
            out_put(p, &tmp[--n], 1);
        out_put(p, ">", 1);
        return;
    }
    tg_buf_put_fast(p->out, name, len);
}

/* The columns of one line, formatted in place in the output buffer (160 bytes at most). */
static void put_fields(struct rp *p, const uf_task *t, const uf_frame *f, bool show_time)
{
    char *const line = tg_buf_room(p->out, 160);
    if (!line)
        return;
    char *w = line;
    for (int k = 0; k < p->n_fields; k++) {
        int i = p->order[k];
        *w++ = ' ';
        switch (i) {
        case F_DURATION: w = uf_fmt_time(w, f && show_time ? f->total : 0, &p->digits); break;
        case F_TID: {
            if (t->tid_len) {
                memcpy(w, t->tid_text, sizeof t->tid_text); /* fixed size: no rep movs */
                w += t->tid_len;
                break;
            }
            char *start = w;
            *w++ = '[';
            char tmp[16];
            int n = 0;
            uint64_t v = t->tid < 0 ? (uint64_t)(-(int64_t)t->tid) : (uint64_t)t->tid;
            do {
                tmp[n++] = (char)('0' + v % 10);
                v /= 10;
            } while (v);
            if (t->tid < 0)
                tmp[n++] = '-';
            for (int k = n; k < 6; k++)
                *w++ = ' ';
            while (n)
                *w++ = tmp[--n];
            *w++ = ']';
            if (w - start < (ptrdiff_t)sizeof t->tid_text) {
                memcpy(((uf_task *)t)->tid_text, start, (size_t)(w - start));
                ((uf_task *)t)->tid_len = (uint8_t)(w - start);
            }
            break;
        }
        case F_ADDR: {
            char hex[24];
            int n = 0;
            if (f) {
                uint64_t a = f->addr;
                do {
                    hex[n++] = "0123456789abcdef"[a & 15];
                    a >>= 4;
                } while (a);
            }
            for (int k = n; k < 12; k++)
                *w++ = ' ';
            while (n)
                *w++ = hex[--n];
            break;
        }
        case F_TIME: {
            uint64_t ts = (uint64_t)t->timestamp, sec = ts / 1000000000u, ns = ts % 1000000000u;
            char tmp[24];
            int n = 0;
            do {
                tmp[n++] = (char)('0' + sec % 10);
                sec /= 10;
            } while (sec);
            for (int k = n; k < 8; k++)
                *w++ = ' ';
            while (n)
                *w++ = tmp[--n];
            *w++ = '.';
            memcpy(w, p->digits.zero[ns / 1000000], 3);
            memcpy(w + 3, p->digits.zero[ns / 1000 % 1000], 3);
            memcpy(w + 6, p->digits.zero[ns % 1000], 3);
            w += 9;
            break;
        }
        case F_DELTA:
            w = uf_fmt_time(
                w, t->timestamp_last ? (uint64_t)t->timestamp - (uint64_t)t->timestamp_last : 0,
                &p->digits);
            break;
        case F_ELAPSED:
            w = uf_fmt_time(w, (uint64_t)t->timestamp - (uint64_t)p->st.first_time, &p->digits);
            break;
        }
    }
    if (p->n_fields) {
        memcpy(w, " | ", 3);
        w += 3;
    }
    p->out->len += (size_t)(w - line);
}

/* n bytes from s to w (no terminator, tg_copy_short's moves).  Returns the end. */
static inline __attribute__((always_inline)) char *put_bytes(char *w, const char *s, size_t n)
{
    tg_copy_short(w, s, n);
    return w + n;
}

/* The common line's start - the default columns (duration, tid) and an indentation of at
 * most PAD_ROOM - written in one piece of room that holds extra more bytes: the write
 * position after the indentation, which line_end commits.  NULL when the line takes the
 * general path (put_fields, out_pad, out_put: other columns, deeper lines, a thread whose
 * "[  tid]" is not made yet, no memory). */
static inline __attribute__((always_inline)) char *
line_start(struct rp *p, const uf_task *t, const uf_frame *f, bool show_time, int pad, size_t extra)
{
    if (!p->plain || !t->tid_len || pad > PAD_ROOM || pad < 0)
        return NULL;
    char *w = tg_buf_room(p->out, 32 + PAD_ROOM + extra);
    if (!w)
        return NULL;
    *w++ = ' ';
    w = uf_fmt_time(w, f && show_time ? f->total : 0, &p->digits);
    *w++ = ' ';
    memcpy(w, t->tid_text, sizeof t->tid_text); /* fixed size: the room is there */
    w += t->tid_len;
    memcpy(w, " | ", 3);
    w += 3;
    for (int i = 0; i < PAD_ROOM; i += 32) /* all of it: no branch on the depth */
        memcpy(w + i, spaces, 32);
    return w + pad;
}

static inline void line_end(struct rp *p, char *w) { p->out->len = (size_t)(w - p->out->p); }

static void put_header(struct rp *p)
{
    if (!p->n_fields)
        return;
    tg_buf_putc(p->out, '#');
    for (int k = 0; k < p->n_fields; k++) {
        if (k)
            tg_buf_putc(p->out, ' ');
        tg_buf_puts(p->out, field_table[p->order[k]].header);
    }
    tg_buf_puts(p->out, "   FUNCTION\n");
}

/* The symbol of a function record and its length (*len), asked of the reader once per
 * address and trace. */
static inline __attribute__((always_inline)) const char *func_name(struct rp *p, const tg_event *ev,
                                                                   size_t *len)
{
    uint64_t a = ev->addr;
    size_t h = (a ^ (a >> 12)) & 4095;
    const void *tr = ev->cls->trace;
    if (!p->names[h].set || p->names[h].addr != a || p->names[h].trace != tr) {
        const char *name = tg_event_func_name(ev);
        p->names[h].addr = a;
        p->names[h].trace = tr;
        p->names[h].name = name;
        p->names[h].len = name ? strlen(name) : 0;
        p->names[h].set = true;
    }
    *len = p->names[h].len;
    return p->names[h].name;
}

/* Whether a function record's rendering is its arguments: uftrace's (an ftrace
 * function_graph record renders as trace-cmd's line, not arguments). */
static bool args_rendered(struct rp *p, const tg_event *ev)
{
    const tg_trace *tr = ev->cls->trace;
    if (tr != p->args_trace) {
        p->args_trace = tr;
        p->args_ok = strcmp(tg_trace_format(tr), "uftrace") == 0;
    }
    return p->args_ok;
}

/* A function record's arguments or return value into buf, when it shows them (out of the
 * hot loop: few records have a payload). */
__attribute__((noinline)) static bool render_payload(struct rp *p, const tg_event *ev, tg_buf *buf)
{
    tg_buf_reset(buf);
    return args_rendered(p, ev) && tg_event_render(ev, buf) > 0;
}

/* Captures what printing needs from the iterator's event before it is advanced. */
static inline __attribute__((always_inline)) void take(struct rp *p, const tg_event *ev, uf_rec *r,
                                                       size_t *name_len, bool *more)
{
    tg_buf *args = p->args, *evtext = p->evtext;
    uf_rec_from_event(ev, r);
    *more = false;
    if (r->type == UF_ENTRY || r->type == UF_EXIT) {
        r->name = func_name(p, ev, name_len);
        if (ev->size) /* only a payload has arguments to show */
            *more = render_payload(p, ev, args);
    } else if (r->type == UF_EVENT) {
        tg_buf_reset(evtext);
        if (tg_event_render(ev, evtext) <= 0)
            tg_buf_puts(evtext, tg_event_name(ev));
    }
}

/* uftrace's fstack_skip: events of threads outside any function are consumed silently
 * (they would not be shown); returns the next record to look at, or 0 at the end / error. */
static int peek_next(struct rp *p, tg_iter *it, const tg_event **ev, uf_rec *n)
{
    for (;;) {
        int rc = tg_iter_next(it, ev);
        if (rc <= 0)
            return rc;
        uf_rec_from_event(*ev, n);
        if (n->type != UF_EVENT && !n->cls->kernel)
            return 1;
        if (n->tid < 0) { /* extern data: belongs to the thread read last */
            if (!p->st.last_task)
                return 1;
            n->tid = p->st.last_task->tid;
            n->pid = p->st.last_task->pid;
        }
        uf_task *nt = uf_task_get(&p->st, n->tid, n->pid);
        if (!nt)
            return TG_ERR_NOMEM;
        if (n->cls->kernel ? !uf_kernel_skipped(&p->st, nt, n) : nt->user_stack_count != 0)
            return 1;
        uf_consume(&p->st, nt, n);
    }
}

/* The next event the filters let the printer read (the time range, -t and -C). */
static inline int next_rec(struct rp *p, tg_iter *it, const tg_event **ev, const bool filtering)
{
    int rc;
    while ((rc = tg_iter_next(it, ev)) > 0 && filtering && !uf_filter_keep(p->filter, *ev))
        ;
    return rc;
}

/* A record from the thread's own data (uftrace's task reader), not perf or kernel data. */
static bool thread_record(const tg_event *ev, const uf_rec *n)
{
    if (n->cls->kernel)
        return false;
    if (n->type == UF_ENTRY || n->type == UF_EXIT)
        return true;
    return ev->stream && tg_stream_tid(ev->stream) >= 0 && !uf_kind_is_perf(n->kind);
}

/* uftrace's fstack_skip under filters: the records after an entry (of task cur at depth
 * cur_depth) that the filters hide are consumed, as uftrace's fstack_entry and fstack_exit
 * see them; returns at the first one shown (cur's own record at its depth or above, a lost
 * record, or one the filters let through), 0 at the end. */
__attribute__((noinline)) static int peek_filtered(struct rp *p, tg_iter *it, const tg_event **ev,
                                                   uf_rec *n, const uf_task *cur, int cur_depth)
{
    uf_filter *f = p->filter;
    for (;;) {
        int rc = next_rec(p, it, ev, true);
        if (rc <= 0)
            return rc;
        uf_rec_from_event(*ev, n);
        if (n->tid < 0) { /* extern data: belongs to the thread read last */
            if (!p->st.last_task)
                return 1;
            n->tid = p->st.last_task->tid;
            n->pid = p->st.last_task->pid;
        }
        uf_task *nt = uf_task_get(&p->st, n->tid, n->pid);
        if (!nt)
            return TG_ERR_NOMEM;
        if ((*ev)->depth < 0)
            uf_rec_depth_from_stack(nt, n);
        uf_filter_task_init(f, nt);
        if (nt == cur && n->depth <= cur_depth && thread_record(*ev, n))
            return 1;
        bool skip = false;
        if (n->cls->kernel)
            skip = uf_kernel_skipped(&p->st, nt, n);
        else if (n->type == UF_EVENT)
            skip = nt->user_stack_count == 0;
        if (!skip && n->type == UF_LOST)
            return 1;
        if (n->type == UF_ENTRY || n->type == UF_EXIT) {
            size_t unused;
            n->name = func_name(p, *ev, &unused);
            skip |= f->no_libcall && uf_filter_is_libcall(*ev);
        }
        if (!skip && uf_filter_check_skip(&p->st, f, nt, n) >= 0)
            return 1;
        uf_consume(&p->st, nt, n);
        if (n->type == UF_ENTRY)
            uf_filter_entry(&p->st, f, nt, n);
        else if (n->type == UF_EXIT)
            uf_filter_exit(f, nt, uf_frame_at(&p->st, nt, nt->stack_count));
    }
}

static inline __attribute__((always_inline)) void put_args(struct rp *p, const char *name, size_t n,
                                                           const tg_buf *args, bool more)
{
    if (more) {
        out_put(p, "(", 1);
        out_put(p, tg_buf_data(args), tg_buf_len(args));
        out_put(p, ")", 1);
        return;
    }
    if (!name || n == 0 || name[n - 1] != ')')
        out_put(p, "()", 2);
}

/* The records in merged order, printed as uftrace's print_graph_rstack does; with filtering
 * (a compile-time constant: the unfiltered loop carries none of it) under uftrace's filters,
 * with its fstack_entry, fstack_exit and fstack_skip (peek_filtered). */
static inline __attribute__((always_inline)) int replay_loop(struct rp *p, tg_iter *it,
                                                             const bool filtering, tg_error **err)
{
    int rc;
    const tg_event *ev;
    rc = next_rec(p, it, &ev, filtering);
    if (rc > 0)
        put_header(p);
    else if (rc == 0 && p->n_fields) /* uftrace ends its header line even with no record */
        tg_buf_putc(p->out, '\n');
    while (rc > 0) {
        uf_rec r;
        bool more;
        size_t name_len = 0;
        take(p, ev, &r, &name_len, &more);
        if (r.tid < 0) {
            /* an event of no thread (uftrace's extern.dat): shown in the thread of the
             * record before it, as uftrace does */
            if (!p->st.last_task) {
                rc = next_rec(p, it, &ev, filtering);
                continue;
            }
            r.tid = p->st.last_task->tid;
            r.pid = p->st.last_task->pid;
        }
        uf_task *t = uf_task_get(&p->st, r.tid, r.pid);
        if (!t) {
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        }
        if (filtering && ev->depth < 0) /* the filters' look-ahead compares depths */
            uf_rec_depth_from_stack(t, &r);
        if (uf_consume_fast(&p->st, t, &r)) { /* uftrace hides it */
            rc = next_rec(p, it, &ev, filtering);
            continue;
        }
        if (r.type == UF_EXIT && r.cls->exit_ends_top) { /* the function of the frame it ended */
            uf_rec_exit_of_top(t, &r);
            name_len = r.name ? strlen(r.name) : 0;
        }
        if (r.type != UF_LOST && r.time) {
            if ((uint64_t)p->prev_time > (uint64_t)r.time) {
                for (int k = 0; k < p->n_fields; k++) {
                    tg_buf_putc(p->out, ' ');
                    tg_buf_pad(p->out, ' ', (int)strlen(field_table[p->order[k]].header));
                }
                if (p->n_fields)
                    tg_buf_puts(p->out, " | ");
                tg_buf_putc(p->out, ' ');
                tg_buf_pad(p->out, ' ', (t->display_depth + 1) * 2);
                tg_buf_puts(p->out, "/* inverted time: broken data? */\n");
            }
            p->prev_time = r.time;
        }
        if (r.type == UF_LOST) {
            if (t->user_stack_count != 0) {
                put_fields(p, t, NULL, false);
                out_pad(p, (t->display_depth + 1) * 2);
                if ((int64_t)r.addr > 0 && r.addr <= 0x7fffffff)
                    tg_buf_printf(p->out, "/* LOST %d records!! */\n", (int)r.addr);
                else
                    tg_buf_puts(p->out, "/* LOST some records!! */\n");
            }
            rc = next_rec(p, it, &ev, filtering);
            continue;
        }
        bool shown = true; /* filters: an entry's or exit's frame is shown */
        if (filtering && p->filter->no_sched && r.type == UF_EVENT && uf_kind_is_sched(r.kind)) {
            rc = next_rec(p, it, &ev, filtering);
            continue;
        }
        if (filtering) {
            uf_filter_task_init(p->filter, t);
            /* --no-libcall: a library call is not shown and moves no filter state */
            if (p->filter->no_libcall && (r.type == UF_ENTRY || r.type == UF_EXIT) &&
                uf_filter_is_libcall(ev)) {
                rc = next_rec(p, it, &ev, filtering);
                continue;
            }
        }
        t->timestamp_last = t->timestamp;
        t->timestamp = r.time;
        if (r.type == UF_ENTRY) {
            if (!filtering)
                uf_entry_fixups(&p->st, t, &r);
            else if (!uf_filter_entry(&p->st, p->filter, t, &r)) {
                rc = next_rec(p, it, &ev, filtering);
                continue;
            }
            int depth = t->display_depth;
            int idx = t->stack_count - 1;
            uf_rec n;
            bool folded = false, ret_more = false;
            rc = 0;
            if (!(t->entry_flags & (UF_FL_EXEC | UF_FL_LONGJMP)) && uf_frame_at(&p->st, t, idx)) {
                rc = filtering ? peek_filtered(p, it, &ev, &n, t, r.depth)
                               : peek_next(p, it, &ev, &n);
                if (rc > 0 && n.type == UF_EXIT && n.tid == r.tid && n.depth == r.depth) {
                    ret_more = ev->size && render_payload(p, ev, p->ret);
                    uf_consume_fast(&p->st, t, &n);
                    if (filtering)
                        uf_filter_exit(p->filter, t, uf_frame_at(&p->st, t, t->stack_count));
                    folded = true;
                    rc = next_rec(p, it, &ev, filtering);
                }
            } else {
                rc = next_rec(p, it, &ev, filtering);
            }
            uf_frame *f = uf_frame_at(&p->st, t, idx);
            char *w = r.name && !more && !ret_more
                          ? line_start(p, t, f, folded, depth * 2, name_len + 8)
                          : NULL;
            if (w) { /* the common line: "name();" or "name() {" */
                w = put_bytes(w, r.name, name_len);
                if (name_len == 0 || r.name[name_len - 1] != ')') {
                    memcpy(w, "()", 2);
                    w += 2;
                }
                if (folded) {
                    memcpy(w, ";\n", 2);
                    w += 2;
                } else {
                    memcpy(w, " {\n", 3);
                    w += 3;
                    uf_update_entry(&p->st, t);
                }
                line_end(p, w);
                continue;
            }
            put_fields(p, t, f, folded);
            out_pad(p, depth * 2);
            out_name(p, r.name, name_len, r.addr);
            put_args(p, r.name, name_len, p->args, more);
            if (folded) {
                if (ret_more) {
                    out_put(p, " = ", 3);
                    out_put(p, tg_buf_data(p->ret), tg_buf_len(p->ret));
                }
                out_put(p, ";\n", 2);
            } else {
                out_put(p, " {\n", 3);
                uf_update_entry(&p->st, t);
            }
            continue;
        }
        if (r.type == UF_EXIT) {
            uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
            if (filtering) {
                shown = f && !(f->fflags & UF_FF_NORECORD);
                uf_filter_exit(p->filter, t, f);
            }
            if (f && shown) {
                int depth = uf_update_exit(t);
                char *w =
                    r.name && !more ? line_start(p, t, f, true, depth * 2, name_len + 16) : NULL;
                if (w) { /* the common line: the closing brace and the name in a comment */
                    memcpy(w, "} /* ", 5);
                    w = put_bytes(w + 5, r.name, name_len);
                    memcpy(w, " */\n", 4);
                    line_end(p, w + 4);
                    rc = next_rec(p, it, &ev, filtering);
                    continue;
                }
                put_fields(p, t, f, true);
                out_pad(p, depth * 2);
                out_put(p, "}", 1);
                if (more) {
                    out_put(p, " = ", 3);
                    out_put(p, tg_buf_data(p->args), tg_buf_len(p->args));
                    out_put(p, ";", 1);
                }
                out_put(p, " /* ", 4);
                out_name(p, r.name, name_len, r.addr);
                out_put(p, " */\n", 4);
            }
            rc = next_rec(p, it, &ev, filtering);
            continue;
        }
        /* an event: sched-out may fold with the sched-in that follows */
        if (filtering &&
            (!uf_filter_event(p->filter, t) ||
             (uf_kind_is_sched(r.kind) &&
              !uf_frame_at(&p->st, t, t->stack_count - (r.kind != TG_KIND_SCHED_IN))))) {
            rc = next_rec(p, it, &ev, filtering);
            continue;
        }
        int depth = r.kind == TG_KIND_EXTERN ? 0 : t->display_depth; /* external data: 0 */
        bool sched_in = r.kind == TG_KIND_SCHED_IN;
        const char *text = tg_buf_data(p->evtext);
        size_t text_len = tg_buf_len(p->evtext);
        if (r.kind == TG_KIND_SCHED_OUT || r.kind == TG_KIND_SCHED_OUT_PREEMPTED) {
            uf_rec n;
            bool can_merge = uf_frame_at(&p->st, t, t->stack_count - 1) != NULL;
            rc = !can_merge  ? next_rec(p, it, &ev, filtering)
                 : filtering ? peek_filtered(p, it, &ev, &n, t, 0)
                             : peek_next(p, it, &ev, &n);
            if (can_merge && rc > 0 && n.type == UF_EVENT && n.tid == r.tid &&
                n.kind == TG_KIND_SCHED_IN) {
                uf_consume(&p->st, t, &n);
                text =
                    r.kind == TG_KIND_SCHED_OUT ? "linux:schedule" : "linux:schedule (pre-empted)";
                text_len = strlen(text);
                sched_in = true;
                rc = next_rec(p, it, &ev, filtering);
            }
        } else {
            rc = next_rec(p, it, &ev, filtering);
        }
        uf_frame *f = uf_frame_at(&p->st, t, t->stack_count);
        if (f && (!filtering || !(f->fflags & UF_FF_NORECORD))) {
            if (sched_in && f->total)
                put_fields(p, t, f, true);
            else
                put_fields(p, t, NULL, false);
            out_pad(p, depth * 2);
            out_put(p, "/* ", 3);
            out_put(p, text, text_len);
            out_put(p, " */\n", 4);
        }
    }
    return rc;
}

static int replay_run(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                      tg_buf *out, tg_error **err)
{
    (void)impl;
    TG_TRY(uf_need_symbols(set, err));
    struct rp p;
    memset(&p, 0, sizeof p);
    p.out = out;
    uf_digits_init(&p.digits);
    const char *fields = opts ? tg_options_get(opts, "output-fields") : NULL;
    if (!fields && opts)
        fields = tg_options_get(opts, "fields");
    uf_filter filter;
    int rc = uf_filter_setup(&filter, opts, err);
    if (rc >= 0)
        rc = parse_fields(&p, fields, err);
    if (rc < 0) {
        uf_filter_free(&filter);
        return rc;
    }
    /* uftrace's columns: in their order, but without -f a time range shows its start's kind
     * of time first */
    if (filter.range.set && !fields) {
        int col = filter.range.start_elapsed || filter.range.stop_elapsed ? F_ELAPSED : F_TIME;
        p.field_on[col] = true;
        p.order[p.n_fields++] = (uint8_t)col;
        p.order[p.n_fields++] = F_DURATION;
        p.order[p.n_fields++] = F_TID;
    } else {
        if (filter.range.set && fields[0] == '+')
            p.field_on[filter.range.start_elapsed || filter.range.stop_elapsed ? F_ELAPSED
                                                                               : F_TIME] = true;
        for (int i = 0; i < F_COUNT; i++)
            if (p.field_on[i])
                p.order[p.n_fields++] = (uint8_t)i;
    }
    p.plain = p.n_fields == 2 && p.order[0] == F_DURATION && p.order[1] == F_TID;
    p.args = tg_buf_new();
    p.ret = tg_buf_new();
    p.evtext = tg_buf_new();
    if (!p.args || !p.ret || !p.evtext || uf_state_init(&p.st) < 0) {
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
        goto done;
    }
    p.st.kernel_full = opts && tg_options_flag(opts, "kernel-full");
    if (filter.on) {
        p.filter = &filter;
        p.st.display_late = filter.range.start != 0;
        p.st.perf_in_tasks = filter.time_filter > 0;
        if ((rc = uf_filter_bind(&filter, set, err)) < 0 ||
            (rc = uf_filter_prepass(&filter, it, opts, err)) < 0)
            goto done;
    }
    /* the elapsed column counts from the first record of every thread, shown or not */
    if ((filter.range.set || filter.time_filter || tg_options_get(opts, "tid")) &&
        p.field_on[F_ELAPSED]) {
        int64_t first = (int64_t)filter.range.first;
        if (!first &&
            (rc = uf_first_time(it, opts, filter.time_filter ? UF_FIRST_ANY : UF_FIRST_RULE, &first,
                                err)) < 0)
            goto done;
        p.st.first_time = first ? first : -1;
        p.st.first_fixed = true;
    }
    if (p.filter)
        rc = replay_loop(&p, it, true, err);
    else
        rc = replay_loop(&p, it, false, err);
    if (rc >= 0)
        uf_replay_remaining(&p.st, set, p.out);
done:
    uf_filter_free(&filter);
    uf_state_free(&p.st);
    tg_buf_free(p.args);
    tg_buf_free(p.ret);
    tg_buf_free(p.evtext);
    return rc < 0 ? rc : 0;
}

TG_OPTIONS(replay) = {
    "replay",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"output-fields", TG_OPT_TEXT, NULL, "columns: time,tid,duration,... (as uftrace -f)",
         "FIELDS", NULL, 0, 0, 'f'},
        {"fields", TG_OPT_TEXT, NULL, "the same as output-fields", "FIELDS"},
        {"kernel-full", TG_OPT_FLAG, NULL,
         "uftrace data recorded with -k: also the kernel functions outside user functions "
         "(as uftrace --kernel-full)"},
        UF_FILTER_OPTION_DECLS,
        {0},
    },
};

int tg_replay(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out, tg_error **err)
{
    TG_TRY(tg_options_check(opts, TG_OWNER_COMMAND, "replay", "filter", NULL, err));
    return tg_sink_run(set, f, opts, out, err, replay_run, NULL);
}
