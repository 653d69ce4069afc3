/* digits.h - the one digit table: integers written as text without printf.
 *
 * Every fast printer writes numbers the same way: the digit count first (so padding can be
 * written before the digits), then the digits from the last one back, two per step from a
 * table of the 100 decimal (or 256 hex) digit pairs.  The tables live in buf.c beside the
 * tg_buf formatters that use them; these helpers are inline because they sit in the hot
 * loops of the text printers.  Callers provide the memory (at least 20 bytes for a decimal
 * u64, 16 for hex). */
#ifndef TG_DIGITS_H
#define TG_DIGITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char tg_dec_pairs[201]; /* "00" "01" ... "99" */
extern const char tg_hex_pairs[513]; /* "00" "01" ... "ff" */

/* A number as babeltrace2's details sink writes it (bt_common_sep_digits): base 10 with ','
 * every 3 digits from the right, only past 9999 in size ("12,345", "-9999"); base 16 (and 2)
 * as "0x" and ':' every 4 hex digits ("0xdead:0002"); base 8 as "0" and ':' every 3; a '-'
 * first when neg.  Writes at most 48 bytes at out (no NUL) and returns how many. */
size_t tg_digits_grouped(char *out, uint64_t abs, int neg, unsigned base);

/* The number of decimal digits of v (1 for 0). */
static inline size_t tg_dec_len(uint64_t v)
{
    size_t n = 1;
    for (;;) {
        if (v < 10)
            return n;
        if (v < 100)
            return n + 1;
        if (v < 1000)
            return n + 2;
        if (v < 10000)
            return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* The number of lower-case hex digits of v (1 for 0). */
static inline size_t tg_hex_len(uint64_t v) { return (size_t)(67 - __builtin_clzll(v | 1)) / 4; }

/* Writes the decimal digits of v so that the last one ends just before end; returns the
 * first digit. */
static inline char *tg_dec_write(char *end, uint64_t v)
{
    char *e = end;
    if (v <= UINT32_MAX) { /* 32-bit steps: a multiply per pair instead of a 128-bit one */
        uint32_t x = (uint32_t)v;
        while (x >= 100) {
            uint32_t q = x / 100;
            e -= 2;
            memcpy(e, tg_dec_pairs + 2 * (x - q * 100), 2);
            x = q;
        }
        if (x >= 10) {
            e -= 2;
            memcpy(e, tg_dec_pairs + 2 * x, 2);
        } else {
            *--e = (char)('0' + x);
        }
        return e;
    }
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        e[0] = tg_dec_pairs[2 * r];
        e[1] = tg_dec_pairs[2 * r + 1];
    }
    if (v >= 10) {
        e -= 2;
        e[0] = tg_dec_pairs[2 * v];
        e[1] = tg_dec_pairs[2 * v + 1];
    } else {
        *--e = (char)('0' + v);
    }
    return e;
}

/* The same in lower-case hex. */
static inline char *tg_hex_write(char *end, uint64_t v)
{
    char *e = end;
    while (v > 0xf) {
        unsigned r = (unsigned)(v & 0xff);
        v >>= 8;
        e -= 2;
        e[0] = tg_hex_pairs[2 * r];
        e[1] = tg_hex_pairs[2 * r + 1];
    }
    if (v || e == end)
        *--e = tg_hex_pairs[2 * v + 1];
    return e;
}

/* Exactly n decimal digits of v at p, zero-padded (the higher digits of v are dropped). */
static inline void tg_dec_fixed(char *p, uint64_t v, size_t n)
{
    char *w = p + n;
    if (v <= UINT32_MAX) { /* the usual case (fractions of a second): 32-bit steps */
        uint32_t x = (uint32_t)v;
        while (n >= 2) {
            uint32_t q = x / 100;
            w -= 2;
            memcpy(w, tg_dec_pairs + 2 * (x - q * 100), 2);
            x = q;
            n -= 2;
        }
        if (n)
            *--w = (char)('0' + x % 10);
        return;
    }
    while (n >= 2) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        *--w = tg_dec_pairs[2 * r + 1];
        *--w = tg_dec_pairs[2 * r];
        n -= 2;
    }
    if (n)
        *--w = (char)('0' + v % 10);
}

#endif
