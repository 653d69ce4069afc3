/* ftrace_decompress.c - zstd and zlib decompression of trace.dat sections and chunks.
 *
 * trace-cmd compresses metadata sections whole and flyrecord data in chunks of a few pages;
 * both arrive here with their exact uncompressed size, which is checked (a chunk that does
 * not decompress to exactly that size is damage).  That size is only what the file says:
 * past what real sections and chunks need, a buffer not yet large enough grows with the
 * output the compressed bytes really produce (streaming), never to a size a damaged header
 * names (an 8 KB file saying 640 MB).  A size more than the compressed bytes can produce at
 * all is refused before anything is allocated: zstd writes at most one block of 128 KiB per 4
 * bytes (a 3-byte block header and one repeated byte), deflate at most 258 bytes per 2 bits
 * (1032 per byte), so every buffer stays bounded by the file's size.  The real libraries do
 * the work. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"

#include <stdint.h>

#include <string.h>
#include <zlib.h>
#include <zstd.h>

int ft_decompress(int kind, const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen)
{
    return ft_decompress_with(kind, NULL, src, srclen, dst, dstlen);
}

void *ft_zstd_ctx_new(void) { return ZSTD_createDCtx(); }
void ft_zstd_ctx_free(void *ctx) { ZSTD_freeDCtx(ctx); }

/* ctx: a zstd context to reuse from chunk to chunk (NULL: a fresh one per call) */
int ft_decompress_with(int kind, void *ctx, const uint8_t *src, size_t srclen, uint8_t *dst,
                       size_t dstlen)
{
    if (kind == 1) {
        size_t r = ctx ? ZSTD_decompressDCtx(ctx, dst, dstlen, src, srclen)
                       : ZSTD_decompress(dst, dstlen, src, srclen);
        if (ZSTD_isError(r) || r != dstlen)
            return -1;
        return 0;
    }
    if (kind == 2) {
        uLongf out = (uLongf)dstlen;
        if (srclen > (uLong)-1 || uncompress(dst, &out, src, (uLong)srclen) != Z_OK ||
            out != dstlen)
            return -1;
        return 0;
    }
    return -1;
}

/* The size the file says is allocated at once up to DIRECT bytes (trace-cmd's chunks are a
 * few pages), or up to RATIO times the compressed size (kallsyms compress about 5 times):
 * the hot path stays one call.  Past that the buffer grows from FIRST_STEP with the output. */
enum { FIRST_STEP = 64 * 1024, DIRECT = 1024 * 1024, RATIO = 64 };

/* The next capacity to decode into: doubling from FIRST_STEP, at most dstlen. */
static int step(uint8_t **buf, size_t *cap, size_t pos, size_t dstlen)
{
    size_t next = pos < FIRST_STEP ? FIRST_STEP : 2 * pos;
    return tg_grow(buf, cap, next < dstlen ? next : dstlen, 1);
}

static int stream_zstd(void *ctx, const uint8_t *src, size_t srclen, uint8_t **buf, size_t *cap,
                       size_t dstlen)
{
    ZSTD_DCtx *d = ctx ? ctx : ZSTD_createDCtx();
    if (!d)
        return TG_ERR_NOMEM;
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_inBuffer in = {src, srclen, 0};
    size_t pos = 0;
    int rc = -1;
    for (;;) {
        size_t lim = *cap < dstlen ? *cap : dstlen;
        if (pos == lim && lim < dstlen) {
            if (step(buf, cap, pos, dstlen) != 0) {
                rc = TG_ERR_NOMEM;
                break;
            }
            continue;
        }
        ZSTD_outBuffer out = {*buf, lim, pos};
        size_t was_in = in.pos, r = ZSTD_decompressStream(d, &out, &in);
        if (ZSTD_isError(r))
            break;
        bool progress = out.pos != pos || in.pos != was_in;
        pos = out.pos;
        if (r == 0 && in.pos == in.size) {
            rc = pos == dstlen ? 0 : -1;
            break;
        }
        if (!progress && (in.pos == in.size || pos == dstlen))
            break; /* the input ends inside a frame, or the output runs past dstlen */
    }
    if (!ctx)
        ZSTD_freeDCtx(d);
    return rc;
}

static int stream_zlib(const uint8_t *src, size_t srclen, uint8_t **buf, size_t *cap, size_t dstlen)
{
    if (srclen > UINT32_MAX)
        return -1;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK)
        return TG_ERR_NOMEM;
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)srclen;
    size_t pos = 0;
    int rc = -1;
    for (;;) {
        size_t lim = *cap < dstlen ? *cap : dstlen;
        if (pos == lim && lim < dstlen) {
            if (step(buf, cap, pos, dstlen) != 0) {
                rc = TG_ERR_NOMEM;
                break;
            }
            continue;
        }
        size_t room = lim - pos < UINT32_MAX ? lim - pos : UINT32_MAX;
        zs.next_out = *buf + pos;
        zs.avail_out = (uInt)room;
        int z = inflate(&zs, Z_NO_FLUSH);
        pos += room - zs.avail_out;
        if (z == Z_STREAM_END) {
            rc = pos == dstlen ? 0 : -1;
            break;
        }
        if (z == Z_BUF_ERROR && (zs.avail_in == 0 || pos == dstlen))
            break; /* the input ends inside the stream, or the output runs past dstlen */
        if (z != Z_OK && z != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&zs);
    return rc;
}

/* The most that srclen bytes of the kind can decompress to. */
static uint64_t most_from(int kind, size_t srclen)
{
    if (kind == 1)
        return ((uint64_t)srclen / 4 + 1) * (128u << 10);
    return (uint64_t)srclen * 1032 + 1024;
}

int ft_decompress_into(int kind, void *ctx, const uint8_t *src, size_t srclen, uint8_t **buf,
                       size_t *cap, size_t dstlen)
{
    if (dstlen > most_from(kind, srclen))
        return -1; /* damage: no data of that size decompresses to it */
    bool direct = dstlen <= DIRECT || dstlen / RATIO <= srclen;
    if (tg_grow(buf, cap, direct ? (dstlen ? dstlen : 1) : 1, 1) != 0)
        return TG_ERR_NOMEM;
    if (*cap >= dstlen) /* room there: one call */
        return ft_decompress_with(kind, ctx, src, srclen, *buf, dstlen);
    if (kind == 1)
        return stream_zstd(ctx, src, srclen, buf, cap, dstlen);
    if (kind == 2)
        return stream_zlib(src, srclen, buf, cap, dstlen);
    return -1;
}
