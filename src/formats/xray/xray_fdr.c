/* xray_fdr.c - flight data recorder (FDR) mode XRay logs, versions 1-5.
 *
 * After the file header come thread buffers.  A buffer holds 16-byte metadata records
 * (first byte: bit 0 set, kind in bits 1-7) and 8-byte function records (bit 0 clear; bits
 * 1-3 the type: enter, exit, tail exit, enter with arguments; bits 4-31 the function id; then
 * a 32-bit TSC delta from the last full TSC).  Metadata kinds: 0 NewBuffer (tid), 1
 * EndOfBuffer (v1), 2 NewCPUId (cpu, full TSC), 3 TSCWrap (full TSC), 4 WallTimeMarker, 5
 * CustomEventMarker (size, then TSC or, v5, a delta; the payload follows), 6 CallArgument,
 * 7 BufferExtents (v2+: bytes of records that follow in this buffer; v3+ readers skip to the
 * next extents record after them), 8 TypedEventMarker (size, delta, type; payload follows),
 * 9 PID (v3+).
 *
 * Open walks the buffers once and records each block (a buffer from its NewBuffer record):
 * thread, process, wall clock, byte range.  Every block is one stream, created in the order
 * llvm-xray visits them (xray_order.c), so a thread with several buffers has several
 * streams with its tid.  A stream decodes its block in place like llvm-xray's expander:
 * TSC = base + delta, CPU from NewCPUId, call arguments appended to the function record
 * before them.  Damage (unknown kinds, records running past the extents or the file) is
 * reported with its offset and the walk goes on at the next buffer. */
#include "formats/xray/xray_internal.h"

#include "io/byte_reader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MK_NEW_BUFFER = 0,
    MK_END_OF_BUFFER = 1,
    MK_NEW_CPU = 2,
    MK_TSC_WRAP = 3,
    MK_WALLTIME = 4,
    MK_CUSTOM = 5,
    MK_CALL_ARG = 6,
    MK_EXTENTS = 7,
    MK_TYPED = 8,
    MK_PID = 9,
    MK_END
};

typedef struct fdr_stream {
    xray_file *xf;
    const xray_block *blk;
    uint64_t pos, end;
    uint64_t base_tsc;
    uint64_t pid;
    int32_t tid;
    uint16_t cpu;
    bool ignoring;
    int64_t sticky_func;
    uint16_t sticky_type;
    bool report_open_errors;
    tg_window win; /* over the block: given back once read (blocks are a buffer's size) */
} fdr_stream;

typedef struct fdr_index {
    xray_block *v;
    size_t n, cap;
    /* (pid, tid) -> thread number, linear: threads are few */
    struct {
        uint64_t pid;
        int32_t tid;
    } * th;
    size_t n_th, cap_th;
} fdr_index;

static xray_block *new_block(fdr_index *ix, uint64_t start)
{
    if (tg_grow(&ix->v, &ix->cap, ix->n + 1, sizeof *ix->v) < 0)
        return NULL;
    xray_block *b = &ix->v[ix->n++];
    memset(b, 0, sizeof *b);
    b->start = b->end = start;
    b->last_func = -1;
    b->last_type = -1;
    return b;
}

static int thread_of(fdr_index *ix, uint64_t pid, int32_t tid, uint32_t *out)
{
    for (size_t i = ix->n_th; i-- > 0;)
        if (ix->th[i].pid == pid && ix->th[i].tid == tid) {
            *out = (uint32_t)i;
            return 0;
        }
    TG_TRY(tg_grow(&ix->th, &ix->cap_th, ix->n_th + 1, sizeof *ix->th));
    ix->th[ix->n_th].pid = pid;
    ix->th[ix->n_th].tid = tid;
    *out = (uint32_t)ix->n_th++;
    return 0;
}

/* Size of the record at p (16 or 8, plus a custom/typed payload), 0 when unknown. */
static uint64_t record_size(const xray_file *xf, const uint8_t *p, uint64_t left)
{
    if (!(p[0] & 1))
        return XRAY_FDR_FUNC;
    unsigned kind = p[0] >> 1;
    if (kind >= MK_END)
        return 0;
    if ((kind == MK_CUSTOM || kind == MK_TYPED) && left >= XRAY_FDR_META) {
        int32_t sz = (int32_t)tg_le32(p + 1);
        if (sz <= 0)
            return 0;
        return XRAY_FDR_META + (uint64_t)sz;
    }
    (void)xf;
    return XRAY_FDR_META;
}

static void note(xray_file *xf, const char *path, uint64_t off, const char *fmt, uint64_t a,
                 uint64_t b)
{
    tg_error *e = NULL;
    char msg[200];
    snprintf(msg, sizeof msg, fmt, a, b);
    tg_err_at(&e, TG_ERR_FORMAT, path, off, "%s", msg);
    tg_err_append(&xf->open_errors, e);
}

/* Walks the buffers; fills ix with blocks.  Damage goes to xf->open_errors. */
static int index_blocks(tg_trace *t, xray_file *xf, fdr_index *ix)
{
    const uint8_t *d = xf->map.data;
    uint64_t size = xf->map.size;
    unsigned ver = xf->hdr.version;
    uint64_t off = XRAY_HEADER_SIZE;
    uint64_t region_end = ver >= 3 ? off : size;
    xray_block *cur = NULL;
    tg_window win; /* the walk reads the file once: streams read their blocks again later */
    tg_window_init(&win, d, size, true);
    while (off < size) {
        if (ver >= 3 && off >= region_end) {
            tg_window_at(&win, off);
            /* the next BufferExtents record, byte by byte as llvm-xray seeks it */
            uint64_t p = off;
            while (p < size && !((d[p] & 1) && (d[p] >> 1) == MK_EXTENTS))
                p++;
            if (p >= size) {
                if (p > off)
                    note(xf, t->path, off,
                         "%" PRIu64
                         " bytes after the last buffer hold no BufferExtents record%.0" PRIu64,
                         p - off, 0);
                break;
            }
            if (p + XRAY_FDR_META > size) {
                note(xf, t->path, p,
                     "truncated BufferExtents record (%" PRIu64 " of %" PRIu64 " bytes)", size - p,
                     XRAY_FDR_META);
                break;
            }
            uint64_t ext = tg_le64(d + p + 1);
            off = p + XRAY_FDR_META;
            region_end = off + ext;
            if (ext > size - off) {
                note(xf, t->path, p,
                     "buffer extents of %" PRIu64 " bytes run past the end of the file (%" PRIu64
                     " bytes left)",
                     ext, size - off);
                region_end = size;
            }
            cur = NULL; /* a buffer starts a block unless it lacks a NewBuffer record */
            if (off < region_end && !((d[off] & 1) && (d[off] >> 1) == MK_NEW_BUFFER) && ix->n) {
                /* continuation of the previous thread's block */
                xray_block prev = ix->v[ix->n - 1];
                cur = new_block(ix, off);
                if (!cur)
                    return TG_ERR_NOMEM;
                *cur = prev;
                cur->start = cur->end = off;
                cur->last_func = -1;
                cur->last_type = -1;
            }
            continue;
        }
        uint64_t limit = ver >= 3 ? region_end : size;
        if (cur && !(d[off] & 1)) {
            /* a run of function records: only the last one's id matters here */
            uint64_t last = off;
            while (limit - off >= XRAY_FDR_FUNC && !(d[off] & 1)) {
                last = off;
                off += XRAY_FDR_FUNC;
            }
            if (off != last) {
                cur->last_func = (int64_t)(tg_le32(d + last) >> 4);
                cur->end = off;
            }
            if (off >= limit || (d[off] & 1))
                continue;
        }
        const uint8_t *p = d + off;
        uint64_t rs = record_size(xf, p, limit - off);
        if (rs == 0) {
            unsigned kind = p[0] >> 1;
            note(xf, t->path, off,
                 kind >= MK_END ? "unknown metadata record kind %" PRIu64 "%.0" PRIu64
                                : "invalid payload size in metadata record kind %" PRIu64
                                  "%.0" PRIu64,
                 kind, 0);
            if (ver >= 3) {
                if (cur)
                    cur->end = off; /* the stream stops before the damage */
                cur = NULL;
                off = region_end;
            } else {
                off += XRAY_FDR_META;
                if (cur)
                    cur->end = off < size ? off : size;
            }
            continue;
        }
        if (rs > limit - off) {
            note(xf, t->path, off,
                 "record of %" PRIu64 " bytes runs past the end of its buffer (%" PRIu64
                 " bytes left)",
                 rs, limit - off);
            if (cur)
                cur->end = off;
            cur = NULL;
            off = limit;
            continue;
        }
        if ((p[0] & 1) && (p[0] >> 1) == MK_NEW_BUFFER) {
            cur = new_block(ix, off);
            if (!cur)
                return TG_ERR_NOMEM;
            cur->tid = (int32_t)tg_le32(p + 1);
            cur->pid = ver == 2 ? (uint64_t)(int64_t)cur->tid : 0;
        } else if (!cur) {
            if (ix->n == 0 || ver >= 3) {
                /* records before any NewBuffer: llvm-xray files them under thread 0 */
                cur = new_block(ix, off);
                if (!cur)
                    return TG_ERR_NOMEM;
            } else {
                cur = &ix->v[ix->n - 1];
            }
        }
        if (p[0] & 1) {
            unsigned kind = p[0] >> 1;
            if (kind == MK_WALLTIME) {
                cur->has_wall = true;
                cur->wall_sec = tg_le64(p + 1);
                cur->wall_nsec = tg_le32(p + 9);
            } else if (kind == MK_PID && ver >= 3) {
                cur->pid = (uint64_t)(int64_t)(int32_t)tg_le32(p + 1);
            } else if (kind == MK_TYPED) {
                cur->last_type = tg_le16(p + 9);
            }
        } else {
            cur->last_func = (int64_t)(tg_le32(p) >> 4);
        }
        off += rs;
        cur->end = off;
    }
    tg_window_done(&win);
    xf->data_end = size;
    for (size_t i = 0; i < ix->n; i++)
        TG_TRY(thread_of(ix, ix->v[i].pid, ix->v[i].tid, &ix->v[i].thread));
    return 0;
}

/* ---- the stream: one block, decoded like llvm-xray's trace expander ---------------------- */

static int fdr_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    fdr_stream *fs = s->priv;
    xray_file *xf = fs->xf;
    const uint8_t *d = xf->map.data;
    const char *path = s->trace->path;
    unsigned ver = xf->hdr.version;
    while (fs->pos < fs->end) {
        uint64_t off = fs->pos;
        const uint8_t *p = d + off;
        if (!(p[0] & 1)) {
            if (fs->end - off < XRAY_FDR_FUNC) {
                fs->pos = fs->end;
                return tg_err_at(err, TG_ERR_FORMAT, path, off, "truncated function record");
            }
            fs->pos += XRAY_FDR_FUNC;
            uint32_t w = tg_le32(p);
            unsigned kind = (w >> 1) & 7u;
            if (kind > 3)
                return tg_err_at(err, TG_ERR_FORMAT, path, off,
                                 "unknown function record type %u (0-3 are known)", kind);
            if (fs->ignoring)
                continue;
            fs->base_tsc += tg_le32(p + 4);
            uint64_t nargs = 0;
            const uint8_t *args = d + fs->pos;
            while (fs->end - fs->pos >= XRAY_FDR_META && d[fs->pos] == ((MK_CALL_ARG << 1) | 1)) {
                nargs++;
                fs->pos += XRAY_FDR_META;
            }
            if (nargs)
                kind = XRAY_REC_ENTER_ARG;
            fs->sticky_func = (int64_t)(w >> 4);
            ev->ts = xray_tsc_to_ns(xf, fs->base_tsc);
            ev->cls = xf->cls[kind];
            ev->cpu = fs->cpu;
            ev->tid = fs->tid;
            ev->pid = (int32_t)fs->pid;
            ev->addr = (uint64_t)(w >> 4);
            ev->offset = off;
            ev->data = nargs ? args : NULL;
            ev->size = (size_t)nargs * XRAY_FDR_META;
            ev->aux[XRAY_AUX_TSC] = fs->base_tsc;
            ev->aux[XRAY_AUX_KIND] = kind;
            ev->aux[XRAY_AUX_TYPE] = fs->sticky_type;
            ev->aux[XRAY_AUX_NARGS] = nargs;
            return 1;
        }
        uint64_t rs = record_size(xf, p, fs->end - off);
        unsigned kind = p[0] >> 1;
        if (rs == 0 || rs > fs->end - off) {
            fs->pos = fs->end;
            return tg_err_at(err, TG_ERR_FORMAT, path, off,
                             "metadata record kind %u cannot be read here", kind);
        }
        fs->pos += rs;
        switch (kind) {
        case MK_NEW_BUFFER:
            fs->tid = (int32_t)tg_le32(p + 1);
            fs->ignoring = false;
            if (ver == 2)
                fs->pid = (uint64_t)(int64_t)fs->tid;
            break;
        case MK_END_OF_BUFFER:
            if (ver >= 2)
                return tg_err_at(err, TG_ERR_FORMAT, path, off,
                                 "EndOfBuffer record in a version %u log (only version 1 has them)",
                                 ver);
            fs->ignoring = true;
            break;
        case MK_NEW_CPU:
            fs->cpu = tg_le16(p + 1);
            fs->base_tsc = tg_le64(p + 3);
            break;
        case MK_TSC_WRAP: fs->base_tsc = tg_le64(p + 1); break;
        case MK_PID: fs->pid = (uint64_t)(int64_t)(int32_t)tg_le32(p + 1); break;
        case MK_CUSTOM:
        case MK_TYPED: {
            if (fs->ignoring)
                break;
            uint32_t sz = tg_le32(p + 1);
            uint64_t tsc;
            uint16_t cpu = fs->cpu;
            uint16_t type = fs->sticky_type;
            if (kind == MK_TYPED || ver >= 5) {
                fs->base_tsc += (uint64_t)(int64_t)(int32_t)tg_le32(p + 5);
                tsc = fs->base_tsc;
                if (kind == MK_TYPED) {
                    type = tg_le16(p + 9);
                    fs->sticky_type = type;
                }
            } else {
                tsc = tg_le64(p + 5);
                cpu = ver >= 4 ? tg_le16(p + 13) : 0;
            }
            unsigned k = kind == MK_TYPED ? XRAY_REC_TYPED : XRAY_REC_CUSTOM;
            ev->ts = xray_tsc_to_ns(xf, tsc);
            ev->cls = xf->cls[k];
            ev->cpu = cpu;
            ev->tid = fs->tid;
            ev->pid = (int32_t)fs->pid;
            ev->addr = (uint64_t)fs->sticky_func;
            ev->offset = off;
            ev->data = p + XRAY_FDR_META;
            ev->size = sz;
            ev->aux[XRAY_AUX_TSC] = tsc;
            ev->aux[XRAY_AUX_KIND] = k;
            ev->aux[XRAY_AUX_TYPE] = type;
            ev->aux[XRAY_AUX_NARGS] = 0;
            return 1;
        }
        default: break; /* walltime, extents, stray call arguments */
        }
    }
    tg_window_done(&fs->win);
    if (fs->report_open_errors && xf->open_errors) {
        fs->report_open_errors = false;
        if (err) {
            *err = xf->open_errors;
            xf->open_errors = NULL;
            return tg_error_status(*err);
        }
    }
    return 0;
}

/* next_batch: a run of plain function records (and the NewCPUId and TSCWrap records between
 * them, which only change the stream's state) decoded in one loop, each event as next()
 * makes it.  It stops before anything else (call arguments after a record, custom and
 * typed events, damage, the block's end, a v1 EndOfBuffer), which next() then reads. */
static size_t fdr_next_batch(tg_stream *s, tg_event *evs, size_t max)
{
    fdr_stream *fs = s->priv;
    xray_file *xf = fs->xf;
    if (fs->ignoring)
        return 0;
    const uint8_t *d = xf->map.data;
    uint64_t pos = fs->pos, end = fs->end, tsc = fs->base_tsc;
    uint16_t cpu = fs->cpu;
    int32_t tid = fs->tid, pid = (int32_t)fs->pid;
    uint64_t type = fs->sticky_type;
    int64_t sticky = fs->sticky_func;
    size_t n = 0;
    while (n < max && end - pos >= XRAY_FDR_FUNC) {
        const uint8_t *p = d + pos;
        if (p[0] & 1) {
            unsigned kind = p[0] >> 1;
            if (end - pos < XRAY_FDR_META || (kind != MK_NEW_CPU && kind != MK_TSC_WRAP))
                break;
            if (kind == MK_NEW_CPU) {
                cpu = tg_le16(p + 1);
                tsc = tg_le64(p + 3);
            } else {
                tsc = tg_le64(p + 1);
            }
            pos += XRAY_FDR_META;
            continue;
        }
        uint32_t w = tg_le32(p);
        unsigned kind = (w >> 1) & 7u;
        uint64_t after = pos + XRAY_FDR_FUNC;
        if (kind > 3 || (end - after >= XRAY_FDR_META && d[after] == ((MK_CALL_ARG << 1) | 1)))
            break;
        tsc += tg_le32(p + 4);
        sticky = (int64_t)(w >> 4);
        tg_event *ev = &evs[n++];
        ev->ts = xray_tsc_to_ns(xf, tsc);
        ev->cls = xf->cls[kind];
        ev->cpu = cpu;
        ev->tid = tid;
        ev->pid = pid;
        ev->addr = (uint64_t)(w >> 4);
        ev->offset = pos;
        ev->data = NULL;
        ev->size = 0;
        ev->aux[XRAY_AUX_TSC] = tsc;
        ev->aux[XRAY_AUX_KIND] = kind;
        ev->aux[XRAY_AUX_TYPE] = type;
        ev->aux[XRAY_AUX_NARGS] = 0;
        pos = after;
    }
    fs->pos = pos;
    fs->base_tsc = tsc;
    fs->cpu = cpu;
    fs->sticky_func = sticky;
    return n;
}

static void fdr_destroy(tg_stream *s)
{
    free(s->priv);
    s->priv = NULL;
}

static int fdr_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    fdr_stream *fs = s->priv;
    const xray_block *b = fs->blk;
    fs->pos = b->start;
    fs->end = b->end;
    fs->tid = b->tid;
    fs->pid = b->pid;
    fs->cpu = 0;
    fs->base_tsc = 0;
    fs->ignoring = false;
    fs->sticky_func = b->sticky_func;
    fs->sticky_type = b->sticky_type;
    tg_window_init(&fs->win, fs->xf->map.data + b->start, b->end - b->start, false);
    return 0;
}

static const struct tg_stream_ops fdr_ops = {
    .next = fdr_next,
    .next_batch = fdr_next_batch,
    .field_count = xray_field_count,
    .field = xray_field,
    .func_name = xray_event_func_name,
    .func_module = xray_event_func_module,
    .destroy = fdr_destroy,
    .rewind = fdr_rewind,
    .events_independent = true, /* records decoded from the mapped file alone */
};

int xray_fdr_open(tg_trace *t, xray_file *xf, tg_error **err)
{
    fdr_index ix = {0};
    size_t *order = NULL;
    int rc = index_blocks(t, xf, &ix);
    if (rc == 0 && ix.n) {
        order = malloc(ix.n * sizeof *order);
        rc = order ? xray_llvm_block_order(ix.v, ix.n, order) : TG_ERR_NOMEM;
    }
    /* blocks live as long as the trace: copy them to the arena */
    xray_block *blocks = NULL;
    if (rc == 0 && ix.n) {
        blocks = tg_arena_alloc(&t->arena, ix.n * sizeof *blocks);
        if (!blocks)
            rc = TG_ERR_NOMEM;
        else
            memcpy(blocks, ix.v, ix.n * sizeof *blocks);
    }
    /* llvm-xray's expander is one per thread: the last function id and typed-event type of
     * a block carry into the thread's next block (custom events and the "type" word). */
    if (rc == 0 && ix.n) {
        struct {
            int64_t func;
            uint16_t type;
        } *st = calloc(ix.n_th ? ix.n_th : 1, sizeof *st);
        if (!st)
            rc = TG_ERR_NOMEM;
        for (size_t i = 0; st && i < ix.n; i++) {
            xray_block *b = &blocks[order[i]];
            b->sticky_func = st[b->thread].func;
            b->sticky_type = st[b->thread].type;
            if (b->last_func >= 0)
                st[b->thread].func = b->last_func;
            if (b->last_type >= 0)
                st[b->thread].type = (uint16_t)b->last_type;
        }
        free(st);
    }
    for (size_t i = 0; rc == 0 && i < ix.n; i++) {
        const xray_block *b = &blocks[order[i]];
        fdr_stream *fs = calloc(1, sizeof *fs);
        if (!fs) {
            rc = TG_ERR_NOMEM;
            break;
        }
        fs->xf = xf;
        fs->blk = b;
        fs->pos = b->start;
        fs->end = b->end;
        fs->tid = b->tid;
        fs->pid = b->pid;
        fs->sticky_func = b->sticky_func;
        fs->sticky_type = b->sticky_type;
        fs->report_open_errors = i == 0;
        tg_window_init(&fs->win, xf->map.data + b->start, b->end - b->start, false);
        char name[64];
        snprintf(name, sizeof name, "tid %" PRId32 " buffer@0x%" PRIx64, b->tid, b->start);
        if (!tg_trace_add_stream(t, &fdr_ops, name, -1, b->tid, fs)) {
            free(fs);
            rc = TG_ERR_NOMEM;
        }
    }
    free(ix.v);
    free(ix.th);
    free(order);
    if (rc < 0)
        return tg_err(err, rc, "out of memory");
    if (ix.n == 0 && xf->open_errors) {
        if (err) {
            *err = xf->open_errors;
            xf->open_errors = NULL;
        }
        return TG_ERR_FORMAT;
    }
    return 0;
}
