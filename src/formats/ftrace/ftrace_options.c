/* ftrace_options.c - the options of a trace.dat file (file versions 6 and 7).
 *
 * An option is (u16 id, u32 size, data).  Version 6 has one list of them after the cpu
 * count; version 7 chains options sections, and its options 16..21 point at the metadata
 * sections (collected in v7_refs for ftrace_file.c).  The options fill the ft_file: trace
 * instances (BUFFER, BUFFER_TEXT) with their per-cpu data, the clock, uname, version,
 * timestamp offset and TSC conversion, trace id, cpu stats; every option seen is noted for
 * describe().  Sizes are checked against the option's own size before anything is read. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *opt_str(ft_file *f, const uint8_t *p, uint32_t n)
{
    size_t len = strnlen((const char *)p, n);
    return tg_arena_strndup(&f->trace->arena, (const char *)p, len);
}

/* The v7 STRINGS option's text appended to f->strings (NUL-ended). */
int ft_append_strings(ft_file *f, const uint8_t *p, size_t n)
{
    if (tg_grow(&f->strings, &f->strings_cap, f->strings_len + n + 1, 1) != 0)
        return TG_ERR_NOMEM;
    memcpy(f->strings + f->strings_len, p, n);
    f->strings_len += n;
    f->strings[f->strings_len] = 0;
    return 0;
}

ft_buffer *ft_add_buffer(ft_file *f)
{
    if (tg_grow(&f->buffers, &f->cap_buffers, f->n_buffers + 1, sizeof *f->buffers) != 0)
        return NULL;
    ft_buffer *b = &f->buffers[f->n_buffers++];
    memset(b, 0, sizeof *b);
    return b;
}

static int note_option(ft_file *f, const char *name)
{
    const char *old = f->options_seen;
    size_t ol = old ? strlen(old) : 0, nl = strlen(name);
    char *s = tg_arena_alloc(&f->trace->arena, ol + nl + 3);
    if (!s)
        return -1;
    if (old) {
        memcpy(s, old, ol);
        memcpy(s + ol, ", ", 2);
        ol += 2;
    }
    memcpy(s + ol, name, nl + 1);
    f->options_seen = s;
    return 0;
}

static const char *const option_names[] = {
    "DONE",          "DATE",     "CPUSTAT",  "BUFFER",   "TRACECLOCK",  "UNAME",
    "HOOK",          "OFFSET",   "CPUCOUNT", "VERSION",  "PROCMAPS",    "TRACEID",
    "TIME_SHIFT",    "GUEST",    "TSC2NSEC", "STRINGS",  "HEADER_INFO", "FTRACE_EVENTS",
    "EVENT_FORMATS", "KALLSYMS", "PRINTK",   "CMDLINES", "BUFFER_TEXT",
};

static int parse_buffer_option(ft_file *f, const uint8_t *p, uint32_t n, uint64_t at, bool text,
                               tg_error **err)
{
    tg_reader r;
    tg_reader_init(&r, p, n, at, f->big_endian);
    uint64_t off;
    const char *name, *clock = "";
    size_t nl, cl = 0;
    if (!tg_read_u64(&r, &off) || !tg_read_cstr(&r, &name, &nl))
        return ft_fail(f, err, at, "truncated BUFFER option");
    ft_buffer *b = ft_add_buffer(f);
    if (!b)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    b->name = tg_arena_strndup(&f->trace->arena, name, nl);
    b->section_offset = off;
    b->page_size = f->page_size;
    b->latency = text;
    if (f->version < 7) {
        /* v6: the instance's per-cpu table sits at off ("flyrecord\0" first). */
        b->clock = "";
        tg_reader d;
        if (off > f->map.size)
            return ft_fail(f, err, at, "BUFFER offset past the end of the file");
        tg_reader_init(&d, f->map.data + off, f->map.size - off, off, f->big_endian);
        const uint8_t *tag;
        if (tg_reader_has(&d, 10) && memcmp(d.base, "flyrecord", 10) == 0)
            tg_read_bytes(&d, &tag, 10);
        if (f->cpus <= 0 || (uint64_t)f->cpus * 16 > tg_reader_left(&d))
            return ft_fail(f, err, off, "BUFFER cpu table runs past the end");
        b->cpus = tg_arena_alloc(&f->trace->arena, (size_t)f->cpus * sizeof *b->cpus);
        if (!b->cpus)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        for (int c = 0; c < f->cpus; c++) {
            tg_read_u64(&d, &b->cpus[c].offset);
            tg_read_u64(&d, &b->cpus[c].size);
            b->cpus[c].cpu = c;
            ft_clamp_cpu(f, &b->cpus[c]);
        }
        b->n_cpus = (size_t)f->cpus;
        return 0;
    }
    if (!tg_read_cstr(&r, &clock, &cl))
        return ft_fail(f, err, at, "truncated BUFFER option (clock)");
    b->clock = tg_arena_strndup(&f->trace->arena, clock, cl);
    if (text)
        return 0;
    uint32_t psize, ncpu;
    if (!tg_read_u32(&r, &psize) || !tg_read_u32(&r, &ncpu))
        return ft_fail(f, err, at, "truncated BUFFER option (page size, cpus)");
    if (psize < 64 || psize > (1u << 24))
        return ft_fail(f, err, at, "BUFFER page size out of range");
    if ((uint64_t)ncpu * 20 > tg_reader_left(&r))
        return ft_fail(f, err, at, "BUFFER cpu count runs past the option");
    b->page_size = psize;
    b->cpus = tg_arena_alloc(&f->trace->arena, (ncpu ? ncpu : 1) * sizeof *b->cpus);
    if (!b->cpus)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (uint32_t c = 0; c < ncpu; c++) {
        uint32_t id = 0;
        tg_read_u32(&r, &id);
        tg_read_u64(&r, &b->cpus[c].offset);
        tg_read_u64(&r, &b->cpus[c].size);
        if (id > 65535)
            return ft_fail(f, err, at, "BUFFER cpu id out of range");
        b->cpus[c].cpu = (int)id;
        b->cpus[c].usize = b->cpus[c].size;
    }
    b->n_cpus = ncpu;
    return 0;
}

int ft_parse_option(ft_file *f, uint16_t id, const uint8_t *p, uint32_t n, uint64_t at,
                    v7_refs *refs, tg_error **err)
{
    if (id <= OPT_MAX_KNOWN && id != OPT_DONE && note_option(f, option_names[id]) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_reader r;
    tg_reader_init(&r, p, n, at, f->big_endian);
    switch (id) {
    case OPT_DATE:
        f->date = opt_str(f, p, n);
        /* "0x<hex>" or decimal: an offset in ns added to timestamps; trace-cmd applies it
         * only when asked (--date), so it is kept for describe(). */
        break;
    case OPT_CPUSTAT: {
        const char **ns = tg_arena_alloc(&f->trace->arena, (f->n_cpustat + 1) * sizeof *ns);
        if (!ns)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        if (f->n_cpustat)
            memcpy(ns, f->cpustat, f->n_cpustat * sizeof *ns);
        ns[f->n_cpustat++] = opt_str(f, p, n);
        f->cpustat = ns;
        break;
    }
    case OPT_BUFFER: return parse_buffer_option(f, p, n, at, false, err);
    case OPT_BUFFER_TEXT: return parse_buffer_option(f, p, n, at, true, err);
    case OPT_TRACECLOCK: f->trace_clock = opt_str(f, p, n); break;
    case OPT_UNAME: f->uname = opt_str(f, p, n); break;
    case OPT_VERSION: f->tc_version = opt_str(f, p, n); break;
    case OPT_OFFSET: {
        f->offset_str = opt_str(f, p, n);
        long long v = 0;
        if (f->offset_str && sscanf(f->offset_str, "%lld", &v) == 1)
            f->ts_offset = v;
        break;
    }
    case OPT_CPUCOUNT: {
        uint32_t c;
        if (!tg_read_u32(&r, &c) || c > 65536)
            return ft_fail(f, err, at, "bad CPUCOUNT option");
        f->cpus = (int)c;
        break;
    }
    case OPT_TRACEID:
        if (!tg_read_u64(&r, &f->traceid))
            return ft_fail(f, err, at, "truncated TRACEID option");
        f->have_traceid = true;
        break;
    case OPT_TSC2NSEC:
        if (!tg_read_u32(&r, &f->tsc_mult) || !tg_read_u32(&r, &f->tsc_shift) ||
            !tg_read_u64(&r, &f->tsc_offset))
            return ft_fail(f, err, at, "truncated TSC2NSEC option");
        if (f->tsc_shift > 63)
            return ft_fail(f, err, at, "TSC2NSEC shift out of range");
        f->have_tsc2nsec = true;
        break;
    case OPT_STRINGS:
        if (ft_append_strings(f, p, n) != 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        break;
    case OPT_HEADER_INFO:
    case OPT_FTRACE_EVENTS:
    case OPT_EVENT_FORMATS:
    case OPT_KALLSYMS:
    case OPT_PRINTK:
    case OPT_CMDLINES:
        if (!refs)
            break; /* v6 does not have them */
        if (!tg_read_u64(&r, &refs->off[id]))
            return ft_fail(f, err, at, "truncated section reference option");
        if (refs->off[id] >= f->map.size)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, at,
                             "option %s: section offset 0x%llx past the end of the file (0x%zx)",
                             option_names[id], (unsigned long long)refs->off[id], f->map.size);
        break;
    case OPT_HOOK:
    case OPT_PROCMAPS:
    case OPT_TIME_SHIFT:
    case OPT_GUEST:
        break; /* kept by trace-cmd for multi-trace sessions; nothing to show for one file */
    default:
        return tg_err_at(err, TG_ERR_FORMAT, f->path, at > 6 ? at - 6 : at,
                         "unknown option id %u (size %u)", id, n);
    }
    return 0;
}

/* v6: u16 id (0 ends), u32 size, data ... */
int ft_read_options_v6(ft_file *f, tg_reader *r, tg_error **err)
{
    for (;;) {
        uint16_t id;
        uint32_t n;
        const uint8_t *p;
        uint64_t at = tg_reader_offset(r);
        if (!tg_read_u16(r, &id))
            return ft_fail(f, err, at, "truncated options");
        if (id == OPT_DONE)
            return 0;
        if (!tg_read_u32(r, &n) || !tg_read_bytes(r, &p, n))
            return ft_fail(f, err, at, "option size runs past the end");
        TG_TRY(ft_parse_option(f, id, p, n, at + 6, NULL, err));
    }
}
