/* lttng0_marker.c - LTTng 0.x marker format strings: fields, sizes and payload layout.
 *
 * A marker format is a list of "name <type>" pairs separated by spaces, where <type> is an
 * optional trace type ('#', then 'n' for network byte order, a size 1/2/4/8 or a C length
 * qualifier, and a letter u/d/x/p/...) followed by a C conversion ('%', flags, qualifier,
 * letter).  The trace type, when given, says how the value was written; otherwise the C
 * conversion does, with the int/long/pointer/size_t sizes the marker declared.  Literal text
 * between the name and the conversion ("ip 0x%lX") belongs to the conversion text kept for
 * printers.  "%s" is a NUL-terminated string.  When the marker declares an alignment, each
 * integer sits at a multiple of min(its size, alignment) from the block start and the payload
 * starts at the largest such alignment; strings are not aligned. */
#include "formats/lttng0/lttng0_internal.h"

#include <string.h>

typedef struct type_spec {
    uint8_t type, size;
    bool net;
} type_spec;

static uint8_t qualifier_size(int q, const lt0_sizes *sz)
{
    switch (q) {
    case 'L': return 8;
    case 'l': return sz->long_size;
    case 'z':
    case 'Z': return sz->size_t_size;
    case 't': return sz->ptr_size;
    case 'h': return 2;
    case 'H': return 1; /* "hh" */
    case '1': return 1;
    case '2': return 2;
    case '4': return 4;
    case '8': return 8;
    default: return sz->int_size;
    }
}

static const char *read_qualifier(const char *p, int *q, bool digits)
{
    *q = 0;
    if (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 'Z' || *p == 't' ||
        (digits && (*p == '1' || *p == '2' || *p == '4' || *p == '8'))) {
        *q = *p++;
        if (*q == 'l' && *p == 'l') {
            *q = 'L';
            p++;
        } else if (*q == 'h' && *p == 'h') {
            *q = 'H';
            p++;
        }
    }
    return p;
}

/* The type a conversion letter with qualifier q gives (both marker syntaxes share them);
 * false when the letter is not one of a marker's. */
static bool set_letter_type(char letter, int q, const lt0_sizes *sz, type_spec *t)
{
    switch (letter) {
    case 'c':
        t->type = LT0_UINT;
        t->size = 1;
        return true;
    case 's':
        t->type = LT0_STRING;
        t->size = 0;
        return true;
    case 'p':
        t->type = LT0_PTR;
        t->size = sz->ptr_size;
        return true;
    case 'd':
    case 'i': t->type = LT0_SINT; break;
    case 'o':
    case 'u':
    case 'x':
    case 'X': t->type = LT0_UINT; break;
    default: return false;
    }
    t->size = qualifier_size(q, sz);
    return true;
}

/* After '#': attributes, size, letter.  The letter may be absent ("#1%d": size only). */
static const char *parse_trace_type(const char *p, const lt0_sizes *sz, type_spec *t)
{
    while (*p == 'n') {
        t->net = true;
        p++;
    }
    int q;
    p = read_qualifier(p, &q, true);
    if (set_letter_type(*p, q, sz, t))
        return p + 1;
    if (q)
        t->size = qualifier_size(q, sz);
    return p;
}

/* After '%': flags, width, qualifier, letter.  NULL when the letter is not one of a marker's. */
static const char *parse_c_type(const char *p, const lt0_sizes *sz, type_spec *t)
{
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || (*p >= '0' && *p <= '9'))
        p++;
    int q;
    p = read_qualifier(p, &q, false);
    return set_letter_type(*p, q, sz, t) ? p + 1 : NULL;
}

int lt0_format_parse(tg_arena *a, const char *format, const lt0_sizes *sz, lt0_field **fields,
                     size_t *n_fields, const char **why)
{
    lt0_field tmp[LT0_MAX_FIELDS];
    size_t n = 0;
    const char *p = format;
    *fields = NULL;
    *n_fields = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (*p == '%' || *p == '#') {
            *why = "a conversion without a field name";
            return TG_ERR_FORMAT;
        }
        const char *name = p;
        while (*p && *p != ' ')
            p++;
        size_t name_len = (size_t)(p - name);
        while (*p == ' ')
            p++;
        /* the type: literal text, optional "#trace-type", literal text, "%conversion" */
        char conv[64];
        size_t conv_len = 0;
        type_spec tt = {0}, ct = {0};
        bool have_c = false;
        while (*p && *p != ' ' && !have_c) {
            if (*p == '#' && p[1] != '#') {
                p = parse_trace_type(p + 1, sz, &tt);
                continue;
            }
            if (*p == '%' && p[1] != '%') {
                const char *start = p;
                p = parse_c_type(p + 1, sz, &ct);
                if (!p) {
                    *why = "a conversion that is not %c, %s, %p, %d, %i, %o, %u, %x or %X";
                    return TG_ERR_FORMAT;
                }
                if (conv_len + (size_t)(p - start) >= sizeof conv) {
                    *why = "a conversion longer than 63 characters";
                    return TG_ERR_FORMAT;
                }
                memcpy(conv + conv_len, start, (size_t)(p - start));
                conv_len += (size_t)(p - start);
                have_c = true;
                break;
            }
            if ((*p == '#' || *p == '%') && p[1] == *p)
                p++; /* "##" and "%%" are literal */
            if (conv_len + 1 >= sizeof conv) {
                *why = "a conversion longer than 63 characters";
                return TG_ERR_FORMAT;
            }
            conv[conv_len++] = *p++;
        }
        if (!have_c) {
            if (!*p && !tt.type && !tt.size)
                break; /* trailing words without a conversion carry no field */
            *why = "a field without a % conversion";
            return TG_ERR_FORMAT;
        }
        if (n == LT0_MAX_FIELDS) {
            *why = "more than 64 fields";
            return TG_ERR_FORMAT;
        }
        lt0_field *f = &tmp[n++];
        memset(f, 0, sizeof *f);
        f->type = tt.type ? tt.type : ct.type;
        f->size = tt.size ? tt.size : ct.size;
        if (ct.type == LT0_STRING) {
            f->type = LT0_STRING;
            f->size = 0;
        }
        f->net_order = tt.net;
        if (f->type != LT0_STRING && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
            *why = "an integer size that is not 1, 2, 4 or 8 bytes";
            return TG_ERR_FORMAT;
        }
        f->align = 1;
        if (sz->alignment && f->type != LT0_STRING)
            f->align = f->size < sz->alignment ? f->size : sz->alignment;
        f->name = tg_arena_strndup(a, name, name_len);
        f->conv = tg_arena_strndup(a, conv, conv_len);
        if (!f->name || !f->conv) {
            *why = "out of memory";
            return TG_ERR_NOMEM;
        }
    }
    if (n) {
        *fields = tg_arena_alloc(a, n * sizeof **fields);
        if (!*fields) {
            *why = "out of memory";
            return TG_ERR_NOMEM;
        }
        memcpy(*fields, tmp, n * sizeof **fields);
    }
    *n_fields = n;
    return 0;
}

void lt0_marker_layout(lt0_marker *m)
{
    m->largest_align = 1;
    m->fixed_size = 0;
    m->has_string = false;
    for (size_t i = 0; i < m->n_fields; i++) {
        const lt0_field *f = &m->fields[i];
        if (f->align > m->largest_align)
            m->largest_align = f->align;
        if (f->type == LT0_STRING)
            m->has_string = true;
        m->fixed_size += f->size;
    }
}

static size_t pad_to(size_t off, size_t align)
{
    return align > 1 ? (align - (off & (align - 1))) & (align - 1) : 0;
}

long lt0_field_offset(const lt0_marker *m, size_t i, const uint8_t *data, size_t avail,
                      size_t base_off, size_t *end)
{
    size_t off = 0;
    for (size_t k = 0; k < m->n_fields; k++) {
        const lt0_field *f = &m->fields[k];
        off += pad_to(base_off + off, f->align);
        size_t len;
        if (f->type == LT0_STRING) {
            if (off >= avail)
                return -1;
            const uint8_t *nul = memchr(data + off, 0, avail - off);
            if (!nul)
                return -1;
            len = (size_t)(nul - (data + off)) + 1;
        } else {
            len = f->size;
        }
        if (len > avail || off > avail - len)
            return -1;
        if (k == i) {
            *end = off + len;
            return (long)off;
        }
        off += len;
    }
    *end = off;
    return i == m->n_fields ? (long)off : -1;
}

long lt0_payload_size(const lt0_marker *m, const uint8_t *data, size_t avail, size_t base_off)
{
    if (!m->has_string && m->largest_align <= 1)
        return m->fixed_size <= avail ? (long)m->fixed_size : -1;
    size_t end;
    return lt0_field_offset(m, m->n_fields, data, avail, base_off, &end);
}
