/* xray_dwarf_line.c - file, line and column of code addresses from DWARF line tables.
 *
 * llvm-xray's accounting prints "file:line:column" for each function, from llvm-symbolizer:
 * with debug info, the row of the DWARF line table (.debug_line) that covers the function
 * address: within the sequence holding the address, the last row whose address is not
 * above it; the file is the row's file entry, printed without its directories.  This file
 * runs the line-number programs of every unit (DWARF 2-5: version 5's entry formats with
 * strings inline, in .debug_str or in .debug_line_str) and answers a sorted batch of
 * addresses, sequence by sequence, so a binary is read once.  Every read is bounds-checked;
 * a malformed unit ends the walk with what was found so far (the location is then the
 * symbol-table fallback, as llvm-symbolizer's would be). */
#include "formats/xray/xray_dwarf_line.h"
#include "core/grow.h"

#include "io/byte_reader.h"

#include <stdlib.h>
#include <string.h>

typedef struct sect {
    const uint8_t *p;
    size_t n;
} sect;

typedef struct lrow {
    uint64_t addr;
    uint64_t file;
    uint32_t line;
    uint16_t col;
} lrow;

static bool uleb(tg_reader *r, uint64_t *v)
{
    uint64_t x = 0;
    unsigned shift = 0;
    for (;;) {
        uint8_t b;
        if (!tg_read_u8(r, &b))
            return false;
        if (shift < 64)
            x |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    *v = x;
    return true;
}

static bool sleb(tg_reader *r, int64_t *v)
{
    uint64_t x = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (!tg_read_u8(r, &b))
            return false;
        if (shift < 64)
            x |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        x |= ~(uint64_t)0 << shift;
    *v = (int64_t)x;
    return true;
}

static const char *str_at(sect s, uint64_t off)
{
    if (!s.p || off >= s.n || !memchr(s.p + off, 0, s.n - off))
        return NULL;
    return (const char *)s.p + off;
}

enum {
    DW_FORM_block2 = 0x03,
    DW_FORM_block4 = 0x04,
    DW_FORM_data2 = 0x05,
    DW_FORM_data4 = 0x06,
    DW_FORM_data8 = 0x07,
    DW_FORM_string = 0x08,
    DW_FORM_block = 0x09,
    DW_FORM_block1 = 0x0a,
    DW_FORM_data1 = 0x0b,
    DW_FORM_sdata = 0x0d,
    DW_FORM_strp = 0x0e,
    DW_FORM_udata = 0x0f,
    DW_FORM_data16 = 0x1e,
    DW_FORM_line_strp = 0x1f,
    DW_FORM_strx = 0x1a,
    DW_FORM_strx1 = 0x25,
    DW_FORM_strx2 = 0x26,
    DW_FORM_strx3 = 0x27,
    DW_FORM_strx4 = 0x28,
};
enum { DW_LNCT_path = 1 };

/* Reads one attribute value; *str set for string forms (else NULL). */
static bool read_form(tg_reader *r, uint64_t form, bool dwarf64, sect str, sect line_str,
                      const char **s, uint64_t *u)
{
    *s = NULL;
    *u = 0;
    uint8_t b8;
    uint16_t b16;
    uint32_t b32;
    uint64_t v;
    switch (form) {
    case DW_FORM_string: {
        size_t len;
        return tg_read_cstr(r, s, &len);
    }
    case DW_FORM_strp:
    case DW_FORM_line_strp:
        if (dwarf64) {
            if (!tg_read_u64(r, &v))
                return false;
        } else {
            if (!tg_read_u32(r, &b32))
                return false;
            v = b32;
        }
        *s = str_at(form == DW_FORM_strp ? str : line_str, v);
        return true;
    case DW_FORM_udata: return uleb(r, u);
    case DW_FORM_sdata: {
        int64_t sv;
        return sleb(r, &sv);
    }
    case DW_FORM_data1:
    case DW_FORM_strx1:
        if (!tg_read_u8(r, &b8))
            return false;
        *u = b8;
        return true;
    case DW_FORM_data2:
    case DW_FORM_strx2:
        if (!tg_read_u16(r, &b16))
            return false;
        *u = b16;
        return true;
    case DW_FORM_strx3: return tg_reader_skip(r, 3);
    case DW_FORM_data4:
    case DW_FORM_strx4:
        if (!tg_read_u32(r, &b32))
            return false;
        *u = b32;
        return true;
    case DW_FORM_data8: return tg_read_u64(r, u);
    case DW_FORM_data16: return tg_reader_skip(r, 16);
    case DW_FORM_strx: return uleb(r, u);
    case DW_FORM_block:
        return uleb(r, &v) && v <= tg_reader_left(r) && tg_reader_skip(r, (size_t)v);
    case DW_FORM_block1: return tg_read_u8(r, &b8) && tg_reader_skip(r, b8);
    case DW_FORM_block2: return tg_read_u16(r, &b16) && tg_reader_skip(r, b16);
    case DW_FORM_block4: return tg_read_u32(r, &b32) && tg_reader_skip(r, b32);
    default: return false;
    }
}

typedef struct unit_files {
    const char **name;
    size_t n, cap;
} unit_files;

static bool add_file(unit_files *f, const char *name)
{
    if (tg_grow(&f->name, &f->cap, f->n + 1, sizeof *f->name) < 0)
        return false;
    f->name[f->n++] = name;
    return true;
}

/* Version 5 directory/file tables: formats, then entries; keeps DW_LNCT_path of files. */
static bool read_v5_table(tg_reader *r, bool dwarf64, sect str, sect line_str, unit_files *out)
{
    uint8_t nfmt;
    if (!tg_read_u8(r, &nfmt))
        return false;
    uint64_t type[32], form[32];
    if (nfmt > 32)
        return false;
    for (unsigned i = 0; i < nfmt; i++)
        if (!uleb(r, &type[i]) || !uleb(r, &form[i]))
            return false;
    uint64_t count;
    if (!uleb(r, &count) || count > tg_reader_left(r))
        return false;
    for (uint64_t e = 0; e < count; e++) {
        const char *path = NULL;
        for (unsigned i = 0; i < nfmt; i++) {
            const char *s;
            uint64_t u;
            if (!read_form(r, form[i], dwarf64, str, line_str, &s, &u))
                return false;
            if (type[i] == DW_LNCT_path)
                path = s;
        }
        if (out && !add_file(out, path ? path : ""))
            return false;
    }
    return true;
}

static const char *basename_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Answers the addresses a[lo..) that fall in the sequence rows[0..n) ending at end. */
static void answer(const lrow *rows, size_t n, uint64_t end, const unit_files *files,
                   unsigned version, const uint64_t *addrs, size_t na, xray_line *res)
{
    if (n == 0)
        return;
    uint64_t start = rows[0].addr;
    /* first address >= start */
    size_t lo = 0, hi = na;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (addrs[mid] < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t j = 0;
    for (size_t i = lo; i < na && addrs[i] < end; i++) {
        if (res[i].file)
            continue; /* the first sequence found wins */
        while (j + 1 < n && rows[j + 1].addr <= addrs[i])
            j++;
        const lrow *row = &rows[j];
        uint64_t fi = row->file;
        if (version < 5) {
            if (fi == 0)
                continue;
            fi--;
        }
        if (fi >= files->n)
            continue;
        res[i].file = basename_of(files->name[fi]);
        res[i].line = row->line;
        res[i].column = row->col;
    }
}

typedef struct rowbuf {
    lrow *v;
    size_t n, cap;
} rowbuf;

static bool push_row(rowbuf *b, uint64_t addr, uint64_t file, uint64_t line, uint64_t col)
{
    if (b->n == b->cap && tg_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v) < 0)
        return false;
    lrow *r = &b->v[b->n++];
    r->addr = addr;
    r->file = file;
    r->line = (uint32_t)line;
    r->col = (uint16_t)col;
    return true;
}

/* One line-number unit at r (positioned at its unit_length). */
static bool run_unit(tg_reader *r, sect str, sect line_str, const uint64_t *addrs, size_t na,
                     xray_line *res, rowbuf *rows)
{
    uint32_t len32;
    uint64_t len;
    bool dwarf64 = false;
    if (!tg_read_u32(r, &len32))
        return false;
    if (len32 == 0xffffffffu) {
        dwarf64 = true;
        if (!tg_read_u64(r, &len))
            return false;
    } else {
        len = len32;
    }
    if (len > tg_reader_left(r))
        return false;
    tg_reader u;
    tg_reader_init(&u, r->base + r->pos, (size_t)len, tg_reader_offset(r), false);
    r->pos += (size_t)len;

    uint16_t version;
    if (!tg_read_u16(&u, &version) || version < 2 || version > 5)
        return true; /* skip units we cannot read */
    uint8_t addr_size = 8, seg;
    if (version >= 5 && (!tg_read_u8(&u, &addr_size) || !tg_read_u8(&u, &seg)))
        return true;
    uint64_t hlen;
    if (dwarf64) {
        if (!tg_read_u64(&u, &hlen))
            return true;
    } else {
        uint32_t h;
        if (!tg_read_u32(&u, &h))
            return true;
        hlen = h;
    }
    if (hlen > tg_reader_left(&u))
        return true;
    size_t prog = u.pos + (size_t)hlen;
    uint8_t min_inst, max_ops = 1, def_stmt, line_range, opcode_base;
    int8_t line_base;
    if (!tg_read_u8(&u, &min_inst))
        return true;
    if (version >= 4 && !tg_read_u8(&u, &max_ops))
        return true;
    if (!tg_read_u8(&u, &def_stmt) || !tg_read_u8(&u, (uint8_t *)&line_base) ||
        !tg_read_u8(&u, &line_range) || !tg_read_u8(&u, &opcode_base) || line_range == 0)
        return true;
    uint8_t std_len[256] = {0};
    for (unsigned i = 1; i < opcode_base; i++)
        if (!tg_read_u8(&u, &std_len[i]))
            return true;
    unit_files files = {0};
    bool ok = true;
    if (version >= 5) {
        ok = read_v5_table(&u, dwarf64, str, line_str, NULL) &&
             read_v5_table(&u, dwarf64, str, line_str, &files);
    } else {
        const char *s;
        size_t sl;
        do { /* include directories */
            ok = tg_read_cstr(&u, &s, &sl);
        } while (ok && sl);
        while (ok) {
            ok = tg_read_cstr(&u, &s, &sl);
            if (!ok || sl == 0)
                break;
            uint64_t d, m, l;
            ok = uleb(&u, &d) && uleb(&u, &m) && uleb(&u, &l) && add_file(&files, s);
        }
    }
    if (!ok || !tg_reader_seek(&u, prog)) {
        free(files.name);
        return true;
    }

    /* the line-number program */
    uint64_t addr = 0, file = 1, line = 1, col = 0;
    rows->n = 0;
    while (tg_reader_left(&u)) {
        uint8_t op;
        if (!tg_read_u8(&u, &op))
            break;
        if (op >= opcode_base) {
            unsigned adj = (unsigned)(op - opcode_base);
            addr += (uint64_t)(adj / line_range) * min_inst;
            line += (int64_t)line_base + (int64_t)(adj % line_range);
            if (!push_row(rows, addr, file, line, col))
                break;
            continue;
        }
        uint64_t v;
        int64_t sv;
        switch (op) {
        case 0: { /* extended */
            uint64_t elen;
            uint8_t eop;
            if (!uleb(&u, &elen) || elen == 0 || elen > tg_reader_left(&u) || !tg_read_u8(&u, &eop))
                goto done;
            size_t next = u.pos + (size_t)elen - 1;
            if (eop == 1) { /* end_sequence */
                answer(rows->v, rows->n, addr, &files, version, addrs, na, res);
                rows->n = 0;
                addr = 0;
                file = 1;
                line = 1;
                col = 0;
            } else if (eop == 2) { /* set_address */
                if (elen - 1 == 8)
                    tg_read_u64(&u, &addr);
                else if (elen - 1 == 4) {
                    uint32_t a32;
                    if (tg_read_u32(&u, &a32))
                        addr = a32;
                }
            }
            if (!tg_reader_seek(&u, next))
                goto done;
            break;
        }
        case 1: /* copy */
            if (!push_row(rows, addr, file, line, col))
                goto done;
            break;
        case 2: /* advance_pc */
            if (!uleb(&u, &v))
                goto done;
            addr += v * min_inst;
            break;
        case 3: /* advance_line */
            if (!sleb(&u, &sv))
                goto done;
            line += (uint64_t)sv;
            break;
        case 4: /* set_file */
            if (!uleb(&u, &file))
                goto done;
            break;
        case 5: /* set_column */
            if (!uleb(&u, &col))
                goto done;
            break;
        case 8: /* const_add_pc */
            addr += (uint64_t)((255u - opcode_base) / line_range) * min_inst;
            break;
        case 9: { /* fixed_advance_pc */
            uint16_t d;
            if (!tg_read_u16(&u, &d))
                goto done;
            addr += d;
            break;
        }
        default: /* negate_stmt, basic_block, prologue_end, ... : skip their operands */
            for (unsigned k = 0; k < std_len[op]; k++)
                if (!uleb(&u, &v))
                    goto done;
            break;
        }
    }
done:
    (void)max_ops;
    (void)def_stmt;
    free(files.name);
    return true;
}

int xray_dwarf_lines(const uint8_t *debug_line, size_t n_line, const uint8_t *debug_str,
                     size_t n_str, const uint8_t *debug_line_str, size_t n_line_str,
                     const uint64_t *addrs, size_t na, xray_line *res)
{
    sect str = {debug_str, n_str}, line_str = {debug_line_str, n_line_str};
    tg_reader r;
    tg_reader_init(&r, debug_line, n_line, 0, false);
    rowbuf rows = {0};
    while (tg_reader_left(&r) >= 4)
        if (!run_unit(&r, str, line_str, addrs, na, res, &rows))
            break;
    free(rows.v);
    return 0;
}
