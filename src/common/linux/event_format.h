/* event_format.h - the kernel's tracefs event format files, parsed and applied to records.
 *
 * Each events/<system>/<event>/format text gives the event's name, numeric id, its fields
 * (type, name, offset, size, signedness; arrays, __data_loc and __rel_loc dynamic fields)
 * and its print fmt.  trace-cmd stores these texts in trace.dat and perf in perf.data's
 * tracing data, and both readers decode a tracepoint record's fields with them, so the
 * parser and the field decoder live here, in one place (the ftrace reader builds its
 * print-fmt engine on top; the perf reader decodes its tracepoint samples).  The flags are
 * computed once, as libtraceevent computes them.  Field decoding is inline: it runs per
 * field read. */
#ifndef TG_EVENT_FORMAT_H
#define TG_EVENT_FORMAT_H

#include "traceglot.h"
#include "core/arena.h"
#include "io/byte_reader.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum {
    TG_EVF_SIGNED = 1,
    TG_EVF_ARRAY = 2,
    TG_EVF_DYNAMIC = 4,  /* __data_loc: u32 (len << 16 | offset) */
    TG_EVF_RELATIVE = 8, /* __rel_loc: offset relative to the end of the field */
    TG_EVF_STRING = 16,  /* char/u8/s8 array */
    TG_EVF_POINTER = 32, /* type ends in '*' */
    TG_EVF_LONG = 64,    /* type mentions "long" */
    /* a char array the raw printer (print_fmt_raw.c) once printed as ARRAY[..]: libtraceevent
     * then drops the field's string flag for good, so trace-cmd report -R prints it so from
     * there on, printable or not (the only state a field keeps) */
    TG_EVF_RAW_ARRAY = 128,
};

typedef struct tg_evf_field {
    const char *name;
    const char *type;
    uint32_t offset, size, elem_size, array_len;
    uint32_t flags;
} tg_evf_field;

/* One parsed format: the common_* fields and the event's own, in the text's order. */
typedef struct tg_evf {
    const char *name; /* in the text, name_len bytes */
    size_t name_len;
    long id;
    tg_evf_field *common, *fields; /* in the arena */
    size_t n_common, n_fields;
    const char *print_fmt; /* in the text after "print fmt: ", NULL when absent */
    size_t print_fmt_len;
} tg_evf;

#define TG_EVF_MAX_FIELDS 1024

/* Parses a format text into out (fields allocated from a; long_size: the traced kernel's,
 * for the element size of long arrays).  0; TG_ERR_NOMEM; TG_ERR_LIMIT with more than
 * TG_EVF_MAX_FIELDS fields in a block; TG_ERR_FORMAT without a name or an ID (0..0xffffff). */
int tg_evf_parse(tg_arena *a, int long_size, const char *text, size_t len, tg_evf *out);

/* An integer of 1, 2, 4 or 8 bytes in the record's byte order (0 for other sizes). */
static inline uint64_t tg_evf_read_num(bool big_endian, const uint8_t *p, uint32_t size)
{
    switch (size) {
    case 1: return p[0];
    case 2: return big_endian ? tg_be16(p) : tg_le16(p);
    case 4: return big_endian ? tg_be32(p) : tg_le32(p);
    case 8: return big_endian ? tg_be64(p) : tg_le64(p);
    default: return 0;
    }
}

/* The field fl of the record d (n bytes) as a value: integers by size and sign, char arrays
 * (fixed or dynamic) as strings to their NUL, other arrays as bytes, bounded by the record;
 * TG_VAL_NONE when the field does not fit. */
static inline void tg_evf_value(const tg_evf_field *fl, const uint8_t *d, size_t n, bool big_endian,
                                tg_value *out)
{
    out->name = fl->name;
    if (fl->flags & TG_EVF_ARRAY) {
        size_t off = fl->offset, len = fl->size;
        if (fl->flags & TG_EVF_DYNAMIC) {
            if (fl->offset + (size_t)fl->size > n) {
                out->type = TG_VAL_NONE;
                return;
            }
            uint64_t v = tg_evf_read_num(big_endian, d + fl->offset, fl->size);
            off = (size_t)(v & 0xffff);
            len = (size_t)(v >> 16 & 0xffff);
            if (fl->flags & TG_EVF_RELATIVE)
                off += fl->offset + fl->size;
        }
        if (off > n)
            off = n;
        if (len > n - off)
            len = n - off;
        if (fl->flags & TG_EVF_STRING) {
            out->type = TG_VAL_STRING;
            out->v.str.ptr = (const char *)d + off;
            out->v.str.len = strnlen((const char *)d + off, len);
            out->flags = TG_VALF_TEXT;
        } else {
            /* the element's size, byte order and kind go with the bytes, for writers that
             * keep the array's elements (the CTF writer, as perf's converter does) */
            out->type = TG_VAL_BYTES;
            out->v.str.ptr = (const char *)d + off;
            out->v.str.len = len;
            out->bits = (uint16_t)(fl->elem_size <= 8 ? fl->elem_size * 8 : 0);
            out->byte_order = big_endian ? 2 : 1;
            out->flags = (uint8_t)(((fl->flags & TG_EVF_POINTER) ? TG_VALF_POINTER : 0) |
                                   ((fl->flags & TG_EVF_LONG) ? TG_VALF_LONG : 0));
        }
        return;
    }
    if (fl->offset + (size_t)fl->size > n ||
        (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8)) {
        out->type = TG_VAL_NONE;
        return;
    }
    uint64_t v = tg_evf_read_num(big_endian, d + fl->offset, fl->size);
    out->bits = (uint16_t)(fl->size * 8);
    out->base = (fl->flags & TG_EVF_POINTER) ? 16 : 10;
    out->byte_order = big_endian ? 2 : 1;
    if (fl->flags & TG_EVF_POINTER)
        out->flags = TG_VALF_POINTER;
    if (fl->flags & TG_EVF_LONG)
        out->flags |= TG_VALF_LONG;
    if (fl->flags & TG_EVF_SIGNED) {
        out->type = TG_VAL_SINT;
        int sh = 64 - fl->size * 8;
        out->v.s = sh ? (int64_t)(v << sh) >> sh : (int64_t)v;
    } else {
        out->type = TG_VAL_UINT;
        out->v.u = v;
    }
}

#endif
