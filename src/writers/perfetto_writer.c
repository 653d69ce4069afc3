/* perfetto_writer.c - conversion to a Perfetto protobuf trace (ui.perfetto.dev,
 * trace_processor), `traceglot convert --to perfetto`.
 *
 * The file is a perfetto.protos.Trace: a run of TracePacket records, each framed as field 1
 * of Trace (tag, length, bytes), packed by protobuf-c from the small schema in
 * perfetto_subset.proto.  It is written as a stream:
 * - one packet sequence per source stream (a uftrace thread file, a CTF stream, a CPU).
 *   Its first packet clears the incremental state and carries a clock snapshot that starts
 *   a sequence-scoped incremental clock (id 64) at the stream's first time, so every later
 *   packet stores a short time delta; a time that goes backwards is written absolute on the
 *   builtin clock instead.  The defaults of the sequence name the track of its first thread,
 *   so events of that thread carry no track id.
 * - a TrackDescriptor per process and per thread (pid, tid), written when first seen;
 * - function frames from the call-stack builder (through frame_walk) as SLICE_BEGIN and
 *   SLICE_END (a frame whose exit the trace never shows gets no end: the UI marks it as
 *   not ended, which is the truth); other events as instants with their payload as debug annotations; lost
 *   records as instants with the count;
 * - event and annotation names interned per sequence: a packet that first uses a name on
 *   its sequence carries it in interned_data.
 * Memory is bounded by streams, threads and distinct names, never by events.  Times are the
 * traces' own (the merge's timeline), given to Perfetto on its default trace clock. */
#include "core/consumer.h"
#include "core/grow.h"
#include "core/value_text.h"
#include "perfetto_subset.pb-c.h"
#include "writers/frame_walk.h"
#include "writers/split_output.h"

#include <stdlib.h>
#include <string.h>

enum {
    CLOCK_BOOTTIME = 6,      /* Perfetto's builtin clock that is its default trace time */
    CLOCK_SEQUENCE = 64,     /* first user-defined, sequence-scoped clock id */
    SEQ_CLEARED = 1,         /* SEQ_INCREMENTAL_STATE_CLEARED */
    SEQ_NEEDS_STATE = 2,     /* SEQ_NEEDS_INCREMENTAL_STATE */
    SENT_EVENT_NAME = 1,     /* bits of pf_seq.sent[name] */
    SENT_ANNOTATION_NAME = 2,
    MAX_INTERNED_PER_PACKET = 1 + 64,
};

#define PROCESS_UUID(pid) (0x5000000000000000ull | (uint32_t)(pid))
#define THREAD_UUID(tid) (0x6000000000000000ull | (uint32_t)(tid))

/* A message's bytes packed once by protobuf-c and copied into every packet that needs
 * them (a slice's TrackEvent fields, a sequence id), in pf_writer.pieces. */
struct pf_piece {
    uint32_t at;
    uint8_t len;            /* 0: not packed yet */
};

enum { PIECE_COPY = 16 }; /* a piece is copied as 16 bytes (the longest is 11): no loop */

struct pf_seq {
    uint32_t id;            /* trusted_packet_sequence_id, from 1 */
    struct pf_piece head;   /* TracePacket{trusted_packet_sequence_id} */
    int started;
    int64_t last_ns;        /* the incremental clock's value */
    uint64_t default_track;
    uint8_t *sent;          /* per interned name: SENT_* bits */
    size_t sent_cap;
};

struct pf_annotations {
    Perfetto__Protos__DebugAnnotation *items;
    Perfetto__Protos__DebugAnnotation **ptrs;
    size_t n, cap;
    size_t ptrs_cap;
    size_t *text_at;        /* string values: offset in the text buffer, or SIZE_MAX */
    size_t text_cap;
};

struct pf_interned {
    Perfetto__Protos__EventName event_names[1];
    Perfetto__Protos__EventName *event_ptrs[1];
    Perfetto__Protos__DebugAnnotationName ann_names[MAX_INTERNED_PER_PACKET];
    Perfetto__Protos__DebugAnnotationName *ann_ptrs[MAX_INTERNED_PER_PACKET];
    Perfetto__Protos__InternedData data;
};

/* What the writer knows per thread (indexed like the walk's threads). */
struct pf_thread {
    unsigned declared_part; /* the part whose track descriptors name it (0: none) */
    size_t open;            /* slices begun and not ended in the output */
    tg_stream *seq_stream;  /* the stream of seq, the thread's last sequence */
    size_t seq;
    struct pf_piece track;  /* TrackEvent{track_uuid}, for a thread not its sequence's default */
};

struct pf_writer {
    tg_buf *out;
    tg_split split;
    unsigned part;          /* 1, or the split's part number */
    int cutting;
    struct pf_thread *threads;
    size_t threads_cap;
    tg_frame_walk walk;
    tg_id_index seq_ids;    /* stream pointer -> index in seqs */
    struct pf_seq *seqs;
    size_t n_seqs, seqs_cap;
    tg_id_index processes;  /* pids whose track was written */
    uint8_t *pack;          /* one packed packet, reused */
    size_t pack_cap;
    uint8_t *pieces;        /* the bytes of every pf_piece */
    size_t pieces_len, pieces_cap;
    struct pf_piece *begins; /* by interned name: TrackEvent{SLICE_BEGIN, name_iid} */
    size_t begins_cap;
    struct pf_piece end, flags; /* TrackEvent{SLICE_END}, TracePacket{sequence_flags} */
    tg_buf *text;           /* rendered values of the current event */
    struct pf_annotations ann;
    struct pf_interned interned;
    tg_error **err;
};

/* ---- packets -------------------------------------------------------------------------- */

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Appends the packet as one `repeated TracePacket packet = 1` element of Trace. */
static int put_packet(struct pf_writer *pf, const Perfetto__Protos__TracePacket *pkt)
{
    size_t size = protobuf_c_message_get_packed_size(&pkt->base);
    if (tg_grow(&pf->pack, &pf->pack_cap, size + 11, 1) < 0)
        return TG_ERR_NOMEM;
    pf->pack[0] = 0x0a; /* field 1, length-delimited */
    size_t head = 1 + put_varint(pf->pack + 1, size);
    protobuf_c_message_pack(&pkt->base, pf->pack + head);
    tg_buf_put(pf->out, pf->pack, head + size);
    tg_split_count(&pf->split, head + size);
    return 0;
}

/* Packs msg with protobuf-c into the pieces, once; see struct pf_piece. */
static int pack_piece(struct pf_writer *pf, const ProtobufCMessage *msg, struct pf_piece *pc)
{
    size_t size = protobuf_c_message_get_packed_size(msg);
    if (size > UINT8_MAX || pf->pieces_len + size > UINT32_MAX)
        return TG_ERR_LIMIT;
    if (tg_grow(&pf->pieces, &pf->pieces_cap, pf->pieces_len + size + PIECE_COPY, 1) < 0)
        return TG_ERR_NOMEM;
    protobuf_c_message_pack(msg, pf->pieces + pf->pieces_len);
    *pc = (struct pf_piece){(uint32_t)pf->pieces_len, (uint8_t)size};
    pf->pieces_len += size;
    return 0;
}

static size_t varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* A slice's packet from pieces: TracePacket{timestamp = delta, trusted_packet_sequence_id,
 * track_event = te + track, sequence_flags}, framed as an element of Trace, fields in
 * number order (the bytes protobuf-c packs for the same message).  Only the two varints
 * that change per packet (its length, the time delta) and the tags before them are written
 * here.  Callgrind, whole conversion of the 10.8M-record uftrace bench recording: 25.96G
 * instructions packing every packet with protobuf-c, 12.38G with the pieces and only the
 * time packed by protobuf-c per slice, 7.97G with the time written here. */
static size_t copy_piece(uint8_t *o, const struct pf_writer *pf, struct pf_piece pc)
{
    memcpy(o, pf->pieces + pc.at, PIECE_COPY);
    return pc.len;
}

static void put_slice_packet(struct pf_writer *pf, const struct pf_seq *seq, uint64_t delta,
                             struct pf_piece te, struct pf_piece track)
{
    enum { TAG_TIMESTAMP = 8 << 3 | 0, TAG_TRACK_EVENT = 11 << 3 | 2, TAG_PACKET = 1 << 3 | 2 };
    size_t te_len = (size_t)te.len + track.len; /* at most 2 * 11 + 2: one byte of length */
    size_t body = 1 + varint_size(delta) + seq->head.len + 2 + te_len + pf->flags.len;
    uint8_t *o = (uint8_t *)tg_buf_room(pf->out, body + 1 + 10 + PIECE_COPY);
    if (!o)
        return; /* the buffer remembers the failure */
    size_t n = 0;
    o[n++] = TAG_PACKET;
    n += put_varint(o + n, body);
    o[n++] = TAG_TIMESTAMP;
    n += put_varint(o + n, delta);
    n += copy_piece(o + n, pf, seq->head);
    o[n++] = TAG_TRACK_EVENT;
    o[n++] = (uint8_t)te_len;
    n += copy_piece(o + n, pf, te);
    n += copy_piece(o + n, pf, track);
    n += copy_piece(o + n, pf, pf->flags);
    pf->out->len += n;
    tg_split_count(&pf->split, n);
}

static struct pf_seq *seq_of(struct pf_writer *pf, tg_stream *stream)
{
    int added;
    int64_t i = tg_id_index_get(&pf->seq_ids, (uint64_t)(uintptr_t)stream, &added);
    if (i < 0)
        return NULL;
    if (added) {
        if (tg_grow(&pf->seqs, &pf->seqs_cap, pf->n_seqs + 1, sizeof *pf->seqs) < 0)
            return NULL;
        pf->seqs[pf->n_seqs++] = (struct pf_seq){.id = (uint32_t)i + 1};
    }
    return &pf->seqs[i];
}

/* Sets the packet's time on the sequence's incremental clock, or absolute when the time
 * goes backwards (the end of frames unwound at the end of the trace, say). */
static void stamp(Perfetto__Protos__TracePacket *pkt, struct pf_seq *seq, int64_t ns)
{
    if (ns < 0)
        ns = 0;
    pkt->has_timestamp = 1;
    if (ns >= seq->last_ns) {
        pkt->timestamp = (uint64_t)(ns - seq->last_ns);
        seq->last_ns = ns;
    } else {
        pkt->timestamp = (uint64_t)ns;
        pkt->has_timestamp_clock_id = 1;
        pkt->timestamp_clock_id = CLOCK_BOOTTIME;
    }
    pkt->has_trusted_packet_sequence_id = 1;
    pkt->trusted_packet_sequence_id = seq->id;
}

/* The first packet of a sequence: state cleared, clock snapshot, defaults. */
static int start_seq(struct pf_writer *pf, struct pf_seq *seq, int64_t ns, uint64_t track)
{
    if (ns < 0)
        ns = 0;
    Perfetto__Protos__ClockSnapshot__Clock builtin = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
    Perfetto__Protos__ClockSnapshot__Clock local = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
    builtin.has_clock_id = local.has_clock_id = 1;
    builtin.clock_id = CLOCK_BOOTTIME;
    local.clock_id = CLOCK_SEQUENCE;
    builtin.has_timestamp = local.has_timestamp = 1;
    builtin.timestamp = local.timestamp = (uint64_t)ns;
    local.has_is_incremental = 1;
    local.is_incremental = 1;
    Perfetto__Protos__ClockSnapshot__Clock *clocks[2] = {&builtin, &local};
    Perfetto__Protos__ClockSnapshot snapshot = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
    snapshot.n_clocks = 2;
    snapshot.clocks = clocks;
    Perfetto__Protos__TrackEventDefaults te_defaults = PERFETTO__PROTOS__TRACK_EVENT_DEFAULTS__INIT;
    te_defaults.has_track_uuid = 1;
    te_defaults.track_uuid = track;
    Perfetto__Protos__TracePacketDefaults defaults = PERFETTO__PROTOS__TRACE_PACKET_DEFAULTS__INIT;
    defaults.has_timestamp_clock_id = 1;
    defaults.timestamp_clock_id = CLOCK_SEQUENCE;
    defaults.track_event_defaults = &te_defaults;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    pkt.has_timestamp = pkt.has_timestamp_clock_id = 1;
    pkt.timestamp = (uint64_t)ns;
    pkt.timestamp_clock_id = CLOCK_BOOTTIME;
    pkt.has_trusted_packet_sequence_id = 1;
    pkt.trusted_packet_sequence_id = seq->id;
    pkt.has_sequence_flags = 1;
    pkt.sequence_flags = SEQ_CLEARED;
    pkt.clock_snapshot = &snapshot;
    pkt.trace_packet_defaults = &defaults;
    seq->started = 1;
    seq->last_ns = ns;
    seq->default_track = track;
    if (seq->sent)
        memset(seq->sent, 0, seq->sent_cap);
    return put_packet(pf, &pkt);
}

/* The sequence of the stream the thread's event came from, started when new. */
static struct pf_seq *seq_for(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns)
{
    struct pf_thread *pt = &pf->threads[t->index];
    struct pf_seq *seq;
    if (pt->seq_stream == t->stream && t->stream) {
        seq = &pf->seqs[pt->seq];
    } else {
        if (!(seq = seq_of(pf, t->stream)))
            return NULL;
        pt->seq_stream = t->stream;
        pt->seq = (size_t)(seq - pf->seqs);
    }
    if (!seq->started && start_seq(pf, seq, ns, THREAD_UUID(t->tid)) < 0)
        return NULL;
    return seq;
}

/* ---- tracks ------------------------------------------------------------------------------ */

static int put_track(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns)
{
    struct pf_seq *seq = seq_for(pf, t, ns);
    if (!seq)
        return TG_ERR_NOMEM;
    int added;
    if (tg_id_index_get(&pf->processes, (uint32_t)t->pid, &added) < 0)
        return TG_ERR_NOMEM;
    if (added) {
        Perfetto__Protos__ProcessDescriptor proc = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
        proc.has_pid = 1;
        proc.pid = t->pid;
        Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
        track.has_uuid = 1;
        track.uuid = PROCESS_UUID(t->pid);
        track.process = &proc;
        Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
        stamp(&pkt, seq, ns);
        pkt.track_descriptor = &track;
        int rc = put_packet(pf, &pkt);
        if (rc < 0)
            return rc;
    }
    Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
    thread.has_pid = thread.has_tid = 1;
    thread.pid = t->pid;
    thread.tid = t->tid;
    Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
    track.has_uuid = track.has_parent_uuid = 1;
    track.uuid = THREAD_UUID(t->tid);
    track.parent_uuid = PROCESS_UUID(t->pid);
    track.thread = &thread;
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    stamp(&pkt, seq, ns);
    pkt.track_descriptor = &track;
    return put_packet(pf, &pkt);
}

static int on_thread_new(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    if (tg_grow(&pf->threads, &pf->threads_cap, t->index + 1, sizeof *pf->threads) < 0)
        return TG_ERR_NOMEM;
    pf->threads[t->index] = (struct pf_thread){0};
    return 0;
}

/* ---- track events ------------------------------------------------------------------------ */

/* Marks name as sent on the sequence; 1 when it was not sent before (the packet must carry
 * it), 0 when it was, negative when out of memory. */
static int first_use(struct pf_seq *seq, size_t name, uint8_t bit)
{
    if (name >= seq->sent_cap) {
        size_t old = seq->sent_cap;
        if (tg_grow(&seq->sent, &seq->sent_cap, name + 1, 1) < 0)
            return TG_ERR_NOMEM;
        memset(seq->sent + old, 0, seq->sent_cap - old);
    }
    if (seq->sent[name] & bit)
        return 0;
    seq->sent[name] |= bit;
    return 1;
}

/* A slice begin or end written from pieces (put_slice_packet): 0 when written, 1 when the
 * packet needs more than the pieces hold (a name not yet interned on the sequence, a time
 * before the sequence's clock), a negative status on failure. */
static int put_slice(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                     Perfetto__Protos__TrackEvent__Type type, uint32_t name)
{
    struct pf_thread *pt = &pf->threads[t->index];
    struct pf_seq *seq = NULL;
    if (pt->seq_stream == t->stream && t->stream)
        seq = &pf->seqs[pt->seq]; /* the thread's sequence, as seq_for finds it */
    if ((!seq || !seq->started) && !(seq = seq_for(pf, t, ns)))
        return TG_ERR_NOMEM;
    if (ns < seq->last_ns)
        return 1;
    struct pf_piece te = pf->end, track = {0};
    if (type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END) {
        if (name >= seq->sent_cap || !(seq->sent[name] & SENT_EVENT_NAME))
            return 1;
        if (name >= pf->begins_cap) {
            size_t old = pf->begins_cap;
            if (tg_grow(&pf->begins, &pf->begins_cap, name + 1, sizeof *pf->begins) < 0)
                return TG_ERR_NOMEM;
            memset(pf->begins + old, 0, (pf->begins_cap - old) * sizeof *pf->begins);
        }
        if (!pf->begins[name].len) {
            Perfetto__Protos__TrackEvent begin = PERFETTO__PROTOS__TRACK_EVENT__INIT;
            begin.has_type = begin.has_name_iid = 1;
            begin.type = type;
            begin.name_iid = (uint64_t)name + 1;
            TG_TRY(pack_piece(pf, &begin.base, &pf->begins[name]));
        }
        te = pf->begins[name];
    }
    if (THREAD_UUID(t->tid) != seq->default_track) {
        if (!pt->track.len) {
            Perfetto__Protos__TrackEvent on_track = PERFETTO__PROTOS__TRACK_EVENT__INIT;
            on_track.has_track_uuid = 1;
            on_track.track_uuid = THREAD_UUID(t->tid);
            TG_TRY(pack_piece(pf, &on_track.base, &pt->track));
        }
        track = pt->track;
    }
    if (!seq->head.len) {
        Perfetto__Protos__TracePacket head = PERFETTO__PROTOS__TRACE_PACKET__INIT;
        head.has_trusted_packet_sequence_id = 1;
        head.trusted_packet_sequence_id = seq->id;
        TG_TRY(pack_piece(pf, &head.base, &seq->head));
    }
    put_slice_packet(pf, seq, (uint64_t)(ns - seq->last_ns), te, track);
    seq->last_ns = ns;
    return 0;
}

/* A track event packet on t's sequence: name is an interned name or UINT32_MAX for none;
 * annotations (already filled) are attached when n_ann > 0. */
static int put_event(struct pf_writer *pf, const tg_walk_thread *t, int64_t ns,
                     Perfetto__Protos__TrackEvent__Type type, uint32_t name, size_t n_ann,
                     const uint32_t *ann_names)
{
    struct pf_thread *pt = &pf->threads[t->index];
    if (pt->declared_part == pf->part && type != PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT) {
        int rc = put_slice(pf, t, ns, type, name);
        if (rc <= 0)
            return rc;
    }
    if (pt->declared_part != pf->part) {
        int rc = put_track(pf, t, ns);
        if (rc < 0)
            return rc;
        pt->declared_part = pf->part;
    }
    struct pf_seq *seq = seq_for(pf, t, ns);
    if (!seq)
        return TG_ERR_NOMEM;
    Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
    te.has_type = 1;
    te.type = type;
    uint64_t track = THREAD_UUID(t->tid);
    if (track != seq->default_track) {
        te.has_track_uuid = 1;
        te.track_uuid = track;
    }
    Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    struct pf_interned *in = &pf->interned;
    in->data = (Perfetto__Protos__InternedData)PERFETTO__PROTOS__INTERNED_DATA__INIT;
    if (name != UINT32_MAX) {
        te.has_name_iid = 1;
        te.name_iid = (uint64_t)name + 1;
        int rc = first_use(seq, name, SENT_EVENT_NAME);
        if (rc < 0)
            return rc;
        if (rc) {
            in->event_names[0] = (Perfetto__Protos__EventName)PERFETTO__PROTOS__EVENT_NAME__INIT;
            in->event_names[0].has_iid = 1;
            in->event_names[0].iid = te.name_iid;
            in->event_names[0].name = (char *)tg_frame_names_get(&pf->walk.names, name);
            in->event_ptrs[0] = &in->event_names[0];
            in->data.n_event_names = 1;
            in->data.event_names = in->event_ptrs;
        }
    }
    for (size_t i = 0; i < n_ann; i++) {
        int rc = first_use(seq, ann_names[i], SENT_ANNOTATION_NAME);
        if (rc < 0)
            return rc;
        if (rc) {
            Perfetto__Protos__DebugAnnotationName *an = &in->ann_names[in->data.n_debug_annotation_names];
            *an = (Perfetto__Protos__DebugAnnotationName)PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT;
            an->has_iid = 1;
            an->iid = (uint64_t)ann_names[i] + 1;
            an->name = (char *)tg_frame_names_get(&pf->walk.names, ann_names[i]);
            in->ann_ptrs[in->data.n_debug_annotation_names++] = an;
            in->data.debug_annotation_names = in->ann_ptrs;
        }
    }
    if (n_ann) {
        te.n_debug_annotations = n_ann;
        te.debug_annotations = pf->ann.ptrs;
    }
    stamp(&pkt, seq, ns);
    pkt.has_sequence_flags = 1;
    pkt.sequence_flags = SEQ_NEEDS_STATE;
    pkt.track_event = &te;
    if (in->data.n_event_names || in->data.n_debug_annotation_names)
        pkt.interned_data = &in->data;
    return put_packet(pf, &pkt);
}

#define SLICE_BEGIN PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
#define SLICE_END PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END

/* ---- split output: a part ends every slice it began, the next begins them again ---------- */

static int cut(struct pf_writer *pf, int64_t ns, tg_error **err)
{
    const tg_frame_walk *w = &pf->walk;
    int rc = 0;
    pf->cutting = 1;
    for (size_t i = 0; i < w->n_threads && rc == 0; i++)
        for (size_t k = pf->threads[i].open; k-- > 0 && rc == 0;)
            rc = put_event(pf, &w->threads[i], ns, SLICE_END, UINT32_MAX, 0, NULL);
    if (rc == 0)
        rc = tg_split_next(&pf->split, ns, err);
    if (rc == 0) {
        pf->out = pf->split.out;
        pf->part = pf->split.part;
        for (size_t i = 0; i < pf->n_seqs; i++)
            pf->seqs[i].started = 0;
        tg_id_index_free(&pf->processes);
    }
    for (size_t i = 0; i < w->n_threads && rc == 0; i++)
        for (size_t k = 0; k < pf->threads[i].open && rc == 0; k++)
            rc = put_event(pf, &w->threads[i], ns, SLICE_BEGIN, w->threads[i].path[k], 0, NULL);
    pf->cutting = 0;
    return rc;
}

/* Moves to the next part first when the current one is full. */
static int before_record(struct pf_writer *pf, int64_t ns)
{
    if (!pf->split.active || pf->cutting || !tg_split_due(&pf->split, ns))
        return 0;
    return cut(pf, ns, pf->err);
}

static int on_frame_open(void *ctx, tg_walk_thread *t, const tg_call *frame, uint32_t name)
{
    struct pf_writer *pf = ctx;
    int64_t ns = frame->entry_ns;
    int rc = before_record(pf, ns);
    if (rc < 0)
        return rc;
    pf->threads[t->index].open++;
    return put_event(pf, t, ns, SLICE_BEGIN, name, 0, NULL);
}

static int on_frame_close(void *ctx, tg_walk_thread *t, const tg_call *call, uint32_t name,
                          const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    if (!ev)
        return 0; /* still open at the end: Perfetto shows it as a slice that did not end */
    int rc = before_record(pf, call->exit_ns);
    if (rc < 0)
        return rc;
    pf->threads[t->index].open--;
    return put_event(pf, t, call->exit_ns, SLICE_END, UINT32_MAX, 0, NULL);
}

/* ---- instants with debug annotations ------------------------------------------------------ */

static int add_annotation(struct pf_writer *pf, uint32_t *names, const char *name)
{
    struct pf_annotations *a = &pf->ann;
    if (a->n >= MAX_INTERNED_PER_PACKET - 1)
        return 0; /* an event with more fields than this shows its first ones */
    if (tg_grow(&a->items, &a->cap, a->n + 1, sizeof *a->items) < 0 ||
        tg_grow(&a->text_at, &a->text_cap, a->n + 1, sizeof *a->text_at) < 0)
        return TG_ERR_NOMEM;
    int64_t id = tg_frame_names_intern(&pf->walk.names, name, strlen(name));
    if (id < 0)
        return (int)id;
    names[a->n] = (uint32_t)id;
    a->items[a->n] = (Perfetto__Protos__DebugAnnotation)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
    a->items[a->n].has_name_iid = 1;
    a->items[a->n].name_iid = (uint64_t)id + 1;
    a->text_at[a->n] = SIZE_MAX;
    return 1;
}

/* One payload value as an annotation: integers and floats as numbers, everything else
 * (strings, enums, compounds) as the text traceglot's own printers show. */
static void set_value(struct pf_writer *pf, const tg_value *v)
{
    struct pf_annotations *a = &pf->ann;
    Perfetto__Protos__DebugAnnotation *d = &a->items[a->n];
    if (v->type == TG_VAL_SINT && !v->label) {
        d->has_int_value = 1;
        d->int_value = v->v.s;
    } else if (v->type == TG_VAL_UINT && !v->label) {
        if (v->flags & TG_VALF_POINTER) {
            d->has_pointer_value = 1;
            d->pointer_value = v->v.u;
        } else {
            d->has_uint_value = 1;
            d->uint_value = v->v.u;
        }
    } else if (v->type == TG_VAL_FLOAT) {
        d->has_double_value = 1;
        d->double_value = v->v.f;
    } else {
        a->text_at[a->n] = tg_buf_len(pf->text);
        if (v->type == TG_VAL_STRING)
            tg_buf_put(pf->text, v->v.str.ptr, strnlen(v->v.str.ptr, v->v.str.len));
        else
            tg_text_value(pf->text, v);
        tg_buf_put(pf->text, "", 1);
    }
}

static int on_other(void *ctx, tg_walk_thread *t, const tg_event *ev)
{
    struct pf_writer *pf = ctx;
    struct pf_annotations *a = &pf->ann;
    uint32_t names[MAX_INTERNED_PER_PACKET];
    a->n = 0;
    tg_buf_reset(pf->text);
    int rc = before_record(pf, tg_event_time_ns(ev));
    if (rc < 0)
        return rc;
    if (tg_event_kind_of(ev) == TG_KIND_LOST) {
        if ((rc = add_annotation(pf, names, "lost_count")) < 0)
            return rc;
        a->items[a->n].has_uint_value = 1;
        a->items[a->n++].uint_value = tg_event_lost_count(ev);
    }
    size_t n = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &v) < 0)
            break;
        if ((rc = add_annotation(pf, names, v.name ? v.name : "?")) < 0)
            return rc;
        if (rc == 0)
            break;
        set_value(pf, &v);
        a->n++;
    }
    if (tg_grow(&a->ptrs, &a->ptrs_cap, a->n + 1, sizeof *a->ptrs) < 0)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < a->n; i++) {
        a->ptrs[i] = &a->items[i];
        if (a->text_at[i] != SIZE_MAX)
            a->items[i].string_value = (char *)tg_buf_data(pf->text) + a->text_at[i];
    }
    const char *ev_name = tg_event_name(ev);
    if (!ev_name)
        ev_name = "?";
    int64_t name = tg_frame_names_intern(&pf->walk.names, ev_name, strlen(ev_name));
    if (name < 0)
        return (int)name;
    return put_event(pf, t, tg_event_time_ns(ev), PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
                     (uint32_t)name, a->n, names);
}

/* ---- the converter ------------------------------------------------------------------------ */

static const tg_walk_hooks pf_hooks = {
    .thread_new = on_thread_new,
    .frame_open = on_frame_open,
    .frame_close = on_frame_close,
    .other = on_other,
};

static int convert_perfetto(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out,
                            tg_error **err)
{
    struct pf_writer pf = {.out = out, .part = 1, .err = err, .text = tg_buf_new()};
    if (!pf.text)
        return TG_ERR_NOMEM;
    int rc = tg_split_open(&pf.split, opts, err);
    if (rc < 0) {
        tg_buf_free(pf.text);
        return rc;
    }
    if (pf.split.active)
        pf.out = pf.split.out;
    Perfetto__Protos__TrackEvent end = PERFETTO__PROTOS__TRACK_EVENT__INIT;
    end.has_type = 1;
    end.type = SLICE_END;
    Perfetto__Protos__TracePacket flags = PERFETTO__PROTOS__TRACE_PACKET__INIT;
    flags.has_sequence_flags = 1;
    flags.sequence_flags = SEQ_NEEDS_STATE;
    if ((rc = pack_piece(&pf, &end.base, &pf.end)) < 0 ||
        (rc = pack_piece(&pf, &flags.base, &pf.flags)) < 0)
        goto done;
    rc = tg_frame_walk_run(&pf.walk, it, &pf_hooks, &pf);
done:;
    int close_rc = tg_split_close(&pf.split, rc < 0 ? NULL : err);
    if (rc == 0)
        rc = close_rc;
    free(pf.threads);
    for (size_t i = 0; i < pf.n_seqs; i++)
        free(pf.seqs[i].sent);
    free(pf.seqs);
    free(pf.pack);
    free(pf.pieces);
    free(pf.begins);
    free(pf.ann.items);
    free(pf.ann.ptrs);
    free(pf.ann.text_at);
    tg_buf_free(pf.text);
    tg_id_index_free(&pf.seq_ids);
    tg_id_index_free(&pf.processes);
    tg_frame_walk_free(&pf.walk);
    return rc;
}

TG_CONVERTER(perfetto) = {"perfetto", convert_perfetto};
