/* ftrace_function.c - trace-cmd's function plugin: what `trace-cmd report` prints for the
 * function tracer's events (ftrace:function, "ip" and "parent_ip").
 *
 *   function:             __wake_up
 *   function:                _raw_spin_lock_irqsave
 *
 * The kernel's own print fmt is " %lx <-- %lx"; libtraceevent's function plugin prints the
 * function's name instead, indented by a call depth it guesses from the parents: per cpu it
 * keeps the chain of names seen, finds the parent in it (depth = its position) and puts the
 * function right after it; a parent not in the chain starts a new one at depth 0.  Names
 * that are not in kallsyms do not enter the chain (the slot keeps its old name) and print
 * as 0x<address>.  Its options, set as trace-cmd's -O sets them (option "plugin-option",
 * comma-separated "[ftrace:]NAME[=VALUE]"; like trace-cmd, the plugin answers only to its
 * alias "ftrace", so "function:parent=1" changes nothing, as it does for trace-cmd -O):
 * parent (" <-- parent"), indent (the depth, on by default), offset (name+0x<offset>);
 * trace-cmd's function_graph options (alias "fgraph": tailprint, depth) are read here too.  The
 * chains live in the ft_file because they follow the events in print order, as the comm
 * table does; their names point into the kallsyms text. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* libtraceevent's update_option_value for a boolean: no value toggles, "1"/"true" set,
 * "0"/"false" clear, anything else leaves it. */
static void set_bool(bool *opt, const char *val, size_t n)
{
    if (!val)
        *opt = !*opt;
    else if ((n == 1 && val[0] == '1') || (n == 4 && memcmp(val, "true", 4) == 0))
        *opt = true;
    else if ((n == 1 && val[0] == '0') || (n == 5 && memcmp(val, "false", 5) == 0))
        *opt = false;
}

void ft_function_options(ft_file *f, const char *list)
{
    f->fn_indent = true;
    for (const char *p = list; p && *p;) {
        const char *end = p + strcspn(p, ",\n"); /* repeated -O: newline-joined */
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *name = p;
        bool fn = true, fg = true; /* no plugin named: every plugin's option of that name */
        if (colon) {
            size_t pl = (size_t)(colon - p);
            fn = pl == 6 && memcmp(p, "ftrace", 6) == 0;
            fg = pl == 6 && memcmp(p, "fgraph", 6) == 0; /* trace-cmd's function_graph */
            name = colon + 1;
        }
        const char *eq = memchr(name, '=', (size_t)(end - name));
        size_t nl = (size_t)((eq ? eq : end) - name);
        const char *val = eq ? eq + 1 : NULL;
        size_t vl = eq ? (size_t)(end - val) : 0;
        if (fn && nl == 6 && memcmp(name, "parent", 6) == 0)
            set_bool(&f->fn_parent, val, vl);
        else if (fn && nl == 6 && memcmp(name, "indent", 6) == 0)
            set_bool(&f->fn_indent, val, vl);
        else if (fn && nl == 6 && memcmp(name, "offset", 6) == 0)
            set_bool(&f->fn_offset, val, vl);
        else if (fg && nl == 9 && memcmp(name, "tailprint", 9) == 0)
            set_bool(&f->fg_tailprint, val, vl);
        else if (fg && nl == 5 && memcmp(name, "depth", 5) == 0)
            set_bool(&f->fg_depth, val, vl);
        p = *end ? end + 1 : end;
    }
}

void ft_function_free(ft_file *f)
{
    for (size_t i = 0; i < f->n_fn_chains; i++)
        free(f->fn_chains[i].names);
    free(f->fn_chains);
}

/* The name goes at pos of the cpu's chain (add_child); NULL leaves the slot as it is. */
static void put_in_chain(ft_fn_chain *c, const char *name, size_t pos)
{
    if (!name)
        return;
    if (pos >= c->size) {
        size_t old = c->cap;
        if (tg_grow(&c->names, &c->cap, pos + 1, sizeof *c->names) != 0)
            return;
        memset(c->names + old, 0, (c->cap - old) * sizeof *c->names);
        c->size = c->cap;
    }
    c->names[pos] = name;
}

/* add_and_get_index: the depth of the function whose parent is `parent` on cpu. */
static size_t depth_of(ft_file *f, int cpu, const char *parent, const char *func)
{
    if (cpu < 0)
        return 0;
    if ((size_t)cpu >= f->n_fn_chains) {
        size_t old = f->cap_fn_chains;
        if (tg_grow(&f->fn_chains, &f->cap_fn_chains, (size_t)cpu + 1, sizeof *f->fn_chains) != 0)
            return 0;
        memset(f->fn_chains + old, 0, (f->cap_fn_chains - old) * sizeof *f->fn_chains);
        f->n_fn_chains = (size_t)cpu + 1;
    }
    ft_fn_chain *c = &f->fn_chains[cpu];
    for (size_t i = 0; i < c->size && c->names[i]; i++) {
        const char *n = c->names[i];
        if (n == parent || strcmp(n, parent) == 0) {
            put_in_chain(c, func, i + 1);
            return i;
        }
    }
    put_in_chain(c, parent, 0);
    put_in_chain(c, func, 1);
    return 0;
}

static void put_func(const ft_file *f, tg_buf *out, const tg_symbol *fn, uint64_t addr)
{
    if (!fn) {
        tg_buf_puts(out, "0x");
        tg_buf_hex(out, addr);
        return;
    }
    tg_buf_puts(out, fn->name);
    if (f->fn_offset) {
        /* "+0x%x " of the int difference */
        tg_buf_puts(out, "+0x");
        tg_buf_hex(out, (uint32_t)(addr - fn->addr));
        tg_buf_putc(out, ' ');
    }
}

int ft_function_render(const ft_event *e, int cpu, const uint8_t *data, size_t size, tg_buf *out)
{
    ft_file *f = e->file;
    uint64_t ip, pip;
    if (!ft_kf_u64(e, data, size, FT_KF_IP, &ip)) {
        tg_buf_putc(out, '!');
        return 0;
    }
    const tg_symbol *fn = ft_find_func(f, ip);
    if (!ft_kf_u64(e, data, size, FT_KF_PARENT_IP, &pip)) {
        tg_buf_putc(out, '!');
        return 0;
    }
    const tg_symbol *pfn = ft_find_func(f, pip);
    size_t depth = 0;
    if (pfn && f->fn_indent)
        depth = depth_of(f, cpu, pfn->name, fn ? fn->name : NULL);
    tg_buf_pad(out, ' ', (int)(depth * 3));
    put_func(f, out, fn, ip);
    if (f->fn_parent) {
        tg_buf_puts(out, " <-- ");
        put_func(f, out, pfn, pip);
    }
    return 0;
}
