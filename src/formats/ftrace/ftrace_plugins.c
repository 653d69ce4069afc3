/* ftrace_plugins.c - the renderings trace-cmd's default plugins substitute for a print fmt.
 *
 * `trace-cmd report` loads libtraceevent's plugins, which replace the kernel's print fmt of a
 * few events by their own text: sched_switch and sched_wakeup(_new) print "comm:pid [prio]"
 * (and remember the comm of the tasks they name, which later lines then show),
 * hrtimer_start/hrtimer_expire_entry print the function as "name/0xoffset", and the kmem
 * allocation events get a "(call_site+0xoff) " prefix.  To print what trace-cmd prints, the
 * same substitutions are made here (written from their observable output).  Raw mode (-R)
 * does not use them. */
#include "formats/ftrace/ftrace_internal.h"

#include <stdio.h>
#include <string.h>

int ft_plugin_for(const char *system, const char *name)
{
    if (strcmp(system, "sched") == 0) {
        if (strcmp(name, "sched_switch") == 0)
            return FT_PLUGIN_SCHED_SWITCH;
        if (strcmp(name, "sched_wakeup") == 0 || strcmp(name, "sched_wakeup_new") == 0)
            return FT_PLUGIN_SCHED_WAKEUP;
    } else if (strcmp(system, "timer") == 0) {
        if (strcmp(name, "hrtimer_expire_entry") == 0)
            return FT_PLUGIN_HRTIMER_EXPIRE;
        if (strcmp(name, "hrtimer_start") == 0)
            return FT_PLUGIN_HRTIMER_START;
    } else if (strcmp(system, "kmem") == 0) {
        static const char *const k[] = {"kfree", "kmalloc", "kmalloc_node", "kmem_cache_alloc",
                                        "kmem_cache_alloc_node", "kmem_cache_free"};
        for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
            if (strcmp(name, k[i]) == 0)
                return FT_PLUGIN_KMEM_CALLSITE;
    }
    return FT_PLUGIN_NONE;
}

/* tep_get_field_val: the field as an unsigned number; false when absent. */
static bool field_val(const ft_event *e, const uint8_t *data, size_t size, const char *name,
                      uint64_t *v, const ft_field **out)
{
    const ft_field *f = ft_find_field(e, name);
    if (out)
        *out = f;
    if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) ||
        f->offset + (size_t)f->size > size)
        return false;
    *v = ft_read_num(e->file, data + f->offset, f->size);
    return true;
}

static void cant_find(tg_buf *out, const char *name)
{
    tg_buf_printf(out, "<CANT FIND FIELD %s>", name);
}

static void write_and_save_comm(const ft_event *e, const uint8_t *data, size_t size,
                                const ft_field *f, int pid, tg_buf *out)
{
    if (f->offset > size)
        return;
    size_t n = f->size;
    if (n > size - f->offset)
        n = size - f->offset;
    const char *comm = (const char *)data + f->offset;
    size_t len = strnlen(comm, n);
    tg_buf_put(out, comm, len);
    ft_comm_register(e->file, pid, comm, len);
}

static void write_state(tg_buf *out, uint64_t val)
{
    static const char states[] = "SDTtZXxW";
    bool found = false;
    for (int i = 0; i < 8; i++) {
        if (!(val & (1ull << i)))
            continue;
        if (found)
            tg_buf_putc(out, '|');
        found = true;
        tg_buf_putc(out, states[i]);
    }
    if (!found)
        tg_buf_putc(out, 'R');
}

static int sched_switch(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    uint64_t val;
    const ft_field *f;
    if (!field_val(e, d, n, "prev_pid", &val, NULL)) {
        cant_find(out, "prev_pid");
        tg_buf_putc(out, '!');
        return 0;
    }
    f = ft_find_field(e, "prev_comm");
    if (f) {
        write_and_save_comm(e, d, n, f, (int)val, out);
        tg_buf_putc(out, ':');
    }
    tg_buf_i64(out, (int64_t)val);
    tg_buf_putc(out, ' ');
    if (field_val(e, d, n, "prev_prio", &val, NULL)) {
        tg_buf_putc(out, '[');
        tg_buf_i64(out, (int32_t)val);
        tg_buf_puts(out, "] ");
    } else {
        cant_find(out, "prev_prio");
    }
    if (field_val(e, d, n, "prev_state", &val, NULL))
        write_state(out, val);
    else
        cant_find(out, "prev_state");
    tg_buf_puts(out, " ==> ");
    if (!field_val(e, d, n, "next_pid", &val, NULL)) {
        cant_find(out, "next_pid");
        tg_buf_putc(out, '!');
        return 0;
    }
    f = ft_find_field(e, "next_comm");
    if (f) {
        write_and_save_comm(e, d, n, f, (int)val, out);
        tg_buf_putc(out, ':');
    }
    tg_buf_i64(out, (int64_t)val);
    if (field_val(e, d, n, "next_prio", &val, NULL)) {
        tg_buf_puts(out, " [");
        tg_buf_i64(out, (int32_t)val);
        tg_buf_putc(out, ']');
    } else {
        cant_find(out, "next_prio");
    }
    return 0;
}

static int sched_wakeup(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    uint64_t val;
    if (!field_val(e, d, n, "pid", &val, NULL)) {
        cant_find(out, "pid");
        tg_buf_putc(out, '!');
        return 0;
    }
    const ft_field *f = ft_find_field(e, "comm");
    if (f) {
        write_and_save_comm(e, d, n, f, (int)val, out);
        tg_buf_putc(out, ':');
    }
    tg_buf_i64(out, (int64_t)val);
    if (field_val(e, d, n, "prio", &val, NULL)) {
        tg_buf_puts(out, " [");
        tg_buf_i64(out, (int64_t)val);
        tg_buf_putc(out, ']');
    } else {
        cant_find(out, "prio");
    }
    if (field_val(e, d, n, "success", &val, NULL)) {
        tg_buf_puts(out, " success=");
        tg_buf_i64(out, (int64_t)val);
    }
    if (field_val(e, d, n, "target_cpu", &val, NULL)) {
        tg_buf_puts(out, " CPU:");
        tg_buf_u64_pad(out, val, 3, '0');
    }
    return 0;
}

static bool num_field(const ft_event *e, const uint8_t *d, size_t n, const char *name, bool hex,
                      bool err, tg_buf *out)
{
    uint64_t v;
    if (!field_val(e, d, n, name, &v, NULL)) {
        if (err)
            tg_buf_printf(out, "CAN'T FIND FIELD \"%s\"", name);
        return false;
    }
    if (hex) {
        tg_buf_puts(out, "0x");
        tg_buf_hex(out, v);
    } else {
        tg_buf_u64(out, v);
    }
    return true;
}

static void func_field(const ft_event *e, const uint8_t *d, size_t n, const char *prefix,
                       const char *name, tg_buf *out)
{
    uint64_t v;
    if (!field_val(e, d, n, name, &v, NULL))
        return;
    const ft_func *fn = ft_find_func(e->file, v);
    tg_buf_puts(out, prefix);
    if (fn) {
        char tmp[128];
        int k = snprintf(tmp, sizeof tmp, "%s/0x%llx", fn->name,
                         (unsigned long long)(fn->addr - v));
        if (k > 0)
            tg_buf_put(out, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
    } else {
        tg_buf_printf(out, "0x%08llx", (unsigned long long)v);
    }
}

static int hrtimer(const ft_event *e, const uint8_t *d, size_t n, bool start, tg_buf *out)
{
    tg_buf_puts(out, "hrtimer=");
    if (!num_field(e, d, n, "timer", true, false, out))
        num_field(e, d, n, "hrtimer", true, true, out);
    if (start) {
        func_field(e, d, n, " function=", "function", out);
        tg_buf_puts(out, " expires=");
        num_field(e, d, n, "expires", false, true, out);
        tg_buf_puts(out, " softexpires=");
        num_field(e, d, n, "softexpires", false, true, out);
    } else {
        tg_buf_puts(out, " now=");
        num_field(e, d, n, "now", false, true, out);
        func_field(e, d, n, " function=", "function", out);
    }
    return 0;
}

static int kmem_callsite(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    uint64_t v;
    if (!field_val(e, d, n, "call_site", &v, NULL))
        return 1;
    const ft_func *fn = ft_find_func(e->file, v);
    if (!fn)
        return 1;
    tg_buf_printf(out, "(%s+0x%x) ", fn->name, (int)(v - fn->addr));
    return 1;
}

int ft_plugin_render(const ft_event *e, const uint8_t *data, size_t size, tg_buf *out)
{
    switch (e->plugin) {
    case FT_PLUGIN_SCHED_SWITCH:
        return sched_switch(e, data, size, out);
    case FT_PLUGIN_SCHED_WAKEUP:
        return sched_wakeup(e, data, size, out);
    case FT_PLUGIN_HRTIMER_EXPIRE:
        return hrtimer(e, data, size, false, out);
    case FT_PLUGIN_HRTIMER_START:
        return hrtimer(e, data, size, true, out);
    case FT_PLUGIN_KMEM_CALLSITE:
        return kmem_callsite(e, data, size, out);
    default:
        return 1;
    }
}
