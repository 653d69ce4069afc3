/* uftrace_dump.c - `uftrace dump`: the records of a uftrace data directory as they lie in
 * its files, one line each, with the raw argument bytes decoded by their specs.
 *
 * It is the format's own rendering of its files (tg_trace_render part "uftrace-dump"), not
 * a view of the merged timeline: uftrace dump reads file after file - every task's TID.dat
 * in the order of info's task list, then the kernel's kernel-cpuN.dat, then the
 * perf-cpuN.dat files - and prints each record where it lies, so a time that goes back within
 * a thread's file is shown (the "inverted time" banner) rather than sorted away.  The
 * trace's own streams yield the records (each stream read from its start, then rewound for
 * whoever reads the trace next); this file only words them as uftrace 0.13 does. */
#include "formats/uftrace/uftrace_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* uftrace's names of the info header's feature and info bits, by bit number */
static const char *const feature_names[] = {
    "PLTHOOK",   "TASK_SESSION", "KERNEL",     "ARGUMENT",  "RETVAL",     "SYM_REL_ADDR",
    "MAX_STACK", "EVENT",        "PERF_EVENT", "AUTO_ARGS", "DEBUG_INFO",
};
static const char *const info_names[] = {
    "EXE_NAME", "EXE_BUILD_ID", "EXIT_STATUS", "CMDLINE",  "CPUINFO",     "MEMINFO",      "OSINFO",
    "TASKINFO", "USAGEINFO",    "LOADINFO",    "ARG_SPEC", "RECORD_DATE", "PATTERN_TYPE", "VERSION",
};
/* the letter uftrace prints for an argument format (its ARG_SPEC_CHARS), by enum uft_argfmt */
static const char argfmt_letter[] = {
    [UFT_ARG_AUTO] = 'd',  [UFT_ARG_SINT] = 'i', [UFT_ARG_UINT] = 'u',   [UFT_ARG_HEX] = 'x',
    [UFT_ARG_OCT] = 'o',   [UFT_ARG_STR] = 's',  [UFT_ARG_STDSTR] = 'S', [UFT_ARG_CHAR] = 'c',
    [UFT_ARG_FLOAT] = 'f', [UFT_ARG_PTR] = 'p',  [UFT_ARG_ENUM] = 'e',   [UFT_ARG_INTPTR] = 't',
};

static void put_bits(tg_buf *out, uint64_t mask, const char *const *names, size_t n)
{
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!(mask & (1ull << i)))
            continue;
        tg_buf_printf(out, "%s%s", first ? "" : " | ", names[i]);
        first = false;
    }
}

static void put_header(const struct uft_data *d, tg_buf *out)
{
    tg_buf_puts(out, "uftrace file header: magic         = 4674726163652100\n");
    tg_buf_printf(out, "uftrace file header: version       = %u\n", d->version);
    tg_buf_printf(out, "uftrace file header: header size   = %u\n", d->header_size);
    tg_buf_printf(out, "uftrace file header: endian        = %u (%s)\n", d->endian,
                  d->endian == 1 ? "little" : "big");
    tg_buf_printf(out, "uftrace file header: class         = %u (%s bit)\n", d->elf_class,
                  d->elf_class == 2 ? "64" : "32");
    tg_buf_printf(out, "uftrace file header: features      = %#" PRIx64 " (", d->feat_mask);
    put_bits(out, d->feat_mask, feature_names, sizeof feature_names / sizeof *feature_names);
    tg_buf_printf(out, ")\nuftrace file header: info          = %#" PRIx64 " (", d->info_mask);
    put_bits(out, d->info_mask, info_names, sizeof info_names / sizeof *info_names);
    tg_buf_puts(out, ")\n\n");
}

/* The value of size bytes at p, as uftrace copies it into a long long (the file's order). */
static uint64_t raw_value(const struct uft_data *d, const uint8_t *p, size_t size)
{
    uint64_t v = 0;
    size_t n = size < 8 ? size : 8;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[d->big_endian ? n - 1 - i : i] << (8 * i);
    return v;
}

/* One argument or return value: its line and the bytes it takes (before alignment). */
static size_t put_arg(struct uft_data *d, tg_trace *t, const tg_event *ev, const struct uft_arg *a,
                      const uint8_t *p, size_t avail, const char *label, tg_buf *out)
{
    if (a->fmt == UFT_ARG_STR || a->fmt == UFT_ARG_STDSTR) {
        size_t len = avail >= 2 ? (size_t)raw_value(d, p, 2) : 0;
        if (len + 2 > avail)
            len = avail >= 2 ? avail - 2 : 0;
        const uint8_t *s = p + 2;
        size_t shown = strnlen((const char *)s, len);
        tg_buf_printf(out, "  %s %s: ", label, a->fmt == UFT_ARG_STDSTR ? "std::string" : "str");
        if (len >= 4 && !memcmp(s, "\xff\xff\xff\xff", 4))
            tg_buf_puts(out, "NULL");
        else
            tg_buf_put(out, s, shown);
        tg_buf_putc(out, '\n');
        return len + 2;
    }
    size_t size = a->size <= avail ? a->size : avail;
    uint64_t v = raw_value(d, p, size);
    if (a->fmt == UFT_ARG_PTR) {
        const tg_symbol *sym = v ? uft_resolve(d, t, ev->tid, ev->ts, v, NULL) : NULL;
        if (sym && a->idx != 0)
            tg_buf_printf(out, "  %s p: %" PRIx64 " (&%s)\n", label, v, sym->name);
        else if (sym)
            tg_buf_printf(out, "  %s p: &%s\n", label, sym->name);
        else if (a->idx == 0) /* the return value goes through %p, the arguments %#lx */
            tg_buf_printf(out, v ? "  %s p: %#" PRIx64 "\n" : "  %s p: (nil)\n", label, v);
        else
            tg_buf_printf(out, "  %s p: %#" PRIx64 "\n", label, v);
    } else if (a->fmt == UFT_ARG_ENUM && a->idx != 0) {
        char buf[512];
        int64_t sv = size >= 8 ? (int64_t)v : size == 4 ? (int32_t)(uint32_t)v : (int64_t)v;
        tg_buf_printf(out, "  %s enum %s: %s (%lld)\n", label, a->enum_name ? a->enum_name : "",
                      uft_enum_text(d, a->enum_name, sv, buf, sizeof buf), (long long)v);
    } else {
        char letter = a->letter                       ? a->letter
                      : a->fmt < sizeof argfmt_letter ? argfmt_letter[a->fmt]
                                                      : 'd';
        tg_buf_printf(out, "  %s %c%u: 0x%0*" PRIx64 "\n", label, letter, a->size * 8u,
                      (int)a->size * 2, v);
    }
    return a->size;
}

/* The arguments (or the return value) of an entry (exit) record, after its "length" line. */
static void put_args(struct uft_data *d, tg_trace *t, const tg_event *ev, bool is_ret, tg_buf *out)
{
    const struct uft_argspec *spec = ev->auxp;
    size_t n = uft_args_count(spec, is_ret), pos = 0, len = 0;
    for (size_t i = 0; i < n; i++) { /* uftrace's length: the values, each 4-aligned */
        const struct uft_arg *a = is_ret ? &spec->ret : &spec->args[i];
        size_t sz = a->size;
        if ((a->fmt == UFT_ARG_STR || a->fmt == UFT_ARG_STDSTR) && len + 2 <= ev->size)
            sz = 2 + (size_t)raw_value(d, ev->data + len, 2);
        len += (sz + 3) / 4 * 4;
    }
    tg_buf_printf(out, "%" PRIu64 ".%09" PRIu64 "  %5d: [%s] length = %zu\n",
                  (uint64_t)ev->ts / 1000000000u, (uint64_t)ev->ts % 1000000000u, ev->tid,
                  is_ret ? "retval" : "args ", len);
    for (size_t i = 0; i < n; i++) {
        const struct uft_arg *a = is_ret ? &spec->ret : &spec->args[i];
        char label[32];
        if (is_ret)
            snprintf(label, sizeof label, "retval");
        else
            snprintf(label, sizeof label, "args[%zu]", i);
        size_t avail = pos < ev->size ? ev->size - pos : 0;
        size_t used = put_arg(d, t, ev, a, ev->data + pos, avail, label, out);
        pos += (used + 3) / 4 * 4;
    }
}

static void put_time(tg_buf *out, int64_t ts)
{
    tg_buf_printf(out, "%" PRIu64 ".%09" PRIu64 "  ", (uint64_t)ts / 1000000000u,
                  (uint64_t)ts % 1000000000u);
}

static bool is_func(const tg_event *ev)
{
    return ev->cls->kind == TG_KIND_FUNC_ENTRY || ev->cls->kind == TG_KIND_FUNC_EXIT;
}

static const char *record_type(const tg_event *ev)
{
    switch (ev->cls->kind) {
    case TG_KIND_FUNC_ENTRY: return "entry";
    case TG_KIND_FUNC_EXIT: return "exit ";
    case TG_KIND_LOST: return "lost ";
    default: return "event";
    }
}

/* An event record of a TID.dat: its name (a built-in read:*, an SDT event), and its data. */
static void put_task_event(struct uft_data *d, const tg_event *ev, tg_buf *out)
{
    const struct uft_user_event *ue = ev->auxp;
    put_time(out, ev->ts);
    if (ue)
        tg_buf_printf(out, "%5d: [event] %s(%" PRIx64 ") depth: %d\n", ev->tid, ue->name, ev->addr,
                      ev->depth);
    else if (uft_builtin_class(d, ev->addr))
        tg_buf_printf(out, "%5d: [event] %s(%" PRIx64 ") depth: %d\n", ev->tid,
                      uft_builtin_class(d, ev->addr)->name, ev->addr, ev->depth);
    else
        tg_buf_printf(out, "%5d: [event] user_event:%" PRIu64 "(%" PRIx64 ") depth: %d\n", ev->tid,
                      ev->addr, ev->addr, ev->depth);
    if (!ev->data)
        return;
    size_t len = (size_t)raw_value(d, ev->data, 2);
    put_time(out, ev->ts);
    tg_buf_printf(out, "%5d: [data ] length = %zu\n", ev->tid, len);
    uft_builtin_dump(d, ev, out);
}

/* A function record (user or kernel): "TIME  TID: [entry] NAME(ADDR) depth: D". */
static void put_func(const tg_stream *st, tg_event *ev, tg_buf *out)
{
    const char *name = NULL;
    if (is_func(ev) && st->ops->func_name)
        name = st->ops->func_name(ev);
    if (!name && is_func(ev) && st->trace)
        name = tg_trace_symbol(st->trace, ev->addr);
    put_time(out, ev->ts);
    uint64_t addr = is_func(ev) ? ev->addr & 0xffffffffffffull : ev->lost;
    if (name)
        tg_buf_printf(out, "%5d: [%s] %s(%" PRIx64 ") depth: %d\n", ev->tid, record_type(ev), name,
                      addr, ev->depth);
    else
        tg_buf_printf(out, "%5d: [%s] <%" PRIx64 ">(%" PRIx64 ") depth: %d\n", ev->tid,
                      record_type(ev), addr, addr, ev->depth);
}

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* Reads stream st from its start, printing each record; rewinds it after. */
static int dump_stream(tg_trace *t, tg_stream *st, int kind, tg_buf *out, tg_error **err)
{
    struct uft_data *d = t->priv;
    if (st->ops->rewind) {
        int rc = st->ops->rewind(st, err);
        if (rc < 0)
            return rc;
    }
    int64_t prev = 0;
    bool started = false;
    tg_event ev;
    int rc;
    for (;;) {
        memset(&ev, 0, sizeof ev);
        ev.stream = st;
        ev.tid = st->tid;
        rc = st->ops->next(st, &ev, err);
        if (rc <= 0)
            break;
        if (kind == 2) { /* perf-cpuN.dat: opened by its first record */
            if (!started)
                tg_buf_printf(out, "%sreading %s\n", st->cpu == 0 ? "\n" : "", st->name);
            started = true;
            put_time(out, ev.ts);
            tg_buf_printf(out, "%5d: [event] %s(%" PRIu64 ")\n", ev.tid, ev.cls->name, ev.addr);
            continue;
        }
        if (kind == 0 && prev > ev.ts)
            tg_buf_puts(out, "\n*************************************\n"
                             "* inverted time - data seems broken *\n"
                             "*************************************\n\n");
        prev = ev.ts;
        if (kind == 1 && ev.cls->kind == TG_KIND_LOST) { /* missed kernel events */
            put_time(out, ev.ts);
            tg_buf_printf(out, "%5d: [lost ]: %" PRIu64 " events\n", ev.tid, ev.lost);
        } else if (is_func(&ev) || ev.cls->kind == TG_KIND_LOST) {
            put_func(st, &ev, out);
            if (kind == 0 && ev.auxp && ev.data && is_func(&ev))
                put_args(d, t, &ev, ev.cls->kind == TG_KIND_FUNC_EXIT, out);
        } else if (kind == 0) {
            put_task_event(d, &ev, out);
        }
    }
    st->was_read = true;
    if (st->ops->rewind) {
        tg_error *e2 = NULL;
        if (st->ops->rewind(st, &e2) < 0)
            tg_error_free(e2);
    }
    return rc;
}

int uft_dump(const tg_trace *ct, tg_buf *out, tg_error **err)
{
    /* the streams and the symbol caches change as they are read: the trace is the caller's
     * own (render parts are asked of an open trace, which a dump reads once) */
    tg_trace *t = (tg_trace *)ct;
    struct uft_data *d = t->priv;
    put_header(d, out);
    for (size_t i = 0; i < d->n_tasks; i++) {
        int tid = d->tasks[i].tid;
        tg_buf_printf(out, "reading %d.dat\n", tid);
        for (size_t s = 0; s < t->n_streams; s++) {
            tg_stream *st = t->streams[s];
            if (st->tid == tid && st->cpu < 0 && !has_prefix(st->name, "extern")) {
                int rc = dump_stream(t, st, 0, out, err);
                if (rc < 0)
                    return rc;
            }
        }
    }
    d->dump_every_task = true;
    bool kernel_started = false;
    for (size_t s = 0; s < t->n_streams; s++) {
        tg_stream *st = t->streams[s];
        if (!has_prefix(st->name, "kernel-cpu"))
            continue;
        tg_buf_printf(out, "%sreading %s\n", kernel_started ? "" : "\n", st->name);
        kernel_started = true;
        int rc = dump_stream(t, st, 1, out, err);
        if (rc < 0) {
            d->dump_every_task = false;
            return rc;
        }
    }
    d->dump_every_task = false;
    for (size_t s = 0; s < t->n_streams; s++) {
        tg_stream *st = t->streams[s];
        if (!has_prefix(st->name, "perf-cpu"))
            continue;
        int rc = dump_stream(t, st, 2, out, err);
        if (rc < 0)
            return rc;
    }
    return 1;
}
