/* ctf_render.c - an event's fields in babeltrace2's text form (the stream op `render`).
 *
 * CTF has no text form of its own; the reference rendering of CTF events is babeltrace2's
 * (sink.text.pretty): `{ packet context }, { stream event context }, { event context },
 * { payload }` with the visible fields of each scope.  The generic printer
 * (src/compat/babeltrace2/babeltrace_text.c) produces the same text from tg_value; this file
 * produces it straight from the packet bits with the names pre-formatted at compile time
 * ("name = "), into one scratch buffer per stream and one tg_buf_put per event, because
 * printing is most of the work of `traceglot cat`.  The packet context is rendered once per
 * packet.
 *
 * Rules (babeltrace2 2.0.4): integers in their display base (hex upper-case and masked to
 * the size rounded up to a nibble, octal with a leading 0, binary with 0b and every bit),
 * enumerations as ( "A", "B" : container = N ) or ( <unknown> : container = N ), floats %g,
 * strings quoted with C escapes (other control bytes as \xNN), arrays and sequences as
 * [ [0] = x, ... ], variants as { option }, empty compounds as { } and [ ].
 *
 * The fields are decoded and printed in one pass over the compiled steps (the skipping
 * pass of next() already validated the event); an event with no payload block prints no
 * payload, an empty one prints { }. */
#include "formats/ctf/ctf_bits.h"
#include "formats/ctf/ctf_stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbuf {
    char *p;
    size_t len, cap;
    bool failed;
} wbuf;

static bool grow(wbuf *w, size_t n)
{
    if (w->len + n <= w->cap)
        return true;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + n)
        cap *= 2;
    char *p = realloc(w->p, cap);
    if (!p) {
        w->failed = true;
        return false;
    }
    w->p = p;
    w->cap = cap;
    return true;
}

static inline void put(wbuf *w, const char *s, size_t n)
{
    if (w->len + n > w->cap && !grow(w, n))
        return;
    char *o = w->p + w->len;
    w->len += n;
    /* short pieces as two overlapping fixed-size moves (no loop, no call) */
    if (n >= 8 && n <= 16) {
        memcpy(o, s, 8);
        memcpy(o + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(o, s, 4);
        memcpy(o + n - 4, s + n - 4, 4);
    } else if (n >= 2 && n < 4) {
        memcpy(o, s, 2);
        memcpy(o + n - 2, s + n - 2, 2);
    } else if (n == 1) {
        *o = *s;
    } else if (n) {
        memcpy(o, s, n);
    }
}

#define PUTS(w, lit) put((w), (lit), sizeof(lit) - 1)

/* A member's "name = " prefix: those of up to 16 bytes are copied 16 bytes at once (the
 * compiler left CTF_EQ_SLACK bytes after each). */
static inline void put_eq(wbuf *w, const ctf_step *cs)
{
    size_t n = cs->eq_len;
    if (n > 16 || (w->len + 16 > w->cap && !grow(w, 16))) {
        put(w, cs->eq, n);
        return;
    }
    memcpy(w->p + w->len, cs->eq, 16);
    w->len += n;
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
                                  "31323334353637383940414243444546474849505152535455565758596061"
                                  "62636465666768697071727374757677787980818283848586878889909192"
                                  "93949596979899";

/* Decimal digits written in place, two at a time from the last one back; the count comes
 * from the bit length (log10 2 ~ 1233 / 4096) and one comparison. */
__attribute__((always_inline)) static inline void put_u64(wbuf *w, uint64_t v)
{
    static const uint64_t p10[20] = {1ull,
                                     10ull,
                                     100ull,
                                     1000ull,
                                     10000ull,
                                     100000ull,
                                     1000000ull,
                                     10000000ull,
                                     100000000ull,
                                     1000000000ull,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull,
                                     1000000000000000ull,
                                     10000000000000000ull,
                                     100000000000000000ull,
                                     1000000000000000000ull,
                                     10000000000000000000ull};
    if (w->len + 20 > w->cap && !grow(w, 20))
        return;
    if (v < 10) {
        w->p[w->len++] = (char)('0' + v);
        return;
    }
    unsigned t = ((unsigned)(64 - __builtin_clzll(v)) * 1233) >> 12;
    unsigned n = t + 1 - (v < p10[t]);
    char *o = w->p + w->len + n;
    w->len += n;
    while (v >= 1ull << 32) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        o -= 2;
        o[0] = digit_pairs[2 * r];
        o[1] = digit_pairs[2 * r + 1];
    }
    uint32_t x = (uint32_t)v;
    while (x >= 100) {
        unsigned r = x % 100;
        x /= 100;
        o -= 2;
        o[0] = digit_pairs[2 * r];
        o[1] = digit_pairs[2 * r + 1];
    }
    if (x >= 10) {
        o[-2] = digit_pairs[2 * x];
        o[-1] = digit_pairs[2 * x + 1];
    } else {
        o[-1] = (char)('0' + x);
    }
}

/* Integers in base 2, 8 or 16 (and 10 for the callers below). */
static void put_int_base(wbuf *w, const ctf_step *st, uint64_t u)
{
    unsigned len = st->size;
    char tmp[80], *q = tmp + sizeof tmp;
    switch (st->type->base) {
    case 2:
        if (!grow(w, len + 2))
            return;
        w->p[w->len++] = '0';
        w->p[w->len++] = 'b';
        for (unsigned k = len; k-- > 0;)
            w->p[w->len++] = (u >> k) & 1 ? '1' : '0';
        return;
    case 8:
        if (st->is_signed && len < 64) {
            unsigned r = ((len - 1) / 3 + 1) * 3;
            if (r < 64)
                u &= (1ull << r) - 1;
        }
        do {
            *--q = (char)('0' + (u & 7));
            u >>= 3;
        } while (u);
        *--q = '0';
        put(w, q, (size_t)(tmp + sizeof tmp - q));
        return;
    case 16:
        if (len < 64) {
            unsigned r = (len + 3) & ~3u;
            if (r < 64)
                u &= (1ull << r) - 1;
        }
        do {
            *--q = "0123456789ABCDEF"[u & 15];
            u >>= 4;
        } while (u);
        *--q = 'x';
        *--q = '0';
        put(w, q, (size_t)(tmp + sizeof tmp - q));
        return;
    default:
        if (st->is_signed && (int64_t)u < 0) {
            PUTS(w, "-");
            put_u64(w, 0 - u);
        } else {
            put_u64(w, u);
        }
    }
}

/* An integer in its display base; decimal, the usual one, inline. */
static inline void put_int(wbuf *w, const ctf_step *st, uint64_t u)
{
    unsigned base = st->type->base;
    if (base == 2 || base == 8 || base == 16) {
        put_int_base(w, st, u);
        return;
    }
    if (st->is_signed && (int64_t)u < 0) {
        PUTS(w, "-");
        u = 0 - u;
    }
    put_u64(w, u);
}

static inline bool needs_escape(unsigned char c)
{
    return c < 32 || c == 127 || c == '\\' || c == '\'' || c == '"' || c == '?';
}

static void put_escaped(wbuf *w, const char *s, size_t n)
{
    const char *nul = memchr(s, 0, n);
    if (nul)
        n = (size_t)(nul - s);
    if (!grow(w, n * 4 + 2))
        return;
    char *o = w->p + w->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!needs_escape(c)) {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '\\': *o++ = '\\'; break;
        case '\'': *o++ = '\''; break;
        case '"': *o++ = '"'; break;
        case '?': *o++ = '?'; break;
        case '\a': *o++ = 'a'; break;
        case '\b': *o++ = 'b'; break;
        case 27: *o++ = 'e'; break;
        case '\f': *o++ = 'f'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        case '\v': *o++ = 'v'; break;
        default:
            *o++ = 'x';
            *o++ = "0123456789abcdef"[c >> 4];
            *o++ = "0123456789abcdef"[c & 15];
        }
    }
    *o++ = '"';
    w->len = (size_t)(o - w->p);
}

static void put_enum(wbuf *w, const ctf_step *st, uint64_t v)
{
    const ctf_type *ty = st->type;
    PUTS(w, "( ");
    size_t n = 0;
    for (size_t k = 0; k < ty->n_maps; k++) {
        const ctf_enum_map *m = &ty->maps[k];
        bool in = ty->is_signed ? ((int64_t)v >= m->lo && (int64_t)v <= m->hi)
                                : (v >= (uint64_t)m->lo && v <= (uint64_t)m->hi);
        if (!in)
            continue;
        if (n++)
            PUTS(w, ", ");
        put_escaped(w, m->label, strlen(m->label));
    }
    if (!n)
        PUTS(w, "<unknown>");
    PUTS(w, " : container = ");
    put_int(w, st, v);
    PUTS(w, " )");
}

/* The 6 significant digits of a > 0 scaled by 10^(5-e), rounded half-even on the exact binary
 * value as glibc does: a = M * 2^E exactly, so the scaled value is a ratio of 128-bit
 * integers.  0 when the exponents are out of this fast path's range. */
static int digits6(double a, int e, uint64_t *out)
{
    int k = 5 - e;
    /* fast path: an exactly representable power of ten and a result far from a tie */
    static const double p10d[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (k >= -44 && k <= 44) {
        /* one or two correctly rounded operations by exact powers of ten: the error is far
         * below the margin kept around the tie */
        double m = k > 22    ? a * 1e22 * p10d[k - 22]
                   : k >= 0  ? a * p10d[k]
                   : k >= -22 ? a / p10d[-k]
                              : a / 1e22 / p10d[-k - 22];
        if (m < 2e6) {
            uint64_t whole = (uint64_t)m;
            double frac = m - (double)whole;
            if (frac < 0.5 - 1e-6) {
                *out = whole;
                return 1;
            }
            if (frac > 0.5 + 1e-6) {
                *out = whole + 1;
                return 1;
            }
        }
    }
    if (k > 21 || k < -27)
        return 0;
    unsigned __int128 p10 = 1;
    for (int i = 0; i < (k < 0 ? -k : k); i++)
        p10 *= 10;
    int ex;
    double fr = frexp(a, &ex);
    uint64_t M = (uint64_t)ldexp(fr, 53);
    int E = ex - 53;
    unsigned __int128 num = M, den = 1;
    if (k >= 0)
        num *= p10;
    else
        den = p10;
    /* num < 2^124 and den < 2^126 keep 2 * r and the shifts inside 128 bits */
    if (E >= 0) {
        if (E > 70)
            return 0;
        num <<= E;
    } else {
        if (-E > (k < 0 ? 36 : 125))
            return 0;
        den <<= -E;
    }
    unsigned __int128 q = num / den, r = num % den;
    if (2 * r > den || (2 * r == den && (q & 1)))
        q++;
    *out = (uint64_t)q;
    return 1;
}

/* %g as glibc prints it (6 significant digits), without printf for the usual values;
 * others (zero, huge or tiny exponents, inf, nan) go through snprintf. */
static void put_g(wbuf *w, double x)
{
    char tmp[64];
    double a = x < 0 ? -x : x;
    if (x == 0 || a != a || a > 1e300 || a < 1e-300)
        goto slow;
    uint64_t bits;
    memcpy(&bits, &a, 8);
    int bexp = (int)((bits >> 52) & 0x7ff) - 1022; /* as frexp's, for normal numbers */
    /* decimal exponent estimate from the binary one (floor of (bexp - 1) * log10(2), in
     * fixed point); the loop corrects it by one or two */
    int e = (int)(((int64_t)(bexp - 1) * 315653) >> 20);
    if (e > 40 || e < -40)
        goto slow;
    for (int pass = 0; pass < 4; pass++) {
        uint64_t d;
        if (!digits6(a, e, &d))
            goto slow;
        if (d >= 1000000) {
            e++;
            continue;
        }
        if (d < 100000) {
            e--;
            continue;
        }
        char dg[6];
        for (int i = 5; i >= 0; i--) {
            dg[i] = (char)('0' + d % 10);
            d /= 10;
        }
        int nd = 6;
        while (nd > 1 && dg[nd - 1] == '0')
            nd--;
        char *o = tmp;
        if (x < 0)
            *o++ = '-';
        if (e >= -4 && e < 6) {
            if (e >= 0) {
                for (int i = 0; i <= e; i++)
                    *o++ = i < nd ? dg[i] : '0';
                if (nd > e + 1) {
                    *o++ = '.';
                    for (int i = e + 1; i < nd; i++)
                        *o++ = dg[i];
                }
            } else {
                *o++ = '0';
                *o++ = '.';
                for (int i = 0; i < -e - 1; i++)
                    *o++ = '0';
                for (int i = 0; i < nd; i++)
                    *o++ = dg[i];
            }
        } else {
            *o++ = dg[0];
            if (nd > 1) {
                *o++ = '.';
                for (int i = 1; i < nd; i++)
                    *o++ = dg[i];
            }
            *o++ = 'e';
            int ee = e < 0 ? -e : e;
            *o++ = e < 0 ? '-' : '+';
            if (ee >= 100)
                *o++ = (char)('0' + ee / 100);
            *o++ = (char)('0' + ee / 10 % 10);
            *o++ = (char)('0' + ee % 10);
        }
        put(w, tmp, (size_t)(o - tmp));
        return;
    }
slow:;
    int k = snprintf(tmp, sizeof tmp, "%g", x);
    put(w, tmp, k > 0 ? (size_t)k : 0);
}

/* ---- decode and print in one pass ------------------------------------------------------- */

typedef struct rctx {
    wbuf *w;
    ctf_dec *d;
    ctf_dstream *ds;
    const ctf_step *s0;
    int depth;
} rctx;

static int rrun(rctx *r, uint32_t i, bool print);

static int relems(rctx *r, const ctf_step *st, uint32_t i, uint64_t count, bool print)
{
    ctf_dec *d = r->d;
    wbuf *w = r->w;
    if (st->op == CTF_OP_TEXT_ARRAY || st->op == CTF_OP_TEXT_SEQUENCE) {
        if ((d->pos & 7) || count > (d->bits - d->pos) / 8)
            return TG_ERR_FORMAT;
        const ctf_quirk *q;
        if (print && count == 0 && st->op == CTF_OP_TEXT_SEQUENCE &&
            (q = ctf_quirk_find(r->ds, st)) != NULL)
            put_escaped(w, q->s, q->len); /* babeltrace2's recycled text (ctf_btcompat.c) */
        else if (print)
            put_escaped(w, (const char *)d->buf + d->pos / 8, (size_t)count);
        d->pos += count * 8;
        return 0;
    }
    if (count > CTF_MAX_ARRAY_LEN)
        return TG_ERR_LIMIT;
    const ctf_step *el = &r->s0[i + 1];
    if (print && el->op == CTF_OP_INT && el->fixed && el->type->kind == CTF_T_INT && count) {
        /* integers at a fixed stride: one bounds check for the whole array */
        uint64_t stride = align_up(el->fixed_bits, el->align);
        uint64_t pos = align_up(d->pos, el->align);
        if (pos > d->bits || count > (d->bits - pos) / stride + 1 ||
            (count - 1) * stride + el->fixed_bits > d->bits - pos)
            return TG_ERR_FORMAT;
        PUTS(w, "[");
        for (uint64_t k = 0; k < count; k++) {
            if (k)
                PUTS(w, ", [");
            else
                PUTS(w, " [");
            put_u64(w, k);
            PUTS(w, "] = ");
            uint64_t v = read_bits(d, pos + k * stride, el->size, el->big_endian);
            if (el->is_signed && el->size < 64 && (v >> (el->size - 1)) & 1)
                v |= ~0ull << el->size;
            put_int(w, el, v);
        }
        PUTS(w, " ]");
        d->pos = pos + (count - 1) * stride + el->fixed_bits;
        return 0;
    }
    if (print)
        PUTS(w, "[");
    for (uint64_t k = 0; k < count; k++) {
        if (print) {
            if (k)
                PUTS(w, ", [");
            else
                PUTS(w, " [");
            put_u64(w, k);
            PUTS(w, "] = ");
        }
        TG_TRY(rrun(r, i + 1, print));
    }
    if (print)
        PUTS(w, " ]");
    return 0;
}

static int rrun(rctx *r, uint32_t i, bool print)
{
    ctf_dec *d = r->d;
    wbuf *w = r->w;
    const ctf_step *st = &r->s0[i];
    uint64_t pos = align_up(d->pos, st->align);
    if (pos > d->bits)
        return TG_ERR_FORMAT;
    d->pos = pos;
    if (!print && st->fixed) {
        if (st->fixed_bits > d->bits - pos)
            return TG_ERR_FORMAT;
        d->pos = pos + st->fixed_bits;
        return 0;
    }
    switch (st->op) {
    case CTF_OP_INT: {
        if (st->size > d->bits - pos)
            return TG_ERR_FORMAT;
        uint64_t v = read_bits(d, pos, st->size, st->big_endian);
        if (st->is_signed && st->size < 64 && (v >> (st->size - 1)) & 1)
            v |= ~0ull << st->size;
        d->pos = pos + st->size;
        if (st->reg >= 0)
            d->regs[st->reg] = v;
        if (print) {
            if (st->type->kind == CTF_T_ENUM)
                put_enum(w, st, v);
            else
                put_int(w, st, v);
        }
        return 0;
    }
    case CTF_OP_FLOAT: {
        if (st->size > d->bits - pos)
            return TG_ERR_FORMAT;
        uint64_t v = read_bits(d, pos, st->size, st->big_endian);
        d->pos = pos + st->size;
        if (print) {
            double f;
            if (st->size == 32) {
                uint32_t u32 = (uint32_t)v;
                float f32;
                memcpy(&f32, &u32, 4);
                f = f32;
            } else {
                memcpy(&f, &v, 8);
            }
            put_g(w, f);
        }
        return 0;
    }
    case CTF_OP_STRING: {
        uint64_t off = pos / 8, end = d->bits / 8;
        const uint8_t *p = d->buf + off;
        const uint8_t *nul = off < end ? memchr(p, 0, (size_t)(end - off)) : NULL;
        if (!nul)
            return TG_ERR_FORMAT;
        if (print)
            put_escaped(w, (const char *)p, (size_t)(nul - p));
        d->pos = (off + (uint64_t)(nul - p) + 1) * 8;
        return 0;
    }
    case CTF_OP_STRUCT: {
        if (++r->depth > CTF_MAX_NESTING * 4)
            return TG_ERR_LIMIT;
        if (print)
            PUTS(w, "{");
        uint32_t j = i + 1;
        if (st->flat && print) {
            /* numbers at known offsets: one bounds check for the whole struct */
            if (st->fixed_bits > d->bits - pos)
                return TG_ERR_FORMAT;
            for (uint64_t k = 0; k < st->count; k++, j++) {
                const ctf_step *cs = &r->s0[j];
                if (!cs->in_ir)
                    continue;
                put_eq(w, cs);
                uint64_t v = read_bits(d, pos + cs->off, cs->size, cs->big_endian);
                if (cs->op == CTF_OP_FLOAT) {
                    double f;
                    if (cs->size == 32) {
                        uint32_t u32 = (uint32_t)v;
                        float f32;
                        memcpy(&f32, &u32, 4);
                        f = f32;
                    } else {
                        memcpy(&f, &v, 8);
                    }
                    put_g(w, f);
                    continue;
                }
                if (cs->is_signed && cs->size < 64 && (v >> (cs->size - 1)) & 1)
                    v |= ~0ull << cs->size;
                if (cs->type->kind == CTF_T_ENUM)
                    put_enum(w, cs, v);
                else
                    put_int(w, cs, v);
            }
            d->pos = pos + st->fixed_bits;
            PUTS(w, " }");
            r->depth--;
            return 0;
        }
        for (uint64_t k = 0; k < st->count; k++) {
            const ctf_step *cs = &r->s0[j];
            bool show = print && cs->in_ir;
            if (show)
                put_eq(w, cs);
            if (cs->op == CTF_OP_INT && cs->fixed && cs->type->kind == CTF_T_INT) {
                /* a plain integer member: inline */
                uint64_t p = align_up(d->pos, cs->align);
                if (p > d->bits || cs->size > d->bits - p)
                    return TG_ERR_FORMAT;
                d->pos = p + cs->size;
                if (show) {
                    uint64_t v = read_bits(d, p, cs->size, cs->big_endian);
                    if (cs->is_signed && cs->size < 64 && (v >> (cs->size - 1)) & 1)
                        v |= ~0ull << cs->size;
                    put_int(w, cs, v);
                }
                j = cs->end;
                continue;
            }
            TG_TRY(rrun(r, j, show));
            j = cs->end;
        }
        if (print)
            PUTS(w, " }");
        r->depth--;
        return 0;
    }
    case CTF_OP_ARRAY:
    case CTF_OP_TEXT_ARRAY:
        return relems(r, st, i, st->count, print);
    case CTF_OP_SEQUENCE:
    case CTF_OP_TEXT_SEQUENCE:
        return relems(r, st, i, st->reg >= 0 ? d->regs[st->reg] : 0, print);
    case CTF_OP_VARIANT: {
        uint64_t tag = st->reg >= 0 ? d->regs[st->reg] : 0;
        const ctf_type *vt = st->type;
        bool sig = vt->ref_target && vt->ref_target->is_signed;
        uint32_t opt = UINT32_MAX;
        for (size_t k = 0; k < vt->n_ranges; k++) {
            const ctf_var_range *rg = &vt->ranges[k];
            if (sig ? ((int64_t)tag >= rg->lo && (int64_t)tag <= rg->hi)
                    : (tag >= (uint64_t)rg->lo && tag <= (uint64_t)rg->hi)) {
                opt = rg->option;
                break;
            }
        }
        if (opt == UINT32_MAX || ++r->depth > CTF_MAX_NESTING * 4)
            return TG_ERR_FORMAT;
        if (print)
            PUTS(w, "{ ");
        TG_TRY(rrun(r, st->opt[opt], print));
        if (print)
            PUTS(w, " }");
        r->depth--;
        return 0;
    }
    }
    return TG_ERR_FORMAT;
}

/* Renders one scope from bit position start if it is visible: 1 printed, 0 not, <0 error. */
static int put_scope(wbuf *w, ctf_dstream *ds, const ctf_prog *prog, uint64_t start, bool first)
{
    if (!prog || !prog->n || !prog->steps[0].in_ir)
        return 0;
    ctf_dec d = ds->d;
    d.pos = start;
    d.tree = NULL;
    d.quiet = true;
    d.on_text = NULL;
    if (!first)
        PUTS(w, ", ");
    rctx r = {.w = w, .d = &d, .ds = ds, .s0 = prog->steps};
    int rc = rrun(&r, 0, true);
    return rc < 0 ? rc : 1;
}

/* Does the scope's text depend on its own bytes only (no sequence, variant or text read
 * from a register another scope may set)? */
static bool self_contained(const ctf_prog *p)
{
    for (uint32_t i = 0; i < p->n; i++) {
        uint8_t op = p->steps[i].op;
        if (op == CTF_OP_SEQUENCE || op == CTF_OP_VARIANT || op == CTF_OP_TEXT_SEQUENCE)
            return false;
    }
    return true;
}

/* The stream event context (thread ids, process name in LTTng traces) changes rarely: its
 * text is kept with the bytes it came from and reused while they are the same. */
static int put_context(wbuf *w, ctf_dstream *ds, uint64_t start, uint64_t end, bool first)
{
    const ctf_prog *prog = ds->sc->prog_event_context;
    if (!prog || !prog->n || !prog->steps[0].in_ir)
        return 0;
    uint64_t b0 = start / 8, b1 = (end + 7) / 8;
    size_t nbytes = (size_t)(b1 - b0);
    if (nbytes == 0 || nbytes > sizeof ds->sc_raw || !self_contained(prog))
        return put_scope(w, ds, prog, start, first);
    const uint8_t *raw = ds->d.buf + b0;
    if (ds->sc_raw_len == nbytes && ds->sc_raw_shift == (start & 7) &&
        !memcmp(ds->sc_raw, raw, nbytes)) {
        if (!first)
            PUTS(w, ", ");
        put(w, ds->sc_text, ds->sc_len);
        return 1;
    }
    size_t at = w->len;
    int rc = put_scope(w, ds, prog, start, true);
    if (rc <= 0 || w->failed)
        return rc;
    size_t n = w->len - at;
    if (n > ds->sc_cap) {
        char *p = realloc(ds->sc_text, n);
        if (!p) {
            ds->sc_raw_len = 0;
            goto sep;
        }
        ds->sc_text = p;
        ds->sc_cap = n;
    }
    memcpy(ds->sc_text, w->p + at, n);
    ds->sc_len = n;
    memcpy(ds->sc_raw, raw, nbytes);
    ds->sc_raw_len = (uint32_t)nbytes;
    ds->sc_raw_shift = (uint8_t)(start & 7);
sep:
    if (!first) {
        /* the text went in without its separator: insert it */
        if (!grow(w, 2))
            return rc;
        memmove(w->p + at + 2, w->p + at, n);
        memcpy(w->p + at, ", ", 2);
        w->len += 2;
    }
    return rc;
}

int ctf_render(const tg_event *ev, tg_buf *out)
{
    if (!ev->stream || ev->stream->ops != &ctf_stream_ops || !ev->auxp)
        return 0;
    ctf_dstream *ds = ev->stream->priv;
    const ctf_event_decl *e = ev->auxp;
    bool first = true;
    int rc;
    /* the packet context, rendered once per packet */
    if (ds->pc_for != ds->pkt_index + 1) {
        wbuf pw = {.p = ds->pc_text, .cap = ds->pc_cap};
        rc = put_scope(&pw, ds, ds->sc->prog_packet_context, ds->pc_pos, true);
        ds->pc_text = pw.p;
        ds->pc_cap = pw.cap;
        ds->pc_len = pw.failed || rc <= 0 ? 0 : pw.len;
        ds->pc_for = ds->pkt_index + 1;
    }
    wbuf w = {.p = ds->rbuf, .cap = ds->rcap};
    if (ds->pc_len) {
        put(&w, ds->pc_text, ds->pc_len);
        first = false;
    }
    if ((rc = put_context(&w, ds, ev->aux[1], ev->aux[2], first)) > 0)
        first = false;
    if (rc >= 0 && (rc = put_scope(&w, ds, e->prog_context, ev->aux[2], first)) > 0)
        first = false;
    if (rc >= 0)
        rc = put_scope(&w, ds, e->prog_fields, ev->aux[3], first);
    ds->rbuf = w.p;
    ds->rcap = w.cap;
    if (w.failed || rc < 0)
        return 0;
    if (w.len)
        tg_buf_put(out, w.p, w.len);
    return 1;
}
