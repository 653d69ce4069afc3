/* ctf_parse.c - TSDL tokens to declarations (the first metadata pass).
 *
 * A recursive-descent parser for the TSDL of CTF 1.8: typealias and typedef (scoped: a
 * block or a structure body opens a scope), integer, floating_point, string, enum, struct
 * (with align(N)), variant, arrays and sequences, and the trace, env, clock, stream, event
 * and callsite blocks.  Names of types (`unsigned long`, `uint32_t`, `struct foo`) are looked
 * up when used and the type is copied, so every field owns its type.  Nothing is resolved
 * across declarations here: sequence lengths, variant tags and clock maps stay as written
 * for ctf_resolve.c. */
#include "formats/ctf/ctf_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctf_alias {
    const char *name; /* "uint32_t", "unsigned long", "struct foo", "enum e", ... */
    ctf_type *type;
} ctf_alias;

typedef struct parser {
    const ctf_token *t;
    size_t i, n;
    ctf_meta *m;
    tg_arena *a;
    tg_error **err;
    ctf_alias *aliases;
    size_t n_alias, cap_alias;
    int depth;
} parser;

typedef struct pvalue {
    enum { PV_INT, PV_STRING, PV_IDENT } kind;
    int64_t i;
    bool neg;
    const char *s;
    int line;
} pvalue;

static int perr(parser *p, int line, const char *fmt, ...) TG_PRINTF(3, 4);
static int perr(parser *p, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tg_err(p->err, TG_ERR_FORMAT, "%s: metadata line %d: %s", p->m->path, line, msg);
}

static const ctf_token *peek(const parser *p) { return &p->t[p->i]; }
static const ctf_token *peek2(const parser *p)
{
    return &p->t[p->i + 1 < p->n ? p->i + 1 : p->n - 1];
}
static const ctf_token *next(parser *p)
{
    const ctf_token *t = &p->t[p->i];
    if (p->i + 1 < p->n)
        p->i++;
    return t;
}
static bool is_punct(const ctf_token *t, const char *s)
{
    return t->kind == CTF_TK_PUNCT && strcmp(t->text, s) == 0;
}
static bool is_ident(const ctf_token *t, const char *s)
{
    return t->kind == CTF_TK_IDENT && strcmp(t->text, s) == 0;
}
static bool accept(parser *p, const char *s)
{
    if (is_punct(peek(p), s)) {
        next(p);
        return true;
    }
    return false;
}
static int expect(parser *p, const char *s)
{
    const ctf_token *t = peek(p);
    if (!is_punct(t, s))
        return perr(p, t->line, "syntax error: expected '%s' before '%.40s'", s, t->text);
    next(p);
    return 0;
}

/* ---- scopes of type names ------------------------------------------------------------------ */

static int alias_add(parser *p, const char *name, ctf_type *type)
{
    if (p->n_alias == p->cap_alias) {
        size_t cap = p->cap_alias ? p->cap_alias * 2 : 64;
        ctf_alias *v = realloc(p->aliases, cap * sizeof *v);
        if (!v)
            return tg_err(p->err, TG_ERR_NOMEM, "out of memory");
        p->aliases = v;
        p->cap_alias = cap;
    }
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
            return perr(p, line, "duplicate field or option name '%s'", name);
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

/* ---- values -------------------------------------------------------------------------------- */

static int parse_value(parser *p, pvalue *v)
{
    const ctf_token *t = peek(p);
    v->line = t->line;
    v->neg = false;
    if (is_punct(t, "-") || is_punct(t, "+")) {
        v->neg = is_punct(t, "-");
        next(p);
        t = peek(p);
        if (t->kind != CTF_TK_INT)
            return perr(p, t->line, "syntax error: expected an integer after the sign");
    }
    if (t->kind == CTF_TK_INT || t->kind == CTF_TK_CHAR) {
        next(p);
        v->kind = PV_INT;
        if (v->neg ? t->ival > (uint64_t)INT64_MAX + 1 : false)
            return perr(p, t->line, "integer constant -%s is out of range", t->text);
        v->i = v->neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
        return 0;
    }
    if (t->kind == CTF_TK_STRING) {
        next(p);
        v->kind = PV_STRING;
        v->s = t->text;
        return 0;
    }
    if (t->kind == CTF_TK_IDENT) {
        /* identifier or dotted path: clock.monotonic.value */
        char buf[512];
        size_t n = 0;
        for (;;) {
            t = next(p);
            size_t l = strlen(t->text);
            if (n + l + 2 >= sizeof buf)
                return perr(p, t->line, "identifier path too long");
            memcpy(buf + n, t->text, l);
            n += l;
            if (!(is_punct(peek(p), ".") && peek2(p)->kind == CTF_TK_IDENT))
                break;
            next(p);
            buf[n++] = '.';
        }
        v->kind = PV_IDENT;
        v->s = tg_arena_strndup(p->a, buf, n);
        return v->s ? 0 : TG_ERR_NOMEM;
    }
    return perr(p, t->line, "syntax error: unexpected '%.40s' where a value was expected",
                t->text);
}

static int value_bool(parser *p, const pvalue *v, bool *out)
{
    if (v->kind == PV_INT) {
        *out = v->i != 0;
        return 0;
    }
    if (v->kind == PV_IDENT) {
        if (!strcmp(v->s, "true") || !strcmp(v->s, "TRUE")) {
            *out = true;
            return 0;
        }
        if (!strcmp(v->s, "false") || !strcmp(v->s, "FALSE")) {
            *out = false;
            return 0;
        }
    }
    return perr(p, v->line, "expected a boolean (true, false, 1 or 0)");
}

static int value_uint(parser *p, const pvalue *v, const char *what, uint64_t *out)
{
    if (v->kind != PV_INT || v->neg)
        return perr(p, v->line, "`%s` expects a non-negative integer", what);
    *out = (uint64_t)v->i;
    return 0;
}

/* byte order: 0 little, 1 big, 2 native */
static int value_byte_order(parser *p, const pvalue *v, int *out)
{
    if (v->kind == PV_IDENT) {
        if (!strcmp(v->s, "le") || !strcmp(v->s, "little_endian")) {
            *out = 0;
            return 0;
        }
        if (!strcmp(v->s, "be") || !strcmp(v->s, "network") || !strcmp(v->s, "big_endian")) {
            *out = 1;
            return 0;
        }
        if (!strcmp(v->s, "native")) {
            *out = 2;
            return 0;
        }
    }
    return perr(p, v->line, "invalid byte_order (expected le, be, network or native)");
}

/* ---- type specifiers ----------------------------------------------------------------------- */

static int parse_type_spec(parser *p, ctf_type **out);
static int parse_struct_body(parser *p, ctf_type *st);
static int parse_typealias(parser *p);
static int parse_typedef(parser *p);

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
            return perr(p, k->line, "syntax error: expected an attribute name, got '%.40s'",
                        k->text);
        TG_TRY(expect(p, "="));
        pvalue v;
        TG_TRY(parse_value(p, &v));
        TG_TRY(expect(p, ";"));
        uint64_t u = 0;
        if (!strcmp(k->text, "size") && kind == CTF_T_INT) {
            TG_TRY(value_uint(p, &v, "size", &u));
            if (u < 1 || u > 64)
                return perr(p, v.line, "integer size %llu is not in 1..64",
                            (unsigned long long)u);
            t->size = (unsigned)u;
            has_size = true;
        } else if (!strcmp(k->text, "align")) {
            TG_TRY(value_uint(p, &v, "align", &u));
            if (u < 1 || u > (1u << 20) || (u & (u - 1)))
                return perr(p, v.line, "alignment %llu is not a power of two",
                            (unsigned long long)u);
            t->align = (unsigned)u;
            has_align = true;
        } else if (!strcmp(k->text, "signed")) {
            TG_TRY(value_bool(p, &v, &t->is_signed));
        } else if (!strcmp(k->text, "byte_order")) {
            int bo;
            TG_TRY(value_byte_order(p, &v, &bo));
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
                return perr(p, v.line, "invalid integer base (expected 2, 8, 10 or 16)");
            t->base = (uint8_t)b;
        } else if (!strcmp(k->text, "encoding")) {
            if (v.kind != PV_IDENT && v.kind != PV_STRING)
                return perr(p, v.line, "invalid encoding");
            if (!strcmp(v.s, "none"))
                t->encoding = 0;
            else if (!strcmp(v.s, "UTF8") || !strcmp(v.s, "utf8"))
                t->encoding = 1;
            else if (!strcmp(v.s, "ASCII") || !strcmp(v.s, "ascii"))
                t->encoding = 2;
            else
                return perr(p, v.line, "invalid encoding '%s' (expected none, UTF8 or ASCII)",
                            v.s);
        } else if (!strcmp(k->text, "map") && kind == CTF_T_INT) {
            if (v.kind != PV_IDENT)
                return perr(p, v.line, "invalid map (expected clock.NAME.value)");
            t->map_name = v.s;
        } else if (!strcmp(k->text, "exp_dig") && kind == CTF_T_FLOAT) {
            TG_TRY(value_uint(p, &v, "exp_dig", &u));
            t->exp_dig = (unsigned)(u > 64 ? 65 : u);
            has_exp = true;
        } else if (!strcmp(k->text, "mant_dig") && kind == CTF_T_FLOAT) {
            TG_TRY(value_uint(p, &v, "mant_dig", &u));
            t->mant_dig = (unsigned)(u > 64 ? 65 : u);
            has_mant = true;
        } else {
            return perr(p, k->line, "unknown attribute '%s' in %s", k->text,
                        kind == CTF_T_INT ? "integer" : "floating_point");
        }
    }
    if (kind == CTF_T_INT) {
        if (!has_size)
            return perr(p, line, "integer declaration without a size");
        if (!has_align)
            t->align = t->size % 8 ? 1 : 8;
    } else {
        if (!has_exp || !has_mant)
            return perr(p, line, "floating_point declaration needs exp_dig and mant_dig");
        t->size = t->exp_dig + t->mant_dig;
        if (!((t->exp_dig == 8 && t->mant_dig == 24) || (t->exp_dig == 11 && t->mant_dig == 53)))
            return perr(p, line,
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
        return perr(p, first->line, "unknown type '%.60s'", first->text);
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
        TG_TRY(parse_type_spec(p, &container));
    }
    if (!is_punct(peek(p), "{")) {
        if (!name)
            return perr(p, line, "syntax error: expected '{' after enum");
        char key[300];
        snprintf(key, sizeof key, "enum %s", name);
        ctf_type *t = alias_find(p, key);
        if (!t)
            return perr(p, line, "unknown enum '%s'", name);
        *out = ctf_type_copy(p->a, t);
        return *out ? 0 : TG_ERR_NOMEM;
    }
    next(p);
    if (!container) {
        ctf_type *def = alias_find(p, "int");
        if (!def)
            return perr(p, line, "enum without a container type and no 'int' type declared");
        container = ctf_type_copy(p->a, def);
        if (!container)
            return TG_ERR_NOMEM;
    }
    if (container->kind != CTF_T_INT)
        return perr(p, line, "enum container type is not an integer");
    ctf_type *t = container;
    t->kind = CTF_T_ENUM;
    t->line = line;
    size_t cap = 0;
    int64_t next_val = 0;
    while (!accept(p, "}")) {
        const ctf_token *lt = next(p);
        if (lt->kind != CTF_TK_IDENT && lt->kind != CTF_TK_STRING)
            return perr(p, lt->line, "syntax error: expected an enumerator label, got '%.40s'",
                        lt->text);
        int64_t lo = next_val, hi = next_val;
        if (accept(p, "=")) {
            pvalue v;
            TG_TRY(parse_value(p, &v));
            if (v.kind != PV_INT)
                return perr(p, v.line, "enumerator value is not an integer");
            lo = hi = v.i;
            if (accept(p, "...")) {
                TG_TRY(parse_value(p, &v));
                if (v.kind != PV_INT)
                    return perr(p, v.line, "enumerator range end is not an integer");
                hi = v.i;
            }
        }
        if (t->n_maps == cap) {
            cap = cap ? cap * 2 : 8;
            if (cap > (1u << 20))
                return perr(p, lt->line, "too many enumerators");
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
            return perr(p, t->line, "syntax error: unexpected '%.40s' in a field path", t->text);
        size_t l = strlen(t->text);
        if (n + l + 1 >= sizeof buf)
            return perr(p, t->line, "field path too long");
        memcpy(buf + n, t->text, l);
        n += l;
    }
    next(p);
    if (!n)
        return perr(p, peek(p)->line, "empty field path");
    *out = tg_arena_strndup(p->a, buf, n);
    return *out ? 0 : TG_ERR_NOMEM;
}

static int parse_compound(parser *p, ctf_kind kind, ctf_type **out)
{
    int line = next(p)->line;
    const char *kw = kind == CTF_T_STRUCT ? "struct" : "variant";
    const char *name = NULL, *tag = NULL;
    if (peek(p)->kind == CTF_TK_IDENT)
        name = next(p)->text;
    if (kind == CTF_T_VARIANT && accept(p, "<"))
        TG_TRY(parse_path_until(p, ">", &tag));
    ctf_type *t;
    if (!is_punct(peek(p), "{")) {
        if (!name)
            return perr(p, line, "syntax error: expected '{' after %s", kw);
        char key[300];
        snprintf(key, sizeof key, "%s %s", kw, name);
        ctf_type *found = alias_find(p, key);
        if (!found)
            return perr(p, line, "unknown %s '%s'", kw, name);
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
            return perr(p, line, "types nested deeper than %d levels", CTF_MAX_NESTING);
        size_t mark = p->n_alias;
        TG_TRY(parse_struct_body(p, t));
        p->n_alias = mark;
        p->depth--;
        if (name) {
            char key[300];
            snprintf(key, sizeof key, "%s %s", kw, name);
            TG_TRY(alias_add(p, tg_arena_strdup(p->a, key), t));
            t = ctf_type_copy(p->a, t);
            if (!t)
                return TG_ERR_NOMEM;
        }
    }
    if (kind == CTF_T_STRUCT && is_ident(peek(p), "align")) {
        next(p);
        TG_TRY(expect(p, "("));
        pvalue v;
        TG_TRY(parse_value(p, &v));
        uint64_t u = 0;
        TG_TRY(value_uint(p, &v, "align", &u));
        if (u < 1 || u > (1u << 20) || (u & (u - 1)))
            return perr(p, v.line, "alignment %llu is not a power of two", (unsigned long long)u);
        TG_TRY(expect(p, ")"));
        if (u > t->align)
            t->align = (unsigned)u;
    }
    *out = t;
    return 0;
}

static int parse_type_spec(parser *p, ctf_type **out)
{
    const ctf_token *t = peek(p);
    if (t->kind != CTF_TK_IDENT)
        return perr(p, t->line, "syntax error: expected a type, got '%.40s'", t->text);
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
                TG_TRY(parse_value(p, &v));
                TG_TRY(expect(p, ";"));
                if (k->kind != CTF_TK_IDENT || strcmp(k->text, "encoding"))
                    return perr(p, k->line, "unknown attribute '%.40s' in string", k->text);
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
        return perr(p, t->line, "syntax error: expected a field name, got '%.40s'", t->text);
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
            return perr(p, t->line, "too many array dimensions");
        struct dim *d = &dims[nd++];
        d->line = peek(p)->line;
        if (peek(p)->kind == CTF_TK_INT) {
            const ctf_token *n = next(p);
            d->seq = false;
            d->len = n->ival;
            if (d->len > CTF_MAX_ARRAY_LEN)
                return perr(p, n->line, "array length %llu exceeds the limit",
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
            return perr(p, t->line, "syntax error: unexpected end of metadata in a %s",
                        st->kind == CTF_T_STRUCT ? "struct" : "variant");
        if (is_ident(t, "typealias")) {
            TG_TRY(parse_typealias(p));
            continue;
        }
        if (is_ident(t, "typedef")) {
            TG_TRY(parse_typedef(p));
            continue;
        }
        ctf_type *base;
        TG_TRY(parse_type_spec(p, &base));
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

static int parse_typealias(parser *p)
{
    next(p);
    ctf_type *t;
    TG_TRY(parse_type_spec(p, &t));
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
            return perr(p, k->line, "syntax error: unexpected '%.40s' in a typealias name",
                        k->text);
        size_t l = strlen(k->text);
        if (n + l + 2 >= sizeof buf)
            return perr(p, k->line, "typealias name too long");
        if (n)
            buf[n++] = ' ';
        memcpy(buf + n, k->text, l);
        n += l;
    }
    next(p);
    if (!n)
        return perr(p, line, "typealias without a name");
    return alias_add(p, tg_arena_strndup(p->a, buf, n), t);
}

static int parse_typedef(parser *p)
{
    next(p);
    ctf_type *base;
    TG_TRY(parse_type_spec(p, &base));
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

/* ---- blocks -------------------------------------------------------------------------------- */

typedef enum { B_TRACE, B_ENV, B_CLOCK, B_STREAM, B_EVENT, B_CALLSITE } block_kind;

static int parse_uuid(parser *p, const pvalue *v, uint8_t out[16])
{
    if (v->kind != PV_STRING)
        return perr(p, v->line, "uuid is not a string");
    const char *s = v->s;
    int k = 0;
    for (size_t i = 0; s[i] && k < 32; i++) {
        if (s[i] == '-')
            continue;
        int h = 0;
        char c = s[i];
        if (c >= '0' && c <= '9')
            h = c - '0';
        else if (c >= 'a' && c <= 'f')
            h = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            h = c - 'A' + 10;
        else
            return perr(p, v->line, "malformed uuid \"%s\"", s);
        if (k % 2 == 0)
            out[k / 2] = (uint8_t)(h << 4);
        else
            out[k / 2] |= (uint8_t)h;
        k++;
    }
    if (k != 32 || strlen(s) != 36)
        return perr(p, v->line, "malformed uuid \"%s\"", s);
    return 0;
}

#define PUSH(arr, n, cap, item)                                                                 \
    do {                                                                                        \
        if ((n) == (cap)) {                                                                     \
            size_t nc_ = (cap) ? (cap) * 2 : 8;                                                 \
            void *nv_ = realloc((arr), nc_ * sizeof *(arr));                                    \
            if (!nv_)                                                                           \
                return tg_err(p->err, TG_ERR_NOMEM, "out of memory");                           \
            (arr) = nv_;                                                                        \
            (cap) = nc_;                                                                        \
        }                                                                                       \
        (arr)[(n)++] = (item);                                                                  \
    } while (0)

static int block_attr(parser *p, block_kind bk, void *obj, const char *key, int line)
{
    ctf_meta *m = p->m;
    if (bk == B_ENV) {
        pvalue v;
        TG_TRY(expect(p, "="));
        TG_TRY(parse_value(p, &v));
        ctf_env e = {.key = key, .is_int = v.kind == PV_INT, .i = v.i, .s = v.s};
        PUSH(m->env, m->n_env, m->cap_env, e);
        return 0;
    }
    if (accept(p, ":=")) {
        ctf_type *t;
        TG_TRY(parse_type_spec(p, &t));
        ctf_type **slot = NULL;
        if (bk == B_TRACE && !strcmp(key, "packet.header"))
            slot = &m->packet_header;
        else if (bk == B_STREAM && !strcmp(key, "packet.context"))
            slot = &((ctf_stream_decl *)obj)->packet_context;
        else if (bk == B_STREAM && !strcmp(key, "event.header"))
            slot = &((ctf_stream_decl *)obj)->event_header;
        else if (bk == B_STREAM && !strcmp(key, "event.context"))
            slot = &((ctf_stream_decl *)obj)->event_context;
        else if (bk == B_EVENT && !strcmp(key, "context"))
            slot = &((ctf_event_decl *)obj)->context;
        else if (bk == B_EVENT && !strcmp(key, "fields"))
            slot = &((ctf_event_decl *)obj)->fields;
        if (!slot)
            return perr(p, line, "unknown type assignment '%s'", key);
        if (*slot)
            return perr(p, line, "duplicate '%s'", key);
        if (t->kind != CTF_T_STRUCT)
            return perr(p, line, "'%s' must be a structure", key);
        *slot = t;
        return 0;
    }
    TG_TRY(expect(p, "="));
    pvalue v;
    TG_TRY(parse_value(p, &v));
    uint64_t u = 0;
    switch (bk) {
    case B_TRACE:
        if (!strcmp(key, "major")) {
            TG_TRY(value_uint(p, &v, key, &u));
            if (u != 1)
                return perr(p, v.line, "invalid trace `major` attribute %llu: expecting 1",
                            (unsigned long long)u);
            m->major = 1;
            m->has_major = true;
        } else if (!strcmp(key, "minor")) {
            TG_TRY(value_uint(p, &v, key, &u));
            if (u != 8)
                return perr(p, v.line, "invalid trace `minor` attribute %llu: expecting 8",
                            (unsigned long long)u);
            m->minor = 8;
            m->has_minor = true;
        } else if (!strcmp(key, "uuid")) {
            TG_TRY(parse_uuid(p, &v, m->uuid));
            m->has_uuid = true;
        } else if (!strcmp(key, "byte_order")) {
            int bo;
            TG_TRY(value_byte_order(p, &v, &bo));
            if (bo == 2)
                return perr(p, v.line, "the trace byte_order cannot be native");
            m->big_endian = bo == 1;
            m->has_byte_order = true;
        }
        break;
    case B_CLOCK: {
        ctf_clock *c = obj;
        if (!strcmp(key, "name")) {
            if (v.kind == PV_INT)
                return perr(p, v.line, "clock name is not an identifier");
            c->name = v.s;
        } else if (!strcmp(key, "description")) {
            c->description = v.kind == PV_INT ? "" : v.s;
        } else if (!strcmp(key, "uuid")) {
            TG_TRY(parse_uuid(p, &v, c->uuid));
            c->has_uuid = true;
        } else if (!strcmp(key, "freq")) {
            TG_TRY(value_uint(p, &v, key, &c->freq));
            if (!c->freq)
                return perr(p, v.line, "clock frequency is 0");
        } else if (!strcmp(key, "precision")) {
            TG_TRY(value_uint(p, &v, key, &c->precision));
        } else if (!strcmp(key, "offset_s")) {
            if (v.kind != PV_INT)
                return perr(p, v.line, "clock offset_s is not an integer");
            c->offset_s = v.i;
        } else if (!strcmp(key, "offset")) {
            TG_TRY(value_uint(p, &v, key, &c->offset));
        } else if (!strcmp(key, "absolute")) {
            TG_TRY(value_bool(p, &v, &c->absolute));
        }
        break;
    }
    case B_STREAM: {
        ctf_stream_decl *s = obj;
        if (!strcmp(key, "id")) {
            TG_TRY(value_uint(p, &v, key, &s->id));
            s->has_id = true;
        }
        break;
    }
    case B_EVENT: {
        ctf_event_decl *e = obj;
        if (!strcmp(key, "name")) {
            if (v.kind == PV_INT)
                return perr(p, v.line, "event name is not a string");
            e->name = v.s;
        } else if (!strcmp(key, "id")) {
            TG_TRY(value_uint(p, &v, key, &e->id));
            e->has_id = true;
        } else if (!strcmp(key, "stream_id")) {
            TG_TRY(value_uint(p, &v, key, &e->stream_id));
            e->has_stream_id = true;
        } else if (!strcmp(key, "loglevel")) {
            if (v.kind != PV_INT)
                return perr(p, v.line, "event loglevel is not an integer");
            e->loglevel = v.i;
            e->has_loglevel = true;
        } else if (!strcmp(key, "model.emf.uri")) {
            e->emf_uri = v.kind == PV_INT ? NULL : v.s;
        }
        break;
    }
    default:
        break;
    }
    return 0;
}

static int parse_block(parser *p, block_kind bk)
{
    const ctf_token *kw = next(p);
    ctf_meta *m = p->m;
    void *obj = NULL;
    if (bk == B_CLOCK) {
        ctf_clock *c = tg_arena_alloc(p->a, sizeof *c);
        if (!c)
            return TG_ERR_NOMEM;
        c->freq = 1000000000;
        c->absolute = false;
        c->line = kw->line;
        obj = c;
    } else if (bk == B_STREAM) {
        ctf_stream_decl *s = tg_arena_alloc(p->a, sizeof *s);
        if (!s)
            return TG_ERR_NOMEM;
        s->line = kw->line;
        obj = s;
    } else if (bk == B_EVENT) {
        ctf_event_decl *e = tg_arena_alloc(p->a, sizeof *e);
        if (!e)
            return TG_ERR_NOMEM;
        e->line = kw->line;
        obj = e;
    }
    TG_TRY(expect(p, "{"));
    size_t mark = p->n_alias;
    for (;;) {
        const ctf_token *t = peek(p);
        if (accept(p, "}"))
            break;
        if (t->kind == CTF_TK_EOF)
            return perr(p, t->line, "syntax error: unexpected end of metadata in the %s block",
                        kw->text);
        if (is_ident(t, "typealias")) {
            TG_TRY(parse_typealias(p));
            continue;
        }
        if (is_ident(t, "typedef")) {
            TG_TRY(parse_typedef(p));
            continue;
        }
        if (t->kind != CTF_TK_IDENT)
            return perr(p, t->line, "syntax error: unexpected '%.40s' in the %s block", t->text,
                        kw->text);
        if (bk != B_ENV && (is_ident(t, "struct") || is_ident(t, "variant") ||
                            is_ident(t, "enum")) &&
            !is_punct(peek2(p), "=") && !is_punct(peek2(p), ":=")) {
            ctf_type *dummy;
            TG_TRY(parse_type_spec(p, &dummy));
            TG_TRY(expect(p, ";"));
            continue;
        }
        /* key: ident ('.' ident)* */
        char key[256];
        size_t n = 0;
        int line = t->line;
        for (;;) {
            const ctf_token *k = next(p);
            size_t l = strlen(k->text);
            if (k->kind != CTF_TK_IDENT || n + l + 2 >= sizeof key)
                return perr(p, k->line, "syntax error: bad attribute name '%.40s'", k->text);
            memcpy(key + n, k->text, l);
            n += l;
            if (!accept(p, "."))
                break;
            key[n++] = '.';
        }
        key[n] = 0;
        TG_TRY(block_attr(p, bk, obj, tg_arena_strdup(p->a, key), line));
        TG_TRY(expect(p, ";"));
    }
    p->n_alias = mark;
    TG_TRY(expect(p, ";"));
    if (bk == B_CLOCK) {
        ctf_clock *c = obj;
        if (!c->name)
            return perr(p, kw->line, "clock block without a name");
        for (size_t i = 0; i < m->n_clocks; i++)
            if (!strcmp(m->clocks[i]->name, c->name))
                return perr(p, kw->line, "duplicate clock '%s'", c->name);
        PUSH(m->clocks, m->n_clocks, m->cap_clocks, c);
    } else if (bk == B_STREAM) {
        ctf_stream_decl *s = obj;
        for (size_t i = 0; i < m->n_streams; i++)
            if (m->streams[i]->id == s->id)
                return perr(p, kw->line, "duplicate stream id %llu", (unsigned long long)s->id);
        PUSH(m->streams, m->n_streams, m->cap_streams, s);
    } else if (bk == B_EVENT) {
        ctf_event_decl *e = obj;
        if (!e->name)
            return perr(p, kw->line, "event block without a name");
        PUSH(m->events, m->n_events, m->cap_events, e);
    }
    return 0;
}

int ctf_parse(const ctf_tokens *toks, ctf_meta *meta, tg_error **err)
{
    parser p = {.t = toks->v, .n = toks->n, .m = meta, .a = meta->arena, .err = err};
    int rc = 0;
    while (rc >= 0 && peek(&p)->kind != CTF_TK_EOF) {
        const ctf_token *t = peek(&p);
        if (is_ident(t, "trace"))
            rc = parse_block(&p, B_TRACE);
        else if (is_ident(t, "env"))
            rc = parse_block(&p, B_ENV);
        else if (is_ident(t, "clock"))
            rc = parse_block(&p, B_CLOCK);
        else if (is_ident(t, "stream"))
            rc = parse_block(&p, B_STREAM);
        else if (is_ident(t, "event"))
            rc = parse_block(&p, B_EVENT);
        else if (is_ident(t, "callsite"))
            rc = parse_block(&p, B_CALLSITE);
        else if (is_ident(t, "typealias"))
            rc = parse_typealias(&p);
        else if (is_ident(t, "typedef"))
            rc = parse_typedef(&p);
        else if (t->kind == CTF_TK_IDENT) {
            ctf_type *dummy;
            rc = parse_type_spec(&p, &dummy);
            if (rc >= 0)
                rc = expect(&p, ";");
        } else {
            rc = perr(&p, t->line, "syntax error: unexpected '%.40s' at the top level", t->text);
        }
    }
    free(p.aliases);
    return rc < 0 ? rc : 0;
}
