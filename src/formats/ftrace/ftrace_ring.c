/* ftrace_ring.c - ring-buffer pages into events: one stream per CPU per trace instance.
 *
 * A CPU's data is a run of pages of the ring buffer as the kernel wrote them: a page header
 * (timestamp, commit = bytes used plus the missed-events flags, as header_page describes it)
 * and 4-byte aligned event records whose 32-bit header holds type_len (5 bits) and a time
 * delta (27 bits): type_len 1..28 gives the data length in words, 0 puts the length in the
 * next word, 29 is padding, 30 extends the time delta, 31 is an absolute timestamp.
 * Uncompressed data is decoded in place in the mapping; compressed data is inflated one chunk
 * at a time into one buffer per stream, so memory stays bounded by the chunk size.
 * Missed events flagged on a page become a TG_KIND_LOST event before the page's first event,
 * where trace-cmd prints "CPU:N [EVENTS DROPPED]".  Damage (a commit past the page, a record
 * past the commit, a chunk that does not inflate) is reported with its file offset; the
 * stream then goes on with the next page or chunk. */
#include "formats/ftrace/ftrace_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FT_MAX_CHUNK (256u << 20)

enum { RB_PADDING = 29, RB_TIME_EXTEND = 30, RB_TIME_STAMP = 31 };

typedef struct ft_stream {
    ft_file *f;
    const ft_buffer *b;
    const ft_cpu_data *cd;
    uint32_t page_size;
    /* the current window: the mapped cpu data, or the current inflated chunk */
    const uint8_t *win;
    size_t win_len;
    uint64_t win_file_off; /* file offset of win (chunk: of its compressed bytes) */
    size_t page_pos;       /* next page in the window */
    /* compressed data */
    uint32_t chunk_idx;
    size_t chunk_pos;      /* offset of the next chunk header in the cpu data */
    uint8_t *chunk;
    size_t chunk_cap;
    /* the current page */
    const uint8_t *page;
    uint64_t page_off;     /* file offset of the page (chunk offset when compressed) */
    size_t commit, next;
    uint64_t ts;
    int64_t lost;          /* missed events of the page, -1 unknown, 0 none */
    bool have_page, ended, trunc_reported;
    /* an event held back behind its LOST marker */
    bool held;
    tg_event held_ev;
    tg_event_class *lost_cls;
    tg_event_class *unknown_cls;
} ft_stream;

static uint32_t rd32(const ft_file *f, const uint8_t *p) { return f->big_endian ? tg_be32(p) : tg_le32(p); }

/* Loads the next chunk of compressed data into the window: 1, 0 at the end, <0 damage. */
static int load_chunk(ft_stream *s, tg_error **err)
{
    const ft_file *f = s->f;
    const ft_cpu_data *cd = s->cd;
    if (s->chunk_idx >= cd->n_chunks) {
        if (cd->truncated && !s->trunc_reported) {
            s->trunc_reported = true;
            return tg_err_at(err, TG_ERR_FORMAT, f->path, cd->offset + s->chunk_pos,
                             "cpu %d: compressed data ends in the middle of chunk %u", cd->cpu,
                             s->chunk_idx);
        }
        return 0;
    }
    const uint8_t *base = f->map.data + cd->offset;
    if (s->chunk_idx == 0)
        s->chunk_pos = 4;
    size_t at = s->chunk_pos;
    uint32_t cs = rd32(f, base + at), us = rd32(f, base + at + 4);
    s->chunk_pos = at + 8 + cs;
    s->chunk_idx++;
    s->win = NULL;
    s->win_len = 0;
    s->page_pos = 0;
    if (us > FT_MAX_CHUNK)
        return tg_err_at(err, TG_ERR_LIMIT, f->path, cd->offset + at,
                         "cpu %d: chunk %u of %u bytes exceeds the limit", cd->cpu,
                         s->chunk_idx - 1, us);
    if (us > s->chunk_cap) {
        uint8_t *nc = realloc(s->chunk, us);
        if (!nc)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        s->chunk = nc;
        s->chunk_cap = us;
    }
    if (ft_decompress(f->comp_kind, base + at + 8, cs, s->chunk, us) < 0)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, cd->offset + at,
                         "cpu %d: compressed chunk %u (%u bytes) does not decompress to %u "
                         "bytes with %s", cd->cpu, s->chunk_idx - 1, cs, us, f->compression);
    s->win = s->chunk;
    s->win_len = us;
    s->win_file_off = cd->offset + at;
    return 1;
}

/* Moves to the next page that holds data: 1, 0 at the end, <0 damage (page skipped). */
static int load_page(ft_stream *s, tg_error **err)
{
    const ft_file *f = s->f;
    for (;;) {
        s->have_page = false;
        if (s->page_pos + s->page_size > s->win_len) {
            if (s->b->compressed) {
                int rc = load_chunk(s, err);
                if (rc <= 0)
                    return rc;
                continue;
            }
            if (s->cd->truncated && !s->trunc_reported) {
                s->trunc_reported = true;
                return tg_err_at(err, TG_ERR_FORMAT, f->path, s->win_file_off + s->page_pos,
                                 "cpu %d: data ends in the middle of a page (the file is "
                                 "truncated)", s->cd->cpu);
            }
            return 0;
        }
        const uint8_t *pg = s->win + s->page_pos;
        uint64_t off = s->win_file_off + (s->b->compressed ? 0 : s->page_pos);
        size_t page_index = s->page_pos / s->page_size;
        s->page_pos += s->page_size;
        uint64_t commit = f->hp_commit_size == 8 ? (f->big_endian ? tg_be64(pg + f->hp_commit_off)
                                                                  : tg_le64(pg + f->hp_commit_off))
                                                 : rd32(f, pg + f->hp_commit_off);
        size_t size = (size_t)(commit & ((1u << 27) - 1));
        size_t room = s->page_size - f->hp_data_off;
        if (size > room)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                             "cpu %d page %zu: commit %zu runs past the page end (%zu)",
                             s->cd->cpu, page_index, size, room);
        s->lost = 0;
        if (commit & (1u << 31)) {
            s->lost = -1;
            if ((commit & (1u << 30)) && size + (size_t)f->long_size <= room) {
                const uint8_t *lp = pg + f->hp_data_off + size;
                s->lost = (int64_t)ft_read_num(f, lp, (uint32_t)f->long_size);
            }
        }
        if (!size)
            continue;
        s->page = pg;
        s->page_off = off;
        s->commit = size;
        s->next = 0;
        s->ts = f->big_endian ? tg_be64(pg + f->hp_ts_off) : tg_le64(pg + f->hp_ts_off);
        s->have_page = true;
        return 1;
    }
}

static int64_t convert_ts(const ft_file *f, uint64_t ts)
{
    if (f->have_tsc2nsec) {
        unsigned __int128 v = (unsigned __int128)ts * f->tsc_mult;
        ts = (uint64_t)(v >> f->tsc_shift) + f->tsc_offset;
    }
    return (int64_t)ts + f->ts_offset;
}

static int ring_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    ft_stream *s = st->priv;
    const ft_file *f = s->f;
    if (s->held) {
        s->held = false;
        *ev = s->held_ev;
        return 1;
    }
    if (s->ended)
        return 0;
    for (;;) {
        if (!s->have_page || s->next >= s->commit) {
            int rc = load_page(s, err);
            if (rc == 0) {
                s->ended = true;
                return 0;
            }
            if (rc < 0)
                return rc;
        }
        const uint8_t *data = s->page + f->hp_data_off;
        size_t pos = s->next;
        if (s->commit - pos < 4) {
            s->next = s->commit;
            return tg_err_at(err, TG_ERR_FORMAT, f->path, s->page_off + f->hp_data_off + pos,
                             "cpu %d: event header runs past the commit (%zu)", s->cd->cpu,
                             s->commit);
        }
        uint32_t hdr = rd32(f, data + pos);
        unsigned type_len;
        uint64_t delta;
        if (f->big_endian) {
            type_len = hdr >> 27;
            delta = hdr & ((1u << 27) - 1);
        } else {
            type_len = hdr & 31;
            delta = hdr >> 5;
        }
        size_t p = pos + 4, length;
        switch (type_len) {
        case RB_PADDING:
            if (s->commit - p < 4) {
                s->next = s->commit;
                continue;
            }
            length = rd32(f, data + p);
            s->ts += delta;
            s->next = p + length;
            if (s->next < p) /* overflow */
                s->next = s->commit;
            continue;
        case RB_TIME_EXTEND:
        case RB_TIME_STAMP: {
            if (s->commit - p < 4) {
                s->next = s->commit;
                return tg_err_at(err, TG_ERR_FORMAT, f->path, s->page_off + f->hp_data_off + pos,
                                 "cpu %d: time extend runs past the commit", s->cd->cpu);
            }
            uint64_t ext = ((uint64_t)rd32(f, data + p) << 27) + delta;
            if (type_len == RB_TIME_STAMP)
                s->ts = ext;
            else
                s->ts += ext;
            s->next = p + 4;
            continue;
        }
        case 0:
            if (s->commit - p < 4) {
                s->next = s->commit;
                return tg_err_at(err, TG_ERR_FORMAT, f->path, s->page_off + f->hp_data_off + pos,
                                 "cpu %d: event length runs past the commit", s->cd->cpu);
            }
            length = rd32(f, data + p);
            length = length >= 4 ? ((length - 4 + 3) & ~(size_t)3) : 0;
            p += 4;
            break;
        default:
            length = (size_t)type_len * 4;
            break;
        }
        if (length > s->commit - p) {
            size_t c = s->commit;
            s->next = s->commit;
            return tg_err_at(err, TG_ERR_FORMAT, f->path, s->page_off + f->hp_data_off + pos,
                             "cpu %d: event length %zu runs past the page commit (%zu)",
                             s->cd->cpu, length, c - p);
        }
        s->ts += delta;
        s->next = p + length;
        const uint8_t *rec = data + p;
        ev->ts = convert_ts(f, s->ts);
        ev->data = rec;
        ev->size = length;
        ev->offset = s->page_off + f->hp_data_off + pos;
        ev->cpu = s->cd->cpu;
        uint32_t id = f->type_size && f->type_off + f->type_size <= length
                          ? (uint32_t)ft_read_num(f, rec + f->type_off, f->type_size) : 0;
        ft_event *fe = ft_event_by_id(f, id);
        ev->cls = fe ? fe->cls : s->unknown_cls;
        ev->aux[0] = id;
        if (f->pid_size && f->pid_off + f->pid_size <= length) {
            uint64_t pid = ft_read_num(f, rec + f->pid_off, f->pid_size);
            ev->pid = ev->tid = f->pid_size == 4 ? (int32_t)(uint32_t)pid : (int32_t)pid;
        }
        if (s->lost) {
            s->held_ev = *ev;
            s->held = true;
            ev->cls = s->lost_cls;
            ev->lost = s->lost > 0 ? (uint64_t)s->lost : 0;
            ev->data = NULL;
            ev->size = 0;
            s->lost = 0;
        }
        return 1;
    }
}

/* ---- fields ------------------------------------------------------------------------------ */

static const ft_event *event_of(const tg_event *ev)
{
    return ev->cls ? ev->cls->fmt_data : NULL;
}

static size_t ring_field_count(const tg_event *ev, tg_scope scope)
{
    const ft_event *e = event_of(ev);
    if (!e)
        return 0;
    if (scope == TG_SCOPE_PAYLOAD)
        return e->n_fields;
    if (scope == TG_SCOPE_COMMON)
        return e->n_common + 1; /* + common_comm, the task name trace-cmd shows */
    return 0;
}

static void field_value(const ft_file *f, const ft_field *fl, const uint8_t *d, size_t n,
                        tg_value *out)
{
    out->name = fl->name;
    if (fl->flags & FT_F_ARRAY) {
        size_t off = fl->offset, len = fl->size;
        if (fl->flags & FT_F_DYNAMIC) {
            if (fl->offset + (size_t)fl->size > n) {
                out->type = TG_VAL_NONE;
                return;
            }
            uint64_t v = ft_read_num(f, d + fl->offset, fl->size);
            off = (size_t)(v & 0xffff);
            len = (size_t)(v >> 16 & 0xffff);
            if (fl->flags & FT_F_RELATIVE)
                off += fl->offset + fl->size;
        }
        if (off > n)
            off = n;
        if (len > n - off)
            len = n - off;
        if (fl->flags & FT_F_STRING) {
            out->type = TG_VAL_STRING;
            out->v.str.ptr = (const char *)d + off;
            out->v.str.len = strnlen((const char *)d + off, len);
            out->flags = TG_VALF_TEXT;
        } else {
            out->type = TG_VAL_BYTES;
            out->v.str.ptr = (const char *)d + off;
            out->v.str.len = len;
        }
        return;
    }
    if (fl->offset + (size_t)fl->size > n || (fl->size != 1 && fl->size != 2 && fl->size != 4 &&
                                              fl->size != 8)) {
        out->type = TG_VAL_NONE;
        return;
    }
    uint64_t v = ft_read_num(f, d + fl->offset, fl->size);
    out->bits = (uint16_t)(fl->size * 8);
    out->base = (fl->flags & FT_F_POINTER) ? 16 : 10;
    out->byte_order = f->big_endian ? 2 : 1;
    if (fl->flags & FT_F_POINTER)
        out->flags = TG_VALF_POINTER;
    if (fl->flags & FT_F_SIGNED) {
        out->type = TG_VAL_SINT;
        int sh = 64 - fl->size * 8;
        out->v.s = sh ? (int64_t)(v << sh) >> sh : (int64_t)v;
    } else {
        out->type = TG_VAL_UINT;
        out->v.u = v;
    }
}

static int ring_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const ft_event *e = event_of(ev);
    if (!e)
        return TG_ERR_USAGE;
    const ft_file *f = e->file;
    if (scope == TG_SCOPE_PAYLOAD && i < e->n_fields) {
        field_value(f, &e->fields[i], ev->data, ev->size, out);
        return 0;
    }
    if (scope == TG_SCOPE_COMMON && i < e->n_common) {
        field_value(f, &e->common[i], ev->data, ev->size, out);
        return 0;
    }
    if (scope == TG_SCOPE_COMMON && i == e->n_common) {
        size_t len;
        const char *c = ft_comm_of(f, ev->pid, &len);
        out->name = "common_comm";
        out->type = TG_VAL_STRING;
        out->flags = TG_VALF_TEXT;
        out->v.str.ptr = c;
        out->v.str.len = len;
        return 0;
    }
    return TG_ERR_USAGE;
}

static int ring_render(const tg_event *ev, tg_buf *out)
{
    const ft_event *e = event_of(ev);
    if (!e)
        return 0;
    return ft_render(e, ev->data, ev->size, out);
}

static const char *ring_func_name(const tg_event *ev)
{
    const ft_stream *s = ev->stream->priv;
    const ft_func *fn = ft_find_func(s->f, ev->addr);
    return fn ? fn->name : NULL;
}

static void ring_destroy(tg_stream *st)
{
    ft_stream *s = st->priv;
    if (!s)
        return;
    free(s->chunk);
    free(s);
    st->priv = NULL;
}

static const struct tg_stream_ops ring_ops = {
    .next = ring_next,
    .field_count = ring_field_count,
    .field = ring_field,
    .render = ring_render,
    .func_name = ring_func_name,
    .destroy = ring_destroy,
};

static int add_stream(ft_file *f, const ft_buffer *b, const ft_cpu_data *cd,
                      tg_event_class *lost, tg_event_class *unknown, tg_error **err)
{
    ft_stream *s = calloc(1, sizeof *s);
    if (!s)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    s->f = f;
    s->b = b;
    s->cd = cd;
    s->page_size = b->page_size;
    s->lost_cls = lost;
    s->unknown_cls = unknown;
    if (!b->compressed) {
        s->win = f->map.data + cd->offset;
        s->win_len = (size_t)cd->size;
        s->win_file_off = cd->offset;
    }
    if (f->hp_data_off >= b->page_size) {
        free(s);
        return tg_err_at(err, TG_ERR_FORMAT, f->path, TG_NO_OFFSET,
                         "page header (%u bytes) does not fit a page of %u bytes",
                         f->hp_data_off, b->page_size);
    }
    char name[96];
    if (b->name && b->name[0])
        snprintf(name, sizeof name, "%s/cpu%d", b->name, cd->cpu);
    else
        snprintf(name, sizeof name, "cpu%d", cd->cpu);
    if (!tg_trace_add_stream(f->trace, &ring_ops, name, cd->cpu, -1, s)) {
        free(s);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    return 0;
}

/* The CPU data is read once, front to back: map its pages in with one call instead of a
 * page fault each (a hint; failure is harmless). */
static void prefault(const ft_file *f, const ft_cpu_data *cd)
{
    if (!cd->size)
        return;
    uintptr_t a = (uintptr_t)(f->map.data + cd->offset) & ~(uintptr_t)4095;
    uintptr_t e = (uintptr_t)(f->map.data + cd->offset + cd->size);
#ifdef MADV_POPULATE_READ
    if (madvise((void *)a, e - a, MADV_POPULATE_READ) == 0)
        return;
#endif
    madvise((void *)a, e - a, MADV_WILLNEED);
}

int ft_add_streams(ft_file *f, tg_error **err)
{
    tg_event_class *lost = tg_trace_add_class(f->trace, "lost", UINT32_MAX + 1ull, TG_KIND_LOST);
    tg_event_class *unknown = tg_trace_add_class(f->trace, "unknown", UINT32_MAX + 2ull,
                                                 TG_KIND_GENERIC);
    if (!lost || !unknown)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < f->n_buffers; i++) {
        const ft_buffer *b = &f->buffers[i];
        if (b->latency)
            continue;
        for (size_t c = 0; c < b->n_cpus; c++) {
            if (!b->compressed)
                prefault(f, &b->cpus[c]);
            TG_TRY(add_stream(f, b, &b->cpus[c], lost, unknown, err));
        }
        if (i != 0)
            continue;
        /* CPUs of the machine without data still count (trace-cmd's "cpus=N"): they get
         * empty streams */
        for (int cpu = 0; cpu < f->cpus && cpu < 4096; cpu++) {
            bool have = false;
            for (size_t c = 0; c < b->n_cpus && !have; c++)
                have = b->cpus[c].cpu == cpu;
            if (have)
                continue;
            ft_cpu_data *cd = tg_arena_alloc(&f->trace->arena, sizeof *cd);
            if (!cd)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            cd->cpu = cpu;
            cd->offset = 0;
            TG_TRY(add_stream(f, b, cd, lost, unknown, err));
        }
    }
    return 0;
}
