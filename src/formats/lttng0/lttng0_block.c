/* lttng0_block.c - the block (sub-buffer) headers of an LTTng 0.x tracefile.
 *
 * Every block starts with the same 68-byte header (trace format 2.3 to 2.6; the files of
 * those versions lay it out identically, the 2008 text describes an older one):
 *
 *   u64 cycle_count_begin, cycle_count_end   TSC when the block was opened and closed
 *   u32 magic 0x00D6B7ED                      read in either byte order: fixes the order
 *   u8  major (2), minor (3..6), arch_size (bytes of a pointer), alignment (0: packed)
 *   u64 start_time_sec, start_time_usec       wall time at the trace start
 *   u64 start_freq                            cycles per second (all along the trace)
 *   u32 freq_scale                            divisor of the frequency
 *   u32 data_size                             bytes used in the block, header included
 *                                             (up to 2.4: lost_size, the unused bytes at
 *                                             the end; the 2.3 and 2.5 files tell so)
 *   u32 sb_size                               the block's size (data plus padding)
 *   u32 events_lost, subbuf_corrupt           counted since the trace start (may wrap)
 *
 * Blocks are self-sized, so a tracefile whose channel changed block size is read as it is.
 * In flight-recorder mode the tracer overwrites its oldest blocks and the consumer writes the
 * survivors in ring order, so the index is sorted by the begin cycle count.  The first block
 * that does not add up stops the index; the blocks before it are still read. */
#include "formats/lttng0/lttng0_internal.h"

#include "core/grow.h"
#include "io/byte_reader.h"

#include <stdlib.h>

int lt0_header_parse(const uint8_t *p, size_t n, lt0_header *h, const char **why)
{
    if (n < LT0_BLOCK_HEADER_SIZE) {
        *why = "shorter than the 68-byte block header";
        return TG_ERR_FORMAT;
    }
    if (tg_le32(p + 16) == LT0_MAGIC)
        h->big_endian = false;
    else if (tg_be32(p + 16) == LT0_MAGIC)
        h->big_endian = true;
    else {
        *why = "no LTTng magic 0x00D6B7ED at offset 16 of the block";
        return TG_ERR_FORMAT;
    }
    h->major = p[20];
    h->minor = p[21];
    h->arch_size = p[22];
    h->alignment = p[23];
    if (h->major != 2 || h->minor < 3 || h->minor > 6) {
        *why = "trace format version other than 2.3 to 2.6";
        return TG_ERR_UNSUPPORTED;
    }
    if (h->arch_size != 4 && h->arch_size != 8) {
        *why = "pointer size other than 4 or 8 bytes";
        return TG_ERR_FORMAT;
    }
    if (h->alignment != 0 && h->alignment != 1 && h->alignment != 2 && h->alignment != 4 &&
        h->alignment != 8) {
        *why = "alignment other than 0, 1, 2, 4 or 8";
        return TG_ERR_FORMAT;
    }
    tg_reader r;
    tg_reader_init(&r, p, n, 0, h->big_endian);
    r.pos = 24;
    (void)(tg_read_u64(&r, &h->start_sec) && tg_read_u64(&r, &h->start_usec) &&
           tg_read_u64(&r, &h->start_freq) && tg_read_u32(&r, &h->freq_scale));
    if (h->start_freq == 0 || h->freq_scale == 0) {
        *why = "zero start frequency or frequency scale";
        return TG_ERR_FORMAT;
    }
    return 0;
}

static int cmp_block(const void *a, const void *b)
{
    const lt0_block *x = a, *y = b;
    if (x->begin_tsc != y->begin_tsc)
        return x->begin_tsc < y->begin_tsc ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Where the block after a damaged one starts: its own size when that is plausible, else the
 * size of the previous good block (a channel's blocks are usually all the same size). */
static size_t skip_size(uint32_t sb_size, size_t left, size_t prev)
{
    if (sb_size >= LT0_BLOCK_HEADER_SIZE && sb_size <= left)
        return sb_size;
    return prev;
}

int lt0_blocks_index(lt0_tracefile *tf, tg_error **err)
{
    const uint8_t *p = tf->map.data;
    size_t size = tf->map.size, off = 0, cap = 0, prev = 0, index = 0;
    const char *why = NULL;
    int rc = lt0_header_parse(p, size, &tf->hdr, &why);
    if (rc < 0)
        return tg_err_at(err, rc, tf->path, 0, "%s", why);
    for (; off < size; index++) {
        lt0_header h;
        size_t left = size - off;
        tg_reader r;
        tg_reader_init(&r, p + off, left, off, tf->hdr.big_endian);
        lt0_block b = {.off = off};
        rc = lt0_header_parse(p + off, left, &h, &why);
        if (rc == 0 && (h.big_endian != tf->hdr.big_endian || h.arch_size != tf->hdr.arch_size)) {
            rc = TG_ERR_FORMAT;
            why = "byte order or pointer size differs from the first block";
        }
        if (rc == 0) {
            (void)(tg_read_u64(&r, &b.begin_tsc) && tg_read_u64(&r, &b.end_tsc));
            r.pos = 52;
            (void)(tg_read_u32(&r, &b.data_size) && tg_read_u32(&r, &b.sb_size) &&
                   tg_read_u32(&r, &b.events_lost) && tg_read_u32(&r, &b.subbuf_corrupt));
        } else if (left >= LT0_BLOCK_HEADER_SIZE) {
            r.pos = 56;
            (void)tg_read_u32(&r, &b.sb_size);
        }
        if (rc < 0) {
            tg_err_at(&tf->damage, rc, tf->path, off, "block %zu: %s", index, why);
        } else if (b.sb_size < LT0_BLOCK_HEADER_SIZE) {
            rc = tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, off + 56,
                           "block %zu: block size %u is smaller than its 68-byte header", index,
                           b.sb_size);
        } else if (h.minor <= 4 && b.data_size > b.sb_size - LT0_BLOCK_HEADER_SIZE) {
            rc = tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, off + 52,
                           "block %zu: lost size %u leaves no room for the header in a block of %u",
                           index, b.data_size, b.sb_size);
        } else if (h.minor >= 5 &&
                   (b.data_size < LT0_BLOCK_HEADER_SIZE || b.data_size > b.sb_size)) {
            rc = tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, off + 52,
                           "block %zu: data size %u is outside the header and block sizes (68..%u)",
                           index, b.data_size, b.sb_size);
        }
        if (rc < 0) {
            size_t skip = skip_size(b.sb_size, left, prev);
            if (!skip)
                break;
            off += skip;
            continue;
        }
        if (h.minor <= 4) /* lost_size: the unused bytes at the end */
            b.data_size = b.sb_size - b.data_size;
        bool cut = b.sb_size > left;
        if (cut) {
            tg_err_at(&tf->damage, TG_ERR_FORMAT, tf->path, off,
                      "block %zu: block of %u bytes runs past the end of the file (%zu bytes left)",
                      index, b.sb_size, left);
            b.cut = true;
            if (b.data_size > left)
                b.data_size = (uint32_t)left;
        }
        if (tg_grow(&tf->blocks, &cap, tf->n_blocks + 1, sizeof *tf->blocks) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        tf->blocks[tf->n_blocks++] = b;
        if (cut)
            break;
        prev = b.sb_size;
        off += b.sb_size;
    }
    if (tf->n_blocks > 1)
        qsort(tf->blocks, tf->n_blocks, sizeof *tf->blocks, cmp_block);
    return 0;
}
