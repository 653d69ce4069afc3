/* buf_inline.h - tg_buf's writers inlined, for printers whose cost is mostly the writing.
 *
 * The same tg_buf as the public calls (one output buffer): this header only shows its layout
 * so that a hot printer checks the room and copies in place without a call per piece.  The
 * room check is one comparison against `room_end` (the capacity less the NUL byte, or the
 * flush threshold of a buffer bound to a file descriptor); the slow path is buf.c's.
 * Pieces written here are not NUL-terminated one by one: tg_buf_data terminates the
 * contents when asked. */
#ifndef TG_BUF_INLINE_H
#define TG_BUF_INLINE_H

#include "traceglot.h"
#include "core/digits.h"

#include <stdint.h>
#include <string.h>

struct tg_buf {
    char *p;
    size_t len, cap;
    size_t room_end;   /* len + n <= room_end: n bytes fit without a flush or a growth */
    int fd;            /* -1: in-memory */
    int failed;        /* allocation or write failure seen */
    uint64_t flushed;  /* bytes written out to fd so far */
    int sys_errno;     /* the first failed write's errno (tg_buf_error) */
    tg_output *output; /* the output the buffer writes (tg_buf_output), or NULL */
};

/* The output a converter writes through out (tg_convert_to binds it): where the parts of a
 * split conversion go.  NULL for a buffer bound to a plain descriptor or to memory. */
static inline tg_output *tg_buf_output(const tg_buf *b) { return b->output; }

/* Bytes appended since the buffer was made, written out or not (the size of its file). */
static inline uint64_t tg_buf_total(const tg_buf *b) { return b->flushed + b->len; }

/* Makes room for n more bytes (flushing or growing); the write position, or NULL. */
char *tg_buf_reserve(tg_buf *b, size_t n);

/* The write position with room for n bytes, or NULL (allocation failure, remembered). */
static inline char *tg_buf_room(tg_buf *b, size_t n)
{
    if (__builtin_expect(b->len + n <= b->room_end, 1))
        return b->p + b->len;
    return tg_buf_reserve(b, n);
}

/* Copies n bytes to o; short pieces as two overlapping fixed-size moves (no loop, no call:
 * a memcpy of a length not known at compile time is a call). */
static inline __attribute__((always_inline)) void tg_copy_short(char *o, const char *s, size_t n)
{
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

/* Appends n bytes (tg_copy_short). */
static inline void tg_buf_put_fast(tg_buf *b, const char *s, size_t n)
{
    char *o = tg_buf_room(b, n);
    if (!o)
        return;
    b->len += n;
    tg_copy_short(o, s, n);
}

#define TG_BUF_LIT(b, lit) tg_buf_put_fast((b), (lit), sizeof(lit) - 1)

/* Decimal digits of v written in place, two at a time from the last one back; the count
 * comes from the bit length (log10 2 ~ 1233 / 4096) and one comparison. */
__attribute__((always_inline)) static inline void tg_buf_u64_fast(tg_buf *b, uint64_t v)
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
    char *o = tg_buf_room(b, 20);
    if (!o)
        return;
    if (v < 10) {
        *o = (char)('0' + v);
        b->len++;
        return;
    }
    unsigned t = ((unsigned)(64 - __builtin_clzll(v)) * 1233) >> 12;
    unsigned n = t + 1 - (v < p10[t]);
    o += n;
    b->len += n;
    while (v >= 1ull << 32) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        o -= 2;
        memcpy(o, tg_dec_pairs + 2 * r, 2);
    }
    uint32_t x = (uint32_t)v;
    while (x >= 100) {
        unsigned r = x % 100;
        x /= 100;
        o -= 2;
        memcpy(o, tg_dec_pairs + 2 * r, 2);
    }
    if (x >= 10)
        memcpy(o - 2, tg_dec_pairs + 2 * x, 2);
    else
        o[-1] = (char)('0' + x);
}

#endif
