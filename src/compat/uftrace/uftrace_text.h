/* uftrace_text.h - the small text formats uftrace's replay and report share.
 *
 * Durations print as "%3u.%03u <unit>" in the largest unit under 1000 (us, ms, s; then
 * minutes and hours), ten columns wide, blank for zero, 999.999 at most (as uftrace caps a
 * damaged duration); unknown symbols as "<hexaddr>".
 * Written straight into a tg_buf, without printf, since replay prints one per line. */
#ifndef TG_UFTRACE_TEXT_H
#define TG_UFTRACE_TEXT_H

#include "traceglot.h"
#include "core/error_internal.h"

#include <stdint.h>
#include <string.h>

/* uftrace passes durations as a signed 64-bit number and prints its absolute value, so a
 * wrapped (damaged) duration prints small: the same is done here. */
static inline uint64_t uf_abs_ns(uint64_t ns) { return (int64_t)ns < 0 ? 0 - ns : ns; }

static inline void uf_put_time(tg_buf *b, uint64_t ns)
{
    ns = uf_abs_ns(ns);
    static const char *const units[] = {"us", "ms", " s", " m", " h"};
    static const unsigned limit[] = {1000, 1000, 1000, 60, 24, 0x7fffffff};
    if (ns == 0) {
        tg_buf_pad(b, ' ', 10);
        return;
    }
    uint64_t d = ns, small = 0;
    unsigned idx;
    for (idx = 0; idx < 5; idx++) {
        small = d % limit[idx];
        d = d / limit[idx];
        if (d < limit[idx + 1])
            break;
    }
    if (idx == 5)
        idx = 4;
    if (d > 999) /* uftrace's cap "for some error cases" */
        d = small = 999;
    tg_buf_u64_pad(b, d, 3, ' ');
    tg_buf_putc(b, '.');
    tg_buf_u64_pad(b, small, 3, '0');
    tg_buf_putc(b, ' ');
    tg_buf_puts(b, units[idx]);
}

/* Three-digit groups, "000".."999" and "  0".."999", made once by uf_digits_init: the
 * replay formats a duration per line with two lookups instead of divisions by ten. */
struct uf_digits {
    char zero[1000][3]; /* zero-padded */
    char pad[1000][3];  /* space-padded */
};

static inline void uf_digits_init(struct uf_digits *t)
{
    for (int i = 0; i < 1000; i++) {
        t->zero[i][0] = (char)('0' + i / 100);
        t->zero[i][1] = (char)('0' + i / 10 % 10);
        t->zero[i][2] = (char)('0' + i % 10);
        t->pad[i][0] = i >= 100 ? t->zero[i][0] : ' ';
        t->pad[i][1] = i >= 10 ? t->zero[i][1] : ' ';
        t->pad[i][2] = t->zero[i][2];
    }
}

/* The same as uf_put_time into a char array with room for 24 bytes at p; returns the end. */
static inline char *uf_fmt_time(char *p, uint64_t ns, const struct uf_digits *dg)
{
    static const char units[5][2] = {{'u', 's'}, {'m', 's'}, {' ', 's'}, {' ', 'm'}, {' ', 'h'}};
    ns = uf_abs_ns(ns);
    if (ns == 0) {
        memset(p, ' ', 10);
        return p + 10;
    }
    uint64_t d = ns / 1000, small = ns % 1000;
    unsigned idx = 0;
    if (d >= 1000) {
        small = d % 1000;
        d /= 1000;
        idx = 1;
        if (d >= 1000) {
            small = d % 1000;
            d /= 1000;
            idx = 2;
            if (d >= 60) {
                small = d % 60;
                d /= 60;
                idx = 3;
                if (d >= 24) {
                    small = d % 24;
                    d /= 24;
                    idx = 4;
                }
            }
        }
    }
    if (d > 999) /* uftrace's cap "for some error cases" */
        d = small = 999;
    memcpy(p, dg->pad[d], 3);
    p += 3;
    p[0] = '.';
    memcpy(p + 1, dg->zero[small], 3);
    p[4] = ' ';
    p[5] = units[idx][0];
    p[6] = units[idx][1];
    return p + 7;
}

static inline void uf_put_name(tg_buf *b, const char *name, uint64_t addr)
{
    if (name) {
        tg_buf_puts(b, name);
        return;
    }
    tg_buf_putc(b, '<');
    tg_buf_hex(b, addr);
    tg_buf_putc(b, '>');
}

/* uftrace's refusal of a recording whose session map is missing (replay, report, graph):
 * TG_ERR_FORMAT with its words, or 0. */
static inline int uf_need_symbols(tg_set *set, tg_error **err)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const char *why = tg_trace_symbols_missing(tg_set_trace(set, i));
        if (why)
            return tg_err(err, TG_ERR_FORMAT, "%s", why);
    }
    return 0;
}

#endif
