/* ftrace_fgraph.c - trace-cmd's function_graph output for funcgraph_entry/funcgraph_exit.
 *
 *   funcgraph_entry:                   |  vfs_read() {
 *   funcgraph_entry:        0.781 us   |    rw_verify_area();
 *   funcgraph_exit:       + 12.345 us  |  }
 *
 * trace-cmd replaces the kernel's print fmts of these two events by its own handlers.  An
 * entry whose next record (the next one trace-cmd reads from the same instance, whatever the
 * cpu) is the exit of the same function by the same task is a leaf: one line "func();" with
 * the exit's duration, and the exit record is consumed: the render says so
 * (TG_RENDER_WITH_NEXT) and the printer drops it from the stream.  Any other
 * entry opens a block "func() {", and an exit closes one with "}" and its duration.  The
 * duration column is the call's rettime - calltime in microseconds with three decimals while
 * it has fewer than 7 digits, padded to 7, after a marker for long calls ("+ " over 10 us,
 * "! " 100 us, "# " 1 ms, "$ " 1 s); the function is indented by 2 columns per depth.  The
 * options are trace-cmd's (-O fgraph:tailprint: the name in a C comment after "}", -O
 * fgraph:depth: " (N)").
 * Records whose fields are missing print "!" as trace-cmd does; an absurd depth is clamped so
 * that a damaged record cannot make a line of gigabytes. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/buf_inline.h"

#include <stdint.h>
#include <string.h>

#define FG_MAX_INDENT 4096 /* columns; trace-cmd would print depth*2 of them */

/* print_graph_overhead: the marker of a long call (~0: none), 2 bytes at w */
static char *put_overhead(char *w, uint64_t duration)
{
    const char *m = "  ";
    if (duration == ~0ull)
        m = "  ";
    else if (duration > 1000000000ull)
        m = "$ ";
    else if (duration > 1000000ull)
        m = "# ";
    else if (duration > 100000ull)
        m = "! ";
    else if (duration > 10000ull)
        m = "+ ";
    memcpy(w, m, 2);
    return w + 2;
}

/* print_graph_duration: "%lu" microseconds, ".%03lu" while under 7 digits, " us ", padded to
 * 7 columns, "|  ": at most 20 + 4 + 4 + 7 + 3 bytes at w */
static char *put_duration(char *w, uint64_t duration)
{
    uint64_t us = duration / 1000;
    size_t len = tg_dec_len(us);
    tg_dec_write(w + len, us);
    w += len;
    if (len < 7) {
        *w++ = '.';
        tg_dec_fixed(w, duration % 1000, 3);
        w += 3;
        len += 4;
    }
    memcpy(w, " us ", 4);
    w += 4;
    if (len < 7) {
        memset(w, ' ', 7 - len);
        w += 7 - len;
    }
    memcpy(w, "|  ", 3);
    return w + 3;
}

/* The indent of a depth: 2 columns per level, capped */
static size_t indent_of(uint64_t depth)
{
    uint64_t n = depth * 2;
    if ((int64_t)(int)n < 0) /* trace-cmd's loop bound is an int: negative prints nothing */
        return 0;
    return n > FG_MAX_INDENT ? FG_MAX_INDENT : (size_t)n;
}

/* The marker, the duration column (from the exit record x) and the indent (from the depth
 * of record d), written with one room check; false after printing trace-cmd's "!" for a
 * missing field (the marker and the duration before it when the depth is the one missing). */
static bool put_timed(tg_buf *out, const ft_event *x, const uint8_t *xd, size_t xn,
                      const ft_event *d, const uint8_t *dd, size_t dn, uint64_t *depth)
{
    uint64_t rettime, calltime;
    if (!ft_kf_u64(x, xd, xn, FT_KF_RETTIME, &rettime) ||
        !ft_kf_u64(x, xd, xn, FT_KF_CALLTIME, &calltime)) {
        tg_buf_putc(out, '!');
        return false;
    }
    uint64_t duration = rettime - calltime;
    bool has_depth = ft_kf_u64(d, dd, dn, FT_KF_DEPTH, depth);
    size_t ind = has_depth ? indent_of(*depth) : 1;
    char *start = tg_buf_room(out, 40 + ind);
    if (!start)
        return false;
    char *w = put_duration(put_overhead(start, duration), duration);
    if (has_depth) {
        memset(w, ' ', ind);
        w += ind;
    } else {
        *w++ = '!';
    }
    tg_buf_commit(out, (size_t)(w - start));
    return has_depth;
}

/* The function's name (or its address in hex) and tail, with one room check */
static void put_name(tg_buf *out, const ft_file *f, uint64_t func, const char *tail,
                     size_t tail_len)
{
    const tg_symbol *fn = ft_find_func(f, func);
    size_t nl = fn ? strlen(fn->name) : tg_hex_len(func);
    char *w = nl < SIZE_MAX - 8 ? tg_buf_room(out, nl + tail_len) : NULL;
    if (!w)
        return;
    if (fn)
        memcpy(w, fn->name, nl);
    else
        tg_hex_write(w + nl, func);
    memcpy(w + nl, tail, tail_len);
    tg_buf_commit(out, nl + tail_len);
}

/* get_return_for_leaf: is the next record this call's exit? */
static bool is_leaf_exit(const ft_event *entry, uint64_t pid, uint64_t func, const uint8_t *next,
                         size_t next_size, const ft_event **exit_ev)
{
    const ft_file *f = entry->file;
    if (!f->type_size || f->type_off + f->type_size > next_size)
        return false;
    const ft_event *x =
        ft_event_by_id(f, (uint32_t)ft_read_num(f, next + f->type_off, f->type_size));
    if (!x || x->plugin != FT_PLUGIN_FGRAPH_EXIT)
        return false;
    uint64_t npid, nfunc;
    if (!ft_kf_u64(x, next, next_size, FT_KF_PID, &npid) || npid != pid)
        return false;
    if (!ft_kf_u64(x, next, next_size, FT_KF_FUNC, &nfunc) || nfunc != func)
        return false;
    *exit_ev = x;
    return true;
}

int ft_fgraph_entry_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size,
                           tg_buf *out)
{
    const ft_file *f = e->file;
    uint64_t pid, func, depth;
    if (!ft_kf_u64(e, data, size, FT_KF_PID, &pid) ||
        !ft_kf_u64(e, data, size, FT_KF_FUNC, &func)) {
        tg_buf_putc(out, '!');
        return 0;
    }
    const uint8_t *next;
    size_t next_size;
    const ft_event *x = NULL;
    int rc = 0;
    if (ft_ring_peek_next(ev, &next, &next_size) &&
        is_leaf_exit(e, (uint64_t)(int64_t)(int32_t)pid, func, next, next_size, &x)) {
        /* the exit is part of this line: the printer drops it from the stream */
        rc = TG_RENDER_WITH_NEXT;
        if (!put_timed(out, x, next, next_size, e, data, size, &depth))
            return rc;
        put_name(out, f, func, "();", 3);
    } else {
        TG_BUF_LIT(out, "             |  "); /* no marker, then the empty duration */
        if (!ft_kf_u64(e, data, size, FT_KF_DEPTH, &depth)) {
            tg_buf_putc(out, '!');
            return 0;
        }
        tg_buf_pad(out, ' ', (int)indent_of(depth));
        put_name(out, f, func, "() {", 4);
    }
    if (f->fg_depth) {
        tg_buf_puts(out, " (");
        tg_buf_i64(out, (int64_t)depth);
        tg_buf_putc(out, ')');
    }
    return rc;
}

int ft_fgraph_exit_render(const ft_event *e, const uint8_t *data, size_t size, tg_buf *out)
{
    const ft_file *f = e->file;
    uint64_t depth, func;
    if (!put_timed(out, e, data, size, e, data, size, &depth))
        return 0;
    tg_buf_putc(out, '}');
    if (f->fg_tailprint) {
        /* trace-cmd stops here (no depth either) when the function has no name */
        const tg_symbol *fn =
            ft_kf_u64(e, data, size, FT_KF_FUNC, &func) ? ft_find_func(f, func) : NULL;
        if (!fn)
            return 0;
        tg_buf_puts(out, " /* ");
        tg_buf_puts(out, fn->name);
        tg_buf_puts(out, " */");
    }
    if (f->fg_depth) {
        tg_buf_puts(out, " (");
        tg_buf_i64(out, (int64_t)depth);
        tg_buf_putc(out, ')');
    }
    return 0;
}

void ft_func_fields(const ft_event *e, const uint8_t *data, size_t size, tg_event *ev)
{
    uint64_t func, depth;
    if (ft_kf_u64(e, data, size, FT_KF_FUNC, &func))
        ev->addr = func;
    if (ft_kf_u64(e, data, size, FT_KF_DEPTH, &depth))
        ev->depth = depth > INT32_MAX ? INT32_MAX : (int32_t)depth;
    if (e->cls->exit_has_call_ns) {
        uint64_t rettime, calltime;
        ev->call_ns = -1;
        /* trace-cmd's unsigned difference; a damaged pair (rettime before calltime, or over
         * INT64_MAX apart) has no duration to trust: the record times are taken instead */
        if (ft_kf_u64(e, data, size, FT_KF_RETTIME, &rettime) &&
            ft_kf_u64(e, data, size, FT_KF_CALLTIME, &calltime) && rettime >= calltime &&
            rettime - calltime <= (uint64_t)INT64_MAX)
            ev->call_ns = (int64_t)(rettime - calltime);
    }
}

/* The kernel takes calltime and rettime with trace_clock_local(), the clock of a buffer whose
 * trace_clock is "local" (the default): on another clock (global, a counter, TSC converted to
 * ns) only their difference is known. */
bool ft_fgraph_call_times(const ft_file *f, const ft_event *e, const uint8_t *data, size_t size,
                          int64_t *call_ns, int64_t *ret_ns)
{
    const char *clock = f->trace->clock.name;
    uint64_t rettime, calltime;
    if (!e->cls->exit_has_call_ns || f->have_tsc2nsec || !clock || strcmp(clock, "local") != 0 ||
        !ft_kf_u64(e, data, size, FT_KF_RETTIME, &rettime) ||
        !ft_kf_u64(e, data, size, FT_KF_CALLTIME, &calltime) || rettime < calltime ||
        rettime > (uint64_t)INT64_MAX)
        return false;
    *call_ns = (int64_t)calltime + f->ts_offset;
    *ret_ns = (int64_t)rettime + f->ts_offset;
    return true;
}
