/* ctf_writer.h - the pieces of the CTF 1.8 writer (traceglot convert --to ctf).
 *
 *   ctf_pack.c     a growable bit buffer: aligned little/big-endian integers of any size
 *   ctf_encode.c   tg_values encoded by a tg_field_type (the class's schema or a derived one)
 *   ctf_derive.c   a schema derived from the values of formats that declare no types
 *   ctf_tsdl.c     the TSDL metadata text for the classes and streams written
 *   ctf_write.c    the converter: classes, streams, packets, files
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
int cw_pack_zeros(cw_pack *p, size_t n);                   /* n zero bytes */
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
int cw_derived_enum_label(cw_derived *d, const tg_field_type *t, const char *label,
                          uint64_t v);

/* ---- metadata ---------------------------------------------------------------------------- */

/* Appends the TSDL declaration of member name with type t (no trailing ';'). */
void cw_tsdl_member(tg_buf *b, const tg_field_type *t, const char *decl_name, int indent);
/* Appends a struct's body "struct { ... } align(N)". */
void cw_tsdl_struct(tg_buf *b, const tg_field_type *st, int indent);
/* Appends s as a TSDL string literal. */
void cw_tsdl_quoted(tg_buf *b, const char *s);

#endif
