/* la_text.c - printing numbers and graphs the way lttng-analyses' Python prints them, for the
 * text of `traceglot analyze`: str.format padding counted in characters (the bars are
 * multi-byte), times of day from time.gmtime/localtime, repr() of a float, round(x, 3), and
 * statistics.stdev, which Python computes exactly on the integers and rounds once (a double
 * formula would differ in the last bit, and LAMI prints every bit). */
#include "analysis/la_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int utf8_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void la_pad(tg_buf *out, const char *s, int width, char align)
{
    int pad = width - utf8_chars(s);
    if (align == '>')
        tg_buf_pad(out, ' ', pad);
    tg_buf_puts(out, s);
    if (align != '>')
        tg_buf_pad(out, ' ', pad);
}

void la_timestamp(char *buf, size_t size, int64_t ns, bool date, bool gmt)
{
    int64_t sec = ns >= 0 ? ns / 1000000000 : -((-ns + 999999999) / 1000000000);
    int64_t frac = ns - sec * 1000000000;
    time_t t = (time_t)sec;
    struct tm tm;
    if (gmt)
        gmtime_r(&t, &tm);
    else
        localtime_r(&t, &tm);
    if (date)
        snprintf(buf, size, "%04d-%02d-%02d %02d:%02d:%02d.%09lld", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)frac);
    else
        snprintf(buf, size, "%02d:%02d:%02d.%09lld", tm.tm_hour, tm.tm_min, tm.tm_sec,
                 (long long)frac);
}

void la_print_timerange(const la_run *r, tg_buf *out, int64_t begin, int64_t end)
{
    char b[64], e[64];
    la_timestamp(b, sizeof b, begin, true, r->conf.gmt);
    la_timestamp(e, sizeof e, end, true, r->conf.gmt);
    tg_buf_printf(out, "Timerange: [%s, %s]\n", b, e);
}

void la_float_repr(char *buf, size_t size, double x)
{
    char tmp[64];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
        if (strtod(tmp, NULL) == x)
            break;
    }
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
    /* tmp: [-]d.ddde[+-]XX -> digits and the decimal point's place */
    const char *s = tmp;
    bool neg = *s == '-';
    if (neg)
        s++;
    char digits[32];
    size_t nd = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            digits[nd++] = *s;
    int exp10 = *s == 'e' ? atoi(s + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    int point = exp10 + 1; /* digits before the decimal point */
    size_t n = 0;
    char o[80];
    if (neg)
        o[n++] = '-';
    if (point <= -4 || point > 16) { /* repr's scientific form */
        o[n++] = digits[0];
        if (nd > 1) {
            o[n++] = '.';
            for (size_t i = 1; i < nd; i++)
                o[n++] = digits[i];
        }
        n += (size_t)snprintf(o + n, sizeof o - n, "e%c%02d", exp10 < 0 ? '-' : '+',
                              exp10 < 0 ? -exp10 : exp10);
    } else if (point <= 0) {
        o[n++] = '0';
        o[n++] = '.';
        for (int i = 0; i < -point; i++)
            o[n++] = '0';
        for (size_t i = 0; i < nd; i++)
            o[n++] = digits[i];
    } else {
        for (int i = 0; i < point; i++)
            o[n++] = (size_t)i < nd ? digits[i] : '0';
        o[n++] = '.';
        if ((size_t)point >= nd)
            o[n++] = '0';
        for (size_t i = (size_t)point; i < nd; i++)
            o[n++] = digits[i];
    }
    o[n] = 0;
    snprintf(buf, size, "%s", o);
}

double la_round3(double x)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.3f", x); /* exact decimal rounding, ties to even */
    return strtod(tmp, NULL);
}

/* ---- statistics.stdev: sqrt(S / D) rounded once, S = n*Sxx - Sx^2, D = n*(n-1) ---- */

typedef unsigned __int128 u128;
typedef struct {
    uint64_t w[4]; /* little-endian limbs */
} u256;

static u256 mul_128_64(u128 a, uint64_t b)
{
    u256 r = {{0}};
    u128 lo = (u128)(uint64_t)a * b;
    u128 hi = (u128)(uint64_t)(a >> 64) * b + (uint64_t)(lo >> 64);
    r.w[0] = (uint64_t)lo;
    r.w[1] = (uint64_t)hi;
    r.w[2] = (uint64_t)(hi >> 64);
    return r;
}

static u256 from_128(u128 a) { return (u256){{(uint64_t)a, (uint64_t)(a >> 64), 0, 0}}; }

static u256 shl256(u256 x, int k)
{
    while (k >= 64) {
        x.w[3] = x.w[2];
        x.w[2] = x.w[1];
        x.w[1] = x.w[0];
        x.w[0] = 0;
        k -= 64;
    }
    if (k > 0)
        for (int i = 3; i >= 0; i--)
            x.w[i] = (x.w[i] << k) | (i ? x.w[i - 1] >> (64 - k) : 0);
    return x;
}

static int cmp256(u256 a, u256 b)
{
    for (int i = 3; i >= 0; i--)
        if (a.w[i] != b.w[i])
            return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
}

/* sign of S/D - m^2, m the midpoint above the positive double d */
static int cmp_mid_above(u128 S, uint64_t D, double d)
{
    int e;
    double f = frexp(d, &e);
    uint64_t m53 = (uint64_t)ldexp(f, 53);
    u128 M = (u128)(2 * m53 + 1);
    int E2 = 2 * (e - 54);
    u256 rhs = mul_128_64(M * M, D);
    u256 lhs = from_128(S);
    if (E2 >= 0)
        rhs = shl256(rhs, E2);
    else
        lhs = shl256(lhs, -E2);
    return cmp256(lhs, rhs);
}

double la_stdev(const int64_t *xs, size_t n)
{
    if (n < 2)
        return NAN;
    __int128 sx = 0;
    u128 sxx = 0;
    for (size_t i = 0; i < n; i++) {
        sx += xs[i];
        sxx += (u128)((__int128)xs[i] * xs[i]);
    }
    u128 S = (u128)((__int128)((u128)n * sxx) - sx * sx);
    uint64_t D = (uint64_t)n * (uint64_t)(n - 1);
    if (S == 0)
        return 0.0;
    double r = (double)sqrtl((long double)S / (long double)D);
    /* the double whose rounding interval holds sqrt(S/D) */
    for (int k = 0; k < 4; k++) {
        double below = nextafter(r, 0.0);
        if (cmp_mid_above(S, D, r) >= 0)
            r = nextafter(r, INFINITY);
        else if (below > 0 && cmp_mid_above(S, D, below) < 0)
            r = below;
        else
            break;
    }
    return r;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void la_prio_list(char *buf, size_t size, const int64_t *prios, size_t n)
{
    int64_t *sorted = n ? malloc(n * sizeof *sorted) : NULL;
    size_t len = 0;
    buf[0] = 0;
    if (!sorted || !n) {
        snprintf(buf, size, "[]");
        free(sorted);
        return;
    }
    memcpy(sorted, prios, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_i64);
    len += (size_t)snprintf(buf + len, size - len, "[");
    for (size_t i = 0; i < n && len < size;) {
        size_t k = i;
        while (k < n && sorted[k] == sorted[i])
            k++;
        len +=
            (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "", (long long)sorted[i]);
        if (k - i > 1 && len < size)
            len += (size_t)snprintf(buf + len, size - len, " (%zu times)", k - i);
        i = k;
    }
    if (len < size)
        snprintf(buf + len, size - len, "]");
    free(sorted);
}

int la_sort(size_t *idx, size_t n, la_before_fn before, const void *arg)
{
    if (n < 2)
        return 0;
    size_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return TG_ERR_NOMEM;
    for (size_t width = 1; width < n; width *= 2) { /* bottom-up merge: stable */
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = before(idx[b], idx[a], arg) ? idx[b++] : idx[a++];
            while (a < mid)
                tmp[k++] = idx[a++];
            while (b < hi)
                tmp[k++] = idx[b++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
    free(tmp);
    return 0;
}

#define GRAPH_WIDTH 80
static const char bar_char[] = "\xe2\x96\x88"; /* U+2588 FULL BLOCK */

static int value_text(char *buf, size_t size, double v, bool integral, const char *unit)
{
    if (integral)
        return snprintf(buf, size, "%.0f%s%s", v, unit ? " " : "", unit ? unit : "");
    return snprintf(buf, size, "%.2f%s%s", v, unit ? " " : "", unit ? unit : "");
}

static void bar_graph(tg_buf *out, const char *title, const char *label_header, const char *unit,
                      const la_bar *data, size_t n, bool integral)
{
    if (!n)
        return;
    double max = 0;
    int max_len = 0;
    char text[64];
    for (size_t i = 0; i < n; i++) {
        if (data[i].value > max)
            max = data[i].value;
        int len = value_text(text, sizeof text, data[i].value, integral, unit);
        if (len > max_len)
            max_len = len;
    }
    tg_buf_puts(out, title);
    if (label_header) {
        tg_buf_pad(out, ' ', GRAPH_WIDTH - (int)strlen(title) + 1 + max_len + 1);
        tg_buf_puts(out, label_header);
    }
    tg_buf_putc(out, '\n');
    tg_buf_pad(out, '#', GRAPH_WIDTH);
    tg_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++) {
        int w = max == 0 ? 0 : (int)(GRAPH_WIDTH * data[i].value / max);
        for (int k = 0; k < w; k++)
            tg_buf_put(out, bar_char, 3);
        tg_buf_pad(out, ' ', GRAPH_WIDTH - w);
        tg_buf_putc(out, ' ');
        int len = value_text(text, sizeof text, data[i].value, integral, unit);
        tg_buf_pad(out, ' ', max_len - len);
        tg_buf_puts(out, text);
        tg_buf_putc(out, ' ');
        tg_buf_puts(out, data[i].label);
        tg_buf_putc(out, '\n');
    }
    tg_buf_putc(out, '\n');
}

void la_bar_graph(tg_buf *out, const char *title, const char *label_header, const char *unit,
                  const la_bar *data, size_t n)
{
    bar_graph(out, title, label_header, unit, data, n, false);
}

void la_bar_graph_int(tg_buf *out, const char *title, const char *label_header, const char *unit,
                      const la_bar *data, size_t n)
{
    bar_graph(out, title, label_header, unit, data, n, true);
}

void la_freq_graph(tg_buf *out, const char *title, const char *unit, const double *lower,
                   const int64_t *counts, size_t n)
{
    if (!n)
        return;
    int64_t max = 0;
    int max_len = 0;
    char text[32];
    for (size_t i = 0; i < n; i++) {
        if (counts[i] > max)
            max = counts[i];
        int len = snprintf(text, sizeof text, "%lld", (long long)counts[i]);
        if (len > max_len)
            max_len = len;
    }
    tg_buf_puts(out, title);
    if (unit)
        tg_buf_printf(out, " (%s)", unit);
    tg_buf_putc(out, '\n');
    tg_buf_pad(out, '#', GRAPH_WIDTH);
    tg_buf_putc(out, '\n');
    const int width = GRAPH_WIDTH - 8;
    for (size_t i = 0; i < n; i++) {
        tg_buf_printf(out, "%7.3f ", lower[i]);
        int w = max == 0 ? 0 : (int)((double)(width * counts[i]) / (double)max);
        for (int k = 0; k < w; k++)
            tg_buf_put(out, bar_char, 3);
        tg_buf_pad(out, ' ', width - w);
        tg_buf_putc(out, ' ');
        int len = snprintf(text, sizeof text, "%lld", (long long)counts[i]);
        tg_buf_pad(out, ' ', max_len - len);
        tg_buf_puts(out, text);
        tg_buf_putc(out, '\n');
    }
    tg_buf_putc(out, '\n');
}

void la_bar_graph_str(tg_buf *out, const char *title, const char *label_header,
                      const double *values, const char *const *value_texts,
                      const char *const *labels, size_t n)
{
    if (!n)
        return;
    double max = 0;
    int max_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (values[i] > max)
            max = values[i];
        if (utf8_chars(value_texts[i]) > max_len)
            max_len = utf8_chars(value_texts[i]);
    }
    tg_buf_puts(out, title);
    if (label_header) {
        tg_buf_pad(out, ' ', GRAPH_WIDTH - utf8_chars(title) + 1 + max_len + 1);
        tg_buf_puts(out, label_header);
    }
    tg_buf_putc(out, '\n');
    tg_buf_pad(out, '#', GRAPH_WIDTH);
    tg_buf_putc(out, '\n');
    for (size_t i = 0; i < n; i++) {
        int w = max == 0 ? 0 : (int)(GRAPH_WIDTH * values[i] / max);
        for (int k = 0; k < w; k++)
            tg_buf_put(out, bar_char, 3);
        tg_buf_pad(out, ' ', GRAPH_WIDTH - w);
        tg_buf_putc(out, ' ');
        tg_buf_pad(out, ' ', max_len - utf8_chars(value_texts[i]));
        tg_buf_puts(out, value_texts[i]);
        tg_buf_putc(out, ' ');
        tg_buf_puts(out, labels[i]);
        tg_buf_putc(out, '\n');
    }
    tg_buf_putc(out, '\n');
}
