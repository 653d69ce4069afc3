/* ctf_parse_types.c - TSDL type specifiers to type objects (part of the first metadata pass).
 *
 * integer, floating_point, string, enum, struct (with align(N)), variant, arrays and
 * sequences, and the typealias and typedef names they define.  Names are scoped (a block or
 * a structure body opens a scope) and looked up when used (`unsigned long`, `uint32_t`,
 * `struct foo`); the type found is copied, so every field owns its type object and
 * per-field facts (register slots, meanings) can live on it. */
#include "formats/ctf/ctf_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scopes of type names ------------------------------------------------------------------ */

static int alias_add(parser *p, const char *name, ctf_type *type)
{
    if (tg_grow(&p->aliases, &p->cap_alias, p->n_alias + 1, sizeof *p->aliases) < 0)
        return tg_err(p->err, TG_ERR_NOMEM, "out of memory");
    p->aliases[p->n_alias].name = name;
    p->aliases[p->n_alias].type = type;
    p->n_alias++;
    return 0;
}

static ctf_type *alias_find(const parser *p, const char *name)
{
    for (size_t i = p->n_alias; i-- > 0;)
        if (strcmp(p->aliases[i].name, name) == 0)
            return p->aliases[i].type;
    return NULL;
}

static ctf_type *type_new(parser *p, ctf_kind kind, int line)
{
    ctf_type *t = tg_arena_alloc(p->a, sizeof *t);
    if (!t) {
        tg_err(p->err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    t->kind = kind;
    t->line = line;
    t->reg = -1;
    t->base = 10;
    return t;
}

ctf_type *ctf_type_copy(tg_arena *a, const ctf_type *src)
{
    ctf_type *t = tg_arena_alloc(a, sizeof *t);
    if (!t)
        return NULL;
    *t = *src;
    if (src->elem && !(t->elem = ctf_type_copy(a, src->elem)))
        return NULL;
    if (src->n_fields) {
        t->fields = tg_arena_alloc(a, src->n_fields * sizeof *t->fields);
        if (!t->fields)
            return NULL;
        t->cap_fields = src->n_fields;
        for (size_t i = 0; i < src->n_fields; i++) {
            t->fields[i] = src->fields[i];
            if (!(t->fields[i].type = ctf_type_copy(a, src->fields[i].type)))
                return NULL;
        }
    }
    return t;
}

static int field_add(parser *p, ctf_type *st, const char *name, ctf_type *ft, int line)
{
    for (size_t i = 0; i < st->n_fields; i++)
        if (strcmp(st->fields[i].orig_name, name) == 0)
            return ctf_perr(p, line, "duplicate field or option name '%s'", name);
    if (st->n_fields == st->cap_fields) {
        size_t cap = st->cap_fields ? st->cap_fields * 2 : 8;
        ctf_field *v = tg_arena_alloc(p->a, cap * sizeof *v);
        if (!v)
            return tg_err(p->err, TG_ERR_NOMEM, "out of memory");
        if (st->n_fields)
            memcpy(v, st->fields, st->n_fields * sizeof *v);
        st->fields = v;
        st->cap_fields = cap;
    }
    ctf_field *f = &st->fields[st->n_fields++];
    f->orig_name = name;
    f->name = name[0] == '_' ? name + 1 : name;
    f->type = ft;
    return 0;
}

/* ---- type specifiers ----------------------------------------------------------------------- */

static int parse_struct_body(parser *p, ctf_type *st);

static int parse_int_or_float(parser *p, ctf_kind kind, ctf_type **out)
{
    int line = next(p)->line;
    ctf_type *t = type_new(p, kind, line);
    if (!t)
        return TG_ERR_NOMEM;
    t->bo_explicit = false;
    bool has_size = false, has_align = false, has_exp = false, has_mant = false;
    TG_TRY(expect(p, "{"));
    while (!accept(p, "}")) {
        const ctf_token *k = next(p);
        if (k->kind != CTF_TK_IDENT)
            return ctf_perr(p, k->line, "syntax error: expected an attribute name, got '%.40s'",
                            k->text);
        TG_TRY(expect(p, "="));
        pvalue v;
        TG_TRY(ctf_parse_value(p, &v));
        TG_TRY(expect(p, ";"));
        uint64_t u = 0;
        if (!strcmp(k->text, "size") && kind == CTF_T_INT) {
            TG_TRY(ctf_value_uint(p, &v, "size", &u));
            if (u < 1 || u > 64)
                return ctf_perr(p, v.line, "integer size %llu is not in 1..64",
                                (unsigned long long)u);
            t->size = (unsigned)u;
            has_size = true;
        } else if (!strcmp(k->text, "align")) {
            TG_TRY(ctf_value_uint(p, &v, "align", &u));
            if (u < 1 || u > (1u << 20) || (u & (u - 1)))
                return ctf_perr(p, v.line, "alignment %llu is not a power of two",
                                (unsigned long long)u);
            t->align = (unsigned)u;
            has_align = true;
        } else if (!strcmp(k->text, "signed")) {
            TG_TRY(ctf_value_bool(p, &v, &t->is_signed));
        } else if (!strcmp(k->text, "byte_order")) {
            int bo;
            TG_TRY(ctf_value_byte_order(p, &v, &bo));
            t->bo_explicit = bo != 2;
            t->big_endian = bo == 1;
        } else if (!strcmp(k->text, "base") && kind == CTF_T_INT) {
            int b = -1;
            if (v.kind == PV_INT && !v.neg)
                b = (int)v.i;
            else if (v.kind == PV_IDENT) {
                const char *s = v.s;
                if (!strcmp(s, "decimal") || !strcmp(s, "dec") || !strcmp(s, "d") ||
                    !strcmp(s, "i") || !strcmp(s, "u"))
                    b = 10;
                else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") || !strcmp(s, "x") ||
                         !strcmp(s, "X") || !strcmp(s, "p"))
                    b = 16;
                else if (!strcmp(s, "octal") || !strcmp(s, "oct") || !strcmp(s, "o"))
                    b = 8;
                else if (!strcmp(s, "binary") || !strcmp(s, "b"))
                    b = 2;
            }
            if (b != 2 && b != 8 && b != 10 && b != 16)
                return ctf_perr(p, v.line, "invalid integer base (expected 2, 8, 10 or 16)");
            t->base = (uint8_t)b;
        } else if (!strcmp(k->text, "encoding")) {
            if (v.kind != PV_IDENT && v.kind != PV_STRING)
                return ctf_perr(p, v.line, "invalid encoding");
            if (!strcmp(v.s, "none"))
                t->encoding = 0;
            else if (!strcmp(v.s, "UTF8") || !strcmp(v.s, "utf8"))
                t->encoding = 1;
            else if (!strcmp(v.s, "ASCII") || !strcmp(v.s, "ascii"))
                t->encoding = 2;
            else
                return ctf_perr(p, v.line, "invalid encoding '%s' (expected none, UTF8 or ASCII)",
                                v.s);
        } else if (!strcmp(k->text, "map") && kind == CTF_T_INT) {
            if (v.kind != PV_IDENT)
                return ctf_perr(p, v.line, "invalid map (expected clock.NAME.value)");
            t->map_name = v.s;
        } else if (!strcmp(k->text, "exp_dig") && kind == CTF_T_FLOAT) {
            TG_TRY(ctf_value_uint(p, &v, "exp_dig", &u));
            t->exp_dig = (unsigned)(u > 64 ? 65 : u);
            has_exp = true;
        } else if (!strcmp(k->text, "mant_dig") && kind == CTF_T_FLOAT) {
            TG_TRY(ctf_value_uint(p, &v, "mant_dig", &u));
            t->mant_dig = (unsigned)(u > 64 ? 65 : u);
            has_mant = true;
        } else {
            ctf_pwarn(p, k->line, "Unknown attribute in %s field class: attr-name=\"%.64s\"",
                      kind == CTF_T_INT ? "integer" : "floating point number", k->text);
        }
    }
    if (kind == CTF_T_INT) {
        if (!has_size)
            return ctf_perr(p, line, "integer declaration without a size");
        if (!has_align)
            t->align = t->size % 8 ? 1 : 8;
    } else {
        if (!has_exp || !has_mant)
            return ctf_perr(p, line, "floating_point declaration needs exp_dig and mant_dig");
        t->size = t->exp_dig + t->mant_dig;
        if (!((t->exp_dig == 8 && t->mant_dig == 24) || (t->exp_dig == 11 && t->mant_dig == 53)))
            return ctf_perr(p, line,
                            "floating point with exp_dig=%u mant_dig=%u is not supported "
                            "(only 32 and 64-bit IEEE 754)",
                            t->exp_dig, t->mant_dig);
        if (!has_align)
            t->align = t->size % 8 ? 1 : 8;
    }
    *out = t;
    return 0;
}

/* A type name: the longest run of identifiers (and '*') that names a known type. */
static int parse_type_name(parser *p, ctf_type **out)
{
    const ctf_token *first = peek(p);
    char buf[512];
    size_t n = 0, best_len = 0, best_toks = 0, toks = 0;
    ctf_type *best = NULL;
    for (size_t j = p->i; j < p->n; j++) {
        const ctf_token *t = &p->t[j];
        if (t->kind != CTF_TK_IDENT && !is_punct(t, "*"))
            break;
        size_t l = strlen(t->text);
        if (n + l + 2 >= sizeof buf)
            break;
        if (n)
            buf[n++] = ' ';
        memcpy(buf + n, t->text, l);
        n += l;
        buf[n] = 0;
        toks++;
        ctf_type *found = alias_find(p, buf);
        if (found) {
            best = found;
            best_len = n;
            best_toks = toks;
        }
    }
    (void)best_len;
    if (!best)
        return ctf_perr(p, first->line, "unknown type '%.60s'", first->text);
    p->i += best_toks;
    *out = ctf_type_copy(p->a, best);
    if (!*out)
        return tg_err(p->err, TG_ERR_NOMEM, "out of memory");
    (*out)->line = first->line;
    return 0;
}

static int parse_enum(parser *p, ctf_type **out)
{
    int line = next(p)->line;
    const char *name = NULL;
    if (peek(p)->kind == CTF_TK_IDENT)
        name = next(p)->text;
    ctf_type *container = NULL;
    if (accept(p, ":")) {
        TG_TRY(ctf_parse_type_spec(p, &container));
    }
    if (!is_punct(peek(p), "{")) {
        if (!name)
            return ctf_perr(p, line, "syntax error: expected '{' after enum");
        char key[300];
        snprintf(key, sizeof key, "enum %s", name);
        ctf_type *t = alias_find(p, key);
        if (!t)
            return ctf_perr(p, line, "unknown enum '%s'", name);
        *out = ctf_type_copy(p->a, t);
        return *out ? 0 : TG_ERR_NOMEM;
    }
    next(p);
    if (!container) {
        ctf_type *def = alias_find(p, "int");
        if (!def)
            return ctf_perr(p, line, "enum without a container type and no 'int' type declared");
        container = ctf_type_copy(p->a, def);
        if (!container)
            return TG_ERR_NOMEM;
    }
    if (container->kind != CTF_T_INT)
        return ctf_perr(p, line, "enum container type is not an integer");
    ctf_type *t = container;
    t->kind = CTF_T_ENUM;
    t->line = line;
    size_t cap = 0;
    int64_t next_val = 0;
    while (!accept(p, "}")) {
        const ctf_token *lt = next(p);
        if (lt->kind != CTF_TK_IDENT && lt->kind != CTF_TK_STRING)
            return ctf_perr(p, lt->line, "syntax error: expected an enumerator label, got '%.40s'",
                            lt->text);
        int64_t lo = next_val, hi = next_val;
        if (accept(p, "=")) {
            pvalue v;
            TG_TRY(ctf_parse_value(p, &v));
            if (v.kind != PV_INT)
                return ctf_perr(p, v.line, "enumerator value is not an integer");
            lo = hi = v.i;
            if (accept(p, "...")) {
                TG_TRY(ctf_parse_value(p, &v));
                if (v.kind != PV_INT)
                    return ctf_perr(p, v.line, "enumerator range end is not an integer");
                hi = v.i;
            }
        }
        if (t->n_maps == cap) {
            cap = cap ? cap * 2 : 8;
            if (cap > (1u << 20))
                return ctf_perr(p, lt->line, "too many enumerators");
            ctf_enum_map *v = tg_arena_alloc(p->a, cap * sizeof *v);
            if (!v)
                return TG_ERR_NOMEM;
            if (t->n_maps)
                memcpy(v, t->maps, t->n_maps * sizeof *v);
            t->maps = v;
        }
        ctf_enum_map *mp = &t->maps[t->n_maps++];
        mp->label = lt->text;
        if (t->is_signed ? lo > hi : (uint64_t)lo > (uint64_t)hi) {
            int64_t x = lo;
            lo = hi;
            hi = x;
        }
        mp->lo = lo;
        mp->hi = hi;
        next_val = hi + 1;
        if (!accept(p, ",")) {
            TG_TRY(expect(p, "}"));
            break;
        }
    }
    if (name) {
        char key[300];
        snprintf(key, sizeof key, "enum %s", name);
        TG_TRY(alias_add(p, tg_arena_strdup(p->a, key), t));
        *out = ctf_type_copy(p->a, t);
        return *out ? 0 : TG_ERR_NOMEM;
    }
    *out = t;
    return 0;
}

static int parse_path_until(parser *p, const char *close, const char **out)
{
    char buf[512];
    size_t n = 0;
    while (!is_punct(peek(p), close)) {
        const ctf_token *t = next(p);
        if (t->kind == CTF_TK_EOF || (t->kind != CTF_TK_IDENT && !is_punct(t, ".")))
            return ctf_perr(p, t->line, "syntax error: unexpected '%.40s' in a field path",
                            t->text);
        size_t l = strlen(t->text);
        if (n + l + 1 >= sizeof buf)
            return ctf_perr(p, t->line, "field path too long");
        memcpy(buf + n, t->text, l);
        n += l;
    }
    next(p);
    if (!n)
        return ctf_perr(p, peek(p)->line, "empty field path");
    *out = tg_arena_strndup(p->a, buf, n);
    return *out ? 0 : TG_ERR_NOMEM;
}

static int parse_compound(parser *p, ctf_kind kind, ctf_type **out)
{
    int line = next(p)->line;
    const char *kw = kind == CTF_T_STRUCT ? "struct" : "variant";
    const char *name = NULL, *tag = NULL;
    bool defined = false; /* a body that names its type: added to the scope's names */
    if (peek(p)->kind == CTF_TK_IDENT)
        name = next(p)->text;
    if (kind == CTF_T_VARIANT && accept(p, "<"))
        TG_TRY(parse_path_until(p, ">", &tag));
    ctf_type *t;
    if (!is_punct(peek(p), "{")) {
        if (!name)
            return ctf_perr(p, line, "syntax error: expected '{' after %s", kw);
        char key[300];
        snprintf(key, sizeof key, "%s %s", kw, name);
        ctf_type *found = alias_find(p, key);
        if (!found)
            return ctf_perr(p, line, "unknown %s '%s'", kw, name);
        t = ctf_type_copy(p->a, found);
        if (!t)
            return TG_ERR_NOMEM;
        if (tag)
            t->ref = tag;
    } else {
        next(p);
        t = type_new(p, kind, line);
        if (!t)
            return TG_ERR_NOMEM;
        t->align = 1;
        t->ref = tag;
        if (++p->depth > CTF_MAX_NESTING)
            return ctf_perr(p, line, "types nested deeper than %d levels", CTF_MAX_NESTING);
        size_t mark = p->n_alias;
        TG_TRY(parse_struct_body(p, t));
        p->n_alias = mark;
        p->depth--;
        defined = name != NULL;
    }
    if (kind == CTF_T_STRUCT && is_ident(peek(p), "align")) {
        next(p);
        TG_TRY(expect(p, "("));
        pvalue v;
        TG_TRY(ctf_parse_value(p, &v));
        uint64_t u = 0;
        TG_TRY(ctf_value_uint(p, &v, "align", &u));
        if (u < 1 || u > (1u << 20) || (u & (u - 1)))
            return ctf_perr(p, v.line, "alignment %llu is not a power of two",
                            (unsigned long long)u);
        TG_TRY(expect(p, ")"));
        if (u > t->align)
            t->align = (unsigned)u;
    }
    if (defined) {
        /* named with its align(N): `struct event_header_compact { ... } align(32);` and a
         * later `struct event_header_compact` are aligned alike */
        char key[300];
        snprintf(key, sizeof key, "%s %s", kw, name);
        TG_TRY(alias_add(p, tg_arena_strdup(p->a, key), t));
        t = ctf_type_copy(p->a, t);
        if (!t)
            return TG_ERR_NOMEM;
    }
    *out = t;
    return 0;
}

int ctf_parse_type_spec(parser *p, ctf_type **out)
{
    const ctf_token *t = peek(p);
    if (t->kind != CTF_TK_IDENT)
        return ctf_perr(p, t->line, "syntax error: expected a type, got '%.40s'", t->text);
    if (!strcmp(t->text, "integer"))
        return parse_int_or_float(p, CTF_T_INT, out);
    if (!strcmp(t->text, "floating_point"))
        return parse_int_or_float(p, CTF_T_FLOAT, out);
    if (!strcmp(t->text, "enum"))
        return parse_enum(p, out);
    if (!strcmp(t->text, "struct"))
        return parse_compound(p, CTF_T_STRUCT, out);
    if (!strcmp(t->text, "variant"))
        return parse_compound(p, CTF_T_VARIANT, out);
    if (!strcmp(t->text, "string")) {
        next(p);
        ctf_type *s = type_new(p, CTF_T_STRING, t->line);
        if (!s)
            return TG_ERR_NOMEM;
        s->align = 8;
        s->encoding = 1;
        if (accept(p, "{")) {
            while (!accept(p, "}")) {
                const ctf_token *k = next(p);
                TG_TRY(expect(p, "="));
                pvalue v;
                TG_TRY(ctf_parse_value(p, &v));
                TG_TRY(expect(p, ";"));
                if (k->kind != CTF_TK_IDENT || strcmp(k->text, "encoding"))
                    ctf_pwarn(p, k->line,
                              "Unknown attribute in string field class: attr-name=\"%.64s\"",
                              k->text);
            }
        }
        *out = s;
        return 0;
    }
    return parse_type_name(p, out);
}

/* declarator: NAME ('[' length ']')* ; wraps *type into arrays/sequences */
static int parse_declarator(parser *p, ctf_type *base, const char **name, ctf_type **out)
{
    const ctf_token *t = next(p);
    if (t->kind != CTF_TK_IDENT)
        return ctf_perr(p, t->line, "syntax error: expected a field name, got '%.40s'", t->text);
    *name = t->text;
    /* collect the dimensions, then wrap from the innermost (last) outwards */
    struct dim {
        bool seq;
        uint64_t len;
        const char *ref;
        int line;
    } dims[16];
    int nd = 0;
    while (accept(p, "[")) {
        if (nd == 16)
            return ctf_perr(p, t->line, "too many array dimensions");
        struct dim *d = &dims[nd++];
        d->line = peek(p)->line;
        if (peek(p)->kind == CTF_TK_INT) {
            const ctf_token *n = next(p);
            d->seq = false;
            d->len = n->ival;
            if (d->len > CTF_MAX_ARRAY_LEN)
                return ctf_perr(p, n->line, "array length %llu exceeds the limit",
                                (unsigned long long)d->len);
            TG_TRY(expect(p, "]"));
        } else {
            d->seq = true;
            TG_TRY(parse_path_until(p, "]", &d->ref));
        }
    }
    ctf_type *cur = base;
    for (int k = nd - 1; k >= 0; k--) {
        ctf_type *a = type_new(p, dims[k].seq ? CTF_T_SEQUENCE : CTF_T_ARRAY, dims[k].line);
        if (!a)
            return TG_ERR_NOMEM;
        a->elem = cur;
        a->length = dims[k].len;
        a->ref = dims[k].ref;
        a->align = cur->align;
        cur = a;
    }
    *out = cur;
    return 0;
}

static int parse_struct_body(parser *p, ctf_type *st)
{
    for (;;) {
        const ctf_token *t = peek(p);
        if (accept(p, "}"))
            return 0;
        if (t->kind == CTF_TK_EOF)
            return ctf_perr(p, t->line, "syntax error: unexpected end of metadata in a %s",
                            st->kind == CTF_T_STRUCT ? "struct" : "variant");
        int scoped = ctf_parse_scoped_name(p, t);
        TG_TRY(scoped);
        if (scoped)
            continue;
        ctf_type *base;
        TG_TRY(ctf_parse_type_spec(p, &base));
        if (accept(p, ";"))
            continue; /* a type declaration only */
        for (;;) {
            const char *name;
            ctf_type *ft;
            int line = peek(p)->line;
            ctf_type *copy = ctf_type_copy(p->a, base);
            if (!copy)
                return TG_ERR_NOMEM;
            TG_TRY(parse_declarator(p, copy, &name, &ft));
            TG_TRY(field_add(p, st, name, ft, line));
            if (accept(p, ","))
                continue;
            TG_TRY(expect(p, ";"));
            break;
        }
    }
}

int ctf_parse_typealias(parser *p)
{
    next(p);
    ctf_type *t;
    TG_TRY(ctf_parse_type_spec(p, &t));
    /* an abstract declarator may follow (pointer stars) */
    while (accept(p, "*"))
        ;
    TG_TRY(expect(p, ":="));
    char buf[512];
    size_t n = 0;
    int line = peek(p)->line;
    while (!is_punct(peek(p), ";")) {
        const ctf_token *k = next(p);
        if (k->kind != CTF_TK_IDENT && !is_punct(k, "*"))
            return ctf_perr(p, k->line, "syntax error: unexpected '%.40s' in a typealias name",
                            k->text);
        size_t l = strlen(k->text);
        if (n + l + 2 >= sizeof buf)
            return ctf_perr(p, k->line, "typealias name too long");
        if (n)
            buf[n++] = ' ';
        memcpy(buf + n, k->text, l);
        n += l;
    }
    next(p);
    if (!n)
        return ctf_perr(p, line, "typealias without a name");
    return alias_add(p, tg_arena_strndup(p->a, buf, n), t);
}

int ctf_parse_scoped_name(parser *p, const ctf_token *t)
{
    int rc;
    if (is_ident(t, "typealias"))
        rc = ctf_parse_typealias(p);
    else if (is_ident(t, "typedef"))
        rc = ctf_parse_typedef(p);
    else
        return 0;
    return rc < 0 ? rc : 1;
}

int ctf_parse_typedef(parser *p)
{
    next(p);
    ctf_type *base;
    TG_TRY(ctf_parse_type_spec(p, &base));
    for (;;) {
        const char *name;
        ctf_type *t;
        TG_TRY(parse_declarator(p, base, &name, &t));
        TG_TRY(alias_add(p, name, t));
        if (!accept(p, ","))
            break;
    }
    return expect(p, ";");
}
