/* ctf2_internal.h - what the two halves of the CTF 2 metadata reader share.
 *
 * ctf2_meta.c turns JSON field classes into ctf_type trees; ctf2_fragments.c reads the
 * fragments (preamble, trace, clock, data stream and event record classes, aliases) and
 * drives the whole parse.  Both work on one ctf2_ctx and report errors the same way. */
#ifndef TG_CTF2_INTERNAL_H
#define TG_CTF2_INTERNAL_H

#include "formats/ctf/ctf_internal.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#define CTF2_MAX_FRAGMENT (16u << 20)

typedef struct ctf2_alias {
    const char *name;
    ctf_type *type;
} ctf2_alias;

typedef struct ctf2_ctx {
    ctf_meta *m;
    tg_error **err;
    int frag; /* fragment number (1-based), for messages */
    ctf2_alias *aliases;
    size_t n_alias, cap_alias;
    ctf_stream_decl *stream; /* the data stream class being read (its default clock) */
    ctf_scope_id scope;
    int depth;
} ctf2_ctx;

/* An error at the current fragment ("metadata fragment N: ..."); returns TG_ERR_FORMAT. */
int ctf2_jerr(ctf2_ctx *c, const char *fmt, ...) TG_PRINTF(2, 3);
/* Member key of an object, or NULL. */
json_object *ctf2_member(json_object *o, const char *key);
/* String member, or NULL. */
const char *ctf2_get_str(json_object *o, const char *key);
/* Integer members: 1 read, 0 absent, or an error. */
int ctf2_get_int(ctf2_ctx *c, json_object *o, const char *key, int64_t *out);
int ctf2_get_uint(ctf2_ctx *c, json_object *o, const char *key, uint64_t *out);
/* A copy in the metadata's arena, or NULL with the error set. */
const char *ctf2_dup_str(ctf2_ctx *c, const char *s);
int ctf2_get_uuid(ctf2_ctx *c, json_object *o, const char *key, uint8_t out[16], bool *has);
/* A field class as a ctf_type tree. */
int ctf2_field_class(ctf2_ctx *c, json_object *fc, ctf_type **out);
/* A scope's field class: a structure (or absent: *out NULL). */
int ctf2_scope_class(ctf2_ctx *c, json_object *frag, const char *key, ctf_scope_id scope,
                     ctf_type **out);

#endif
