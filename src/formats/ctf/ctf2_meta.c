/* ctf2_meta.c - CTF 2 metadata (JSON fragments) to the declarations the CTF 1.8 passes use.
 *
 * A CTF 2 metadata stream is a JSON text sequence (RFC 7464): fragments, each after a record
 * separator byte (0x1e), parsed here with json-c.  The first is the preamble (version 2);
 * then the trace class, clock classes, data stream classes, event record classes and field
 * class aliases, each before its first use.  Every fragment becomes the same objects the
 * TSDL parser builds (ctf_type trees, clocks, stream and event declarations), so resolve,
 * validate and compile, and the whole data path, are shared with CTF 1.8.  Differences
 * from TSDL are settled here: roles (not member names) give fields their meaning, a
 * variant's options carry their own selector ranges (no tag enumeration), names are taken
 * as written (no leading underscore removed), and variable-length integers (LEB128) are a
 * type of their own.
 *
 * Both the final CTF2-SPEC-2.0 and the release-candidate dialect that real traces use
 * (CTF2-SPECRC-7.0: `default-clock-class-name`, `fixed-length-unsigned-enumeration`,
 * field locations as [scope, name...]) are read. */
#include "formats/ctf/ctf2_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ctf2_jerr(ctf2_ctx *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tg_err(c->err, TG_ERR_FORMAT, "%s: metadata fragment %d: %s", c->m->path, c->frag, msg);
}

/* ---- JSON accessors ------------------------------------------------------------------------ */

json_object *ctf2_member(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

const char *ctf2_get_str(json_object *o, const char *key)
{
    json_object *v = ctf2_member(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* An integer member: 1 found, 0 absent, <0 present but not an integer. */
int ctf2_get_int(ctf2_ctx *c, json_object *o, const char *key, int64_t *out)
{
    json_object *v = ctf2_member(o, key);
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_int))
        return ctf2_jerr(c, "`%s` is not an integer", key);
    *out = json_object_get_int64(v);
    return 1;
}

int ctf2_get_uint(ctf2_ctx *c, json_object *o, const char *key, uint64_t *out)
{
    json_object *v = ctf2_member(o, key);
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_int))
        return ctf2_jerr(c, "`%s` is not an integer", key);
    uint64_t u = json_object_get_uint64(v);
    if (json_object_get_int64(v) < 0 && u == 0)
        return ctf2_jerr(c, "`%s` is negative", key);
    *out = u;
    return 1;
}

const char *ctf2_dup_str(ctf2_ctx *c, const char *s)
{
    const char *d = tg_arena_strdup(c->m->arena, s);
    if (!d)
        tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    return d;
}

int ctf2_get_uuid(ctf2_ctx *c, json_object *o, const char *key, uint8_t out[16], bool *has)
{
    json_object *v = ctf2_member(o, key);
    if (!v)
        return 0;
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != 16)
        return ctf2_jerr(c, "`%s` is not an array of 16 bytes", key);
    for (size_t i = 0; i < 16; i++) {
        json_object *b = json_object_array_get_idx(v, i);
        int64_t x = b && json_object_is_type(b, json_type_int) ? json_object_get_int64(b) : -1;
        if (x < 0 || x > 255)
            return ctf2_jerr(c, "`%s` is not an array of 16 bytes", key);
        out[i] = (uint8_t)x;
    }
    *has = true;
    return 1;
}

/* ---- field classes ------------------------------------------------------------------------- */

static ctf_type *type_new(ctf2_ctx *c, ctf_kind kind)
{
    ctf_type *t = tg_arena_alloc(c->m->arena, sizeof *t);
    if (!t) {
        tg_err(c->err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    t->kind = kind;
    t->line = c->frag;
    t->reg = -1;
    t->base = 10;
    t->align = 1;
    t->bo_explicit = true;
    return t;
}

static const struct {
    const char *role;
    ctf_meaning meaning;
} role_meanings[] = {
    {"packet-magic-number", CTF_M_MAGIC},
    {"metadata-stream-uuid", CTF_M_UUID},
    {"data-stream-class-id", CTF_M_STREAM_ID},
    {"data-stream-id", CTF_M_STREAM_INSTANCE_ID},
    {"packet-content-length", CTF_M_CONTENT_SIZE},
    {"packet-total-length", CTF_M_PACKET_SIZE},
    {"packet-end-default-clock-timestamp", CTF_M_TS_END},
    {"discarded-event-record-counter-snapshot", CTF_M_DISCARDED},
    {"packet-sequence-number", CTF_M_SEQ_NUM},
    {"event-record-class-id", CTF_M_EVENT_ID},
};

/* Roles give integers (and the UUID blob) their meaning; the default clock timestamp is
 * mapped to the data stream class's default clock. */
static int apply_roles(ctf2_ctx *c, json_object *fc, ctf_type *t)
{
    json_object *roles = ctf2_member(fc, "roles");
    if (!roles)
        return 0;
    if (!json_object_is_type(roles, json_type_array))
        return ctf2_jerr(c, "`roles` is not an array");
    for (size_t i = 0; i < json_object_array_length(roles); i++) {
        json_object *r = json_object_array_get_idx(roles, i);
        const char *name =
            r && json_object_is_type(r, json_type_string) ? json_object_get_string(r) : NULL;
        if (!name)
            return ctf2_jerr(c, "a role is not a string");
        bool ts = !strcmp(name, "default-clock-timestamp") ||
                  !strcmp(name, "packet-end-default-clock-timestamp");
        if (ts) {
            if (!c->stream || !c->stream->clock)
                return ctf2_jerr(c, "role `%s` in a data stream class without a default clock",
                                 name);
            t->clock = c->stream->clock;
            if (!strcmp(name, "default-clock-timestamp") && c->scope == CTF_SCOPE_PACKET_CONTEXT)
                t->meaning = CTF_M_TS_BEGIN;
        }
        for (size_t k = 0; k < sizeof role_meanings / sizeof role_meanings[0]; k++)
            if (!strcmp(name, role_meanings[k].role))
                t->meaning = role_meanings[k].meaning;
    }
    return 0;
}

/* A field location as the TSDL path the resolver reads: "stream.event.header.id" for an
 * absolute location, "len" for a relative one. */
static const char *location_path(ctf2_ctx *c, json_object *loc)
{
    static const struct {
        const char *origin, *prefix;
    } origins[] = {
        {"packet-header", "trace.packet.header"},
        {"packet-context", "stream.packet.context"},
        {"event-record-header", "stream.event.header"},
        {"event-record-common-context", "stream.event.context"},
        {"event-record-specific-context", "event.context"},
        {"event-record-payload", "event.fields"},
    };
    json_object *path = loc;
    const char *origin = NULL;
    if (loc && json_object_is_type(loc, json_type_object)) {
        origin = ctf2_get_str(loc, "origin");
        path = ctf2_member(loc, "path");
    }
    if (!path || !json_object_is_type(path, json_type_array) ||
        json_object_array_length(path) == 0) {
        ctf2_jerr(c, "field location is not a path");
        return NULL;
    }
    char buf[1024];
    size_t n = 0, i = 0, len = json_object_array_length(path);
    if (!origin) {
        json_object *first = json_object_array_get_idx(path, 0);
        const char *s = first && json_object_is_type(first, json_type_string)
                            ? json_object_get_string(first)
                            : NULL;
        for (size_t k = 0; s && k < sizeof origins / sizeof origins[0]; k++)
            if (!strcmp(s, origins[k].origin) && len > 1) {
                origin = s;
                i = 1;
            }
    }
    if (origin) {
        const char *prefix = NULL;
        for (size_t k = 0; k < sizeof origins / sizeof origins[0]; k++)
            if (!strcmp(origin, origins[k].origin))
                prefix = origins[k].prefix;
        if (!prefix) {
            ctf2_jerr(c, "unknown field location origin `%.60s`", origin);
            return NULL;
        }
        n = strlen(prefix);
        memcpy(buf, prefix, n);
    }
    for (; i < len; i++) {
        json_object *e = json_object_array_get_idx(path, i);
        if (!e || json_object_is_type(e, json_type_null))
            continue; /* "parent": the resolver searches the enclosing structures */
        if (!json_object_is_type(e, json_type_string)) {
            ctf2_jerr(c, "field location element is not a string");
            return NULL;
        }
        const char *s = json_object_get_string(e);
        size_t l = strlen(s);
        if (n + l + 2 >= sizeof buf) {
            ctf2_jerr(c, "field location too long");
            return NULL;
        }
        if (n)
            buf[n++] = '.';
        memcpy(buf + n, s, l);
        n += l;
    }
    if (!n) {
        ctf2_jerr(c, "field location names no field");
        return NULL;
    }
    const char *p = tg_arena_strndup(c->m->arena, buf, n);
    if (!p)
        tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    return p;
}

/* A range [lower, upper] of two integers: true with *lo and *hi set. */
static bool range_pair(json_object *r, json_object **lo, json_object **hi)
{
    if (!r || !json_object_is_type(r, json_type_array) || json_object_array_length(r) != 2)
        return false;
    *lo = json_object_array_get_idx(r, 0);
    *hi = json_object_array_get_idx(r, 1);
    return *lo && *hi && json_object_is_type(*lo, json_type_int) &&
           json_object_is_type(*hi, json_type_int);
}

static int int_class(ctf2_ctx *c, json_object *fc, ctf_type *t, bool varlen)
{
    int64_t v = 0;
    if (varlen) {
        t->size = 64;
        t->align = 8;
        t->varlen = true;
    } else {
        int rc = ctf2_get_int(c, fc, "length", &v);
        TG_TRY(rc);
        if (rc == 0 || v < 1 || v > 64)
            return ctf2_jerr(c, "fixed-length integer length must be 1 to 64 bits");
        t->size = (unsigned)v;
        const char *bo = ctf2_get_str(fc, "byte-order");
        t->big_endian = bo && !strcmp(bo, "big-endian");
        if (bo && !t->big_endian && strcmp(bo, "little-endian"))
            return ctf2_jerr(c, "unknown byte order `%.40s`", bo);
        int rca = ctf2_get_int(c, fc, "alignment", &v);
        TG_TRY(rca);
        if (rca && (v < 1 || v > (1 << 20) || (v & (v - 1))))
            return ctf2_jerr(c, "alignment %lld is not a power of two", (long long)v);
        if (rca)
            t->align = (unsigned)v;
    }
    int rcb = ctf2_get_int(c, fc, "preferred-display-base", &v);
    TG_TRY(rcb);
    if (rcb) {
        if (v != 2 && v != 8 && v != 10 && v != 16)
            return ctf2_jerr(c, "preferred display base %lld is not 2, 8, 10 or 16", (long long)v);
        t->base = (uint8_t)v;
    }
    json_object *maps = ctf2_member(fc, "mappings");
    if (maps) {
        if (!json_object_is_type(maps, json_type_object))
            return ctf2_jerr(c, "`mappings` is not an object");
        t->kind = CTF_T_ENUM;
        size_t n = 0;
        json_object_object_foreach(maps, k0, ranges0)
        {
            (void)k0;
            if (!json_object_is_type(ranges0, json_type_array))
                return ctf2_jerr(c, "mapping ranges are not an array");
            n += json_object_array_length(ranges0);
        }
        t->maps = n ? tg_arena_alloc(c->m->arena, n * sizeof *t->maps) : NULL;
        if (n && !t->maps)
            return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
        json_object_object_foreach(maps, label, ranges)
        {
            const char *lab = ctf2_dup_str(c, label);
            if (!lab)
                return TG_ERR_NOMEM;
            for (size_t i = 0; i < json_object_array_length(ranges); i++) {
                json_object *lo, *hi;
                if (!range_pair(json_object_array_get_idx(ranges, i), &lo, &hi))
                    return ctf2_jerr(c, "mapping `%.60s`: a range is not [lower, upper]", label);
                ctf_enum_map *m = &t->maps[t->n_maps++];
                m->label = lab;
                m->lo =
                    t->is_signed ? json_object_get_int64(lo) : (int64_t)json_object_get_uint64(lo);
                m->hi =
                    t->is_signed ? json_object_get_int64(hi) : (int64_t)json_object_get_uint64(hi);
            }
        }
    }
    return apply_roles(c, fc, t);
}

/* Selector ranges of a variant option: [[lower, upper], ...]. */
static int option_ranges(ctf2_ctx *c, json_object *ranges, ctf_type *var, uint32_t option)
{
    if (!ranges || !json_object_is_type(ranges, json_type_array))
        return ctf2_jerr(c, "variant option without selector ranges");
    size_t n = json_object_array_length(ranges);
    ctf_var_range *v = tg_arena_alloc(c->m->arena, (var->n_ranges + n) * sizeof *v);
    if (!v && var->n_ranges + n)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    if (var->n_ranges)
        memcpy(v, var->ranges, var->n_ranges * sizeof *v);
    var->ranges = v;
    for (size_t i = 0; i < n; i++) {
        json_object *lo, *hi;
        if (!range_pair(json_object_array_get_idx(ranges, i), &lo, &hi))
            return ctf2_jerr(c, "a selector range is not [lower, upper]");
        ctf_var_range *vr = &var->ranges[var->n_ranges++];
        vr->lo = json_object_get_int64(lo);
        vr->hi = json_object_get_int64(hi);
        if (json_object_get_int64(lo) >= 0)
            vr->lo = (int64_t)json_object_get_uint64(lo);
        if (json_object_get_int64(hi) >= 0)
            vr->hi = (int64_t)json_object_get_uint64(hi);
        vr->option = option;
    }
    return 0;
}

static int field_add(ctf2_ctx *c, ctf_type *st, const char *name, ctf_type *ft)
{
    for (size_t i = 0; i < st->n_fields; i++)
        if (!strcmp(st->fields[i].orig_name, name))
            return ctf2_jerr(c, "duplicate member or option name `%.60s`", name);
    if (st->n_fields == st->cap_fields) {
        size_t cap = st->cap_fields ? st->cap_fields * 2 : 8;
        ctf_field *v = tg_arena_alloc(c->m->arena, cap * sizeof *v);
        if (!v)
            return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
        if (st->n_fields)
            memcpy(v, st->fields, st->n_fields * sizeof *v);
        st->fields = v;
        st->cap_fields = cap;
    }
    ctf_field *f = &st->fields[st->n_fields++];
    f->orig_name = f->name = name;
    f->type = ft;
    return 0;
}

static int struct_class(ctf2_ctx *c, json_object *fc, ctf_type *t)
{
    int64_t v = 0;
    int rc = ctf2_get_int(c, fc, "minimum-alignment", &v);
    TG_TRY(rc);
    if (rc && (v < 1 || v > (1 << 20) || (v & (v - 1))))
        return ctf2_jerr(c, "minimum alignment %lld is not a power of two", (long long)v);
    if (rc)
        t->align = (unsigned)v;
    json_object *mems = ctf2_member(fc, "member-classes");
    if (!mems)
        return 0;
    if (!json_object_is_type(mems, json_type_array))
        return ctf2_jerr(c, "`member-classes` is not an array");
    for (size_t i = 0; i < json_object_array_length(mems); i++) {
        json_object *mc = json_object_array_get_idx(mems, i);
        const char *name = ctf2_get_str(mc, "name");
        if (!name)
            return ctf2_jerr(c, "structure member without a name");
        ctf_type *ft;
        TG_TRY(ctf2_field_class(c, ctf2_member(mc, "field-class"), &ft));
        const char *nm = ctf2_dup_str(c, name);
        if (!nm)
            return TG_ERR_NOMEM;
        TG_TRY(field_add(c, t, nm, ft));
    }
    return 0;
}

static int variant_class(ctf2_ctx *c, json_object *fc, ctf_type *t)
{
    t->ref = location_path(c, ctf2_member(fc, "selector-field-location"));
    if (!t->ref)
        return TG_ERR_FORMAT;
    json_object *opts = ctf2_member(fc, "options");
    if (!opts || !json_object_is_type(opts, json_type_array) || json_object_array_length(opts) == 0)
        return ctf2_jerr(c, "variant without options");
    for (size_t i = 0; i < json_object_array_length(opts); i++) {
        json_object *o = json_object_array_get_idx(opts, i);
        const char *name = ctf2_get_str(o, "name");
        char gen[32];
        if (!name) {
            snprintf(gen, sizeof gen, "option%zu", i);
            name = gen;
        }
        ctf_type *ft;
        TG_TRY(ctf2_field_class(c, ctf2_member(o, "field-class"), &ft));
        const char *nm = ctf2_dup_str(c, name);
        if (!nm)
            return TG_ERR_NOMEM;
        TG_TRY(field_add(c, t, nm, ft));
        TG_TRY(option_ranges(c, ctf2_member(o, "selector-field-ranges"), t, (uint32_t)i));
    }
    return 0;
}

/* An optional field class: a variant of two options, `none` (an empty structure) and `some`
 * (the field), so the decode plan needs nothing new.  `some` is chosen by a boolean
 * selector that is true (not 0) or an integer selector in the given ranges; `none` takes
 * every other value (ranges are tried in order: then one that holds all unsigned values,
 * one that holds all signed ones). */
static int optional_class(ctf2_ctx *c, json_object *fc, ctf_type *t)
{
    t->ref = location_path(c, ctf2_member(fc, "selector-field-location"));
    if (!t->ref)
        return TG_ERR_FORMAT;
    ctf_type *none = type_new(c, CTF_T_STRUCT), *some;
    if (!none)
        return TG_ERR_NOMEM;
    TG_TRY(ctf2_field_class(c, ctf2_member(fc, "field-class"), &some));
    TG_TRY(field_add(c, t, "none", none));
    TG_TRY(field_add(c, t, "some", some));
    json_object *ranges = ctf2_member(fc, "selector-field-ranges");
    if (ranges)
        TG_TRY(option_ranges(c, ranges, t, 1));
    ctf_var_range *v = tg_arena_alloc(c->m->arena, (t->n_ranges + 3) * sizeof *v);
    if (!v)
        return TG_ERR_NOMEM;
    if (t->n_ranges)
        memcpy(v, t->ranges, t->n_ranges * sizeof *v);
    if (!ranges) /* a boolean selector: true */
        v[t->n_ranges++] = (ctf_var_range){.lo = 1, .hi = -1, .option = 1};
    v[t->n_ranges++] = (ctf_var_range){.lo = 0, .hi = -1, .option = 0};
    v[t->n_ranges++] = (ctf_var_range){.lo = INT64_MIN, .hi = INT64_MAX, .option = 0};
    t->ranges = v;
    return 0;
}

/* An array, string or BLOB: elements of elem, static (length) or dynamic (location). */
static int sized_class(ctf2_ctx *c, json_object *fc, ctf_type *t, bool dynamic)
{
    if (dynamic) {
        t->kind = CTF_T_SEQUENCE;
        t->ref = location_path(c, ctf2_member(fc, "length-field-location"));
        if (!t->ref)
            return TG_ERR_FORMAT;
        return 0;
    }
    t->kind = CTF_T_ARRAY;
    uint64_t len = 0;
    int rc = ctf2_get_uint(c, fc, "length", &len);
    TG_TRY(rc);
    if (!rc || len > CTF_MAX_ARRAY_LEN)
        return ctf2_jerr(c, "static length missing or above %u", CTF_MAX_ARRAY_LEN);
    t->length = len;
    return 0;
}

static ctf_type *byte_type(ctf2_ctx *c, bool text)
{
    ctf_type *b = type_new(c, CTF_T_INT);
    if (b) {
        b->size = 8;
        b->align = 8;
        b->encoding = text ? 1 : 0;
        if (!text)
            b->base = 16;
    }
    return b;
}

int ctf2_field_class(ctf2_ctx *c, json_object *fc, ctf_type **out)
{
    if (!fc)
        return ctf2_jerr(c, "missing field class");
    if (json_object_is_type(fc, json_type_string)) {
        const char *name = json_object_get_string(fc);
        for (size_t i = c->n_alias; i-- > 0;)
            if (!strcmp(c->aliases[i].name, name)) {
                *out = ctf_type_copy(c->m->arena, c->aliases[i].type);
                return *out ? 0 : tg_err(c->err, TG_ERR_NOMEM, "out of memory");
            }
        return ctf2_jerr(c, "unknown field class alias `%.60s`", name);
    }
    const char *ty = ctf2_get_str(fc, "type");
    if (!ty)
        return ctf2_jerr(c, "field class without a type");
    if (++c->depth > CTF_MAX_NESTING)
        return ctf2_jerr(c, "field classes nested deeper than %d", CTF_MAX_NESTING);
    ctf_type *t = type_new(c, CTF_T_INT);
    if (!t)
        return TG_ERR_NOMEM;
    int rc = 0;
    if (!strcmp(ty, "fixed-length-unsigned-integer") ||
        !strcmp(ty, "fixed-length-unsigned-enumeration") || !strcmp(ty, "fixed-length-bit-array") ||
        !strcmp(ty, "fixed-length-bit-map") || !strcmp(ty, "fixed-length-boolean")) {
        rc = int_class(c, fc, t, false);
    } else if (!strcmp(ty, "fixed-length-signed-integer") ||
               !strcmp(ty, "fixed-length-signed-enumeration")) {
        t->is_signed = true;
        rc = int_class(c, fc, t, false);
    } else if (!strcmp(ty, "variable-length-unsigned-integer") ||
               !strcmp(ty, "variable-length-unsigned-enumeration")) {
        rc = int_class(c, fc, t, true);
    } else if (!strcmp(ty, "variable-length-signed-integer") ||
               !strcmp(ty, "variable-length-signed-enumeration")) {
        t->is_signed = true;
        rc = int_class(c, fc, t, true);
    } else if (!strcmp(ty, "fixed-length-floating-point-number")) {
        t->kind = CTF_T_FLOAT;
        rc = int_class(c, fc, t, false);
        if (rc >= 0 && t->size != 32 && t->size != 64)
            rc = ctf2_jerr(c, "floating point number of %u bits (32 or 64 expected)", t->size);
        t->exp_dig = t->size == 32 ? 8 : 11;
        t->mant_dig = t->size == 32 ? 24 : 53;
    } else if (strstr(ty, "string") && ctf2_get_str(fc, "encoding") &&
               strcmp(ctf2_get_str(fc, "encoding"), "utf-8")) {
        rc = ctf2_jerr(c, "string encoding `%.20s` is not read (only utf-8)",
                       ctf2_get_str(fc, "encoding"));
    } else if (!strcmp(ty, "null-terminated-string")) {
        t->kind = CTF_T_STRING;
        t->align = 8;
        t->encoding = 1;
    } else if (!strcmp(ty, "static-length-string") || !strcmp(ty, "dynamic-length-string") ||
               !strcmp(ty, "static-length-blob") || !strcmp(ty, "dynamic-length-blob")) {
        bool text = strstr(ty, "string") != NULL;
        rc = sized_class(c, fc, t, ty[0] == 'd');
        if (rc >= 0 && !(t->elem = byte_type(c, text)))
            rc = TG_ERR_NOMEM;
        if (rc >= 0)
            rc = apply_roles(c, fc, t);
    } else if (!strcmp(ty, "static-length-array") || !strcmp(ty, "dynamic-length-array")) {
        rc = sized_class(c, fc, t, ty[0] == 'd');
        if (rc >= 0)
            rc = ctf2_field_class(c, ctf2_member(fc, "element-field-class"), &t->elem);
    } else if (!strcmp(ty, "structure")) {
        t->kind = CTF_T_STRUCT;
        rc = struct_class(c, fc, t);
    } else if (!strcmp(ty, "variant")) {
        t->kind = CTF_T_VARIANT;
        rc = variant_class(c, fc, t);
    } else if (!strcmp(ty, "optional")) {
        t->kind = CTF_T_VARIANT;
        rc = optional_class(c, fc, t);
    } else {
        rc = ctf2_jerr(c, "unknown field class type `%.60s`", ty);
    }
    c->depth--;
    if (rc < 0)
        return rc;
    *out = t;
    return 0;
}

/* A scope's field class: a structure (or absent). */
int ctf2_scope_class(ctf2_ctx *c, json_object *frag, const char *key, ctf_scope_id scope,
                     ctf_type **out)
{
    *out = NULL;
    json_object *fc = ctf2_member(frag, key);
    if (!fc)
        return 0;
    c->scope = scope;
    TG_TRY(ctf2_field_class(c, fc, out));
    if ((*out)->kind != CTF_T_STRUCT)
        return ctf2_jerr(c, "`%s` is not a structure", key);
    return 0;
}
