/* ctf_derive.c - field types for formats that declare none, taken from their values.
 *
 * uftrace, ftrace, XRay and LTTng 0.x events carry typed values (signed or unsigned
 * integers with a size and a display base, floats, strings, arrays, structs) but no schema.
 * The CTF writer derives a class's types from the first event of the class and keeps them:
 * integers keep their size and base, enumerations collect the labels met while writing (the
 * metadata is written last), strings stay strings, and an array or sequence becomes a CTF
 * sequence preceded by a "_NAME_length" field, the way LTTng declares variable-length
 * fields.  Declared names get a leading '_', which CTF readers drop, so that any field name
 * (even a TSDL keyword) reads back unchanged. */
#include "writers/ctf/ctf_writer.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

/* A derived type; the public part first, so a tg_field_type * from here is a cw_dtype *. */
typedef struct cw_dtype {
    tg_field_type t;
    tg_enum_mapping *maps;
    size_t cap_maps;
} cw_dtype;

struct cw_derived {
    void **allocs; /* everything allocated, freed together */
    size_t n_allocs, cap_allocs;
    cw_dtype **enums; /* the enumerations whose label arrays grew */
    size_t n_enums, cap_enums;
};

cw_derived *cw_derived_new(void) { return calloc(1, sizeof(cw_derived)); }

void cw_derived_free(cw_derived *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n_enums; i++)
        free(d->enums[i]->maps);
    free(d->enums);
    for (size_t i = 0; i < d->n_allocs; i++)
        free(d->allocs[i]);
    free(d->allocs);
    free(d);
}

static void *keep(cw_derived *d, void *p)
{
    if (!p || tg_grow(&d->allocs, &d->cap_allocs, d->n_allocs + 1, sizeof *d->allocs) < 0) {
        free(p);
        return NULL;
    }
    d->allocs[d->n_allocs++] = p;
    return p;
}

static char *keep_str(cw_derived *d, const char *s) { return keep(d, strdup(s)); }

/* "_" + name with every character outside [A-Za-z0-9_] replaced by '_' (+ suffix). */
static char *decl_name(cw_derived *d, const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    char *s = malloc(n + m + 3);
    if (!s)
        return NULL;
    s[0] = '_';
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        int ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        s[i + 1] = ok ? c : '_';
    }
    memcpy(s + 1 + n, suffix, m + 1);
    return keep(d, s);
}

static cw_dtype *new_type(cw_derived *d, tg_field_kind kind)
{
    cw_dtype *t = keep(d, calloc(1, sizeof *t));
    if (t) {
        t->t.kind = kind;
        t->t.align = 8;
        t->t.byte_order = 1;
        t->t.base = 10;
    }
    return t;
}

static const tg_field_type *derive(cw_derived *d, const tg_value *v, int depth, tg_error **err);

/* Does one of the first n members have this TSDL name? */
static bool taken(const tg_field_member *m, size_t n, const char *decl)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].decl_name, decl) == 0)
            return true;
    return false;
}

static const tg_field_type *derive_members(cw_derived *d, const tg_value *vals, size_t n, int depth,
                                           tg_error **err)
{
    cw_dtype *st = new_type(d, TG_FT_STRUCT);
    tg_field_member *m = keep(d, calloc(2 * n + 1, sizeof *m));
    if (!st || !m)
        goto nomem;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const tg_value *v = &vals[i];
        const char *name = v->name ? v->name : "field";
        const tg_field_type *ft = derive(d, v, depth + 1, err);
        if (!ft)
            return NULL;
        if (ft->kind == TG_FT_SEQUENCE) {
            m[k].name = keep(d, malloc(strlen(name) + 9));
            if (!m[k].name)
                goto nomem;
            sprintf((char *)m[k].name, "_%s_length", name);
            m[k].decl_name = decl_name(d, m[k].name, "");
            m[k].type = &cw_length_type;
            if (!m[k].decl_name)
                goto nomem;
            ((cw_dtype *)ft)->t.ref = m[k].decl_name;
            k++;
        }
        m[k].name = keep_str(d, name);
        m[k].decl_name = decl_name(d, name, "");
        m[k].type = ft;
        if (!m[k].name || !m[k].decl_name)
            goto nomem;
        /* CTF wants distinct member names: a name met before in this structure (a function
         * record's func and depth, also in a function_graph payload; names that differ only
         * in characters TSDL replaces) gets a number, "func_2" */
        for (unsigned dup = 2; taken(m, k, m[k].decl_name); dup++) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "_%u", dup);
            char *nm = keep(d, malloc(strlen(name) + sizeof suffix));
            if (!nm)
                goto nomem;
            sprintf(nm, "%s%s", name, suffix);
            m[k].name = nm;
            if (!(m[k].decl_name = decl_name(d, name, suffix)))
                goto nomem;
        }
        k++;
    }
    st->t.members = m;
    st->t.n_members = k;
    return &st->t;
nomem:
    tg_err(err, TG_ERR_NOMEM, "out of memory");
    return NULL;
}

static const tg_field_type *derive(cw_derived *d, const tg_value *v, int depth, tg_error **err)
{
    if (depth > 32) {
        tg_err(err, TG_ERR_LIMIT, "field %s: nested too deeply", v->name ? v->name : "?");
        return NULL;
    }
    cw_dtype *t = NULL;
    switch (v->type) {
    case TG_VAL_SINT:
    case TG_VAL_UINT:
        t = new_type(d, v->flags & TG_VALF_ENUM ? TG_FT_ENUM : TG_FT_INT);
        if (!t)
            break;
        t->t.bits = v->bits && v->bits <= 64 ? v->bits : 64;
        t->t.align = t->t.bits % 8 ? 1 : 8;
        t->t.is_signed = v->type == TG_VAL_SINT;
        t->t.base = v->base ? v->base : 10;
        t->t.byte_order = v->byte_order == 2 ? 2 : 1;
        return &t->t;
    case TG_VAL_FLOAT:
        t = new_type(d, TG_FT_FLOAT);
        if (!t)
            break;
        t->t.bits = v->bits == 32 ? 32 : 64;
        t->t.exp_dig = v->bits == 32 ? 8 : 11;
        t->t.mant_dig = v->bits == 32 ? 24 : 53;
        return &t->t;
    case TG_VAL_BYTES:
        /* raw bytes (not text): a sequence of bytes, none lost at a NUL */
        t = new_type(d, TG_FT_SEQUENCE);
        if (!t)
            break;
        t->t.element = &cw_byte_type;
        return &t->t;
    case TG_VAL_STRING:
        t = new_type(d, TG_FT_STRING);
        if (!t)
            break;
        t->t.encoding = 1;
        return &t->t;
    case TG_VAL_STRUCT: {
        tg_value kids[64];
        if (v->count > 64) {
            tg_err(err, TG_ERR_LIMIT, "field %s: more than 64 members", v->name ? v->name : "?");
            return NULL;
        }
        for (size_t i = 0; i < v->count; i++)
            if (tg_value_child(v, i, &kids[i]) < 0) {
                tg_err(err, TG_ERR_FORMAT, "field %s: member %zu unreadable",
                       v->name ? v->name : "?", i);
                return NULL;
            }
        return derive_members(d, kids, v->count, depth, err);
    }
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE: {
        t = new_type(d, TG_FT_SEQUENCE);
        if (!t)
            break;
        tg_value e;
        if (v->count && tg_value_child(v, 0, &e) >= 0) {
            t->t.element = derive(d, &e, depth + 1, err);
            if (!t->t.element)
                return NULL;
            if (t->t.element->kind == TG_FT_SEQUENCE) {
                /* no room for a length field inside an element: nested arrays keep the
                 * first event's length */
                ((cw_dtype *)t->t.element)->t.kind = TG_FT_ARRAY;
                ((cw_dtype *)t->t.element)->t.length = e.count;
            }
        } else {
            t->t.element = &cw_length_type; /* empty: any integer reads back empty */
        }
        return &t->t;
    }
    case TG_VAL_NONE:
        /* a value the reader could not type: an empty structure keeps its name */
        return derive_members(d, NULL, 0, depth, err);
    case TG_VAL_VARIANT:
        tg_err(err, TG_ERR_UNSUPPORTED,
               "field %s: variant values without a declared type are not written to CTF",
               v->name ? v->name : "?");
        return NULL;
    }
    tg_err(err, TG_ERR_NOMEM, "out of memory");
    return NULL;
}

const tg_field_type *cw_derive_struct(cw_derived *d, const tg_value *vals, size_t n, tg_error **err)
{
    return derive_members(d, vals, n, 0, err);
}

int cw_derived_enum_label(cw_derived *d, const tg_field_type *ft, const char *label, uint64_t v)
{
    cw_dtype *t = (cw_dtype *)ft;
    const char *p = label;
    while (p && *p) {
        const char *sep = strchr(p, '\x1f');
        size_t len = sep ? (size_t)(sep - p) : strlen(p);
        int seen = 0;
        for (size_t i = 0; i < t->t.n_mappings && !seen; i++)
            seen = strlen(t->maps[i].label) == len && memcmp(t->maps[i].label, p, len) == 0 &&
                   (uint64_t)t->maps[i].lo <= v && v <= (uint64_t)t->maps[i].hi;
        if (!seen) {
            char *copy = keep(d, strndup(p, len));
            if (!t->maps) {
                if (tg_grow(&d->enums, &d->cap_enums, d->n_enums + 1, sizeof *d->enums) < 0)
                    return TG_ERR_NOMEM;
                d->enums[d->n_enums++] = t;
            }
            if (!copy || tg_grow(&t->maps, &t->cap_maps, t->t.n_mappings + 1, sizeof *t->maps) < 0)
                return TG_ERR_NOMEM;
            t->maps[t->t.n_mappings].label = copy;
            t->maps[t->t.n_mappings].lo = (int64_t)v;
            t->maps[t->t.n_mappings].hi = (int64_t)v;
            t->t.n_mappings++;
            t->t.mappings = t->maps;
        }
        p = sep ? sep + 1 : NULL;
    }
    return 0;
}
