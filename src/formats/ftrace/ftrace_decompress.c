/* ftrace_decompress.c - zstd and zlib decompression of trace.dat sections and chunks.
 *
 * trace-cmd compresses metadata sections whole and flyrecord data in chunks of a few pages;
 * both arrive here with their exact uncompressed size, which is checked (a chunk that does
 * not decompress to exactly that size is damage).  The real libraries do the work. */
#include "formats/ftrace/ftrace_internal.h"

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
