/* ctf_text.c - babeltrace2's text of one CTF value: the out-of-line pieces of the one
 * babeltrace2 printer (ctf_text.h has the inline ones; ctf_decode.c walks the fields).
 *
 * Rules (babeltrace2 2.0.4): integers in their display base (hex upper-case and masked to
 * the size rounded up to a nibble, octal with a leading 0, binary with 0b and every bit),
 * enumerations as ( "A", "B" : container = N ) or ( <unknown> : container = N ), floats %g
 * (written here without printf for the usual values, rounded as glibc does), strings quoted
 * with C escapes (other control bytes as \xNN). */
#include "formats/ctf/ctf_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Integers in base 2, 8 or 16 (and 10 for the callers below). */
void ctf_text_int_base(tg_buf *w, const ctf_step *st, uint64_t u)
{
    unsigned len = st->size;
    char tmp[80], *q = tmp + sizeof tmp;
    switch (st->type->base) {
    case 2: {
        char *o = tg_buf_room(w, len + 2);
        if (!o)
            return;
        *o++ = '0';
        *o++ = 'b';
        for (unsigned k = len; k-- > 0;)
            *o++ = (u >> k) & 1 ? '1' : '0';
        w->len += len + 2;
        return;
    }
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
        tg_buf_put_fast(w, q, (size_t)(tmp + sizeof tmp - q));
        return;
    case 16:
        if (len < 64) {
            /* babeltrace2 masks a signed value with ~(~0 << r); for 61..63-bit integers r is
             * 64, a shift that x86-64 takes modulo 64: the mask is 0 and it prints 0x0 */
            unsigned r = (len + 3) & ~3u;
            if (r < 64)
                u &= (1ull << r) - 1;
            else if (st->is_signed)
                u = 0;
        }
        do {
            *--q = "0123456789ABCDEF"[u & 15];
            u >>= 4;
        } while (u);
        *--q = 'x';
        *--q = '0';
        tg_buf_put_fast(w, q, (size_t)(tmp + sizeof tmp - q));
        return;
    default:
        if (st->is_signed && (int64_t)u < 0) {
            TG_BUF_LIT(w, "-");
            tg_buf_u64_fast(w, 0 - u);
        } else {
            tg_buf_u64_fast(w, u);
        }
    }
}

static inline bool needs_escape(unsigned char c)
{
    return c < 32 || c == 127 || c == '\\' || c == '\'' || c == '"' || c == '?';
}

void ctf_text_escaped(tg_buf *w, const char *s, size_t n)
{
    const char *nul = memchr(s, 0, n);
    if (nul)
        n = (size_t)(nul - s);
    char *o0 = tg_buf_room(w, n * 4 + 2), *o = o0;
    if (!o)
        return;
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
    w->len += (size_t)(o - o0);
}

void ctf_text_enum(tg_buf *w, const ctf_step *st, uint64_t v)
{
    const ctf_type *ty = st->type;
    TG_BUF_LIT(w, "( ");
    size_t n = 0;
    for (size_t k = 0; k < ty->n_maps; k++) {
        const ctf_enum_map *m = &ty->maps[k];
        if (!ctf_enum_map_has(ty, m, v))
            continue;
        if (n++)
            TG_BUF_LIT(w, ", ");
        ctf_text_escaped(w, m->label, strlen(m->label));
    }
    if (!n)
        TG_BUF_LIT(w, "<unknown>");
    TG_BUF_LIT(w, " : container = ");
    ctf_text_int(w, st, v);
    TG_BUF_LIT(w, " )");
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
        double m = k > 22     ? a * 1e22 * p10d[k - 22]
                   : k >= 0   ? a * p10d[k]
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
void ctf_text_g(tg_buf *w, double x)
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
        tg_buf_put_fast(w, tmp, (size_t)(o - tmp));
        return;
    }
slow:;
    int k = snprintf(tmp, sizeof tmp, "%g", x);
    tg_buf_put_fast(w, tmp, k > 0 ? (size_t)k : 0);
}
