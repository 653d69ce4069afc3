/* lttng0_event.c - decoding the events of one LTTng 0.x tracefile, block after block.
 *
 * An event starts with a 32-bit word: the top 5 bits are the event id, the low 27 bits the
 * low bits of the cycle counter.  Ids 29 to 31 say that more follows: 31 a 16-bit id; 30 a
 * 16-bit id and a 16-bit payload size (0xFFFF: a 32-bit size follows); 29 the same plus the
 * full 64-bit cycle count (aligned to 8 when the trace is aligned).  Without a size in the
 * header the payload size comes from the marker's format.  The full cycle count of a compact
 * event is the previous one with its low 27 bits replaced, plus 2^27 when they went back
 * (the counter wrapped); each block restarts from its begin cycle count.  Times are computed
 * from the cycle count as LTTV computes them (double arithmetic, truncated to ns), so that
 * the nanoseconds printed are LTTV's to the digit.
 *
 * A block whose events_lost or subbuf_corrupt counter grew since the previous block yields a
 * lost-event record first.  Damage inside a block (an event that runs past the data end, an
 * id without a marker and no size to skip it) is reported and the cursor goes on with the
 * next block. */
#include "formats/lttng0/lttng0_internal.h"

#include "io/byte_reader.h"

#include <stdio.h>

#define LT0_AGAIN 3 /* internal: nothing to return yet, go on */

static inline size_t pad_to(size_t off, size_t align)
{
    return (align - (off & (align - 1))) & (align - 1);
}

static inline uint16_t rd16(const uint8_t *p, bool be) { return be ? tg_be16(p) : tg_le16(p); }
static inline uint32_t rd32(const uint8_t *p, bool be) { return be ? tg_be32(p) : tg_le32(p); }
static inline uint64_t rd64(const uint8_t *p, bool be) { return be ? tg_be64(p) : tg_le64(p); }

static uint64_t cycles_to_ns(const lt0_trace *lt, uint64_t cycles)
{
    double d = (double)cycles * lt->ns_per_cycle_num / (double)lt->hdr.start_freq;
    return d >= 9.2e18 ? (uint64_t)9.2e18 : (uint64_t)d;
}

/* The ns of a cycle count, saturated at the ends of int64_t (a damaged count or start can
 * put it past them). */
int64_t lt0_tsc_to_ns(const lt0_trace *lt, uint64_t tsc)
{
    int64_t ns;
    if (tsc >= lt->start_tsc)
        return __builtin_add_overflow(lt->start_ns, (int64_t)cycles_to_ns(lt, tsc - lt->start_tsc),
                                      &ns)
                   ? INT64_MAX
                   : ns;
    return __builtin_sub_overflow(lt->start_ns, (int64_t)cycles_to_ns(lt, lt->start_tsc - tsc), &ns)
               ? INT64_MIN
               : ns;
}

void lt0_cursor_init(lt0_cursor *c, const lt0_trace *lt, const lt0_tracefile *tf, tg_window *win)
{
    *c = (lt0_cursor){.lt = lt, .tf = tf, .win = win};
    if (win)
        tg_window_init(win, tf->map.data, tf->map.size, false);
}

/* Skips the rest of the block after damage at block offset pos and returns the error. */
static int block_damage(lt0_cursor *c, size_t pos, tg_error **err, const char *fmt, unsigned a,
                        unsigned b)
{
    const lt0_block *blk = &c->tf->blocks[c->block];
    if (blk->cut) { /* the block index reports the cut; nothing more to read here */
        c->pos = c->end;
        return LT0_AGAIN;
    }
    char what[160];
    snprintf(what, sizeof what, fmt, a, b);
    c->pos = c->end;
    return tg_err_at(err, TG_ERR_FORMAT, c->tf->path, blk->off + pos, "block at 0x%zx: %s",
                     blk->off, what);
}

static int start_block(lt0_cursor *c, lt0_raw *r)
{
    const lt0_block *b = &c->tf->blocks[c->block];
    if (c->win)
        tg_window_at(c->win, b->off);
    c->pos = LT0_BLOCK_HEADER_SIZE;
    c->end = b->data_size;
    c->tsc = b->begin_tsc;
    c->in_block = true;
    uint32_t lost = b->events_lost - c->lost_seen;
    bool corrupt = c->block > 0 && b->subbuf_corrupt != c->tf->blocks[c->block - 1].subbuf_corrupt;
    c->lost_seen = b->events_lost;
    if (!lost && !corrupt && !(c->block == 0 && b->subbuf_corrupt))
        return 0;
    r->m = NULL;
    r->lost = lost;
    r->tsc = b->begin_tsc;
    r->off = b->off;
    r->data = NULL;
    r->size = 0;
    return 2;
}

static int cursor_step(lt0_cursor *c, lt0_raw *r, tg_error **err)
{
    const lt0_tracefile *tf = c->tf;
    const bool be = tf->hdr.big_endian;
    const unsigned hal = tf->hdr.alignment;
    for (;;) {
        if (!c->in_block) {
            if (c->block >= tf->n_blocks) {
                if (!c->damage_started) {
                    c->damage_started = true;
                    c->damage_next = tf->damage;
                }
                const tg_error *e = c->damage_next;
                if (!e)
                    return 0;
                c->damage_next = tg_error_next(e);
                return tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
            }
            if (start_block(c, r) == 2)
                return 2;
        }
        if (c->pos >= c->end) {
            c->block++;
            c->in_block = false;
            continue;
        }
        const uint8_t *blk = tf->map.data + tf->blocks[c->block].off;
        size_t pos = c->pos, end = c->end;
        if (hal)
            pos += pad_to(pos, hal < 4 ? hal : 4);
        size_t head = pos;
        if (pos + 4 > end)
            return block_damage(c, pos, err, "event header runs past the data end (%u > %u)",
                                (unsigned)(pos + 4), (unsigned)end);
        uint32_t w = rd32(blk + pos, be);
        pos += 4;
        unsigned id = w >> LT0_TSC_BITS;
        uint32_t size = UINT32_MAX;
        bool full_tsc = false;
        if (id >= LT0_ID_SIZE_TSC) {
            size_t need = id == LT0_ID_ONLY ? 2 : 4;
            if (pos + need > end)
                return block_damage(c, pos, err,
                                    "extended event header runs past the data end (%u > %u)",
                                    (unsigned)(pos + need), (unsigned)end);
            unsigned xid = rd16(blk + pos, be);
            if (id != LT0_ID_ONLY) {
                size = rd16(blk + pos + 2, be);
                if (size == 0xFFFF) {
                    if (pos + 8 > end)
                        return block_damage(c, pos, err,
                                            "event size runs past the data end (%u > %u)",
                                            (unsigned)(pos + 8), (unsigned)end);
                    size = rd32(blk + pos + 4, be);
                    need += 4;
                }
            }
            pos += need;
            if (id == LT0_ID_SIZE_TSC) {
                if (hal)
                    pos += pad_to(pos, hal < 8 ? hal : 8);
                if (pos + 8 > end)
                    return block_damage(c, pos, err,
                                        "event cycle count runs past the data end (%u > %u)",
                                        (unsigned)(pos + 8), (unsigned)end);
                c->tsc = rd64(blk + pos, be);
                pos += 8;
                full_tsc = true;
            }
            id = xid;
        }
        if (!full_tsc) {
            uint32_t low = w & LT0_TSC_MASK;
            uint64_t t = (c->tsc & ~(uint64_t)LT0_TSC_MASK) | low;
            if (low < (c->tsc & LT0_TSC_MASK))
                t += (uint64_t)1 << LT0_TSC_BITS;
            c->tsc = t;
        }
        const lt0_channel *ch = tf->chan;
        const lt0_marker *m = id < ch->n_ids ? ch->by_id[id] : NULL;
        if (m && m->sizes.alignment && m->largest_align > 1)
            pos += pad_to(pos, m->largest_align);
        if (size == UINT32_MAX) {
            long n = -1;
            if (!m)
                return block_damage(c, head, err,
                                    "event id %u has no marker in this channel (%u markers)", id,
                                    (unsigned)ch->n_ids);
            if (!m->format)
                return block_damage(c, head, err, "event id %u: its marker has no format (%u)", id,
                                    0);
            if (!m->has_string && m->largest_align <= 1) /* most events: a fixed size */
                n = pos <= end && m->fixed_size <= end - pos ? (long)m->fixed_size : -1;
            else if (pos <= end)
                n = lt0_payload_size(m, blk + pos, end - pos, pos);
            if (n < 0)
                return block_damage(c, head, err,
                                    "event id %u: payload runs past the data end (end %u)", id,
                                    (unsigned)end);
            size = (uint32_t)n;
        } else if (pos > end || size > end - pos) {
            return block_damage(c, head, err,
                                "event payload of %u bytes runs past the data end (%u)", size,
                                (unsigned)end);
        }
        c->pos = pos + size;
        if (!m) {
            /* the header gave the size: skip just this event */
            return tg_err_at(err, TG_ERR_FORMAT, tf->path, tf->blocks[c->block].off + head,
                             "event id %u has no marker in channel %s", id, ch->name);
        }
        r->m = m;
        r->id = (uint16_t)id;
        r->tsc = c->tsc;
        r->off = tf->blocks[c->block].off + head;
        r->data_off = pos;
        r->data = blk + pos;
        r->size = size;
        return 1;
    }
}

int lt0_cursor_next(lt0_cursor *c, lt0_raw *r, tg_error **err)
{
    int rc;
    while ((rc = cursor_step(c, r, err)) == LT0_AGAIN)
        ;
    return rc;
}
