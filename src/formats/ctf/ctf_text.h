/* ctf_text.h - babeltrace2's text of CTF values, written into a tg_buf: the pieces of the
 * one babeltrace2 printer.
 *
 * The printer is the decode-step interpreter's print mode (ctf_decode.c): it walks an
 * event's compiled fields once, straight from the packet bits, and writes each value with
 * these helpers; the member names come pre-formatted from the compiler (" name = ").  The
 * hot ones (names, decimal integers) are inline; the rest is in ctf_text.c. */
#ifndef TG_CTF_TEXT_H
#define TG_CTF_TEXT_H

#include "core/buf_inline.h"
#include "formats/ctf/ctf_internal.h"

void ctf_text_int_base(tg_buf *w, const ctf_step *st, uint64_t u);
void ctf_text_escaped(tg_buf *w, const char *s, size_t n);
void ctf_text_enum(tg_buf *w, const ctf_step *st, uint64_t v);
void ctf_text_g(tg_buf *w, double x);

/* A member's "name = " prefix: those of up to 16 bytes are copied 16 bytes at once (the
 * compiler left CTF_EQ_SLACK bytes after each). */
static inline void ctf_text_eq(tg_buf *w, const ctf_step *cs)
{
    size_t n = cs->eq_len;
    char *o;
    if (n > 16 || !(o = tg_buf_room(w, 16))) {
        tg_buf_put_fast(w, cs->eq, n);
        return;
    }
    memcpy(o, cs->eq, 16);
    w->len += n;
}

/* The same, or only its separator (" " before the first member, else ", ") when the
 * values print without names. */
static inline void ctf_text_eq_or_sep(const ctf_dec *d, tg_buf *w, const ctf_step *cs)
{
    if (__builtin_expect(!d->no_names, 1))
        ctf_text_eq(w, cs);
    else if (cs->eq[0] == ' ')
        tg_buf_put_fast(w, " ", 1);
    else
        tg_buf_put_fast(w, ", ", 2);
}

/* An integer in its display base; decimal, the usual one, inline. */
static inline void ctf_text_int(tg_buf *w, const ctf_step *st, uint64_t u)
{
    unsigned base = st->type->base;
    if (base == 2 || base == 8 || base == 16) {
        ctf_text_int_base(w, st, u);
        return;
    }
    if (st->is_signed && (int64_t)u < 0) {
        tg_buf_put_fast(w, "-", 1);
        u = 0 - u;
    }
    tg_buf_u64_fast(w, u);
}

/* A number in the text form of its step (integer, enumeration or float). */
static inline void ctf_text_number(tg_buf *w, const ctf_step *st, uint64_t v)
{
    if (st->op == CTF_OP_FLOAT) {
        double f;
        if (st->size == 32) {
            uint32_t u32 = (uint32_t)v;
            float f32;
            memcpy(&f32, &u32, 4);
            f = f32;
        } else {
            memcpy(&f, &v, 8);
        }
        ctf_text_g(w, f);
        return;
    }
    if (st->type->kind == CTF_T_ENUM)
        ctf_text_enum(w, st, v);
    else
        ctf_text_int(w, st, v);
}

#endif
