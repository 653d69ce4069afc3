/* ctf_encode.c - event fields encoded as CTF 1.8 binary, driven by their field type.
 *
 * The type (a class's declared schema, or one derived from values) says where each field
 * goes: its alignment, size, byte order; the value (tg_value) says what goes there.  The two
 * are walked together: struct members in order, the selected option of a variant (found by
 * name), array and sequence elements, text arrays and sequences as bytes padded with NULs.
 * A sequence's length is the value of the integer field its type names, met earlier in the
 * same event (cw_lengths), which is what a CTF reader will read it from. */
#include "writers/ctf/ctf_writer.h"
#include "core/error_internal.h"

#include <string.h>

const tg_field_type cw_length_type = {
    .kind = TG_FT_INT, .bits = 32, .align = 8, .byte_order = 1, .base = 10};
const tg_field_type cw_byte_type = {
    .kind = TG_FT_INT, .bits = 8, .align = 8, .byte_order = 1, .base = 16};

static int encode(cw_pack *p, const tg_field_type *t, const tg_value *v, cw_lengths *lens,
                  tg_error **err);

static int mismatch(const tg_value *v, const char *want, tg_error **err)
{
    return tg_err(err, TG_ERR_UNSUPPORTED, "field %s: a %s was expected by its type",
                  v->name ? v->name : "(element)", want);
}

static void remember(cw_lengths *lens, const char *name, uint64_t v)
{
    if (!name)
        return;
    unsigned i = lens->n < 32 ? lens->n++ : 31;
    lens->name[i] = name;
    lens->value[i] = v;
}

/* The length field a sequence names: the last component of its path, latest first. */
static int find_length(const cw_lengths *lens, const char *ref, uint64_t *out)
{
    if (!ref)
        return -1;
    const char *dot = strrchr(ref, '.');
    const char *last = dot ? dot + 1 : ref;
    for (unsigned i = lens->n; i-- > 0;)
        if (strcmp(lens->name[i], last) == 0) {
            *out = lens->value[i];
            return 0;
        }
    return -1;
}

static int is_text(const tg_field_type *t)
{
    const tg_field_type *e = t->element;
    return e && (e->kind == TG_FT_INT || e->kind == TG_FT_ENUM) && e->bits == 8 && e->encoding;
}

/* Where a field of type t starts: its own alignment, a compound's largest member's, an
 * array's element's (even when it has no element). */
static unsigned type_align(const tg_field_type *t)
{
    unsigned a = t->align ? t->align : 1;
    switch (t->kind) {
    case TG_FT_STRING: return a > 8 ? a : 8;
    case TG_FT_STRUCT:
        for (size_t i = 0; i < t->n_members; i++) {
            unsigned m = type_align(t->members[i].type);
            if (m > a)
                a = m;
        }
        return a;
    case TG_FT_VARIANT: return 1;
    case TG_FT_ARRAY:
    case TG_FT_SEQUENCE: return type_align(t->element);
    default: return a;
    }
}

static int encode_text(cw_pack *p, const tg_field_type *t, const tg_value *v, uint64_t len,
                       tg_error **err)
{
    if (v->type != TG_VAL_STRING && v->type != TG_VAL_BYTES)
        return mismatch(v, "text", err);
    TG_TRY(cw_pack_align(p, t->element->align) < 0 ? TG_ERR_NOMEM : 0);
    size_t n = v->v.str.len < len ? v->v.str.len : (size_t)len;
    if (cw_pack_bytes(p, v->v.str.ptr, n) < 0 || cw_pack_zeros(p, (size_t)len - n) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int encode_elements(cw_pack *p, const tg_field_type *t, const tg_value *v, uint64_t len,
                           cw_lengths *lens, tg_error **err)
{
    if (v->type != TG_VAL_ARRAY && v->type != TG_VAL_SEQUENCE)
        return mismatch(v, "array", err);
    if (cw_pack_align(p, type_align(t->element)) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (v->count != len)
        return tg_err(err, TG_ERR_UNSUPPORTED, "field %s: %zu elements, its type says %llu",
                      v->name ? v->name : "(element)", v->count, (unsigned long long)len);
    for (size_t i = 0; i < v->count; i++) {
        tg_value c;
        TG_TRY(tg_value_child(v, i, &c));
        TG_TRY(encode(p, t->element, &c, lens, err));
    }
    return 0;
}

static int encode_int(cw_pack *p, const tg_field_type *t, const tg_value *v, tg_error **err);

/* An array whose value is its elements' raw bytes (a tracepoint's fixed array): each
 * element read from them by the value's element size and byte order. */
static int encode_packed_elements(cw_pack *p, const tg_field_type *t, const tg_value *v,
                                  tg_error **err)
{
    size_t size = v->bits / 8;
    if (!size || size > 8 || !t->element || v->v.str.len != size * t->length)
        return mismatch(v, "array of whole elements", err);
    const uint8_t *b = (const uint8_t *)v->v.str.ptr;
    for (size_t i = 0; i < (size_t)t->length; i++) {
        uint64_t u = 0;
        for (size_t k = 0; k < size; k++)
            u |= (uint64_t)b[i * size + (v->byte_order == 2 ? size - 1 - k : k)] << (8 * k);
        tg_value e = {.type = TG_VAL_UINT, .v.u = u};
        TG_TRY(encode_int(p, t->element, &e, err));
    }
    return 0;
}

static int encode_int(cw_pack *p, const tg_field_type *t, const tg_value *v, tg_error **err)
{
    uint64_t u;
    if (v->type == TG_VAL_SINT || v->type == TG_VAL_UINT)
        u = v->v.u;
    else if (v->type == TG_VAL_FLOAT)
        u = (uint64_t)(int64_t)v->v.f;
    else
        return mismatch(v, "integer", err);
    if (cw_pack_align(p, t->align) < 0 || cw_pack_uint(p, u, t->bits, t->byte_order == 2) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int encode_float(cw_pack *p, const tg_field_type *t, const tg_value *v, tg_error **err)
{
    double d;
    if (v->type == TG_VAL_FLOAT)
        d = v->v.f;
    else if (v->type == TG_VAL_SINT)
        d = (double)v->v.s;
    else if (v->type == TG_VAL_UINT)
        d = (double)v->v.u;
    else
        return mismatch(v, "floating point number", err);
    uint64_t u;
    if (t->bits == 32) {
        float f = (float)d;
        uint32_t w;
        memcpy(&w, &f, 4);
        u = w;
    } else if (t->bits == 64) {
        memcpy(&u, &d, 8);
    } else {
        return tg_err(err, TG_ERR_UNSUPPORTED, "field %s: %u-bit floating point not written",
                      v->name ? v->name : "(element)", t->bits);
    }
    if (cw_pack_align(p, t->align) < 0 || cw_pack_uint(p, u, t->bits, t->byte_order == 2) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int encode_string(cw_pack *p, const tg_field_type *t, const tg_value *v, tg_error **err)
{
    if (v->type != TG_VAL_STRING && v->type != TG_VAL_BYTES)
        return mismatch(v, "string", err);
    const char *nul = memchr(v->v.str.ptr, 0, v->v.str.len);
    size_t n = nul ? (size_t)(nul - v->v.str.ptr) : v->v.str.len;
    if (cw_pack_align(p, t->align > 8 ? t->align : 8) < 0 ||
        cw_pack_bytes(p, v->v.str.ptr, n) < 0 || cw_pack_zeros(p, 1) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static int encode_variant(cw_pack *p, const tg_field_type *t, const tg_value *v, cw_lengths *lens,
                          tg_error **err)
{
    tg_value c;
    if (v->type != TG_VAL_VARIANT || v->count != 1)
        return mismatch(v, "variant", err);
    TG_TRY(tg_value_child(v, 0, &c));
    for (size_t i = 0; i < t->n_members; i++)
        if (c.name && strcmp(t->members[i].name, c.name) == 0)
            return encode(p, t->members[i].type, &c, lens, err);
    return tg_err(err, TG_ERR_UNSUPPORTED, "field %s: variant option %s is not in its type",
                  v->name ? v->name : "(element)", c.name ? c.name : "(unnamed)");
}

static int encode_struct(cw_pack *p, const tg_field_type *t, const tg_value *v, cw_lengths *lens,
                         tg_error **err)
{
    if (v->type == TG_VAL_NONE && t->n_members == 0)
        return 0; /* an untyped value: written as an empty structure */
    if (v->type != TG_VAL_STRUCT)
        return mismatch(v, "structure", err);
    tg_value kids[64];
    size_t n = v->count;
    if (n > 64)
        return tg_err(err, TG_ERR_LIMIT, "field %s: more than 64 members",
                      v->name ? v->name : "(element)");
    for (size_t i = 0; i < n; i++)
        TG_TRY(tg_value_child(v, i, &kids[i]));
    return cw_encode_members(p, t, kids, n, lens, err);
}

static int encode(cw_pack *p, const tg_field_type *t, const tg_value *v, cw_lengths *lens,
                  tg_error **err)
{
    uint64_t len;
    switch (t->kind) {
    case TG_FT_INT:
    case TG_FT_ENUM: return encode_int(p, t, v, err);
    case TG_FT_FLOAT: return encode_float(p, t, v, err);
    case TG_FT_STRING: return encode_string(p, t, v, err);
    case TG_FT_STRUCT: return encode_struct(p, t, v, lens, err);
    case TG_FT_VARIANT: return encode_variant(p, t, v, lens, err);
    case TG_FT_ARRAY:
        if (is_text(t))
            return encode_text(p, t, v, t->length, err);
        if (v->type == TG_VAL_BYTES)
            return encode_packed_elements(p, t, v, err);
        return encode_elements(p, t, v, t->length, lens, err);
    case TG_FT_SEQUENCE:
        if (v->type == TG_VAL_BYTES && !is_text(t) && t->element && t->element->bits == 8) {
            /* raw bytes: one 8-bit element each */
            if (cw_pack_align(p, 8) < 0 || cw_pack_bytes(p, v->v.str.ptr, v->v.str.len) < 0)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            return 0;
        }
        if (is_text(t)) {
            if (find_length(lens, t->ref, &len) < 0)
                len = v->v.str.len;
            return encode_text(p, t, v, len, err);
        }
        return encode_elements(p, t, v, v->count, lens, err);
    }
    return tg_err(err, TG_ERR_UNSUPPORTED, "unknown field type");
}

int cw_encode_members(cw_pack *p, const tg_field_type *st, const tg_value *vals, size_t n,
                      cw_lengths *lens, tg_error **err)
{
    if (cw_pack_align(p, type_align(st)) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    size_t vi = 0;
    for (size_t i = 0; i < st->n_members; i++) {
        const tg_field_member *m = &st->members[i];
        if (m->type == &cw_length_type) {
            /* derived schemas: the element count of the next value, which has no own
             * length field in its format */
            const tg_value *next = vi < n ? &vals[vi] : NULL;
            uint64_t count = !next ? 0
                             : next->type == TG_VAL_STRING || next->type == TG_VAL_BYTES
                                 ? next->v.str.len
                                 : next->count;
            tg_value lv = {.type = TG_VAL_UINT, .v.u = count};
            TG_TRY(encode_int(p, m->type, &lv, err));
            remember(lens, m->decl_name, count);
            continue;
        }
        if (vi >= n)
            break;
        const tg_value *v = &vals[vi++];
        TG_TRY(encode(p, m->type, v, lens, err));
        if ((m->type->kind == TG_FT_INT || m->type->kind == TG_FT_ENUM) &&
            (v->type == TG_VAL_UINT || v->type == TG_VAL_SINT))
            remember(lens, m->decl_name, v->v.u);
    }
    if (vi != n)
        return tg_err(err, TG_ERR_UNSUPPORTED, "%zu fields where the type has %zu", n, vi);
    return 0;
}
