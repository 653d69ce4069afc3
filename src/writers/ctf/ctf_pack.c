/* ctf_pack.c - the CTF writer's bit buffer.
 *
 * CTF places every field at its alignment and packs integers of any bit size: little-endian
 * fields fill each byte from its least significant bit, big-endian ones from its most
 * significant bit (CTF 1.8, "Integers").  The common case - byte-aligned 8/16/32/64-bit
 * fields - is a plain store; the rest goes bit by bit.  The buffer only grows (tg_grow), is
 * zeroed as it grows so that bit fields can be OR-ed in, and is reused packet after packet. */
#include "writers/ctf/ctf_writer.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

static int reserve(cw_pack *p, uint64_t end_bits)
{
    size_t need = (size_t)((end_bits + 7) / 8);
    if (need > p->cap) {
        size_t old = p->cap;
        if (tg_grow(&p->buf, &p->cap, need, 1) < 0)
            return TG_ERR_NOMEM;
        memset(p->buf + old, 0, p->cap - old);
    }
    return 0;
}

int cw_pack_align(cw_pack *p, unsigned align_bits)
{
    if (align_bits <= 1)
        return 0;
    uint64_t to = (p->bits + align_bits - 1) / align_bits * align_bits;
    if (reserve(p, to) < 0)
        return TG_ERR_NOMEM;
    p->bits = to;
    return 0;
}

int cw_pack_uint(cw_pack *p, uint64_t v, unsigned bits, int big_endian)
{
    if (bits == 0)
        return 0;
    if (reserve(p, p->bits + bits) < 0)
        return TG_ERR_NOMEM;
    uint8_t *at = p->buf + p->bits / 8;
    if ((p->bits & 7) == 0 && (bits & 7) == 0) {
        unsigned n = bits / 8;
        for (unsigned i = 0; i < n; i++) {
            unsigned shift = big_endian ? 8 * (n - 1 - i) : 8 * i;
            at[i] = (uint8_t)(shift < 64 ? v >> shift : 0);
        }
        p->bits += bits;
        return 0;
    }
    for (unsigned i = 0; i < bits; i++) {
        uint64_t pos = p->bits + i;
        unsigned bit =
            big_endian ? (unsigned)((v >> (bits - 1 - i)) & 1) : (unsigned)((v >> i) & 1);
        if (bit)
            p->buf[pos / 8] |= (uint8_t)(big_endian ? 0x80u >> (pos & 7) : 1u << (pos & 7));
    }
    p->bits += bits;
    return 0;
}

int cw_pack_bytes(cw_pack *p, const void *src, size_t n)
{
    if (reserve(p, p->bits + (uint64_t)n * 8) < 0)
        return TG_ERR_NOMEM;
    if (n)
        memcpy(p->buf + p->bits / 8, src, n);
    p->bits += (uint64_t)n * 8;
    return 0;
}

int cw_pack_zeros(cw_pack *p, size_t n)
{
    if (reserve(p, p->bits + (uint64_t)n * 8) < 0)
        return TG_ERR_NOMEM;
    memset(p->buf + p->bits / 8, 0, n);
    p->bits += (uint64_t)n * 8;
    return 0;
}

void cw_pack_patch64(cw_pack *p, size_t off, uint64_t v, int big_endian)
{
    for (unsigned i = 0; i < 8; i++)
        p->buf[off + i] = (uint8_t)(v >> (big_endian ? 8 * (7 - i) : 8 * i));
}

void cw_pack_free(cw_pack *p)
{
    free(p->buf);
    p->buf = NULL;
    p->cap = 0;
    p->bits = 0;
}

void cw_pack_truncate(cw_pack *p, uint64_t bits)
{
    if (bits >= p->bits)
        return;
    /* callers cut at event starts, which are byte-aligned (the event header is) */
    size_t from = (size_t)((bits + 7) / 8), to = (size_t)((p->bits + 7) / 8);
    memset(p->buf + from, 0, to - from);
    p->bits = bits;
}

void cw_pack_reset(cw_pack *p) { cw_pack_truncate(p, 0); }
