/* ftrace_ring.c - ring-buffer pages into events: one stream per CPU per trace instance.
 *
 * A CPU's data is a run of pages of the kernel's ring buffer; common/linux/ring_page.h decodes a page
 * (header per header_page, records with type_len/time delta, time extends, absolute stamps,
 * padding, the missed-events flags) - the same decoder uftrace's kernel-cpuN.dat can use.
 * This file finds the pages: uncompressed data is decoded in place in the mapping;
 * compressed data is inflated one chunk at a time into one buffer per stream, so memory stays
 * bounded by the chunk size.  Missed events flagged on a page become a TG_KIND_LOST event
 * before the page's first event, where trace-cmd prints "CPU:N [EVENTS DROPPED]".  Damage (a
 * commit past the page, a record past the commit, a chunk that does not inflate) is reported
 * with its file offset; the stream then goes on with the next page or chunk. */
#include "formats/ftrace/ftrace_internal.h"
#include "core/grow.h"
#include "common/linux/ring_page.h"
#include "io/read_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_MAX_CHUNK (256u << 20)

typedef struct ft_stream {
    ft_file *f;
    const ft_buffer *b;
    const ft_cpu_data *cd;
    uint32_t page_size;
    /* the current window: the mapped cpu data, or the current inflated chunk */
    const uint8_t *win;
    size_t win_len;
    uint64_t win_file_off; /* file offset of win (chunk: of its compressed bytes) */
    tg_window reading;     /* uncompressed: win read once, page after page */
    size_t page_pos;       /* next page in the window */
    /* compressed data */
    uint32_t chunk_idx;
    size_t chunk_pos; /* offset of the next chunk header in the cpu data */
    int lane;         /* the chunks inflated by f->ahead (ftrace_ahead.c) */
    /* the current page, decoded by core's ring-buffer page decoder */
    tg_rb_layout layout;
    tg_rb_page pg;
    size_t page_index;
    uint64_t page_off; /* file offset of the page (chunk offset when compressed) */
    bool have_page, ended, trunc_reported;
    /* the last record handed out (the merge holds it until it is printed); the next record
     * is to be dropped (the printer showed it in a function_graph leaf's line: drop_next) */
    bool has_head, skip_next;
    int64_t head_ts;
    /* an event held back behind its LOST marker */
    bool held;
    tg_event held_ev;
    tg_event_class *lost_cls;
    tg_event_class *unknown_cls;
} ft_stream;

static uint32_t rd32(const ft_file *f, const uint8_t *p)
{
    return f->big_endian ? tg_be32(p) : tg_le32(p);
}

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
    const uint8_t *chunk;
    int rc = ft_ahead_take(f->ahead, s->lane, &chunk);
    if (rc == TG_ERR_LIMIT)
        return tg_err_at(err, TG_ERR_LIMIT, f->path, cd->offset + at,
                         "cpu %d: chunk %u of %u bytes exceeds the limit", cd->cpu,
                         s->chunk_idx - 1, us);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0)
        return tg_err_at(err, TG_ERR_FORMAT, f->path, cd->offset + at,
                         "cpu %d: compressed chunk %u (%u bytes) does not decompress to %u "
                         "bytes with %s",
                         cd->cpu, s->chunk_idx - 1, cs, us, f->compression);
    s->win = chunk;
    s->win_len = us;
    s->win_file_off = cd->offset + at;
    return 1;
}

/* Moves to the next page that holds data: 1, 0 at the end, <0 damage (page skipped). */
static int load_page(ft_stream *s, tg_error **err)
{
    const ft_file *f = s->f;
    const ft_cpu_data *o = s->cd->overlaps;
    if (o && !s->trunc_reported) {
        s->trunc_reported = true;
        return tg_err_at(err, TG_ERR_FORMAT, f->path, s->cd->offset,
                         "cpu %d: its %llu bytes of data overlap cpu %d's at 0x%llx: not read",
                         s->cd->cpu, (unsigned long long)s->cd->claimed, o->cpu,
                         (unsigned long long)o->offset);
    }
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
                                 "truncated)",
                                 s->cd->cpu);
            }
            return 0;
        }
        if (!s->b->compressed)
            tg_window_at(&s->reading, s->page_pos);
        const uint8_t *pg = s->win + s->page_pos;
        uint64_t off = s->win_file_off + (s->b->compressed ? 0 : s->page_pos);
        s->page_index = s->page_pos / s->page_size;
        s->page_pos += s->page_size;
        size_t commit;
        int rc = tg_rb_page_load(&s->pg, &s->layout, pg, &commit);
        if (rc < 0)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, off,
                             "cpu %d page %zu: commit %zu runs past the page end (%zu)", s->cd->cpu,
                             s->page_index, commit, (size_t)(s->page_size - s->layout.data_off));
        if (rc == 0)
            continue;
        s->page_off = off;
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

static int ring_decode(tg_stream *st, tg_event *ev, tg_error **err);

static int ring_next(tg_stream *st, tg_event *ev, tg_error **err)
{
    ft_stream *s = st->priv;
    if (s->skip_next) {
        s->skip_next = false;
        int rc = ring_decode(st, ev, err);
        if (rc <= 0) {
            s->has_head = false;
            return rc;
        }
    }
    int rc = ring_decode(st, ev, err);
    s->has_head = rc > 0;
    if (rc > 0)
        s->head_ts = ev->ts;
    return rc;
}

/* The record after the one handed out last, without taking it: in the rest of the current
 * page, or the first record of a following page of the window (uncompressed data, or the
 * current chunk).  0 when there is none there or a LOST marker comes first. */
static int peek_own(const ft_stream *s, int64_t *ts, const uint8_t **data, size_t *len)
{
    if (s->held || s->skip_next)
        return 0;
    tg_rb_page pg = s->pg;
    tg_rb_record rec;
    if (s->have_page) {
        int rc = tg_rb_page_next(&pg, &rec);
        if (rc < 0)
            return 0;
        if (rc == TG_RB_RECORD)
            goto found;
    }
    for (size_t pos = s->page_pos; pos + s->page_size <= s->win_len; pos += s->page_size) {
        size_t commit;
        int rc = tg_rb_page_load(&pg, &s->layout, s->win + pos, &commit);
        if (rc < 0 || (rc > 0 && pg.lost))
            return 0;
        if (rc == 0)
            continue;
        if (tg_rb_page_next(&pg, &rec) != TG_RB_RECORD)
            return 0;
        goto found;
    }
    return 0;
found:
    *ts = convert_ts(s->f, rec.ts);
    *data = rec.data;
    *len = rec.len;
    return 1;
}

int ft_ring_peek_next(const tg_event *ev, const uint8_t **data, size_t *len)
{
    const ft_stream *s = ev->stream->priv;
    int64_t ts;
    if (!peek_own(s, &ts, data, len))
        return 0;
    /* trace-cmd peeks the next record of the whole instance: the earliest head of its
     * cpus, the lower cpu on a tie */
    const tg_trace *t = ev->stream->trace;
    for (size_t i = 0; i < t->n_streams; i++) {
        const tg_stream *o = t->streams[i];
        if (o == ev->stream || o->ops != ev->stream->ops)
            continue;
        const ft_stream *os = o->priv;
        if (os && os->b == s->b && os->has_head &&
            (os->head_ts < ts || (os->head_ts == ts && os->cd->cpu < s->cd->cpu)))
            return 0;
    }
    return 1;
}

/* The printer printed the next record as part of the last one (a function_graph leaf). */
static void ring_drop_next(tg_stream *st)
{
    ft_stream *s = st->priv;
    s->skip_next = true;
}

static int ring_decode(tg_stream *st, tg_event *ev, tg_error **err)
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
        if (!s->have_page) {
            int rc = load_page(s, err);
            if (rc == 0) {
                s->ended = true;
                return 0;
            }
            if (rc < 0)
                return rc;
        }
        tg_rb_record rec;
        int rc = tg_rb_page_next(&s->pg, &rec);
        if (rc == TG_RB_END) {
            s->have_page = false;
            continue;
        }
        uint64_t at = s->page_off + s->layout.data_off + rec.pos;
        if (rc == TG_RB_BAD_HEADER)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, at,
                             "cpu %d page %zu: event header runs past the commit (%zu)", s->cd->cpu,
                             s->page_index, s->pg.commit);
        if (rc == TG_RB_BAD_EXTEND)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, at,
                             "cpu %d page %zu: time extend runs past the commit (%zu)", s->cd->cpu,
                             s->page_index, s->pg.commit);
        if (rc == TG_RB_BAD_LENGTH)
            return tg_err_at(err, TG_ERR_FORMAT, f->path, at,
                             "cpu %d page %zu: event length %zu runs past the page commit (%zu)",
                             s->cd->cpu, s->page_index, rec.len, s->pg.commit);
        const uint8_t *data = rec.data;
        size_t length = rec.len;
        ev->ts = convert_ts(f, rec.ts);
        ev->data = data;
        ev->size = length;
        ev->offset = at;
        ev->cpu = s->cd->cpu;
        uint32_t id = f->type_size && f->type_off + f->type_size <= length
                          ? (uint32_t)ft_read_num(f, data + f->type_off, f->type_size)
                          : 0;
        ft_event *fe = ft_event_by_id(f, id);
        ev->cls = fe ? fe->cls : s->unknown_cls;
        ev->aux[0] = id;
        /* the bytes readable from the record on, which raw mode's arrays of declared length
         * reach into as libtraceevent's do: the rest of the window (trace-cmd maps a cpu's
         * pages, or inflates a chunk's, one after the other, so a record at a page's end is
         * followed by the next page's header and records) */
        ev->aux[1] = (uint64_t)(s->win + s->win_len - data);
        if (fe && fe->is_func) /* function_graph: the call-stack builder's address, depth */
            ft_func_fields(fe, data, length, ev);
        if (f->pid_size && f->pid_off + f->pid_size <= length) {
            uint64_t pid = ft_read_num(f, data + f->pid_off, f->pid_size);
            ev->pid = ev->tid = f->pid_size == 4 ? (int32_t)(uint32_t)pid : (int32_t)pid;
        }
        if (s->pg.lost) {
            /* the page says events were lost before it: a LOST event first */
            s->held_ev = *ev;
            s->held = true;
            ev->cls = s->lost_cls;
            ev->lost = s->pg.lost > 0 ? (uint64_t)s->pg.lost : 0;
            ev->data = NULL;
            ev->size = 0;
            s->pg.lost = 0;
        }
        return 1;
    }
}

/* ---- fields ------------------------------------------------------------------------------ */

static const ft_event *event_of(const tg_event *ev) { return ev->cls ? ev->cls->fmt_data : NULL; }

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

static int ring_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const ft_event *e = event_of(ev);
    if (!e)
        return TG_ERR_USAGE;
    const ft_file *f = e->file;
    if (scope == TG_SCOPE_PAYLOAD && i < e->n_fields) {
        tg_evf_value(&e->fields[i], ev->data, ev->size, f->big_endian, out);
        return 0;
    }
    if (scope == TG_SCOPE_COMMON && i < e->n_common) {
        tg_evf_value(&e->common[i], ev->data, ev->size, f->big_endian, out);
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
    return ft_render(e, ev, ev->data, ev->size, out);
}

static const char *ring_func_name(const tg_event *ev)
{
    const ft_stream *s = ev->stream->priv;
    const tg_symbol *fn = ft_find_func(s->f, ev->addr);
    return fn ? fn->name : NULL;
}

static bool ring_call_times(const tg_event *ev, int64_t *call_ns, int64_t *ret_ns)
{
    const ft_stream *s = ev->stream->priv;
    const ft_event *e = ft_event_by_id(s->f, (uint32_t)ev->aux[0]);
    return e && e->cls == ev->cls &&
           ft_fgraph_call_times(s->f, e, ev->data, ev->size, call_ns, ret_ns);
}

/* A kernel function's module: kallsyms's "[module]", else the kernel's own image. */
static const char *ring_func_module(const tg_event *ev)
{
    const ft_stream *s = ev->stream->priv;
    const tg_symbol *fn = ft_find_func(s->f, ev->addr);
    const char *module = fn ? tg_symtab_module(&s->f->trace->symbols, fn) : NULL;
    return fn ? module ? module : "[kernel.kallsyms]" : NULL;
}

static void ring_destroy(tg_stream *st)
{
    ft_stream *s = st->priv;
    if (!s)
        return;
    free(s);
    st->priv = NULL;
}

static const struct tg_stream_ops ring_ops = {
    .next = ring_next,
    .field_count = ring_field_count,
    .field = ring_field,
    .render = ring_render,
    .drop_next = ring_drop_next,
    .func_name = ring_func_name,
    .func_module = ring_func_module,
    .call_times = ring_call_times,
    .destroy = ring_destroy,
    .reads_alone = true, /* the chunks' inflater (ftrace_ahead.c) takes a lock */
};

static int add_stream(ft_file *f, const ft_buffer *b, const ft_cpu_data *cd, tg_event_class *lost,
                      tg_event_class *unknown, tg_error **err)
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
    s->layout.page_size = b->page_size;
    s->layout.ts_off = f->hp_ts_off;
    s->layout.commit_off = f->hp_commit_off;
    s->layout.commit_size = f->hp_commit_size;
    s->layout.data_off = f->hp_data_off;
    s->layout.long_size = f->long_size;
    s->layout.big_endian = f->big_endian;
    if (b->compressed) {
        if (!f->ahead && !(f->ahead = ft_ahead_new(f->comp_kind, f->big_endian, FT_MAX_CHUNK))) {
            free(s);
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
        s->lane = ft_ahead_add_lane(f->ahead, f->map.data + cd->offset, cd->n_chunks);
        if (s->lane < 0) {
            free(s);
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        }
    } else {
        s->win = f->map.data + cd->offset;
        s->win_len = (size_t)cd->size;
        s->win_file_off = cd->offset;
        tg_window_init(&s->reading, s->win, s->win_len, true);
    }
    if (f->hp_data_off >= b->page_size) {
        free(s);
        return tg_err_at(err, TG_ERR_FORMAT, f->path, TG_NO_OFFSET,
                         "page header (%u bytes) does not fit a page of %u bytes", f->hp_data_off,
                         b->page_size);
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

static int by_offset(const void *a, const void *b)
{
    const ft_cpu_data *x = *(const ft_cpu_data *const *)a, *y = *(const ft_cpu_data *const *)b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x < y ? -1 : x > y; /* the first in the table keeps the bytes */
}

/* trace-cmd writes each cpu's data apart; cpu tables that damage made overlap (512 cpus all
 * pointing at the same pages) would have those pages decoded once per cpu, a cost that grows
 * with the square of the file.  A cpu whose data overlaps an earlier one's (in file order)
 * is emptied, and its stream reports it. */
static int mark_overlaps(ft_file *f)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; i < f->n_buffers; i++)
        n += f->buffers[i].latency ? 0 : f->buffers[i].n_cpus;
    ft_cpu_data **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < f->n_buffers; i++)
        for (size_t c = 0; !f->buffers[i].latency && c < f->buffers[i].n_cpus; c++)
            if (f->buffers[i].cpus[c].size)
                v[k++] = &f->buffers[i].cpus[c];
    qsort(v, k, sizeof *v, by_offset);
    const ft_cpu_data *last = NULL;
    for (size_t i = 0; i < k; i++) {
        ft_cpu_data *cd = v[i];
        if (last && cd->offset < last->offset + last->size) {
            cd->overlaps = last;
            cd->claimed = cd->size;
            cd->size = cd->usize = 0;
            cd->n_chunks = 0;
            cd->truncated = false;
        } else {
            last = cd;
        }
    }
    free(v);
    return 0;
}

int ft_add_streams(ft_file *f, tg_error **err)
{
    if (mark_overlaps(f) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_event_class *lost = tg_trace_add_class(f->trace, "lost", UINT32_MAX + 1ull, TG_KIND_LOST);
    tg_event_class *unknown =
        tg_trace_add_class(f->trace, "unknown", UINT32_MAX + 2ull, TG_KIND_GENERIC);
    if (!lost || !unknown)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < f->n_buffers; i++) {
        const ft_buffer *b = &f->buffers[i];
        if (b->latency)
            continue;
        for (size_t c = 0; c < b->n_cpus; c++) {
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
