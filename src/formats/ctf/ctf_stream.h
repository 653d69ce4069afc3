/* ctf_stream.h - one CTF trace's state and its data streams (shared by ctf_stream.c,
 * ctf_value.c, ctf_func.c and ctf_format.c).
 *
 * A data stream is one or more stream files (tracefile rotation splits one stream into
 * several files, ordered by their first packet's time); it is read packet by packet from the
 * mapped file, and keeps the decoder state (clock, registers, special fields) and one lazily
 * built value tree per scope for the event it last returned. */
#ifndef TG_CTF_STREAM_H
#define TG_CTF_STREAM_H

#include "formats/ctf/ctf_internal.h"
#include "core/file_input.h"
#include "io/read_window.h"

typedef struct ctf_func_info ctf_func_info;
typedef struct ctf_debug_info ctf_debug_info;

typedef struct ctf_trace {
    ctf_meta meta;
    const char *dir;
    tg_event_class *lost_cls;
    /* the message events (tg_iter_want_messages): stream beginning, stream end, packet
     * beginning, packet end; kept out of the trace's class list, which lists event classes */
    tg_event_class *msg_cls[5]; /* the messages' classes: TG_KIND_STREAM_BEGIN + index */
    ctf_func_info *func;        /* cyg-profile support (ctf_func.c), NULL when none */
    ctf_debug_info *dbg;        /* the babeltrace style's --debug-info (ctf_debuginfo.c) */
    tg_trace *trace;
    bool btcompat_done; /* ctf_btcompat.c ran (it runs on first need) */
} ctf_trace;

typedef struct ctf_file {
    char *path;
    uint64_t first_ts;
    uint64_t instance;
    bool has_instance;
    ctf_stream_decl *sc;
} ctf_file;

/* What babeltrace2 2.0.4 prints for a text of one event that decodes empty (see
 * ctf_btcompat.c). */
typedef struct ctf_quirk {
    uint64_t serial;
    const ctf_step *st;
    const char *s; /* len bytes; on the way from the replay: at off in a text buffer */
    size_t off;
    uint32_t len;
} ctf_quirk;

typedef struct ctf_dstream ctf_dstream;
typedef struct ctf_btfeed ctf_btfeed;
typedef void (*ctf_packet_hook)(void *ctx, const ctf_dstream *ds);

struct ctf_dstream {
    ctf_trace *tr;
    ctf_stream_decl *sc;
    ctf_file *files;
    size_t n_files, cur_file;
    tg_map map;
    tg_window win; /* over map: the file is read once, packet after packet */
    bool mapped, in_packet, done;
    uint64_t pkt_off, next_pkt_off, pkt_index;
    uint64_t pc_pos; /* bit where the packet context starts */
    int32_t cpu;     /* the packet context's cpu_id, -1 when none */
    bool ck_fast;    /* the clock counts ns from a base that fits: times are ck_base + value */
    int64_t ck_base;
    ctf_dec d;
    uint64_t serial;
    ctf_tree trees[CTF_N_SCOPES];
    bool have_prev;
    uint64_t prev_discarded, prev_seq, prev_ts_end;
    uint64_t lost_pending;
    bool lost_packet;
    /* the discarded-items messages babeltrace2 sends before this packet's beginning:
     * 1 discarded events, 2 discarded packets (ctf_btcompat.c) */
    uint8_t discarded_msgs;
    int64_t lost_ts;
    int64_t last_ts;
    unsigned label_slot;
    tg_buf *rbuf;          /* rendering scratch (ctf_render.c) */
    unsigned render_flags; /* the tg_render_flag the cached texts below were rendered with */
    uint64_t ev_clock;     /* the clock value of the event next() gave last */
    tg_buf *pc_text;       /* the packet context rendered once per packet */
    uint64_t pc_for;       /* pkt_index + 1 the text belongs to (0: none) */
    char labels[8][256];
    /* the stream event context's text, reused while its bytes do not change (ctf_render.c) */
    uint8_t sc_raw[128];
    uint32_t sc_raw_len;  /* bytes in sc_raw; 0: nothing cached */
    uint8_t sc_raw_shift; /* start bit within the first byte */
    tg_buf *sc_text;
    /* babeltrace2's recycled empty texts (ctf_btfeed.c): the replay's findings taken over so
     * far, sorted by serial, for the events numbered from the current one to quirk_known */
    ctf_quirk *quirks;
    size_t n_quirks, cap_quirks, quirk_at; /* quirk_at: where the last lookup stopped */
    char *quirk_txt;                       /* their texts */
    size_t quirk_txt_cap;
    uint64_t quirk_known;
    ctf_btfeed *feed; /* the replay this stream takes them from; feed_index: its number there */
    size_t feed_index;
    bool feed_checked; /* the replay was started, or found not needed, for this stream */
    bool keep_maps;    /* files read stay mapped until freed (ctf_btcompat.c) */
    bool bare; /* the batch replay's reader (ctf_btcompat.c): no cpu or thread for the events */
    tg_map *kept_maps;
    size_t n_kept_maps, cap_kept_maps;
    ctf_packet_hook packet_hook; /* called when a packet opens (ctf_btcompat.c) */
    /* tg_iter_want_messages: the stream's beginning was given; a packet's beginning and end
     * are still to give; the clock values of the pending gap (lost_pending) */
    bool msgs, msg_begun, msg_pkt_begin, msg_pkt_end;
    bool attn;         /* lost_pending or msg_pkt_begin: the one test per event for both */
    bool lost_unknown; /* the pending gap's count is not known (before the first packet) */
    uint64_t lost_begin_cycles, lost_end_cycles;
    /* tg_iter_want_messages: the packets lost before this packet (its sequence number skips),
     * given after the events' gap as TG_KIND_PACKETS_LOST, with its time and clock values */
    uint64_t pkts_lost, pkts_begin_cycles, pkts_end_cycles;
    int64_t pkts_ts;
    bool pkts_numbered; /* it takes a serial (no events' gap in this packet: see next_packet) */
    bool gap_timed;     /* the packet context has both packet times: the gaps have clock values */
    void *hook_ctx;
};

extern const struct tg_stream_ops ctf_stream_ops;

/* Reads the packet headers of one stream file: validates every packet's sizes and returns
 * the first packet's stream class, instance id and begin time. */
int ctf_scan_file(ctf_trace *tr, ctf_file *f, tg_error **err);
/* Each packet of the stream file at path, in file order: visit gets its decoded header and
 * context (d), its stream class (whole: NULL when the packet is damaged; sc: the class its
 * header names, if any) and its offset; it returns whether to go on.  A damaged packet
 * ends the walk after its visit. */
typedef bool (*ctf_packet_visit)(void *ctx, const ctf_dec *d, const ctf_stream_decl *whole,
                                 const ctf_stream_decl *sc, uint64_t off);
int ctf_scan_packets(ctf_trace *tr, const char *path, ctf_packet_visit visit, void *ctx,
                     tg_error **err);
/* The clock value of the last event of the stream's packet at offset off of its file number
 * file, read through the stream from where it is (a stream not read yet: a query's); 0 when
 * that packet holds no event, 1 found, <0 the stream's error. */
int ctf_packet_last_clock(tg_stream *s, size_t file, uint64_t off, uint64_t *clock, tg_error **err);
void ctf_dstream_free(ctf_dstream *ds);

/* Field access (ctf_value.c): the scope's value tree for the stream's current event, built
 * on first use (NULL when the event has no such scope); *filter says whether fields hidden
 * from users must be skipped. */
const ctf_tree *ctf_scope_tree(const tg_event *ev, tg_scope scope, bool *filter);
size_t ctf_field_count(const tg_event *ev, tg_scope scope);
int ctf_field_get(const tg_event *ev, tg_scope scope, size_t i, tg_value *out);
/* The visible field of that name in the scope (first match), or false; ctf_field_uint: its
 * value when it is an integer. */
bool ctf_field_named(const tg_event *ev, tg_scope scope, const char *name, tg_value *out);
bool ctf_field_uint(const tg_event *ev, tg_scope scope, const char *name, uint64_t *out);

/* The babeltrace2 rendering of an event's contexts and payload (ctf_render.c). */
int ctf_render(const tg_event *ev, tg_buf *out);
int ctf_render_with(const tg_event *ev, tg_buf *out, unsigned flags);

/* babeltrace2 compatibility: the text babeltrace2 prints for the text of step st of the
 * stream's current event, which decodes empty (ctf_btfeed.c), or NULL. */
const ctf_quirk *ctf_quirk_find(ctf_dstream *ds, const ctf_step *st);

/* babeltrace2's debug-info filter (ctf_debuginfo.c): option "debug-info" (with
 * "debug-info-dir", "debug-info-target-prefix", "debug-info-full-path"); whether it adds a
 * debug_info member to the stream's events; that member's text (", debug_info = {...}"). */
int ctf_debuginfo_setup(ctf_trace *tr, const tg_options *opts);
void ctf_debuginfo_free(ctf_trace *tr);
bool ctf_debuginfo_applies(const ctf_dstream *ds);
void ctf_debuginfo_render(const tg_event *ev, tg_buf *w);

/* `babeltrace2 query src.ctf.fs babeltrace.trace-infos`'s answer for the opened trace t
 * (ctf_trace_infos.c): 1, or a negative status (nothing written). */
int ctf_trace_infos(const tg_trace *t, tg_buf *out, tg_error **err);

/* The "Trace class:" block of babeltrace2's details sink (ctf_details.c): 1 written. */
int ctf_details_render(const tg_trace *t, tg_buf *out);
/* The lines of an event's scopes (or a packet beginning's context) in that sink's text
 * (tg_render_flag TG_RENDER_DETAILS): 1 written, 0 not a CTF event. */
int ctf_details_event(const tg_event *ev, tg_buf *out);
/* The decode step a value of ctf_field_get stands for (ctf_value.c). */
const ctf_step *ctf_value_step(const tg_value *v);

/* Function traces (ctf_func.c). */
int ctf_func_setup(tg_trace *t, ctf_trace *tr, const tg_options *opts);
void ctf_func_event(ctf_dstream *ds, const ctf_event_decl *e, tg_event *ev);
const char *ctf_func_name(const tg_event *ev);
const char *ctf_func_module(const tg_event *ev); /* the statedump path of its module */
void ctf_func_free(ctf_trace *tr);

#endif
