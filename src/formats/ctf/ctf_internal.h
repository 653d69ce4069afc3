/* ctf_internal.h - the CTF 1.8 reader's shared model: metadata declarations, compiled decode
 * steps and the per-stream decoder state.
 *
 * The metadata path is a pipeline of small passes, each in its own file:
 *   ctf_metadata_text.c  the metadata stream (plain text or packetized) -> TSDL text
 *   ctf2_meta.c          CTF 2: JSON fragments -> the same declarations (instead of the
 *                        lexer and parser below)
 *   ctf_lexer.c          TSDL text -> tokens (with line numbers for every error)
 *   ctf_parse.c          tokens -> declarations: the blocks (trace, env, clock, stream, event)
 *   ctf_parse_types.c    ... and the type specifiers, with typealiases applied by scope
 *   ctf_resolve.c        sequence lengths, variant tags, clock maps -> field references;
 *                        special meanings (packet size, timestamps, ids) and visibility
 *   ctf_validate.c       what the data decoder relies on (version, sizes, tags are enums)
 *   ctf_compile.c        each scope's type -> a flat list of decode steps
 * and the data path:
 *   ctf_bits.h           bit-exact loads in either byte order
 *   ctf_decode.c         the step interpreter over the bits of a packet (skip, build or
 *                        print babeltrace2's text)
 *   ctf_text.[ch]        babeltrace2's text of one value (the printer's pieces)
 *   ctf_clock.c          clock values -> ns from the origin, as babeltrace2 converts them
 *   ctf_stream.c         packets, event headers, clocks, lost events -> tg_event
 *   ctf_value.c          lazily built scope values -> tg_value
 *   ctf_render.c         the babeltrace2 text of an event's scopes (the stream op `render`)
 *   ctf_btcompat.c       babeltrace2's recycled text for texts that decode empty
 *   ctf_btfeed.c         ... found on a thread beside the printer, handed over as it goes
 *   ctf_details.c        babeltrace2's details sink: a trace's classes, an event's fields
 *   ctf_func.c           cyg-profile entry/exit events, symbols from bin_info and ELF files
 *   ctf_format.c         TG_FORMAT(ctf): probe, trace discovery, open, describe
 *
 * Types are copied on every use of a typealias, so that each field owns its type object and
 * per-field facts (register slots, meanings) can live on it. */
#ifndef TG_CTF_INTERNAL_H
#define TG_CTF_INTERNAL_H

#include "core/format_api.h"
#include "core/grow.h"

#include <stdbool.h>
#include <stdint.h>

/* Safety limits for hostile input. */
#define CTF_MAX_METADATA_SIZE (64u << 20)
#define CTF_MAX_NESTING 64
#define CTF_MAX_NODES_PER_SCOPE (1u << 22)
#define CTF_MAX_ARRAY_LEN (1u << 28)
#define CTF_MAX_STEPS (1u << 24)

typedef enum ctf_kind {
    CTF_T_INT,
    CTF_T_FLOAT,
    CTF_T_STRING,
    CTF_T_ENUM,
    CTF_T_STRUCT,
    CTF_T_VARIANT,
    CTF_T_ARRAY,
    CTF_T_SEQUENCE,
} ctf_kind;

typedef enum ctf_meaning {
    CTF_M_NONE = 0,
    CTF_M_MAGIC,
    CTF_M_UUID,
    CTF_M_STREAM_ID,
    CTF_M_STREAM_INSTANCE_ID,
    CTF_M_CONTENT_SIZE,
    CTF_M_PACKET_SIZE,
    CTF_M_TS_BEGIN,
    CTF_M_TS_END,
    CTF_M_DISCARDED,
    CTF_M_SEQ_NUM,
    CTF_M_EVENT_ID,
    /* the event's cpu and thread for the model (tg_event's cpu, tid, pid): found by name
     * (the packet context's cpu_id, the contexts' vtid/tid and vpid/pid), kept visible */
    CTF_M_CPU_ID,
    CTF_M_VTID,
    CTF_M_TID,
    CTF_M_VPID,
    CTF_M_PID,
} ctf_meaning;

/* The meanings babeltrace2 keeps out of its IR (so out of its text). */
static inline bool ctf_meaning_hidden(unsigned mn) { return mn != CTF_M_NONE && mn < CTF_M_CPU_ID; }

/* The seen bits of the per-event thread meanings (cleared before each event's contexts). */
#define CTF_SEEN_THREAD                                                                            \
    ((1u << CTF_M_VTID) | (1u << CTF_M_TID) | (1u << CTF_M_VPID) | (1u << CTF_M_PID))

typedef enum ctf_scope_id {
    CTF_SCOPE_PACKET_HEADER,
    CTF_SCOPE_PACKET_CONTEXT,
    CTF_SCOPE_EVENT_HEADER,
    CTF_SCOPE_STREAM_CONTEXT,
    CTF_SCOPE_EVENT_CONTEXT,
    CTF_SCOPE_PAYLOAD,
    CTF_N_SCOPES
} ctf_scope_id;

struct ctf_type;
struct ctf_clock;
struct ctf_dstream;

typedef struct ctf_enum_map {
    const char *label;
    int64_t lo, hi; /* compared as unsigned when the container is unsigned */
} ctf_enum_map;

typedef struct ctf_field {
    const char *name;      /* as printed: one leading underscore removed */
    const char *orig_name; /* as written in the metadata */
    struct ctf_type *type;
} ctf_field;

typedef struct ctf_var_range {
    int64_t lo, hi;
    uint32_t option;
} ctf_var_range;

typedef struct ctf_type {
    ctf_kind kind;
    unsigned align; /* bits */
    int line;       /* metadata line of the declaration */
    /* integer, enum container */
    unsigned size; /* bits */
    bool is_signed;
    bool varlen; /* CTF 2 variable-length integer (LEB128), value up to 64 bits */
    bool big_endian;
    bool bo_explicit; /* byte_order given on the type (not native) */
    uint8_t base;
    uint8_t encoding;     /* 0 none, 1 UTF8, 2 ASCII */
    const char *map_name; /* "clock.NAME.value" as written */
    struct ctf_clock *clock;
    /* floating point */
    unsigned exp_dig, mant_dig;
    /* enum */
    ctf_enum_map *maps;
    size_t n_maps;
    /* struct, variant */
    ctf_field *fields;
    size_t n_fields, cap_fields;
    /* variant tag / sequence length path as written, and what it resolved to */
    const char *ref;
    struct ctf_type *ref_target;
    ctf_var_range *ranges; /* variant: tag value ranges -> option */
    size_t n_ranges;
    /* array, sequence */
    struct ctf_type *elem;
    uint64_t length;
    /* resolve results */
    int reg; /* >= 0: value is kept in this register (referenced) */
    ctf_meaning meaning;
    bool in_ir;                         /* visible to users (babeltrace's trace IR) */
    bool is_text;                       /* array/sequence of 8-bit encoded integers: a string */
    const struct tg_field_type *schema; /* its public field type, once made (ctf_schema.c) */
} ctf_type;

typedef struct ctf_clock {
    const char *name;
    const char *description;
    uint8_t uuid[16];
    bool has_uuid;
    uint64_t freq;
    uint64_t precision;
    int64_t offset_s;
    uint64_t offset; /* cycles, < freq after normalisation */
    bool absolute;
    /* the offset puts the first packet's time past what signed 64-bit ns from the origin
     * hold (babeltrace2 stops there): times count from the offset instead, with a warning */
    bool from_offset;
    int line;
} ctf_clock;

typedef struct ctf_env {
    const char *key;
    bool is_int;
    int64_t i;
    const char *s;
} ctf_env;

typedef struct ctf_event_decl {
    const char *name;
    uint64_t id;
    uint64_t stream_id;
    bool has_id, has_stream_id;
    bool has_loglevel;
    int64_t loglevel;
    const char *emf_uri;
    ctf_type *context;
    ctf_type *fields;
    int line;
    tg_event_class *cls;
    struct ctf_prog *prog_context, *prog_fields;
} ctf_event_decl;

typedef struct ctf_stream_decl {
    uint64_t id;
    bool has_id;
    ctf_type *packet_context, *event_header, *event_context;
    ctf_event_decl **events;
    size_t n_events, cap_events;
    ctf_clock *clock; /* the default clock (first mapped int found) */
    int line;
    struct ctf_prog *prog_packet_context, *prog_event_header, *prog_event_context;
    ctf_event_decl **by_id; /* dense lookup when ids are small */
    size_t n_by_id;
} ctf_stream_decl;

typedef struct ctf_meta {
    tg_arena *arena;
    tg_trace *trace;  /* where warnings go (NULL: none kept) */
    const char *path; /* metadata file, for messages */
    unsigned major, minor;
    bool has_major, has_minor;
    bool big_endian;
    bool has_byte_order;
    uint8_t uuid[16];
    bool has_uuid;
    ctf_type *packet_header;
    ctf_env *env;
    size_t n_env, cap_env;
    ctf_clock **clocks;
    size_t n_clocks, cap_clocks;
    ctf_stream_decl **streams;
    size_t n_streams, cap_streams;
    ctf_event_decl **events;
    size_t n_events, cap_events;
    unsigned n_regs;
    struct ctf_prog *prog_packet_header;
    bool packetized;
    bool ctf2; /* CTF 2 metadata: roles, not member names, give meanings */
} ctf_meta;

/* Does mapping m of enumeration ty hold value v (compared as the container's sign says)? */
static inline bool ctf_enum_map_has(const ctf_type *ty, const ctf_enum_map *m, uint64_t v)
{
    return ty->is_signed ? ((int64_t)v >= m->lo && (int64_t)v <= m->hi)
                         : (v >= (uint64_t)m->lo && v <= (uint64_t)m->hi);
}

/* ---- compiled decode steps ------------------------------------------------------------------ */

typedef enum ctf_op {
    CTF_OP_INT,
    CTF_OP_FLOAT,
    CTF_OP_STRING,
    CTF_OP_STRUCT,
    CTF_OP_VARIANT,
    CTF_OP_ARRAY,
    CTF_OP_SEQUENCE,
    CTF_OP_TEXT_ARRAY, /* array of 8-bit text: one string value */
    CTF_OP_TEXT_SEQUENCE,
    CTF_OP_VLINT, /* variable-length integer (LEB128, byte-aligned) */
} ctf_op;

#define CTF_EQ_SLACK 16

typedef struct ctf_step {
    uint8_t op;
    uint8_t meaning;
    uint8_t size; /* int/float bits (1..64) */
    bool is_signed, big_endian, clock, in_ir;
    uint32_t align;        /* bits */
    int32_t reg;           /* INT: store into; SEQUENCE/VARIANT: read from */
    uint32_t end;          /* index one past this step's subtree */
    bool fixed;            /* the subtree always takes fixed_bits bits and has no side effects */
    bool flat;             /* STRUCT: fixed, and every member a number at a known offset */
    bool holds_text_array; /* the subtree holds a text array (the on_text hook's concern) */
    uint32_t fixed_bits;
    uint32_t off;   /* member of a flat struct: bit offset from the struct's start */
    uint64_t count; /* STRUCT members, ARRAY length */
    const ctf_type *type;
    const char *name; /* display name (NULL for elements) */
    const char *eq;   /* " name = " or ", name = " (first visible member or not), for
                            * the babeltrace rendering; CTF_EQ_SLACK readable bytes follow */
    uint32_t eq_len;
    union {
        const uint32_t *opt;     /* VARIANT: first step of each option */
        const uint32_t *text_at; /* fixed, holding text arrays at known offsets from its start:
                                  * their number n, then n pairs (step index, bit offset);
                                  * NULL when one lies inside an array */
    };
} ctf_step;

/* The thread (vtid, else tid) or process (vpid, else pid) at a known offset of a context of
 * fixed size: the context is skipped at once and the value read there (ctf_stream.c). */
typedef struct ctf_thread_at {
    uint8_t size; /* 0: none */
    bool is_signed, big_endian;
    uint32_t off; /* bits from the context's (aligned) start */
} ctf_thread_at;

typedef struct ctf_prog {
    ctf_step *steps;
    uint32_t n;
    ctf_scope_id scope;
    ctf_thread_at tid_at, pid_at;
    bool has_thread;  /* tid_at or pid_at */
    bool thread_fast; /* both (when there) 32-bit little-endian at byte offsets, the context
                       * aligned to bytes: LTTng's, read with one load each */
    /* 1 + the integer or float step that always starts inside a byte whose first bits the
     * field before it filled in the other byte order (0: none): babeltrace2 reads no such
     * field ("two different byte orders not at a byte boundary"), nor does ctf_run */
    uint32_t bo_split;
    /* a field after an array, a sequence or a variant may start inside a byte the field read
     * before it filled in the other byte order: which one, only the data says, so the scope
     * is checked before it is read (ctf_bo_check) */
    bool bo_careful;
    /* its text depends on its own bytes only: no sequence, variant or text sequence reads a
     * register another scope may set (ctf_render.c reuses such a context's text) */
    bool self_contained;
} ctf_prog;

static inline bool ctf_meaning_thread(unsigned mn) { return mn >= CTF_M_VTID && mn <= CTF_M_PID; }

/* ---- decoding ------------------------------------------------------------------------------- */

/* One decoded value of a built scope (a tree kept as an array). */
typedef struct ctf_node {
    const ctf_step *st;
    uint32_t kids;   /* compound: index of its first child slot in kid[] */
    uint32_t count;  /* compound: number of children; VARIANT: 1 */
    uint32_t option; /* VARIANT: selected option */
    union {
        uint64_t u;
        int64_t s;
        double f;
        struct {
            uint64_t off; /* byte offset in the packet */
            uint32_t len;
        } str;
    } v;
} ctf_node;

typedef struct ctf_tree {
    ctf_node *nodes;
    uint32_t n;
    size_t cap;
    uint32_t *kid; /* child node indices */
    uint32_t n_kid;
    size_t cap_kid;
    uint64_t built_for;  /* event serial the tree belongs to (0: none) */
    const uint8_t *base; /* packet bytes the string offsets refer to */
} ctf_tree;

/* Decoder state of one data stream: the bits of the current packet and what the special
 * fields said. */
typedef struct ctf_dec {
    const uint8_t *buf; /* packet start */
    uint64_t bits;      /* decodable bits (content size) */
    uint64_t pos;       /* current bit position */
    uint64_t *regs;
    ctf_tree *tree; /* build mode: where nodes go; NULL: skip mode */
    bool quiet;     /* rebuilding a scope: no clock or meaning updates */
    size_t buf_len; /* bytes mapped from buf (loads never go past) */
    /* optional: told about every text decoded, in decoding order: at most count bytes at p,
     * ending at the first NUL (ctf_btcompat.c's replay) */
    void (*on_text)(void *ctx, const ctf_step *st, const uint8_t *p, uint64_t count);
    void *text_ctx;
    /* print mode: where the text goes, the stream whose recycled texts apply (owner, NULL
     * for none), and whether a text printed was empty (one babeltrace2 may show recycled) */
    tg_buf *out;
    struct ctf_dstream *owner;
    bool empty_text;
    bool no_names; /* print mode: values without their names (babeltrace2 --names) */
    int depth;
    /* error reporting */
    const char *file;
    uint64_t file_off; /* packet start in the file */
    const char *where; /* failing field name */
    /* what the reading mode sets and no quiet pass reads: after the fields a quiet pass
     * (ctf_render.c's) copies of the reader, CTF_DEC_QUIET_COPY bytes */
    uint64_t clock_value;
    bool clock_seen;
    /* values of special fields, last seen */
    uint64_t magic, stream_id, stream_instance_id, content_size, packet_size, ts_begin, ts_end,
        discarded, seq_num, event_id;
    uint64_t cpu_id, vtid, tid, vpid, pid;
    uint32_t seen; /* bit (1 << meaning) set when the field was decoded */
    const uint8_t *uuid;
    char msg[160];
} ctf_dec;

#define CTF_DEC_QUIET_COPY offsetof(ctf_dec, clock_value)

/* ---- pass entry points ---------------------------------------------------------------------- */

/* Reads the metadata file into TSDL text (malloc'ed, NUL-terminated). */
int ctf_metadata_text(const char *path, char **text, size_t *len, bool *packetized, tg_error **err);
/* `babeltrace2 query src.ctf.fs metadata-info`'s answer for the opened trace t
 * (ctf_metadata_info.c): 1, or a negative status. */
int ctf_metadata_info(const tg_trace *t, tg_buf *out, tg_error **err);
/* 0 when babeltrace2 2.0 reads the trace's metadata (CTF 1.8, with its signature when plain
 * text), else its refusal. */
int ctf_metadata_bt2_check(const tg_trace *t, tg_error **err);

typedef enum ctf_tok_kind {
    CTF_TK_EOF,
    CTF_TK_IDENT,
    CTF_TK_INT,    /* text holds the digits; value parsed by the parser */
    CTF_TK_STRING, /* text unescaped */
    CTF_TK_CHAR,
    CTF_TK_PUNCT, /* text: { } [ ] ( ) ; , : := = . ... < > * + - */
} ctf_tok_kind;

typedef struct ctf_token {
    ctf_tok_kind kind;
    const char *text;
    size_t len;
    int line;
    uint64_t ival;
    bool ival_overflow;
} ctf_token;

typedef struct ctf_tokens {
    ctf_token *v;
    size_t n, cap;
} ctf_tokens;

int ctf_lex(const char *text, size_t len, tg_arena *arena, ctf_tokens *out, const char *path,
            tg_error **err);

int ctf_parse(const ctf_tokens *toks, ctf_meta *meta, tg_error **err);
/* CTF 2: does the metadata text start a JSON text sequence; its fragments -> declarations
 * (ctf2_meta.c), in place of ctf_lex + ctf_parse. */
bool ctf2_is_metadata(const char *text, size_t len);
int ctf2_parse(const char *text, size_t len, ctf_meta *meta, tg_error **err);
int ctf_resolve(ctf_meta *meta, tg_error **err);
int ctf_validate(ctf_meta *meta, tg_error **err);
int ctf_compile(ctf_meta *meta, tg_error **err);
/* The error of a scope whose prog->bo_split names a field no one can read (ctf_run's): d->msg
 * and d->where set, TG_ERR_FORMAT returned. */
int ctf_bo_split_err(ctf_dec *d, const ctf_prog *prog);
/* Of a prog->bo_careful scope at d->pos: 0, or TG_ERR_FORMAT with d->msg and d->where when a
 * number starts inside a byte the one read before it filled in the other byte order, as
 * babeltrace2 refuses it (ctf_bo_check.c); it sets the registers it reads, as reading does. */
int ctf_bo_check(ctf_dec *d, const ctf_prog *prog);

/* Runs prog over the decoder's bits from its position: 0, or a negative status with
 * d->msg / d->where set. */
int ctf_run(ctf_dec *d, const ctf_prog *prog);
/* The integer a describes at bit pos of the packet (within its content). */
int64_t ctf_thread_at_read(const ctf_dec *d, uint64_t pos, const ctf_thread_at *a);
/* The same, printing the visible values as babeltrace2 does into out (print mode). */
int ctf_run_print(ctf_dec *d, const ctf_prog *prog, tg_buf *out);
/* Converts a clock value to ns from the clock's origin the way babeltrace2 does (from its
 * offset when the offset puts times past what int64 holds: c->from_offset). */
int64_t ctf_clock_ns(const ctf_clock *c, uint64_t value);
/* Does that time fit in signed 64-bit ns from the origin?  babeltrace2 stops with an error
 * at the first one that does not. */
bool ctf_clock_ns_fits(const ctf_clock *c, uint64_t value);
/* Both at once: *ns is ctf_clock_ns's value, the result ctf_clock_ns_fits's. */
bool ctf_clock_ns_checked(const ctf_clock *c, uint64_t value, int64_t *ns);
ctf_type *ctf_type_copy(tg_arena *a, const ctf_type *t);
ctf_stream_decl *ctf_meta_stream(const ctf_meta *m, uint64_t id);
ctf_event_decl *ctf_stream_event(const ctf_stream_decl *s, uint64_t id);
const char *ctf_env_string(const ctf_meta *m, const char *key);
/* ctf_attrs.c: the trace's clock, host, process, tracer and env from the metadata.
 * 0 or TG_ERR_NOMEM. */
int ctf_attrs_fill(tg_trace *t, const ctf_meta *m);
/* Hangs the public field schema (ctf_schema.c) of each scope on the classes of s. */
int ctf_schema_attach(ctf_meta *m, const ctf_stream_decl *s, tg_error **err);

#endif
