/* ctf_stream.c - CTF data streams: packets, event headers, clocks, lost events.
 *
 * next() walks the mapped stream file packet by packet: the trace packet header and the
 * stream packet context give the stream class, the packet and content sizes, the begin
 * time and the discarded-event counter; then each event's header (its id, possibly through
 * the extended-header escape, and its N-bit timestamp, extended across wraps against the
 * stream clock), stream context, event context and payload are skipped with the compiled
 * steps, keeping only the positions for lazy field decoding.  An increase of the discarded
 * counter or a gap in the packet sequence numbers becomes a TG_KIND_LOST event.  The
 * event's cpu is its packet's cpu_id and its thread the vtid (else tid) of its contexts,
 * read as the steps skip them (the meanings set by name in ctf_resolve.c). */
#include "formats/ctf/ctf_btreplay.h"

#include <stdlib.h>
#include <string.h>

#define CTF_PACKET_MAGIC 0xC1FC1FC1u

/* Decodes the packet at off: header and context, sizes checked.  On success d->bits is the
 * content size, d->pos the first event, *sc the stream class, *packet_bits the size. */
static int packet_open(ctf_trace *tr, ctf_dec *d, const tg_map *map, uint64_t off, const char *path,
                       ctf_stream_decl **sc, uint64_t *pc_pos, uint64_t *packet_bits,
                       tg_error **err)
{
    ctf_meta *m = &tr->meta;
    *sc = NULL;
    d->buf = map->data + off;
    d->buf_len = map->size - off;
    d->bits = (uint64_t)d->buf_len * 8;
    d->pos = 0;
    d->seen = 0;
    d->tree = NULL;
    d->quiet = false;
    d->where = NULL;
    d->file = path;
    d->file_off = off;
    int rc = ctf_run(d, m->prog_packet_header);
    if (rc < 0)
        return tg_err_at(err, rc, path, off + d->pos / 8, "packet header: field '%s': %s",
                         d->where ? d->where : "?", d->msg);
    if ((d->seen & (1u << CTF_M_MAGIC)) && d->magic != CTF_PACKET_MAGIC)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "bad packet magic 0x%08llx (expected 0xc1fc1fc1)",
                         (unsigned long long)d->magic);
    ctf_stream_decl *s;
    if (d->seen & (1u << CTF_M_STREAM_ID)) {
        s = ctf_meta_stream(m, d->stream_id);
        if (!s)
            return tg_err_at(err, TG_ERR_FORMAT, path, off,
                             "packet header: stream_id %llu names no stream class",
                             (unsigned long long)d->stream_id);
    } else {
        s = m->streams[0];
    }
    *sc = s;
    *pc_pos = d->pos;
    rc = ctf_run(d, s->prog_packet_context);
    if (rc < 0)
        return tg_err_at(err, rc, path, off + d->pos / 8, "packet context: field '%s': %s",
                         d->where ? d->where : "?", d->msg);
    /* the packet's events count from its beginning time, not from its end time (which was
     * decoded after it and also maps to the clock) */
    if (d->seen & (1u << CTF_M_TS_BEGIN))
        d->clock_value = d->ts_begin;
    uint64_t avail = (uint64_t)d->buf_len * 8;
    uint64_t psize = (d->seen & (1u << CTF_M_PACKET_SIZE)) ? d->packet_size : avail;
    uint64_t csize = (d->seen & (1u << CTF_M_CONTENT_SIZE)) ? d->content_size : psize;
    if (psize > avail)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "packet size of %llu bytes runs past the end of the file (%llu bytes "
                         "left)",
                         (unsigned long long)(psize / 8), (unsigned long long)(avail / 8));
    if (psize % 8 || psize == 0)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "packet size of %llu bits is not a positive whole number of bytes",
                         (unsigned long long)psize);
    if (csize > psize)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "packet content size %llu bits exceeds the packet size %llu bits",
                         (unsigned long long)csize, (unsigned long long)psize);
    if (d->pos > csize)
        return tg_err_at(err, TG_ERR_FORMAT, path, off,
                         "packet header and context (%llu bits) exceed the content size (%llu "
                         "bits)",
                         (unsigned long long)d->pos, (unsigned long long)csize);
    d->bits = csize;
    *packet_bits = psize;
    return 0;
}

int ctf_scan_packets(ctf_trace *tr, const char *path, ctf_packet_visit visit, void *ctx,
                     tg_error **err)
{
    tg_map map;
    TG_TRY(tg_map_open(&map, path, err));
    uint64_t regs_small[64];
    uint64_t *regs = tr->meta.n_regs <= 64 ? regs_small : calloc(tr->meta.n_regs, sizeof *regs);
    if (!regs) {
        tg_map_close(&map);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    ctf_dec d = {.regs = regs};
    uint64_t off = 0;
    while (off < map.size) {
        ctf_stream_decl *sc = NULL;
        uint64_t pc_pos, pbits = 0;
        tg_error *why = NULL;
        int rc = packet_open(tr, &d, &map, off, path, &sc, &pc_pos, &pbits, &why);
        tg_error_free(why);
        if (!visit(ctx, &d, rc < 0 ? NULL : sc, sc, off) || rc < 0)
            break;
        off += pbits / 8;
    }
    if (regs != regs_small)
        free(regs);
    tg_map_close(&map);
    return 0;
}

struct file_scan {
    ctf_trace *tr;
    ctf_file *f;
};

/* ctf_scan_file's visitor: the first packet names the file's stream; the packets after it
 * are only checked (up to the first damaged one or one of another class). */
static bool scan_file_packet(void *ctx, const ctf_dec *d, const ctf_stream_decl *whole,
                             const ctf_stream_decl *sc, uint64_t off)
{
    const struct file_scan *fs = ctx;
    ctf_file *f = fs->f;
    if (off == 0) {
        ctf_trace *tr = fs->tr;
        /* a damaged packet is the reader's to report when it gets there: the packets before
         * it are read; a first packet whose header names its stream class still gives the
         * file its stream (else the first class: the file gives only its error) */
        f->sc = sc ? (ctf_stream_decl *)sc : tr->meta.streams[0];
        /* babeltrace2 groups a class's files by instance id only when their packets have
         * a beginning time to order them by: without one, each file is a stream of its
         * own, numbered as those without an id */
        f->has_instance = sc && (d->seen & (1u << CTF_M_STREAM_INSTANCE_ID)) && sc->clock &&
                          (d->seen & (1u << CTF_M_TS_BEGIN));
        f->instance = d->stream_instance_id;
        f->first_ts = sc && (d->seen & (1u << CTF_M_TS_BEGIN)) ? d->ts_begin : 0;
    }
    return whole && whole == f->sc;
}

int ctf_scan_file(ctf_trace *tr, ctf_file *f, tg_error **err)
{
    struct file_scan fs = {tr, f};
    return ctf_scan_packets(tr, f->path, scan_file_packet, &fs, err);
}

void ctf_dstream_free(ctf_dstream *ds)
{
    if (!ds)
        return;
    if (ds->feed)
        ctf_btfeed_release(ds->feed); /* first: the replay's thread stops */
    if (ds->mapped)
        tg_map_close(&ds->map);
    for (size_t i = 0; i < ds->n_kept_maps; i++)
        tg_map_close(&ds->kept_maps[i]);
    free(ds->kept_maps);
    for (int i = 0; i < CTF_N_SCOPES; i++) {
        free(ds->trees[i].nodes);
        free(ds->trees[i].kid);
    }
    for (size_t i = 0; i < ds->n_files; i++)
        free(ds->files[i].path);
    free(ds->files);
    free(ds->d.regs);
    tg_buf_free(ds->rbuf);
    tg_buf_free(ds->pc_text);
    free(ds->quirks);
    free(ds->quirk_txt);
    tg_buf_free(ds->sc_text);
    free(ds);
}

static void stream_destroy(tg_stream *s) { ctf_dstream_free(s->priv); }

/* The packet's beginning or end, where the packet context gives it, else the packet's
 * first or last clock value. */
static uint64_t packet_cycles(const ctf_dec *d, bool end)
{
    unsigned m = end ? CTF_M_TS_END : CTF_M_TS_BEGIN;
    if (d->seen & (1u << m))
        return end ? d->ts_end : d->ts_begin;
    return d->clock_value;
}

/* Opens the next packet: 1 opened, 0 no more, <0 error. */
/* A clock counting ns whose base (offset_s s + offset ns) fits in int64: an event's time is
 * the base plus its value, checked with one addition (ctf_clock_ns_checked otherwise). */
static void clock_base(ctf_dstream *ds)
{
    const ctf_clock *c = ds->sc->clock;
    const int64_t g = 1000000000;
    int64_t base = 0;
    ds->ck_fast = c && (c->freq == 0 || c->freq == (uint64_t)g) && !c->from_offset &&
                  c->offset <= (uint64_t)INT64_MAX && c->offset_s <= INT64_MAX / g &&
                  c->offset_s >= INT64_MIN / g &&
                  !__builtin_add_overflow(c->offset_s * g, (int64_t)c->offset, &base);
    ds->ck_base = ds->ck_fast ? base : 0;
}

static int next_packet(ctf_dstream *ds, tg_error **err)
{
    while (ds->cur_file < ds->n_files) {
        ctf_file *f = &ds->files[ds->cur_file];
        if (!ds->mapped) {
            TG_TRY(tg_map_open(&ds->map, f->path, err));
            tg_window_init(&ds->win, ds->map.data, ds->map.size, true);
            if (ds->bare) /* the replay, beside the printer's reader: fewer pages resident */
                ds->win.chunk = (size_t)256 << 10;
            ds->mapped = true;
            ds->next_pkt_off = 0;
        }
        if (ds->next_pkt_off >= ds->map.size) {
            if (!ds->keep_maps)
                tg_map_close(&ds->map);
            else if (tg_grow(&ds->kept_maps, &ds->cap_kept_maps, ds->n_kept_maps + 1,
                             sizeof *ds->kept_maps) == 0)
                ds->kept_maps[ds->n_kept_maps++] = ds->map;
            else
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            ds->mapped = false;
            ds->cur_file++;
            continue;
        }
        ds->pkt_off = ds->next_pkt_off;
        tg_window_at(&ds->win, ds->pkt_off);
        ctf_stream_decl *sc = NULL;
        uint64_t pbits = 0;
        int rc = packet_open(ds->tr, &ds->d, &ds->map, ds->pkt_off, f->path, &sc, &ds->pc_pos,
                             &pbits, err);
        if (rc >= 0 && sc != ds->sc)
            rc = tg_err_at(err, TG_ERR_FORMAT, f->path, ds->pkt_off,
                           "packet of stream class %llu in a stream of class %llu",
                           (unsigned long long)sc->id, (unsigned long long)ds->sc->id);
        if (rc < 0) {
            /* a packet cut short (the file ends inside it) or damaged: where it ends is not
             * known, so the rest of this file is lost; the stream goes on with its next file */
            ds->next_pkt_off = ds->map.size;
            return rc;
        }
        ds->next_pkt_off = ds->pkt_off + pbits / 8;
        ds->pkt_index++;
        ds->trees[CTF_SCOPE_PACKET_CONTEXT].built_for = 0; /* a new packet context */
        ds->cpu = (ds->d.seen & (1u << CTF_M_CPU_ID)) ? (int32_t)ds->d.cpu_id : -1;
        clock_base(ds);
        ds->in_packet = true;
        ctf_dec *d = &ds->d;
        const ctf_clock *ck = ds->sc->clock;
        ds->discarded_msgs = 0;
        if (d->seen & (1u << CTF_M_DISCARDED)) {
            if (ds->msgs && !ds->have_prev && d->discarded) {
                /* babeltrace2: events were discarded before the first packet ends, how many
                 * is not known (from its beginning to its end) */
                ds->lost_pending = d->discarded;
                ds->lost_unknown = true;
                ds->lost_packet = false;
                ds->lost_ts = ck ? ctf_clock_ns(ck, packet_cycles(d, false)) : ds->last_ts;
            }
            if (ds->have_prev && d->discarded != ds->prev_discarded)
                ds->discarded_msgs |= 1;
            if (ds->have_prev && d->discarded > ds->prev_discarded) {
                ds->lost_pending = d->discarded - ds->prev_discarded;
                ds->lost_packet = false;
                ds->lost_ts = ck ? ctf_clock_ns(ck, ds->prev_ts_end) : ds->last_ts;
            }
            ds->prev_discarded = d->discarded;
        }
        ds->gap_timed =
            ck && (d->seen & (1u << CTF_M_TS_BEGIN)) && (d->seen & (1u << CTF_M_TS_END));
        if (d->seen & (1u << CTF_M_SEQ_NUM)) {
            if (ds->have_prev && d->seq_num != ds->prev_seq + 1)
                ds->discarded_msgs |= 2;
            if (ds->have_prev && d->seq_num > ds->prev_seq + 1 && ds->msgs) {
                /* babeltrace2's discarded-packets message, after the discarded events' */
                ds->pkts_lost = d->seq_num - ds->prev_seq - 1;
                ds->pkts_begin_cycles = ds->prev_ts_end;
                ds->pkts_end_cycles = packet_cycles(d, false);
                ds->pkts_ts = ck ? ctf_clock_ns(ck, ds->prev_ts_end) : ds->last_ts;
                /* numbered as the gap the other readers give in its place (none when the
                 * events' gap stands for both): ctf_btcompat.c numbers events and gaps */
                ds->pkts_numbered = !ds->lost_pending;
            } else if (ds->have_prev && d->seq_num > ds->prev_seq + 1 && !ds->lost_pending) {
                ds->lost_pending = d->seq_num - ds->prev_seq - 1;
                ds->lost_packet = true;
                ds->lost_ts = ck ? ctf_clock_ns(ck, ds->prev_ts_end) : ds->last_ts;
            }
            ds->prev_seq = d->seq_num;
        }
        if (ds->lost_pending) {
            ds->lost_begin_cycles = ds->have_prev ? ds->prev_ts_end : packet_cycles(d, false);
            ds->lost_end_cycles = (d->seen & (1u << CTF_M_TS_END)) ? d->ts_end : d->clock_value;
        }
        ds->prev_ts_end = (d->seen & (1u << CTF_M_TS_END)) ? d->ts_end : d->clock_value;
        ds->have_prev = true;
        ds->msg_pkt_begin = ds->msg_pkt_end = ds->msgs;
        ds->attn = ds->lost_pending || ds->pkts_lost || ds->msgs;
        if (ds->packet_hook)
            ds->packet_hook(ds->hook_ctx, ds);
        return 1;
    }
    return 0;
}

/* The event's thread (the contexts' vtid, else tid; vpid, else pid) where contexts that are
 * not of fixed size hold it (read as their steps met it). */
static inline void set_cpu_thread(const ctf_dec *d, tg_event *ev)
{
    uint32_t seen = d->seen;
    if (__builtin_expect(!(seen & CTF_SEEN_THREAD), 1))
        return;
    if (seen & (1u << CTF_M_VTID))
        ev->tid = (int32_t)d->vtid;
    else if (seen & (1u << CTF_M_TID))
        ev->tid = (int32_t)d->tid;
    if (seen & (1u << CTF_M_VPID))
        ev->pid = (int32_t)d->vpid;
    else if (seen & (1u << CTF_M_PID))
        ev->pid = (int32_t)d->pid;
}

static int32_t thread_value(const ctf_dec *d, uint64_t pos, const ctf_thread_at *a)
{
    return (int32_t)ctf_thread_at_read(d, pos, a);
}

static inline int32_t le32_at(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return (int32_t)v;
}

/* The thread and process a context of fixed size holds where it lies (it was skipped at once
 * from bit start). */
static inline void thread_at(const ctf_dec *d, const ctf_prog *p, uint64_t start, tg_event *ev)
{
    if (!p || !p->has_thread)
        return;
    uint64_t align = p->steps[0].align;
    uint64_t pos = (start + align - 1) & ~(align - 1);
    if (__builtin_expect(p->thread_fast, 1)) {
        const uint8_t *b = d->buf + pos / 8;
        if (p->tid_at.size)
            ev->tid = le32_at(b + p->tid_at.off / 8);
        if (p->pid_at.size)
            ev->pid = le32_at(b + p->pid_at.off / 8);
        return;
    }
    if (p->tid_at.size)
        ev->tid = thread_value(d, pos + p->tid_at.off, &p->tid_at);
    if (p->pid_at.size)
        ev->pid = thread_value(d, pos + p->pid_at.off, &p->pid_at);
}

/* A message event (tg_iter_want_messages) of class cls at clock value cycles; *ev as a
 * lost-events record has it: no payload. */
static int message(ctf_dstream *ds, tg_event *ev, const tg_event_class *cls, uint64_t cycles,
                   bool timed)
{
    const ctf_clock *ck = ds->sc->clock;
    ev->cls = cls;
    if (timed && ck && ctf_clock_ns_fits(ck, cycles)) {
        ev->ts = ctf_clock_ns(ck, cycles);
        ds->last_ts = ev->ts;
    } else {
        ev->ts = ds->msg_begun ? ds->last_ts : INT64_MIN / 4;
    }
    ds->ev_clock = cycles;
    ev->lost = 0;
    ev->data = NULL;
    ev->size = 0;
    ev->offset = ds->pkt_off;
    ev->auxp = NULL;
    ev->aux[0] = timed && ck ? 1 : 0;
    ev->cpu = ds->cpu;
    return 1; /* not counted in serial: ctf_btcompat.c numbers events and gaps */
}

static int stream_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    ctf_dstream *ds = s->priv;
    ctf_dec *d = &ds->d;
    if (ds->done)
        return 0;
    for (;;) {
        /* a gap or (tg_iter_want_messages) a packet's beginning to give before the events */
        if (__builtin_expect(ds->attn, 0)) {
            if (!ds->lost_pending && ds->pkts_lost) {
                /* the lost packets (tg_iter_want_messages), after the lost events */
                ev->cls = ds->tr->msg_cls[4];
                ev->ts = ds->pkts_ts < ds->last_ts ? ds->last_ts : ds->pkts_ts;
                ev->aux[0] = ds->pkts_begin_cycles;
                ev->aux[1] = ds->pkts_end_cycles;
                ev->aux[2] = ds->gap_timed;
                ev->lost = ds->pkts_lost;
                ds->pkts_lost = 0;
                ev->data = NULL;
                ev->size = 0;
                ev->offset = ds->pkt_off;
                ev->auxp = NULL;
                ev->cpu = ds->cpu;
                ds->serial += ds->pkts_numbered;
                return 1;
            }
            if (!ds->lost_pending) {
                ds->attn = false;
                ds->msg_pkt_begin = false;
                return message(ds, ev, ds->tr->msg_cls[2], packet_cycles(d, false),
                               d->seen & (1u << CTF_M_TS_BEGIN));
            }
            ds->attn = ds->msg_pkt_begin || ds->pkts_lost; /* after the gap */
            ev->cls = ds->tr->lost_cls;
            ev->ts = ds->lost_ts < ds->last_ts ? ds->last_ts : ds->lost_ts;
            ev->aux[0] = ds->lost_begin_cycles;
            ev->aux[1] = ds->lost_end_cycles;
            ev->aux[2] = !ds->msgs || ds->gap_timed;
            ev->lost = ds->lost_packet || ds->lost_unknown ? 0 : ds->lost_pending;
            ds->lost_unknown = false;
            ev->data = NULL;
            ev->size = 0;
            ev->offset = ds->pkt_off;
            ev->auxp = NULL;
            ev->cpu = ds->cpu;
            ds->lost_pending = 0;
            ds->serial++;
            return 1;
        }
        if (!ds->in_packet) {
            if (__builtin_expect(s->messages && !ds->msg_begun, 0)) {
                ds->msgs = ds->msg_begun = true;
                return message(ds, ev, ds->tr->msg_cls[0], 0, false);
            }
            int rc = next_packet(ds, err);
            if (rc == 0 && s->messages && ds->msg_begun) {
                ds->msg_begun = false; /* given once */
                ds->done = true;
                return message(ds, ev, ds->tr->msg_cls[1], 0, false);
            }
            if (rc == 0)
                ds->done = true;
            if (rc <= 0)
                return rc;
            continue;
        }
        if (d->pos >= d->bits) {
            if (s->messages && ds->msg_pkt_end) {
                ds->msg_pkt_end = false;
                return message(ds, ev, ds->tr->msg_cls[3], packet_cycles(d, true),
                               d->seen & (1u << CTF_M_TS_END));
            }
            ds->in_packet = false;
            continue;
        }
        d->tree = NULL;
        d->quiet = false;
        d->where = NULL;
        uint64_t h0 = d->pos;
        const char *what = "event header";
        const ctf_event_decl *e = NULL;
        d->seen &= ~((1u << CTF_M_EVENT_ID) | CTF_SEEN_THREAD);
        int rc = ctf_run(d, ds->sc->prog_event_header);
        uint64_t id = 0, s0 = 0, c0 = 0, p0 = 0;
        if (rc >= 0) {
            id = (d->seen & (1u << CTF_M_EVENT_ID)) ? d->event_id : 0;
            e = ctf_stream_event(ds->sc, id);
            if (!e) {
                ds->done = true;
                return tg_err_at(err, TG_ERR_FORMAT, ds->files[ds->cur_file].path,
                                 ds->pkt_off + h0 / 8,
                                 "packet %llu: event id %llu names no event class of stream "
                                 "class %llu",
                                 (unsigned long long)ds->pkt_index, (unsigned long long)id,
                                 (unsigned long long)ds->sc->id);
            }
            s0 = d->pos;
            what = "stream event context";
            rc = ctf_run(d, ds->sc->prog_event_context);
        }
        if (rc >= 0) {
            c0 = d->pos;
            what = "event context";
            rc = ctf_run(d, e->prog_context);
        }
        if (rc >= 0) {
            p0 = d->pos;
            what = "payload";
            rc = ctf_run(d, e->prog_fields);
        }
        if (rc < 0) {
            ds->done = true;
            if (rc == TG_ERR_NOMEM)
                return tg_err(err, rc, "out of memory");
            return tg_err_at(err, rc, ds->files[ds->cur_file].path, ds->pkt_off + d->pos / 8,
                             "packet %llu: event '%s': %s: %s%s%s%s",
                             (unsigned long long)ds->pkt_index, e ? e->name : "?", what,
                             d->where ? "field '" : "", d->where ? d->where : "",
                             d->where ? "': " : "", d->msg);
        }
        if (d->pos == h0) {
            /* nothing read: the next record would be this one again, forever */
            ds->done = true;
            return tg_err_at(err, TG_ERR_FORMAT, ds->files[ds->cur_file].path, ds->pkt_off + h0 / 8,
                             "packet %llu: event '%s' takes no bits (no header, no fields) in "
                             "a packet with %llu bits of content left",
                             (unsigned long long)ds->pkt_index, e->name,
                             (unsigned long long)(d->bits - h0));
        }
        int64_t ts = 0;
        bool fits = true;
        if (__builtin_expect(ds->ck_fast, 1))
            fits = d->clock_value <= (uint64_t)INT64_MAX &&
                   !__builtin_add_overflow(ds->ck_base, (int64_t)d->clock_value, &ts);
        else if (ds->sc->clock)
            fits = ctf_clock_ns_checked(ds->sc->clock, d->clock_value, &ts);
        if (!fits) {
            ds->done = true;
            return tg_err_at(err, TG_ERR_FORMAT, ds->files[ds->cur_file].path, ds->pkt_off + h0 / 8,
                             "packet %llu: event '%s': clock value %llu of clock '%s' is past "
                             "what signed 64-bit ns from the origin hold",
                             (unsigned long long)ds->pkt_index, e->name,
                             (unsigned long long)d->clock_value, ds->sc->clock->name);
        }
        ds->serial++;
        ev->cls = e->cls;
        ev->ts = ts;
        ds->ev_clock = d->clock_value;
        ds->last_ts = ev->ts;
        ev->data = d->buf;
        ev->size = (size_t)((d->pos - h0 + 7) / 8);
        ev->offset = ds->pkt_off + h0 / 8;
        ev->aux[0] = h0;
        ev->aux[1] = s0;
        ev->aux[2] = c0;
        ev->aux[3] = p0;
        ev->auxp = e;
        if (__builtin_expect(!ds->bare, 1)) {
            ev->cpu = ds->cpu;
            set_cpu_thread(d, ev);
            thread_at(d, ds->sc->prog_event_context, s0, ev);
            thread_at(d, e->prog_context, c0, ev);
        }
        if (e->cls->kind == TG_KIND_FUNC_ENTRY || e->cls->kind == TG_KIND_FUNC_EXIT)
            ctf_func_event(ds, e, ev);
        return 1;
    }
}

/* The clock value of the event: the stream's last, since a CTF stream is read one event at
 * a time and an event is used before its stream moves on. */
static bool stream_clock_value(const tg_event *ev, uint64_t *cycles)
{
    const ctf_dstream *ds = ev->stream->priv;
    if (!ds->sc->clock)
        return false;
    /* a packet's beginning or end whose packet context lacks that time: none */
    tg_event_kind k = ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
    if ((k == TG_KIND_PACKET_BEGIN || k == TG_KIND_PACKET_END) && !ev->aux[0])
        return false;
    *cycles = ds->ev_clock;
    return true;
}

int ctf_packet_last_clock(tg_stream *s, size_t file, uint64_t off, uint64_t *clock, tg_error **err)
{
    ctf_dstream *ds = s->priv;
    int found = 0, rc;
    for (;;) {
        tg_event ev = {.stream = s, .cpu = -1, .pid = -1, .tid = -1, .depth = -1};
        /* through the ops, so that stream_next is compiled as for the cursor */
        if ((rc = s->ops->next(s, &ev, err)) <= 0)
            break;
        if (ds->cur_file > file || (ds->cur_file == file && ds->pkt_off > off))
            break; /* past that packet */
        tg_event_kind k = ev.cls ? ev.cls->kind : TG_KIND_LOST;
        if (k == TG_KIND_LOST || k == TG_KIND_PACKETS_LOST || ds->cur_file != file ||
            ds->pkt_off != off)
            continue;
        *clock = ds->ev_clock;
        found = 1;
    }
    return rc < 0 ? rc : found;
}

static bool stream_clock_span(const tg_event *ev, uint64_t *begin, uint64_t *end, int64_t *end_ns)
{
    const ctf_dstream *ds = ev->stream->priv;
    const ctf_clock *ck = ds->sc->clock;
    if (!ev->cls || (ev->cls->kind != TG_KIND_LOST && ev->cls->kind != TG_KIND_PACKETS_LOST) ||
        !ev->aux[2] || !ck || !ctf_clock_ns_fits(ck, ev->aux[1]))
        return false;
    *begin = ev->aux[0];
    *end = ev->aux[1];
    *end_ns = ctf_clock_ns(ck, ev->aux[1]);
    return true;
}

/* The last whole packet's end time: a stream being written (a running session) has its
 * later events after it. */
static bool stream_end_time(tg_stream *s, int64_t *ns)
{
    const ctf_dstream *ds = s->priv;
    const ctf_clock *ck = ds->sc ? ds->sc->clock : NULL;
    return ds->have_prev && ck && ctf_clock_ns_checked(ck, ds->prev_ts_end, ns);
}

static const char *stream_func_name(const tg_event *ev) { return ctf_func_name(ev); }
static const char *stream_func_module(const tg_event *ev) { return ctf_func_module(ev); }

const struct tg_stream_ops ctf_stream_ops = {
    .next = stream_next,
    .field_count = ctf_field_count,
    .field = ctf_field_get,
    .render = ctf_render,
    .render_with = ctf_render_with,
    .clock_value = stream_clock_value,
    .clock_span = stream_clock_span,
    .func_name = stream_func_name,
    .func_module = stream_func_module,
    .end_time = stream_end_time,
    .destroy = stream_destroy,
    .reads_alone = true, /* a stream file and its decoder; the metadata is fixed at open */
};
