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

#include <string.h>

#define FG_MAX_INDENT 4096 /* columns; trace-cmd would print depth*2 of them */

/* print_graph_overhead: the marker of a long call (~0: none) */
static void put_overhead(tg_buf *out, uint64_t duration)
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
    tg_buf_put(out, m, 2);
}

/* print_graph_duration: "%lu" microseconds, ".%03lu" while under 7 digits, " us ", padded to
 * 7 columns, "|  " */
static void put_duration(tg_buf *out, uint64_t duration)
{
    size_t before = tg_buf_len(out);
    tg_buf_u64(out, duration / 1000);
    size_t len = tg_buf_len(out) - before;
    if (len < 7) {
        tg_buf_putc(out, '.');
        tg_buf_u64_pad(out, duration % 1000, 3, '0');
        len += 4;
    }
    tg_buf_puts(out, " us ");
    tg_buf_pad(out, ' ', 7 - (int)len);
    tg_buf_puts(out, "|  ");
}

static void put_indent(tg_buf *out, uint64_t depth)
{
    uint64_t n = depth * 2;
    if ((int64_t)(int)n < 0) /* trace-cmd's loop bound is an int: negative prints nothing */
        return;
    tg_buf_pad(out, ' ', (int)(n > FG_MAX_INDENT ? FG_MAX_INDENT : n));
}

/* The marker, the duration column (from the exit record x) and the indent (from the depth
 * of record d); false after printing trace-cmd's "!" for a missing field. */
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
    put_overhead(out, duration);
    put_duration(out, duration);
    if (!ft_kf_u64(d, dd, dn, FT_KF_DEPTH, depth)) {
        tg_buf_putc(out, '!');
        return false;
    }
    put_indent(out, *depth);
    return true;
}

static void put_name(tg_buf *out, const ft_file *f, uint64_t func, const char *tail)
{
    const tg_symbol *fn = ft_find_func(f, func);
    if (fn) {
        tg_buf_puts(out, fn->name);
    } else {
        tg_buf_hex(out, func);
    }
    tg_buf_puts(out, tail);
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
        put_name(out, f, func, "();");
    } else {
        put_overhead(out, ~0ull);
        tg_buf_puts(out, "           |  ");
        if (!ft_kf_u64(e, data, size, FT_KF_DEPTH, &depth)) {
            tg_buf_putc(out, '!');
            return 0;
        }
        put_indent(out, depth);
        put_name(out, f, func, "() {");
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
