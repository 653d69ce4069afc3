/* value_text.c - plain text for times and typed values (see value_text.h). */
#include "core/value_text.h"

#include <inttypes.h>

void tg_text_time(tg_buf *b, int64_t ns)
{
    uint64_t u = (uint64_t)ns;
    if (ns < 0) {
        tg_buf_putc(b, '-');
        u = (uint64_t)0 - u;
    }
    tg_buf_u64(b, u / 1000000000u);
    tg_buf_putc(b, '.');
    tg_buf_u64_pad(b, u % 1000000000u, 9, '0');
}

static void quoted(tg_buf *b, const char *s, size_t n)
{
    tg_buf_putc(b, '"');
    tg_text_json_escaped(b, s, n);
    tg_buf_putc(b, '"');
}

void tg_text_json_escaped(tg_buf *b, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        tg_buf_put(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': tg_buf_puts(b, "\\\""); break;
        case '\\': tg_buf_puts(b, "\\\\"); break;
        case '\n': tg_buf_puts(b, "\\n"); break;
        case '\t': tg_buf_puts(b, "\\t"); break;
        case '\r': tg_buf_puts(b, "\\r"); break;
        default: tg_buf_printf(b, "\\u%04x", c); break;
        }
    }
    tg_buf_put(b, s + run, n - run);
}

static void children(tg_buf *b, const tg_value *v, const char *open, const char *close, int named)
{
    tg_buf_puts(b, open);
    for (size_t i = 0; i < v->count; i++) {
        tg_value c;
        if (tg_value_child(v, i, &c) < 0)
            break;
        tg_buf_puts(b, i ? ", " : " ");
        if (named && c.name) {
            tg_buf_puts(b, c.name);
            tg_buf_puts(b, " = ");
        }
        tg_text_value(b, &c);
    }
    tg_buf_puts(b, v->count ? " " : "");
    tg_buf_puts(b, close);
}

void tg_text_value(tg_buf *b, const tg_value *v)
{
    switch (v->type) {
    case TG_VAL_SINT: tg_buf_i64(b, v->v.s); break;
    case TG_VAL_UINT:
        if (v->base == 16 || (v->flags & TG_VALF_POINTER)) {
            tg_buf_puts(b, "0x");
            tg_buf_hex(b, v->v.u);
        } else {
            tg_buf_u64(b, v->v.u);
        }
        break;
    case TG_VAL_FLOAT: tg_buf_printf(b, "%g", v->v.f); break;
    case TG_VAL_STRING: quoted(b, v->v.str.ptr, v->v.str.len); break;
    case TG_VAL_BYTES:
        for (size_t i = 0; i < v->v.str.len; i++)
            tg_buf_printf(b, "%s%02x", i ? " " : "", (unsigned char)v->v.str.ptr[i]);
        break;
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE: children(b, v, "[", "]", 0); break;
    case TG_VAL_STRUCT:
    case TG_VAL_VARIANT: children(b, v, "{", "}", 1); break;
    default: tg_buf_puts(b, "?"); break;
    }
    if (v->label && (v->type == TG_VAL_SINT || v->type == TG_VAL_UINT)) {
        tg_buf_puts(b, " <");
        tg_buf_puts(b, v->label);
        tg_buf_putc(b, '>');
    }
}
