/* ctf_schema.c - the TSDL types of an event class as the public field schema.
 *
 * Consumers that write CTF again (src/writers/ctf/) need each field's declared type: size,
 * alignment, signedness, byte order, base, encoding, enum mappings, sequence lengths and
 * variant tags.  This pass copies the resolved ctf_type trees into tg_field_type trees (in
 * the metadata's arena) once per class.  Only the members babeltrace2 shows (in_ir) are kept,
 * the same members ctf_value.c hands out, so schema member i describes field i. */
#include "ctf_internal.h"

#include <string.h>

static const tg_field_type *convert(tg_arena *a, const ctf_type *t, int depth);

static int convert_members(tg_arena *a, const ctf_type *t, tg_field_type *out, int depth)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_fields; i++)
        n += t->fields[i].type->in_ir || t->kind == CTF_T_VARIANT;
    if (!n)
        return 0;
    tg_field_member *m = tg_arena_alloc(a, n * sizeof *m);
    if (!m)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < t->n_fields; i++) {
        const ctf_field *f = &t->fields[i];
        if (!f->type->in_ir && t->kind != CTF_T_VARIANT)
            continue;
        m[k].name = f->name;
        m[k].decl_name = f->orig_name ? f->orig_name : f->name;
        m[k].type = convert(a, f->type, depth + 1);
        if (!m[k].type)
            return -1;
        k++;
    }
    out->members = m;
    out->n_members = n;
    return 0;
}

static const tg_field_type *convert(tg_arena *a, const ctf_type *t, int depth)
{
    if (t->schema) /* a type used in many places (typedefs) is converted once */
        return t->schema;
    if (depth > CTF_MAX_NESTING)
        return NULL;
    tg_field_type *o = tg_arena_alloc(a, sizeof *o);
    ((ctf_type *)t)->schema = o;
    if (!o)
        return NULL;
    memset(o, 0, sizeof *o);
    o->align = (uint16_t)(t->align ? t->align : 1);
    o->byte_order = t->big_endian ? 2 : 1;
    switch (t->kind) {
    case CTF_T_INT:
    case CTF_T_ENUM:
        o->kind = t->kind == CTF_T_ENUM ? TG_FT_ENUM : TG_FT_INT;
        o->bits = (uint16_t)t->size;
        o->is_signed = t->is_signed;
        o->base = t->base ? t->base : 10;
        o->encoding = t->encoding;
        if (t->kind == CTF_T_ENUM && t->n_maps) {
            tg_enum_mapping *mp = tg_arena_alloc(a, t->n_maps * sizeof *mp);
            if (!mp)
                return NULL;
            for (size_t i = 0; i < t->n_maps; i++) {
                mp[i].label = t->maps[i].label;
                mp[i].lo = t->maps[i].lo;
                mp[i].hi = t->maps[i].hi;
            }
            o->mappings = mp;
            o->n_mappings = t->n_maps;
        }
        break;
    case CTF_T_FLOAT:
        o->kind = TG_FT_FLOAT;
        o->exp_dig = (uint16_t)t->exp_dig;
        o->mant_dig = (uint16_t)t->mant_dig;
        o->bits = (uint16_t)(t->exp_dig + t->mant_dig);
        break;
    case CTF_T_STRING:
        o->kind = TG_FT_STRING;
        o->encoding = t->encoding;
        break;
    case CTF_T_STRUCT:
    case CTF_T_VARIANT:
        o->kind = t->kind == CTF_T_STRUCT ? TG_FT_STRUCT : TG_FT_VARIANT;
        o->ref = t->ref;
        if (convert_members(a, t, o, depth) < 0)
            return NULL;
        break;
    case CTF_T_ARRAY:
    case CTF_T_SEQUENCE:
        o->kind = t->kind == CTF_T_ARRAY ? TG_FT_ARRAY : TG_FT_SEQUENCE;
        o->length = t->length;
        o->ref = t->ref;
        o->element = t->elem ? convert(a, t->elem, depth + 1) : NULL;
        if (!o->element)
            return NULL;
        break;
    }
    return o;
}

static int convert_scope(tg_arena *a, const ctf_type *t, const tg_field_type **out,
                         const char *what, tg_error **err)
{
    *out = NULL;
    if (!t || !t->in_ir)
        return 0;
    /* a type that cannot be described (out of memory) is left undeclared: consumers then
     * use the types of the values, and reading the trace is not affected */
    *out = convert(a, t, 0);
    (void)what;
    (void)err;
    return 0;
}

int ctf_schema_attach(ctf_meta *m, const ctf_stream_decl *s, tg_error **err)
{
    /* the stream's scopes are converted once and shared by its classes, so consumers can
     * tell classes of one stream class apart from another's by pointer */
    const tg_field_type *pctx, *sctx;
    TG_TRY(convert_scope(m->arena, s->packet_context, &pctx, "packet context", err));
    TG_TRY(convert_scope(m->arena, s->event_context, &sctx, "stream event context", err));
    for (size_t j = 0; j < s->n_events; j++) {
        const ctf_event_decl *e = s->events[j];
        tg_event_class *cls = e->cls;
        cls->schema[TG_SCOPE_PACKET_CONTEXT] = pctx;
        cls->schema[TG_SCOPE_STREAM_CONTEXT] = sctx;
        TG_TRY(convert_scope(m->arena, e->context, &cls->schema[TG_SCOPE_EVENT_CONTEXT], e->name,
                             err));
        TG_TRY(convert_scope(m->arena, e->fields, &cls->schema[TG_SCOPE_PAYLOAD], e->name, err));
    }
    return 0;
}
