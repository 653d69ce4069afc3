/* ctf_bits.h - bit-exact loads from a packet, shared by the decoder and the renderer.
 *
 * CTF numbers the bits of a little-endian field from the least significant bit of each
 * byte and those of a big-endian field from the most significant one; a field of N bits
 * at bit position P spans at most 9 bytes.  Loads never read past the mapped bytes (zeros
 * stand in), so a field at the very end of a file is read safely. */
#ifndef TG_CTF_BITS_H
#define TG_CTF_BITS_H

#include "formats/ctf/ctf_internal.h"
#include "io/byte_reader.h"

#include <string.h>

static inline uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Loads 8 bytes at byte offset off (zero beyond the mapped bytes). */
static inline void load9(const ctf_dec *d, uint64_t off, uint8_t out[16])
{
    if (off + 16 <= d->buf_len) {
        memcpy(out, d->buf + off, 16);
    } else {
        memset(out, 0, 16);
        if (off < d->buf_len)
            memcpy(out, d->buf + off, d->buf_len - off);
    }
}

/* Any field, any byte order, also near the end of the mapped bytes. */
__attribute__((noinline, unused)) static uint64_t read_bits_slow(const ctf_dec *d, uint64_t pos,
                                                                 unsigned size, bool be)
{
    uint64_t off = pos >> 3;
    unsigned sh = (unsigned)(pos & 7);
    if (!sh && off + 8 <= d->buf_len) {
        /* byte-aligned standard sizes: the common case */
        const uint8_t *p = d->buf + off;
        switch (size) {
        case 8: return p[0];
        case 16: return be ? tg_be16(p) : tg_le16(p);
        case 32: return be ? tg_be32(p) : tg_le32(p);
        case 64: return be ? tg_be64(p) : tg_le64(p);
        default: break;
        }
    }
    uint64_t mask = size == 64 ? ~0ull : ((1ull << size) - 1);
    if (!be && off + 9 <= d->buf_len) {
        /* little endian with 9 bytes mapped: one load, one shift (bit fields of headers) */
        const uint8_t *p = d->buf + off;
        uint64_t v = tg_le64(p) >> sh;
        if (sh && sh + size > 64)
            v |= (uint64_t)p[8] << (64 - sh);
        return v & mask;
    }
    if (!sh && !(size & 7)) {
        /* byte-aligned whole bytes */
        uint8_t b[16];
        load9(d, off, b);
        uint64_t v = 0;
        unsigned n = size / 8;
        if (!be) {
            for (unsigned k = n; k-- > 0;)
                v = (v << 8) | b[k];
        } else {
            for (unsigned k = 0; k < n; k++)
                v = (v << 8) | b[k];
        }
        return v;
    }
    uint8_t b[16];
    load9(d, off, b);
    unsigned nbytes = (sh + size + 7) / 8; /* <= 9 */
    if (!be) {
        /* bits are numbered from the least significant bit of each byte */
        uint64_t lo = 0;
        for (unsigned k = 0; k < 8 && k < nbytes; k++)
            lo |= (uint64_t)b[k] << (8 * k);
        uint64_t v = lo >> sh;
        if (nbytes == 9)
            v |= (uint64_t)b[8] << (64 - sh);
        return v & mask;
    }
    /* big endian: bits are numbered from the most significant bit of each byte */
    uint64_t hi = 0;
    for (unsigned k = 0; k < 8; k++)
        hi = (hi << 8) | (k < nbytes ? b[k] : 0);
    hi <<= sh;
    if (nbytes == 9 && sh)
        hi |= (uint64_t)b[8] >> (8 - sh);
    return (hi >> (64 - size)) & mask;
}

/* The common cases inline (9 bytes mapped: little endian at any bit, big endian whole
 * standard sizes), the rest out of line. */
static inline uint64_t read_bits(const ctf_dec *d, uint64_t pos, unsigned size, bool be)
{
    uint64_t off = pos >> 3;
    unsigned sh = (unsigned)(pos & 7);
    if (off + 9 <= d->buf_len) {
        const uint8_t *p = d->buf + off;
        if (!be) {
            uint64_t v = tg_le64(p) >> sh;
            if (sh + size > 64)
                v |= (uint64_t)p[8] << (64 - sh);
            return size >= 64 ? v : v & ((1ull << size) - 1);
        }
        if (!sh) {
            switch (size) {
            case 8: return p[0];
            case 16: return tg_be16(p);
            case 32: return tg_be32(p);
            case 64: return tg_be64(p);
            default: break;
            }
        }
    }
    return read_bits_slow(d, pos, size, be);
}

#endif
