/* buf.c - the growable output sequence every printer writes to.
 *
 * Printers append with tg_buf_put and the fast integer formatters below (no printf on hot
 * paths).  A buffer bound to a file descriptor writes itself out whenever it passes
 * TG_BUF_FLUSH bytes, so printing a multi-GB trace uses a fixed amount of memory.  A write
 * error is remembered and reported by tg_buf_flush / tg_buf_free. */
#include "core/buf_inline.h"
#include "core/digits.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TG_BUF_FLUSH (256 * 1024)

/* What the inline room check compares against (buf_inline.h). */
static void set_room_end(tg_buf *b)
{
    size_t end = b->cap ? b->cap - 1 : 0;
    if (b->fd >= 0 && end > TG_BUF_FLUSH)
        end = TG_BUF_FLUSH;
    b->room_end = end;
}

tg_buf *tg_buf_new(void)
{
    tg_buf *b = calloc(1, sizeof *b);
    if (b)
        b->fd = -1;
    return b;
}

tg_buf *tg_buf_new_fd(int fd)
{
    tg_buf *b = tg_buf_new();
    if (b) {
        b->fd = fd;
        set_room_end(b);
    }
    return b;
}

int tg_buf_flush(tg_buf *b)
{
    if (b->fd < 0)
        return b->failed ? TG_ERR_NOMEM : 0;
    size_t off = 0;
    while (off < b->len) {
        ssize_t n = write(b->fd, b->p + off, b->len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (!b->failed)
                b->sys_errno = errno;
            b->failed = 1;
            break;
        }
        off += (size_t)n;
    }
    b->flushed += off;
    b->len = 0;
    return b->failed ? TG_ERR_IO : 0;
}

void tg_buf_free(tg_buf *b)
{
    if (!b)
        return;
    if (b->fd >= 0)
        tg_buf_flush(b);
    free(b->p);
    free(b);
}

int tg_buf_error(const tg_buf *b) { return b->sys_errno; }

const char *tg_buf_data(const tg_buf *b)
{
    if (!b->p)
        return "";
    b->p[b->len] = 0; /* the inline writers leave the terminator to here (cap > len) */
    return b->p;
}
size_t tg_buf_len(const tg_buf *b) { return b->len; }
void tg_buf_reset(tg_buf *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = 0;
}

/* Makes room for n more bytes plus a NUL; returns the write position or NULL. */
char *tg_buf_reserve(tg_buf *b, size_t n)
{
    if (b->fd >= 0 && b->len + n > TG_BUF_FLUSH && b->len)
        tg_buf_flush(b);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) {
            if (cap > SIZE_MAX / 2) {
                b->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return NULL;
        }
        b->p = p;
        b->cap = cap;
        set_room_end(b);
    }
    return b->p + b->len;
}

/* The public writers below check the room inline (tg_buf_room) and call tg_buf_reserve only
 * when a flush or a growth is due. */
void tg_buf_put(tg_buf *b, const void *src, size_t n)
{
    if (!n) /* nothing to add: a buffer not yet grown has no position to add it at */
        return;
    char *w = tg_buf_room(b, n);
    if (!w)
        return;
    memcpy(w, src, n);
    b->len += n;
    b->p[b->len] = 0;
}

void tg_buf_puts(tg_buf *b, const char *s) { tg_buf_put(b, s, strlen(s)); }

void tg_buf_putc(tg_buf *b, char c)
{
    char *w = tg_buf_room(b, 1);
    if (!w)
        return;
    *w = c;
    b->p[++b->len] = 0;
}

void tg_buf_printf(tg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        tg_buf_put(b, small, (size_t)n);
        return;
    }
    char *w = tg_buf_reserve(b, (size_t)n);
    if (!w)
        return;
    va_start(ap, fmt);
    vsnprintf(w, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

size_t tg_digits_grouped(char *out, uint64_t abs, int neg, unsigned base)
{
    char tmp[24], *end = tmp + sizeof tmp, *d;
    const char *prefix = "";
    unsigned group = 3;
    char sep = ',';
    if (base == 16 || base == 2) {
        d = tg_hex_write(end, abs);
        prefix = "0x";
        group = 4;
        sep = ':';
    } else if (base == 8) {
        d = end;
        uint64_t v = abs;
        do
            *--d = (char)('0' + (v & 7));
        while (v >>= 3);
        prefix = "0";
        sep = ':';
    } else {
        d = tg_dec_write(end, abs);
        if (abs <= 9999)
            group = 0;
    }
    size_t n = 0, nd = (size_t)(end - d);
    if (neg)
        out[n++] = '-';
    for (const char *p = prefix; *p; p++)
        out[n++] = *p;
    for (size_t i = 0; i < nd; i++) {
        if (group && i && (nd - i) % group == 0)
            out[n++] = sep;
        out[n++] = d[i];
    }
    return n;
}

/* ---- the one digit table (core/digits.h) ----------------------------------------------- */

const char tg_dec_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const char tg_hex_pairs[513] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                               "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                               "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                               "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                               "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                               "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                               "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                               "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* Writes the decimal digits of v at the end of tmp[24]; returns the first digit. */
static char *u64_digits(uint64_t v, char tmp[24]) { return tg_dec_write(tmp + 24, v); }

char *tg_digits_dec(char *end, uint64_t v) { return tg_dec_write(end, v); }

void tg_digits_fixed(char *p, uint64_t v, size_t n) { tg_dec_fixed(p, v, n); }

void tg_buf_commit(tg_buf *b, size_t n)
{
    b->len += n;
    b->p[b->len] = 0;
}

void tg_buf_u64(tg_buf *b, uint64_t v) { tg_buf_u64_fast(b, v); }

void tg_buf_i64(tg_buf *b, int64_t v)
{
    if (v < 0) {
        tg_buf_putc(b, '-');
        tg_buf_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        tg_buf_u64(b, (uint64_t)v);
    }
}

void tg_buf_u64_pad(tg_buf *b, uint64_t v, int width, char pad)
{
    char tmp[24];
    char *p = u64_digits(v, tmp);
    int n = (int)(tmp + 24 - p);
    tg_buf_pad(b, pad, width - n);
    tg_buf_put(b, p, (size_t)n);
}

void tg_buf_hex(tg_buf *b, uint64_t v)
{
    char tmp[16];
    char *p = tg_hex_write(tmp + 16, v);
    tg_buf_put(b, p, (size_t)(tmp + 16 - p));
}

void tg_buf_pad(tg_buf *b, char c, int n)
{
    if (n <= 0)
        return;
    char *w = tg_buf_room(b, (size_t)n);
    if (!w)
        return;
    memset(w, c, (size_t)n);
    b->len += (size_t)n;
    b->p[b->len] = 0;
}
