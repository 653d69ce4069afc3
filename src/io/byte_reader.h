/* byte_reader.h - bounds-checked little/big-endian readers over a byte range.
 *
 * Every read of file bytes goes through these helpers.  Loads are memcpy-based, so they are
 * safe on unaligned data and compile to single moves.  A tg_reader carries its byte order,
 * chosen once per buffer, and fails (returns false, position unchanged) instead of reading
 * past its end; the caller turns that into an error with the offset (tg_reader_offset). */
#ifndef TG_BYTE_READER_H
#define TG_BYTE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t tg_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | ((unsigned)p[1] << 8));
}
static inline uint16_t tg_be16(const uint8_t *p)
{
    return (uint16_t)(((unsigned)p[0] << 8) | p[1]);
}
static inline uint32_t tg_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}
static inline uint32_t tg_be32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}
static inline uint64_t tg_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline uint64_t tg_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

typedef struct tg_reader {
    const uint8_t *base; /* start of the buffer (offsets are relative to file_offset + this) */
    size_t size;
    size_t pos;
    uint64_t file_offset; /* where base sits in its file, for error messages */
    bool big_endian;
} tg_reader;

static inline void tg_reader_init(tg_reader *r, const uint8_t *base, size_t size,
                                  uint64_t file_offset, bool big_endian)
{
    r->base = base;
    r->size = size;
    r->pos = 0;
    r->file_offset = file_offset;
    r->big_endian = big_endian;
}
static inline size_t tg_reader_left(const tg_reader *r) { return r->size - r->pos; }
static inline uint64_t tg_reader_offset(const tg_reader *r) { return r->file_offset + r->pos; }
static inline bool tg_reader_has(const tg_reader *r, size_t n) { return n <= r->size - r->pos; }
static inline bool tg_reader_skip(tg_reader *r, size_t n)
{
    if (!tg_reader_has(r, n))
        return false;
    r->pos += n;
    return true;
}
static inline bool tg_reader_seek(tg_reader *r, size_t pos)
{
    if (pos > r->size)
        return false;
    r->pos = pos;
    return true;
}
static inline bool tg_read_bytes(tg_reader *r, const uint8_t **p, size_t n)
{
    if (!tg_reader_has(r, n))
        return false;
    *p = r->base + r->pos;
    r->pos += n;
    return true;
}
static inline bool tg_read_u8(tg_reader *r, uint8_t *v)
{
    if (!tg_reader_has(r, 1))
        return false;
    *v = r->base[r->pos++];
    return true;
}
static inline bool tg_read_u16(tg_reader *r, uint16_t *v)
{
    if (!tg_reader_has(r, 2))
        return false;
    const uint8_t *p = r->base + r->pos;
    *v = r->big_endian ? tg_be16(p) : tg_le16(p);
    r->pos += 2;
    return true;
}
static inline bool tg_read_u32(tg_reader *r, uint32_t *v)
{
    if (!tg_reader_has(r, 4))
        return false;
    const uint8_t *p = r->base + r->pos;
    *v = r->big_endian ? tg_be32(p) : tg_le32(p);
    r->pos += 4;
    return true;
}
static inline bool tg_read_u64(tg_reader *r, uint64_t *v)
{
    if (!tg_reader_has(r, 8))
        return false;
    const uint8_t *p = r->base + r->pos;
    *v = r->big_endian ? tg_be64(p) : tg_le64(p);
    r->pos += 8;
    return true;
}
/* A block preceded by its 64-bit length (trace.dat's header and format files); on failure
 * the position is unchanged, so the caller reports the offset of the length itself. */
static inline bool tg_read_sized64(tg_reader *r, const uint8_t **p, uint64_t *len)
{
    size_t start = r->pos;
    uint64_t n;
    if (!tg_read_u64(r, &n) || n > tg_reader_left(r)) {
        r->pos = start;
        return false;
    }
    *len = n;
    return tg_read_bytes(r, p, (size_t)n);
}

/* A NUL-terminated string inside the buffer; *len excludes the NUL. */
static inline bool tg_read_cstr(tg_reader *r, const char **s, size_t *len)
{
    const uint8_t *start = r->base + r->pos;
    const uint8_t *nul = memchr(start, 0, r->size - r->pos);
    if (!nul)
        return false;
    *s = (const char *)start;
    *len = (size_t)(nul - start);
    r->pos += *len + 1;
    return true;
}

#endif
