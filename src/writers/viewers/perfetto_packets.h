/* perfetto_packets.h - the packet layer of the Perfetto writer: TracePackets framed into
 * the Trace file (or the parts of a split output), packet sequences with their incremental
 * clock and interning state, and slice packets assembled from pieces.
 *
 * A piece is a message's bytes packed once by protobuf-c (a name's TrackEvent fields, a
 * thread's track id, a sequence's id) and copied into every packet that needs them: a
 * slice, nearly every packet of a function trace, is those pieces with its length and time
 * delta written between them, the same bytes protobuf-c packs for the whole message.
 * Everything else (descriptors, interned data, instants, a sequence's first packet) is
 * packed whole by protobuf-c from perfetto_subset.proto. */
#ifndef TG_PERFETTO_PACKETS_H
#define TG_PERFETTO_PACKETS_H

#include "perfetto_subset.pb-c.h"
#include "traceglot.h"
#include "core/hash.h"
#include "writers/viewers/split_output.h"

enum {
    TG_PF_CLOCK_BOOTTIME = 6,  /* Perfetto's builtin clock that is its default trace time */
    TG_PF_CLOCK_SEQUENCE = 64, /* first user-defined, sequence-scoped clock id */
    TG_PF_SEQ_CLEARED = 1,     /* SEQ_INCREMENTAL_STATE_CLEARED */
    TG_PF_SEQ_NEEDS_STATE = 2, /* SEQ_NEEDS_INCREMENTAL_STATE */
    TG_PF_PIECE_COPY = 16,     /* a piece is copied as 16 bytes (the longest is 11): no loop */
};

typedef struct tg_pf_piece {
    uint32_t at; /* in tg_pf_packets.pieces */
    uint8_t len; /* 0: not packed yet */
} tg_pf_piece;

/* One packet sequence: the packets of one source stream. */
typedef struct tg_pf_seq {
    uint32_t id;      /* trusted_packet_sequence_id, from 1 */
    tg_pf_piece head; /* TracePacket{trusted_packet_sequence_id} */
    int started;      /* its first packet is in the current part */
    int64_t last_ns;  /* the incremental clock's value */
    uint64_t default_track;
    uint8_t *sent; /* per interned name: bits the writer chooses (tg_pf_seq_first_use) */
    size_t sent_cap;
} tg_pf_seq;

typedef struct tg_pf_packets {
    tg_buf *out; /* the file, or the current part */
    tg_split split;
    tg_hash seq_ids; /* stream pointer -> index in seqs */
    tg_pf_seq *seqs;
    size_t n_seqs, seqs_cap;
    uint8_t *pack; /* one packed packet, reused */
    size_t pack_cap;
    uint8_t *pieces; /* the bytes of every piece */
    size_t pieces_len, pieces_cap;
    tg_pf_piece end, flags; /* TrackEvent{SLICE_END}, TracePacket{sequence_flags} */
} tg_pf_packets;

/* Writes to out, or to the parts --split-size/--split-time ask for (split.active; the
 * writer's split_ops make the cuts). */
int tg_pf_packets_open(tg_pf_packets *pk, tg_buf *out, const tg_options *opts,
                       const tg_split_ops *split_ops, void *ctx, tg_error **err);
/* A new part is open: packets go there, and every sequence starts again. */
void tg_pf_packets_part_started(tg_pf_packets *pk);
/* Closes the last part (err NULL: the caller already failed) and frees everything. */
int tg_pf_packets_close(tg_pf_packets *pk, tg_error **err);

/* Appends the packet, packed by protobuf-c, as one element of Trace. */
int tg_pf_packet_put(tg_pf_packets *pk, const Perfetto__Protos__TracePacket *pkt);
/* Packs msg with protobuf-c into the pieces. */
int tg_pf_piece_pack(tg_pf_packets *pk, const ProtobufCMessage *msg, tg_pf_piece *pc);
/* A slice's packet: TracePacket{timestamp = delta, seq's id, track_event = te + track,
 * sequence_flags NEEDS_INCREMENTAL_STATE}. */
void tg_pf_slice_put(tg_pf_packets *pk, const tg_pf_seq *seq, uint64_t delta, tg_pf_piece te,
                     tg_pf_piece track);

/* The sequence of a source stream (made when new, not started); NULL when out of memory. */
tg_pf_seq *tg_pf_seq_of(tg_pf_packets *pk, tg_stream *stream);
/* The sequence's first packet: state cleared, a clock snapshot starting its incremental
 * clock at ns, packet defaults naming track. */
int tg_pf_seq_start(tg_pf_packets *pk, tg_pf_seq *seq, int64_t ns, uint64_t track);
/* Sets the packet's time and sequence: a delta on the sequence's clock, or absolute on the
 * builtin clock when the time goes backwards. */
void tg_pf_seq_stamp(Perfetto__Protos__TracePacket *pkt, tg_pf_seq *seq, int64_t ns);
/* Marks bit of name as sent on the sequence: 1 when it was not (the packet must intern it),
 * 0 when it was, TG_ERR_NOMEM. */
int tg_pf_seq_first_use(tg_pf_seq *seq, size_t name, uint8_t bit);
static inline int tg_pf_seq_sent(const tg_pf_seq *seq, size_t name, uint8_t bit)
{
    return name < seq->sent_cap && (seq->sent[name] & bit);
}

#endif
