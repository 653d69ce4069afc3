/* ftrace_file.c - opening a trace-cmd trace.dat file (file versions 6 and 7).
 *
 * The file is mapped, never copied.  Version 6 is a fixed sequence (header page, header
 * event, ftrace formats, event formats, kallsyms, printk formats, cmdlines, cpu count,
 * options, flyrecord); version 7 is a chain of options sections whose options point at the
 * other sections, each of which may be compressed.  Both feed the same parsers, so the
 * metadata code reads like the format's documentation (../shared/specs/trace-cmd-dat-v7.txt).
 * Every size and count is checked against the mapped size before it is used. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_MAX_SECTION (1ull << 31) /* a decompressed metadata section larger is refused */

int ft_fail(ft_file *f, tg_error **err, uint64_t off, const char *what)
{
    return tg_err_at(err, TG_ERR_FORMAT, f->path, off, "%s", what);
}

/* A metadata blob: either a slice of the map or a decompressed heap copy (owned). */
typedef struct blob {
    const uint8_t *p;
    size_t n;
    uint64_t off; /* file offset of the blob (of its compressed bytes when compressed) */
    uint8_t *owned;
} blob;

static void blob_free(blob *b)
{
    free(b->owned);
    b->owned = NULL;
}

/* ---- metadata pieces shared by both versions ------------------------------------------- */

static int read_header_info(ft_file *f, tg_reader *r, tg_error **err)
{
    const uint8_t *p;
    uint64_t sz;
    if (!tg_read_bytes(r, &p, 12) || memcmp(p, "header_page", 12) != 0)
        return ft_fail(f, err, tg_reader_offset(r), "expected \"header_page\"");
    if (!tg_read_sized64(r, &p, &sz))
        return ft_fail(f, err, tg_reader_offset(r), "header_page size runs past the end");
    if (ft_parse_header_page(f, (const char *)p, sz) < 0)
        return ft_fail(f, err, tg_reader_offset(r) - sz, "header_page lacks timestamp/commit/data");
    if (!tg_read_bytes(r, &p, 13) || memcmp(p, "header_event", 13) != 0)
        return ft_fail(f, err, tg_reader_offset(r), "expected \"header_event\"");
    if (!tg_read_sized64(r, &p, &sz))
        return ft_fail(f, err, tg_reader_offset(r), "header_event size runs past the end");
    return 0;
}

static int read_ftrace_formats(ft_file *f, tg_reader *r, tg_error **err)
{
    uint32_t n;
    if (!tg_read_u32(r, &n))
        return ft_fail(f, err, tg_reader_offset(r), "truncated ftrace format count");
    for (uint32_t i = 0; i < n; i++) {
        uint64_t sz;
        const uint8_t *p;
        uint64_t at = tg_reader_offset(r);
        if (!tg_read_sized64(r, &p, &sz))
            return ft_fail(f, err, at, "ftrace event format size runs past the end");
        TG_TRY(ft_parse_format(f, "ftrace", (const char *)p, sz, at + 8, err));
    }
    return 0;
}

static int read_event_formats(ft_file *f, tg_reader *r, tg_error **err)
{
    uint32_t nsys;
    if (!tg_read_u32(r, &nsys))
        return ft_fail(f, err, tg_reader_offset(r), "truncated event system count");
    for (uint32_t s = 0; s < nsys; s++) {
        const char *sys;
        size_t slen;
        uint32_t n;
        if (!tg_read_cstr(r, &sys, &slen) || !tg_read_u32(r, &n))
            return ft_fail(f, err, tg_reader_offset(r), "truncated event system header");
        const char *sysname = tg_arena_strndup(&f->trace->arena, sys, slen);
        if (!sysname)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        for (uint32_t i = 0; i < n; i++) {
            uint64_t sz;
            const uint8_t *p;
            uint64_t at = tg_reader_offset(r);
            if (!tg_read_sized64(r, &p, &sz))
                return ft_fail(f, err, at, "event format size runs past the end");
            TG_TRY(ft_parse_format(f, sysname, (const char *)p, sz, at + 8, err));
        }
    }
    return 0;
}

static int read_sized32(ft_file *f, tg_reader *r, const uint8_t **p, uint32_t *n, const char *what,
                        tg_error **err)
{
    uint64_t at = tg_reader_offset(r);
    if (!tg_read_u32(r, n) || !tg_read_bytes(r, p, *n))
        return tg_err_at(err, TG_ERR_FORMAT, f->path, at, "%s size runs past the end", what);
    return 0;
}

static int read_kallsyms(ft_file *f, tg_reader *r, tg_error **err)
{
    const uint8_t *p = NULL;
    uint32_t n = 0;
    TG_TRY(read_sized32(f, r, &p, &n, "kallsyms", err));
    if (ft_parse_kallsyms(f, (const char *)p, n) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int read_section(ft_file *f, uint64_t off, uint16_t want, blob *out, tg_error **err);

/* v7 kallsyms: the decompressed section is a private copy already, so the symbols are cut
 * out of it in place and the file keeps it (no second copy of several MB). */
static int read_v7_kallsyms(ft_file *f, uint64_t off, tg_error **err)
{
    if (!off)
        return 0;
    blob b;
    TG_TRY(read_section(f, off, 19, &b, err));
    tg_reader r;
    tg_reader_init(&r, b.p, b.n, b.off, f->big_endian);
    const uint8_t *p = NULL;
    uint32_t n = 0;
    int rc = read_sized32(f, &r, &p, &n, "kallsyms", err);
    if (rc == 0) {
        if (b.owned) {
            rc = ft_parse_kallsyms_in_place(f, (char *)(uintptr_t)p, n);
            if (rc == 0) {
                free(f->kallsyms_text);
                f->kallsyms_text = b.owned;
                b.owned = NULL;
            }
        } else {
            rc = ft_parse_kallsyms(f, (const char *)p, n);
        }
        if (rc < 0)
            rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    blob_free(&b);
    return rc;
}

static int read_printk(ft_file *f, tg_reader *r, tg_error **err)
{
    const uint8_t *p = NULL;
    uint32_t n = 0;
    TG_TRY(read_sized32(f, r, &p, &n, "printk formats", err));
    if (ft_parse_printk(f, (const char *)p, n) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int read_cmdlines(ft_file *f, tg_reader *r, tg_error **err)
{
    uint64_t n;
    const uint8_t *p;
    uint64_t at = tg_reader_offset(r);
    if (!tg_read_u64(r, &n) || !tg_reader_has(r, n))
        return ft_fail(f, err, at, "cmdlines size runs past the end");
    tg_read_bytes(r, &p, n);
    if (ft_parse_cmdlines(f, (const char *)p, n) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

/* ---- v7 sections ------------------------------------------------------------------------- */

static int add_section(ft_file *f, uint16_t id, uint16_t flags, uint32_t desc, uint64_t off,
                       uint64_t size)
{
    if (tg_grow(&f->sections, &f->cap_sections, f->n_sections + 1, sizeof *f->sections) != 0)
        return -1;
    ft_section *ns = f->sections;
    ns[f->n_sections].id = id;
    ns[f->n_sections].flags = flags;
    ns[f->n_sections].offset = off;
    ns[f->n_sections].size = size;
    ns[f->n_sections].desc = (const char *)(uintptr_t)desc; /* resolved in describe */
    f->n_sections++;
    return 0;
}

/* Reads the section header at off (expecting id) and returns its contents. */
static int read_section(ft_file *f, uint64_t off, uint16_t want, blob *out, tg_error **err)
{
    memset(out, 0, sizeof *out);
    if (off > f->map.size || f->map.size - off < 16)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                         "section %u header past the end of the file (0x%zx)", want, f->map.size);
    tg_reader r;
    tg_reader_init(&r, f->map.data + off, f->map.size - off, off, f->big_endian);
    uint16_t id, flags;
    uint32_t desc;
    uint64_t size;
    tg_read_u16(&r, &id);
    tg_read_u16(&r, &flags);
    tg_read_u32(&r, &desc);
    tg_read_u64(&r, &size);
    if (id != want)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, off, "expected section id %u, found %u", want,
                         id);
    if (!tg_reader_has(&r, size))
        return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                         "section %u size %llu runs past the end of the file", id,
                         (unsigned long long)size);
    if (add_section(f, id, flags, desc, off, size) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    out->off = off + 16;
    if (!(flags & 1)) {
        out->p = r.base + r.pos;
        out->n = size;
        return 0;
    }
    uint32_t csize, usize;
    if (!tg_read_u32(&r, &csize) || !tg_read_u32(&r, &usize) || csize > size - 8)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, off + 16,
                         "compressed section %u: bad compression header", id);
    if (usize > FT_MAX_SECTION)
        return tg_err_at(err, TG_ERR_LIMIT, f->path, off + 16,
                         "compressed section %u: %u bytes uncompressed exceeds the limit", id,
                         usize);
    size_t cap = 0;
    int rc =
        ft_decompress_into(f->comp_kind, NULL, r.base + r.pos, csize, &out->owned, &cap, usize);
    if (rc == TG_ERR_NOMEM) {
        blob_free(out);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    if (rc < 0) {
        blob_free(out);
        return tg_err_at(err, TG_ERR_FORMAT, f->path, off + 24,
                         "compressed section %u does not decompress (%s, %u -> %u bytes)", id,
                         f->compression, csize, usize);
    }
    out->p = out->owned;
    out->n = usize;
    return 0;
}

static int read_options_v7(ft_file *f, uint64_t off, v7_refs *refs, tg_error **err)
{
    for (int guard = 0; off && guard < 4096; guard++) {
        blob b;
        TG_TRY(read_section(f, off, 0, &b, err));
        tg_reader r;
        tg_reader_init(&r, b.p, b.n, b.off, f->big_endian);
        uint64_t next = 0;
        bool done = false;
        int rc = 0;
        while (!done && rc == 0) {
            uint16_t id;
            uint32_t n;
            const uint8_t *p;
            uint64_t at = tg_reader_offset(&r);
            if (!tg_read_u16(&r, &id) || !tg_read_u32(&r, &n) || !tg_read_bytes(&r, &p, n)) {
                rc = ft_fail(f, err, at, "option runs past the end of its section");
                break;
            }
            if (id == OPT_DONE) {
                tg_reader d;
                tg_reader_init(&d, p, n, at + 6, f->big_endian);
                if (!tg_read_u64(&d, &next))
                    rc = ft_fail(f, err, at, "truncated DONE option");
                done = true;
            } else {
                rc = ft_parse_option(f, id, p, n, at + 6, refs, err);
            }
        }
        blob_free(&b);
        TG_TRY(rc);
        if (!done)
            return ft_fail(f, err, off, "options section without DONE");
        if (next && next >= f->map.size)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                             "next options section offset 0x%llx past the end of the file "
                             "(0x%zx)",
                             (unsigned long long)next, f->map.size);
        off = next;
    }
    return 0;
}

typedef int (*section_reader)(ft_file *f, tg_reader *r, tg_error **err);

static int read_v7_section(ft_file *f, uint64_t off, uint16_t id, section_reader fn, tg_error **err)
{
    if (!off)
        return 0;
    blob b;
    TG_TRY(read_section(f, off, id, &b, err));
    tg_reader r;
    tg_reader_init(&r, b.p, b.n, b.off, f->big_endian);
    int rc = fn(f, &r, err);
    blob_free(&b);
    return rc;
}

/* CPU data that runs past the end of the file is cut there; the stream delivers the pages
 * before the cut and then reports the truncation with its offset. */
void ft_clamp_cpu(ft_file *f, ft_cpu_data *cd)
{
    if (cd->offset > f->map.size) {
        cd->truncated = cd->size != 0;
        cd->offset = f->map.size;
        cd->size = 0;
    } else if (cd->size > f->map.size - cd->offset) {
        cd->truncated = true;
        cd->size = f->map.size - cd->offset;
    }
    cd->usize = cd->size;
}

/* Compressed flyrecord data: per cpu, u32 chunk count then (u32 csize, u32 usize, data).
 * A chunk that runs past the data ends the readable part: the stream reports it there. */
static int scan_chunks(ft_file *f, ft_cpu_data *cd, tg_error **err)
{
    if (cd->size)
        cd->size += 4; /* the size trace-cmd records leaves out the chunk count */
    ft_clamp_cpu(f, cd);
    if (!cd->size) {
        cd->usize = 0;
        return 0;
    }
    tg_reader r;
    tg_reader_init(&r, f->map.data + cd->offset, cd->size, cd->offset, f->big_endian);
    uint32_t count;
    if (!tg_read_u32(&r, &count)) {
        cd->truncated = true;
        cd->usize = 0;
        return 0;
    }
    uint64_t total = 0;
    uint32_t i;
    for (i = 0; i < count; i++) {
        uint32_t cs, us;
        if (!tg_read_u32(&r, &cs) || !tg_read_u32(&r, &us) || !tg_reader_skip(&r, cs)) {
            cd->truncated = true;
            break;
        }
        total += us;
    }
    cd->n_chunks = i;
    cd->usize = total;
    (void)err;
    return 0;
}

/* The section descriptions are ids into STRINGS sections, which nothing points to: like
 * trace-cmd, walk the sections one after the other from the first and collect them.  Only
 * names for describe(); a walk that runs into anything odd just stops. */
static void scan_strings(ft_file *f, uint64_t off)
{
    for (int guard = 0; guard < 4096 && off <= f->map.size && f->map.size - off >= 16; guard++) {
        tg_reader r;
        tg_reader_init(&r, f->map.data + off, f->map.size - off, off, f->big_endian);
        uint16_t id, flags;
        uint32_t desc;
        uint64_t size;
        tg_read_u16(&r, &id);
        tg_read_u16(&r, &flags);
        tg_read_u32(&r, &desc);
        tg_read_u64(&r, &size);
        if (!tg_reader_has(&r, size))
            return;
        if (id == OPT_STRINGS) {
            const uint8_t *p = r.base + r.pos;
            size_t n = (size_t)size;
            uint8_t *owned = NULL;
            if (flags & 1) {
                uint32_t cs, us;
                if (size < 8 || !tg_read_u32(&r, &cs) || !tg_read_u32(&r, &us) || cs > size - 8 ||
                    us > (1u << 26))
                    return;
                size_t cap = 0;
                if (ft_decompress_into(f->comp_kind, NULL, r.base + r.pos, cs, &owned, &cap, us) <
                    0) {
                    free(owned);
                    return;
                }
                p = owned;
                n = us;
            }
            ft_append_strings(f, p, n); /* best effort: names fall back to numbers */
            free(owned);
        }
        off += 16 + size;
    }
}

static int read_v7(ft_file *f, tg_reader *r, tg_error **err)
{
    const char *name, *ver;
    size_t nl, vl;
    uint64_t first;
    if (!tg_read_cstr(r, &name, &nl) || !tg_read_cstr(r, &ver, &vl) || !tg_read_u64(r, &first))
        return ft_fail(f, err, tg_reader_offset(r), "truncated compression header");
    snprintf(f->compression, sizeof f->compression, "%.*s", (int)nl, name);
    snprintf(f->compression_version, sizeof f->compression_version, "%.*s", (int)vl, ver);
    if (strcmp(f->compression, "none") == 0)
        f->comp_kind = 0;
    else if (strcmp(f->compression, "zstd") == 0)
        f->comp_kind = 1;
    else if (strcmp(f->compression, "zlib") == 0)
        f->comp_kind = 2;
    else
        return tg_err_at(err, TG_ERR_UNSUPPORTED, f->path, tg_reader_offset(r) - 8 - vl - 1,
                         "unknown compression \"%s\"", f->compression);
    if (first >= f->map.size)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, tg_reader_offset(r) - 8,
                         "first options section offset 0x%llx past the end of the file (0x%zx)",
                         (unsigned long long)first, f->map.size);
    scan_strings(f, tg_reader_offset(r));
    v7_refs refs;
    memset(&refs, 0, sizeof refs);
    TG_TRY(read_options_v7(f, first, &refs, err));
    if (!refs.off[OPT_HEADER_INFO])
        return tg_err_at(err, TG_ERR_FORMAT, f->path, first, "no HEADER_INFO option");
    TG_TRY(read_v7_section(f, refs.off[OPT_HEADER_INFO], 16, read_header_info, err));
    TG_TRY(read_v7_section(f, refs.off[OPT_FTRACE_EVENTS], 17, read_ftrace_formats, err));
    TG_TRY(read_v7_section(f, refs.off[OPT_EVENT_FORMATS], 18, read_event_formats, err));
    TG_TRY(read_v7_kallsyms(f, refs.off[OPT_KALLSYMS], err));
    TG_TRY(read_v7_section(f, refs.off[OPT_PRINTK], 20, read_printk, err));
    TG_TRY(read_v7_section(f, refs.off[OPT_CMDLINES], 21, read_cmdlines, err));
    for (size_t i = 0; i < f->n_buffers; i++) {
        ft_buffer *b = &f->buffers[i];
        uint64_t off = b->section_offset;
        if (off > f->map.size || f->map.size - off < 16)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                             "buffer \"%s\": section offset past the end of the file (0x%zx)",
                             b->name, f->map.size);
        tg_reader s;
        tg_reader_init(&s, f->map.data + off, 16, off, f->big_endian);
        uint16_t id, flags;
        uint32_t desc;
        uint64_t size;
        tg_read_u16(&s, &id);
        tg_read_u16(&s, &flags);
        tg_read_u32(&s, &desc);
        tg_read_u64(&s, &size);
        if (add_section(f, id, flags, desc, off, size) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        b->compressed = (flags & 1) != 0;
        if (b->latency)
            continue;
        if (b->compressed && f->comp_kind == 0)
            return ft_fail(f, err, off, "compressed buffer in a file without compression");
        for (size_t c = 0; c < b->n_cpus; c++) {
            ft_cpu_data *cd = &b->cpus[c];
            if (b->compressed) {
                TG_TRY(scan_chunks(f, cd, err));
            } else {
                ft_clamp_cpu(f, cd);
            }
        }
    }
    if (f->cpus <= 0) {
        for (size_t i = 0; i < f->n_buffers; i++)
            for (size_t c = 0; c < f->buffers[i].n_cpus; c++)
                if (f->buffers[i].cpus[c].cpu + 1 > f->cpus)
                    f->cpus = f->buffers[i].cpus[c].cpu + 1;
    }
    return 0;
}

static int read_v6(ft_file *f, tg_reader *r, tg_error **err)
{
    snprintf(f->compression, sizeof f->compression, "none");
    TG_TRY(read_header_info(f, r, err));
    TG_TRY(read_ftrace_formats(f, r, err));
    TG_TRY(read_event_formats(f, r, err));
    TG_TRY(read_kallsyms(f, r, err));
    TG_TRY(read_printk(f, r, err));
    TG_TRY(read_cmdlines(f, r, err));
    uint32_t cpus;
    if (!tg_read_u32(r, &cpus) || cpus > 65536)
        return ft_fail(f, err, tg_reader_offset(r), "bad cpu count");
    f->cpus = (int)cpus;
    ft_buffer top;
    memset(&top, 0, sizeof top);
    for (;;) {
        const uint8_t *tag;
        uint64_t at = tg_reader_offset(r);
        if (!tg_read_bytes(r, &tag, 10))
            return ft_fail(f, err, at, "truncated: expected options, latency or flyrecord");
        if (memcmp(tag, "options  ", 10) == 0) {
            /* the top instance must come first: BUFFER options are added after it */
            size_t before = f->n_buffers;
            TG_TRY(ft_read_options_v6(f, r, err));
            (void)before;
            continue;
        }
        if (memcmp(tag, "latency  ", 10) == 0) {
            top.latency = true;
            break;
        }
        if (memcmp(tag, "flyrecord", 10) == 0)
            break;
        return ft_fail(f, err, at, "expected options, latency or flyrecord");
    }
    top.name = "";
    top.clock = f->trace_clock ? "" : "";
    top.page_size = f->page_size;
    if (!top.latency) {
        if ((uint64_t)f->cpus * 16 > tg_reader_left(r))
            return ft_fail(f, err, tg_reader_offset(r), "flyrecord cpu table runs past the end");
        top.cpus = tg_arena_alloc(&f->trace->arena, (f->cpus ? f->cpus : 1) * sizeof *top.cpus);
        if (!top.cpus)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        for (int c = 0; c < f->cpus; c++) {
            ft_cpu_data *cd = &top.cpus[c];
            uint64_t at = tg_reader_offset(r);
            tg_read_u64(r, &cd->offset);
            tg_read_u64(r, &cd->size);
            cd->cpu = c;
            cd->usize = cd->size;
            (void)at;
            ft_clamp_cpu(f, cd);
        }
        top.n_cpus = (size_t)f->cpus;
    }
    /* the top instance goes first */
    if (tg_grow(&f->buffers, &f->cap_buffers, f->n_buffers + 1, sizeof *f->buffers) != 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    memmove(f->buffers + 1, f->buffers, f->n_buffers * sizeof *f->buffers);
    f->buffers[0] = top;
    f->n_buffers++;
    return 0;
}

/* ---- open / describe / close -------------------------------------------------------------- */

static int ftrace_probe(const tg_probe_input *in)
{
    if (in->is_dir || in->head_len < 10)
        return 0;
    return memcmp(in->head, "\x17\x08\x44tracing", 10) == 0 ? 100 : 0;
}

static void ftrace_close(tg_trace *t)
{
    ft_file *f = t->priv;
    if (!f)
        return;
    for (size_t i = 0; i < f->n_events; i++)
        tg_pf_free(f->events[i]->pfe.pf);
    free(f->events);
    free(f->by_id);
    free(f->kallsyms_text);
    free(f->printk);
    free(f->comms);
    free(f->buffers);
    free(f->sections);
    free(f->strings);
    ft_ahead_free(f->ahead);
    ft_function_free(f);
    tg_map_close(&f->map);
    free(f);
    t->priv = NULL;
}

static int ftrace_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    ft_file *f = calloc(1, sizeof *f);
    if (!f)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = f;
    f->trace = t;
    f->path = t->path ? t->path : path;
    f->raw = opts && tg_options_flag(opts, "raw");
    f->no_plugins = opts && tg_options_flag(opts, "no-plugins");
    ft_function_options(f, opts ? tg_options_get(opts, "plugin-option") : NULL);
    TG_TRY(tg_map_open(&f->map, path, err));
    tg_reader r;
    tg_reader_init(&r, f->map.data, f->map.size, 0, false);
    const uint8_t *magic;
    const char *ver;
    size_t vlen;
    uint8_t endian, lsize;
    uint32_t psize;
    if (!tg_read_bytes(&r, &magic, 10) || memcmp(magic, "\x17\x08\x44tracing", 10) != 0)
        return ft_fail(f, err, 0, "not a trace.dat file (bad magic)");
    if (!tg_read_cstr(&r, &ver, &vlen) || vlen == 0 || vlen > 4)
        return ft_fail(f, err, 10, "bad version string");
    f->version = atoi(ver);
    if (f->version != 6 && f->version != 7)
        return tg_err_at(err, TG_ERR_UNSUPPORTED, f->path, 10,
                         "file version %s (only 6 and 7 are read)", ver);
    if (!tg_read_u8(&r, &endian) || !tg_read_u8(&r, &lsize) || endian > 1 ||
        (lsize != 4 && lsize != 8))
        return ft_fail(f, err, tg_reader_offset(&r), "bad endianness or long size");
    f->big_endian = endian == 1;
    f->long_size = lsize;
    r.big_endian = f->big_endian;
    if (!tg_read_u32(&r, &psize) || psize < 64 || psize > (1u << 24))
        return ft_fail(f, err, tg_reader_offset(&r), "bad page size");
    f->page_size = psize;
    char vbuf[8];
    snprintf(vbuf, sizeof vbuf, "%d", f->version);
    tg_trace_set_version(t, vbuf);
    int rc = f->version >= 7 ? read_v7(f, &r, err) : read_v6(f, &r, err);
    if (rc < 0)
        return rc;
    const char *clock = "local";
    if (f->trace_clock) {
        const char *lb = strchr(f->trace_clock, '['), *rb = lb ? strchr(lb, ']') : NULL;
        if (lb && rb) {
            char *c = tg_arena_strndup(&t->arena, lb + 1, (size_t)(rb - lb - 1));
            if (c)
                clock = c;
        }
    } else if (f->n_buffers && f->buffers[0].clock && f->buffers[0].clock[0]) {
        clock = f->buffers[0].clock;
    }
    if (ft_attrs_fill(f, clock) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_symtab_sort(&t->symbols);
    return ft_add_streams(f, err);
}

static const char *section_desc(const ft_file *f, const ft_section *s)
{
    uintptr_t id = (uintptr_t)s->desc;
    if (f->strings && id < f->strings_len)
        return f->strings + id;
    return "?";
}

static int ftrace_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    const ft_file *f = t->priv;
    ft_report_stat(f, out, true);
    tg_buf_puts(out, "\n");
    tg_buf_printf(out, "file version: %d\n", f->version);
    tg_buf_printf(out, "endianness: %s\n", f->big_endian ? "big" : "little");
    tg_buf_printf(out, "long size: %d\n", f->long_size);
    tg_buf_printf(out, "page size: %u\n", f->page_size);
    tg_buf_printf(out, "compression: %s%s%s\n", f->compression,
                  f->compression_version[0] ? " " : "", f->compression_version);
    if (f->uname)
        tg_buf_printf(out, "uname: %s\n", f->uname);
    if (f->tc_version)
        tg_buf_printf(out, "trace-cmd version: %s\n", f->tc_version);
    tg_buf_printf(out, "clock: %s\n", t->clock.name ? t->clock.name : "local");
    if (f->options_seen)
        tg_buf_printf(out, "options: %s\n", f->options_seen);
    tg_buf_printf(out, "events: %zu formats\n", f->n_events);
    for (size_t i = 0; i < f->n_buffers; i++) {
        const ft_buffer *b = &f->buffers[i];
        tg_buf_printf(out, "buffer \"%s\": %s, clock %s, page size %u, %zu cpus%s\n", b->name,
                      b->latency ? "latency" : "flyrecord",
                      b->clock && b->clock[0] ? b->clock : "-", b->page_size, b->n_cpus,
                      b->compressed ? ", compressed" : "");
    }
    for (size_t i = 0; i < f->n_sections; i++) {
        const ft_section *s = &f->sections[i];
        tg_buf_printf(out, "section %u \"%s\" at 0x%llx, %llu bytes%s\n", s->id, section_desc(f, s),
                      (unsigned long long)s->offset, (unsigned long long)s->size,
                      s->flags & 1 ? ", compressed" : "");
    }
    (void)err;
    return 0;
}

/* raw and plugin-option are read here, at open, and declared by the trace-cmd style that
 * prints what they change (compat/trace-cmd/trace_cmd_text.c): ftrace declares none. */
TG_FORMAT(ftrace) = {
    .name = "ftrace",
    .probe = ftrace_probe,
    .open = ftrace_open,
    .describe = ftrace_describe,
    .render_part = ft_report_part,
    .symbol = ft_report_symbol,
    .class_field_name = ft_report_field_name,
    .close = ftrace_close,
};
