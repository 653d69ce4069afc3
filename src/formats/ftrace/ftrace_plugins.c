/* ftrace_plugins.c - the renderings trace-cmd's default plugins substitute for a print fmt.
 *
 * `trace-cmd report` loads libtraceevent's plugins, which replace the kernel's print fmt of a
 * few events by their own text: sched_switch and sched_wakeup(_new) print "comm:pid [prio]"
 * (and remember the comm of the tasks they name, which later lines then show),
 * hrtimer_start/hrtimer_expire_entry print the function as "name/0xoffset", and the kmem
 * allocation events get a "(call_site+0xoff) " prefix, kernel_stack prints its stack one
 * function a line.  To print what trace-cmd prints, the
 * same substitutions are made here (written from their observable output).  Raw mode (-R)
 * does not use them. */
#include "formats/ftrace/ftrace_internal.h"

#include <stdbool.h>
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
    } else if (strcmp(system, "ftrace") == 0 && strcmp(name, "function") == 0) {
        return FT_PLUGIN_FUNCTION;
    } else if (strcmp(system, "ftrace") == 0 && strcmp(name, "kernel_stack") == 0) {
        return FT_PLUGIN_KERNEL_STACK;
    } else if (strcmp(system, "ftrace") == 0 && strcmp(name, "funcgraph_entry") == 0) {
        return FT_PLUGIN_FGRAPH_ENTRY;
    } else if (strcmp(system, "ftrace") == 0 && strcmp(name, "funcgraph_exit") == 0) {
        return FT_PLUGIN_FGRAPH_EXIT;
    } else if (strcmp(system, "tlb") == 0 && strcmp(name, "tlb_flush") == 0) {
        return FT_PLUGIN_TLB_FLUSH;
    } else if (strcmp(system, "syscalls") == 0 && strcmp(name, "sys_enter_futex") == 0) {
        return FT_PLUGIN_FUTEX;
    } else if (strcmp(system, "kmem") == 0) {
        static const char *const k[] = {"kfree",
                                        "kmalloc",
                                        "kmalloc_node",
                                        "kmem_cache_alloc",
                                        "kmem_cache_alloc_node",
                                        "kmem_cache_free"};
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
    const tg_symbol *fn = ft_find_func(e->file, v);
    tg_buf_puts(out, prefix);
    if (fn) {
        /* "%s/0x%llx" of the name and addr - v, the name cut at 127 bytes in all */
        size_t nl = strlen(fn->name);
        if (nl > 127)
            nl = 127;
        tg_buf_put(out, fn->name, nl);
        char tmp[24];
        size_t k = sizeof tmp;
        uint64_t x = fn->addr - v;
        do {
            tmp[--k] = "0123456789abcdef"[x & 15];
            x >>= 4;
        } while (x);
        tmp[--k] = 'x';
        tmp[--k] = '0';
        tmp[--k] = '/';
        size_t room = 127 - nl, tl = sizeof tmp - k;
        tg_buf_put(out, tmp + k, tl < room ? tl : room);
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
    if (!ft_kf_u64(e, d, n, FT_KF_CALL_SITE, &v))
        return 1;
    const tg_symbol *fn = ft_find_func(e->file, v);
    if (!fn)
        return 1;
    /* "(%s+0x%x) ": the offset as an int's 32 bits */
    size_t nl = strlen(fn->name);
    char *w = nl < SIZE_MAX - 16 ? tg_buf_room(out, nl + 16) : NULL;
    if (!w)
        return 1;
    char *s = w;
    *w++ = '(';
    memcpy(w, fn->name, nl);
    w += nl;
    memcpy(w, "+0x", 3);
    w += 3;
    uint32_t off = (uint32_t)(v - fn->addr);
    size_t hl = tg_hex_len(off);
    tg_hex_write(w + hl, off);
    w += hl;
    memcpy(w, ") ", 2);
    tg_buf_commit(out, (size_t)(w + 2 - s));
    return 1;
}

static int tlb_flush(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    static const char *const reasons[] = {"flush on task switch", "remote shootdown",
                                          "local shootdown", "local mm shootdown"};
    uint64_t pages, reason;
    tg_buf_puts(out, "pages=");
    if (field_val(e, d, n, "pages", &pages, NULL))
        tg_buf_i64(out, (int64_t)pages);
    else
        tg_buf_puts(out, "CAN'T FIND FIELD \"pages\"");
    if (!field_val(e, d, n, "reason", &reason, NULL)) {
        cant_find(out, "reason");
        return 1;
    }
    tg_buf_puts(out, " reason=");
    if (reason < 4)
        tg_buf_puts(out, reasons[reason]);
    tg_buf_puts(out, " (");
    tg_buf_i64(out, (int64_t)reason);
    tg_buf_putc(out, ')');
    return 0;
}

/* sys_enter_futex: the operation by name and the arguments that operation uses */
static int futex(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    enum { HEX = 1, DEC = 2 };
    static const struct {
        const char *name;
        char val, utime, uaddr2, val3; /* how each is shown: 0 not, HEX, DEC */
        bool utime_is_val2;
    } ops[] = {
        {"FUTEX_WAIT", HEX, HEX, 0, 0, false},
        {"FUTEX_WAKE", DEC, 0, 0, 0, false},
        {"FUTEX_FD", DEC, 0, 0, 0, false},
        {"FUTEX_REQUEUE", DEC, DEC, HEX, 0, true},
        {"FUTEX_CMP_REQUEUE", DEC, DEC, HEX, HEX, true},
        {"FUTEX_WAKE_OP", DEC, DEC, HEX, HEX, true},
        {"FUTEX_LOCK_PI", 0, HEX, 0, 0, false},
        {"FUTEX_UNLOCK_PI", 0, 0, 0, 0, false},
        {"FUTEX_TRYLOCK_PI", 0, 0, 0, 0, false},
        {"FUTEX_WAIT_BITSET", HEX, HEX, 0, HEX, false},
        {"FUTEX_WAKE_BITSET", DEC, 0, 0, HEX, false},
        {"FUTEX_WAIT_REQUEUE_PI", HEX, HEX, HEX, HEX, false},
        {"FUTEX_CMP_REQUEUE_PI", DEC, DEC, HEX, HEX, true},
    };
    static const char *const names[] = {"uaddr", "op", "val", "utime", "uaddr2", "val3"};
    uint64_t v[6];
    for (int i = 0; i < 6; i++) {
        if (!field_val(e, d, n, names[i], &v[i], NULL)) {
            cant_find(out, names[i]);
            return 1;
        }
    }
    uint64_t cmd = v[1] & ~(uint64_t)(128 | 256);
    if (cmd >= sizeof ops / sizeof ops[0])
        return 1;
    tg_buf_puts(out, "op=");
    tg_buf_puts(out, ops[cmd].name);
    if (v[1] & 128)
        tg_buf_puts(out, "|FUTEX_PRIVATE_FLAG");
    if (v[1] & 256)
        tg_buf_puts(out, "|FUTEX_CLOCK_REALTIME");
    tg_buf_printf(out, " uaddr=0x%08llx", (unsigned long long)v[0]);
    const char how[4] = {ops[cmd].val, ops[cmd].utime, ops[cmd].uaddr2, ops[cmd].val3};
    const char *label[4] = {"val", ops[cmd].utime_is_val2 ? "val2" : "utime", "uaddr2", "val3"};
    const uint64_t val[4] = {v[2], v[3], v[4], v[5]};
    for (int i = 0; i < 4; i++) {
        if (how[i] == HEX)
            tg_buf_printf(out, " %s=0x%08llx", label[i], (unsigned long long)val[i]);
        else if (how[i] == DEC)
            tg_buf_printf(out, " %s=%llu", label[i], (unsigned long long)val[i]);
    }
    return 0;
}

/* ftrace's kernel_stack (options/stacktrace): "<stack trace >", then one "=> name (addr)"
 * line per long of the record from `caller` on (as many as the recorded depth: the record
 * ends there, whatever caller's declared length), up to a -1; no newline after the last. */
static int kernel_stack(const ft_event *e, const uint8_t *d, size_t n, tg_buf *out)
{
    const ft_field *f = ft_find_field(e, "caller");
    if (!f) {
        cant_find(out, "caller");
        return 0;
    }
    tg_buf_puts(out, "<stack trace >");
    int ls = e->file->long_size == 4 ? 4 : 8;
    for (size_t at = f->offset; at + (size_t)ls <= n; at += (size_t)ls) {
        uint64_t addr = ft_read_num(e->file, d + at, ls);
        if ((ls == 8 && addr == UINT64_MAX) || (uint32_t)addr == UINT32_MAX)
            break;
        const tg_symbol *fn = ft_find_func(e->file, addr);
        if (fn)
            tg_buf_printf(out, "\n=> %s (%llx)", fn->name, (unsigned long long)addr);
        else
            tg_buf_printf(out, "\n=> %llx", (unsigned long long)addr);
    }
    return 0;
}

int ft_plugin_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size,
                     tg_buf *out)
{
    switch (e->plugin) {
    case FT_PLUGIN_FUNCTION: return ft_function_render(e, ev->cpu, data, size, out);
    case FT_PLUGIN_FGRAPH_ENTRY: return ft_fgraph_entry_render(e, ev, data, size, out);
    case FT_PLUGIN_FGRAPH_EXIT: return ft_fgraph_exit_render(e, data, size, out);
    case FT_PLUGIN_SCHED_SWITCH: return sched_switch(e, data, size, out);
    case FT_PLUGIN_SCHED_WAKEUP: return sched_wakeup(e, data, size, out);
    case FT_PLUGIN_HRTIMER_EXPIRE: return hrtimer(e, data, size, false, out);
    case FT_PLUGIN_HRTIMER_START: return hrtimer(e, data, size, true, out);
    case FT_PLUGIN_KMEM_CALLSITE: return kmem_callsite(e, data, size, out);
    case FT_PLUGIN_TLB_FLUSH: return tlb_flush(e, data, size, out);
    case FT_PLUGIN_FUTEX: return futex(e, data, size, out);
    case FT_PLUGIN_KERNEL_STACK: return kernel_stack(e, data, size, out);
    default: return 1;
    }
}
