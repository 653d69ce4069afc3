/* ctf_writer.h - the pieces of the CTF 1.8 writer (traceglot convert --to ctf).
 *
 *   ctf_pack.c     a growable bit buffer: aligned little/big-endian integers of any size
 *   ctf_encode.c   tg_values encoded by a tg_field_type (the class's schema or a derived one)
 *   ctf_derive.c   a schema derived from the values of formats that declare no types
 *   ctf_tsdl.c     field types as TSDL
 *   ctf_clock.c    an output trace's clock: the input's clock class, times as its cycles
 *   ctf_metadata.c an output trace's metadata: trace block, env, clock, stream and event
 *                  classes
 *   ctf_write.c    the converter: one output trace per input trace; classes, streams,
 *                  packets, files
 *   ctf_perf.c     perf.data samples as `perf data convert --to-ctf` writes them
 *
 * The writer sees only the public event model: the field schema that CTF input declares
 * (tg_event_class_schema) is written back type for type, so babeltrace2 prints the same;
 * other inputs get types from their values. */
#ifndef TG_CTF_WRITER_H
#define TG_CTF_WRITER_H

#include "traceglot.h"

#include <stdint.h>

/* ---- bit buffer -------------------------------------------------------------------------- */

typedef struct cw_pack {
    uint8_t *buf;
    size_t cap;    /* bytes */
    uint64_t bits; /* write position */
} cw_pack;

int cw_pack_align(cw_pack *p, unsigned align_bits);
int cw_pack_uint(cw_pack *p, uint64_t v, unsigned bits, int big_endian);
int cw_pack_bytes(cw_pack *p, const void *src, size_t n); /* at a byte boundary */
int cw_pack_zeros(cw_pack *p, size_t n);                  /* n zero bytes */
void cw_pack_free(cw_pack *p);
/* Empties the buffer (zeroing what was used) for the next packet. */
void cw_pack_reset(cw_pack *p);
/* Cuts the buffer back to bits (zeroing what was after), to drop a half-encoded event. */
void cw_pack_truncate(cw_pack *p, uint64_t bits);
/* Overwrites a 64-bit little/big-endian integer at byte offset off. */
void cw_pack_patch64(cw_pack *p, size_t off, uint64_t v, int big_endian);

/* ---- encoding values --------------------------------------------------------------------- */

/* Integer values met while encoding one event, by declared name, for sequence lengths. */
typedef struct cw_lengths {
    const char *name[32];
    uint64_t value[32];
    unsigned n;
} cw_lengths;

/* A member type that holds the element count of the member after it (derived schemas:
 * the "_x_length" field before sequence x). */
extern const tg_field_type cw_length_type;
/* The element of a sequence holding raw bytes (TG_VAL_BYTES: a trace.dat array that is not
 * text): 8-bit unsigned, hexadecimal, no encoding, so that every byte is written and read
 * back as a number rather than a string cut at its first NUL. */
extern const tg_field_type cw_byte_type;

/* Encodes the n top-level values vals[] as the members of struct type st. */
int cw_encode_members(cw_pack *p, const tg_field_type *st, const tg_value *vals, size_t n,
                      cw_lengths *lens, tg_error **err);

/* ---- derived schemas ------------------------------------------------------------------------ */

typedef struct cw_derived cw_derived; /* owns the types it derives */

cw_derived *cw_derived_new(void);
void cw_derived_free(cw_derived *d);
/* A struct type for the values vals[0..n) (NULL on out of memory or an unsupported value,
 * with *err set).  extra_front values (already in vals) come first. */
const tg_field_type *cw_derive_struct(cw_derived *d, const tg_value *vals, size_t n,
                                      tg_error **err);
/* Records that enum type t (from cw_derive_struct) maps label to v. */
int cw_derived_enum_label(cw_derived *d, const tg_field_type *t, const char *label, uint64_t v);

/* ---- clock --------------------------------------------------------------------------------- */

/* The clock of one output trace: the input trace's clock class, as its format gave it. */
typedef struct cw_clock {
    char name[64];           /* a TSDL identifier (map = clock.NAME.value) */
    const char *description; /* NULL: none */
    uint64_t freq, precision;
    int64_t offset_s;
    uint64_t offset_cycles; /* below one second of cycles */
    int64_t base_ns;        /* offset_s * 1e9 + ns(offset_cycles), as babeltrace2 computes */
    uint8_t uuid[16];
} cw_clock;

/* The clock class of trace t (its uuid, one named after its clock domain, or else
 * trace_uuid). */
void cw_clock_of(cw_clock *c, const tg_trace *t, const uint8_t *trace_uuid);
/* The clock value whose time is ns (ns on the trace's clock), as babeltrace2 converts
 * values back to ns; a negative status with *err set for a time before the clock's
 * origin. */
int cw_clock_cycles(const cw_clock *c, int64_t ns, uint64_t *cycles, tg_error **err);

/* ---- metadata ---------------------------------------------------------------------------- */

/* Appends the TSDL declaration of member name with type t (no trailing ';'). */
void cw_tsdl_member(tg_buf *b, const tg_field_type *t, const char *decl_name, int indent);
/* Appends a struct's body "struct { ... } align(N)". */
void cw_tsdl_struct(tg_buf *b, const tg_field_type *st, int indent);
/* name as a TSDL identifier (size >= 4): other characters become '_' ("osinfo:hostname" ->
 * "osinfo_hostname"); a leading digit, an empty name or a keyword gets a '_'. */
void cw_tsdl_identifier(char *out, size_t size, const char *name);
/* Appends s as a TSDL string literal. */
void cw_tsdl_quoted(tg_buf *b, const char *s);

/* One stream class of an output trace: packet and event contexts. */
typedef struct cw_sclass {
    const struct cw_otrace *tr;
    uint32_t id;
    const tg_field_type *pctx; /* packet context members after the writer's own */
    const tg_field_type *sctx; /* stream event context */
    int derived;               /* sctx is the writer's pid/tid; pctx its cpu_id */
    uint32_t next_event_id;
} cw_sclass;

/* One event class written: an input class (and, for derived types, one payload shape). */
typedef struct cw_class {
    const tg_event_class *in;
    cw_sclass *sc;
    uint32_t id;
    const tg_field_type *ectx, *payload;
    int derived, func;
    int perf;         /* a perf.data sample class: payload and values from ctf_perf.c */
    const char *name; /* NULL: the input class's name */
    uint64_t shape;   /* derived: the payload's shape, see shape_of */
} cw_class;

/* One output trace (one per input trace): its directory, uuid, clock and classes. */
typedef struct cw_otrace {
    const tg_trace *in;
    char *dir;
    uint8_t uuid[16];
    int has_clock;
    cw_clock clock;
    int64_t first_ts, last_ts; /* ns on the trace's clock, of its first and last event */
    int any_event;
    cw_sclass **sclasses;
    size_t n_sclasses, cap_sclasses;
    cw_sclass *derived_sc;
    const tg_field_type *derived_pctx;
    int perf;           /* a perf.data trace, written as perf's converter writes it */
    cw_sclass *perf_sc; /* its one stream class (cpu_id, no event context) */
    uint32_t n_perf_streams;
} cw_otrace;

/* Writes tr's metadata file: classes[0..n) are every class written (of every trace). */
int cw_write_metadata(const cw_otrace *tr, cw_class *const *classes, size_t n_classes,
                      tg_error **err);
/* Appends the TSDL env block of trace t. */
void cw_tsdl_env(tg_buf *b, const tg_trace *t);

/* ---- perf.data samples (ctf_perf.c) ------------------------------------------------------ */

typedef struct cw_perf cw_perf; /* the layouts of the sample classes met */

cw_perf *cw_perf_new(void);
void cw_perf_free(cw_perf *p);
/* Whether trace t is a perf.data file, and ev one of its samples (perf converts only
 * those). */
int cw_perf_is_trace(const tg_trace *t);
int cw_perf_is_sample(const tg_event *ev);
/* The payload type of sample ev's class, and perf's name for it in *name; NULL with *err
 * set on failure. */
const tg_field_type *cw_perf_payload(cw_perf *p, const tg_event *ev, const char **name,
                                     tg_error **err);
/* The CPU whose stream gets sample ev (after cw_perf_payload of it): its cpu, or 0. */
int64_t cw_perf_cpu(cw_perf *p, const tg_event *ev);
/* The values of sample ev for its payload type (valid until the next call). */
int cw_perf_values(cw_perf *p, const tg_event *ev, const tg_value **vals, size_t *n,
                   tg_error **err);
/* perf's env block, and its clock (offset 0, ns). */
void cw_perf_env(tg_buf *b, const tg_trace *t);
void cw_perf_clock(cw_clock *c);

#endif
