/* ctf_parse.h - what the two halves of the TSDL parser share: the parser state, token
 * helpers, constant values, and the type-specifier entry points.
 *
 * ctf_parse.c reads the top level and the trace, env, clock, stream, event and callsite
 * blocks; ctf_parse_types.c reads type specifiers (integer, floating_point, string, enum,
 * struct, variant, arrays, sequences) and keeps the scoped typealias/typedef names. */
#ifndef TG_CTF_PARSE_H
#define TG_CTF_PARSE_H

#include "formats/ctf/ctf_internal.h"

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
    /* warnings, told to the trace at the end in babeltrace2's order: its visitor reads the
     * clocks, then the top-level type names, the trace, the streams, the events */
    struct ctf_pwarning {
        int phase, line;
        char *msg;
    } * warns;
    size_t n_warns, cap_warns;
    int phase; /* of the block being read (CTF_PHASE_*) */
} parser;

enum {
    CTF_PHASE_CLOCK,
    CTF_PHASE_ROOT,
    CTF_PHASE_TRACE,
    CTF_PHASE_STREAM,
    CTF_PHASE_EVENT,
    CTF_PHASE_OTHER
};

typedef struct pvalue {
    enum { PV_INT, PV_STRING, PV_IDENT } kind;
    int64_t i;
    bool neg;
    const char *s;
    int line;
} pvalue;

int ctf_perr(parser *p, int line, const char *fmt, ...) TG_PRINTF(3, 4);
/* What babeltrace2 accepts with a warning: recorded on the trace, parsing goes on.  The
 * text is babeltrace2's ("Unknown attribute in integer field class: attr-name=\"x\""),
 * after "PATH: At line N in metadata stream: " as babeltrace2 prints it. */
void ctf_pwarn(parser *p, int line, const char *fmt, ...) TG_PRINTF(3, 4);

static inline const ctf_token *peek(const parser *p) { return &p->t[p->i]; }
static inline const ctf_token *peek2(const parser *p)
{
    return &p->t[p->i + 1 < p->n ? p->i + 1 : p->n - 1];
}
static inline const ctf_token *next(parser *p)
{
    const ctf_token *t = &p->t[p->i];
    if (p->i + 1 < p->n)
        p->i++;
    return t;
}
static inline bool is_punct(const ctf_token *t, const char *s)
{
    return t->kind == CTF_TK_PUNCT && strcmp(t->text, s) == 0;
}
static inline bool is_ident(const ctf_token *t, const char *s)
{
    return t->kind == CTF_TK_IDENT && strcmp(t->text, s) == 0;
}
static inline bool accept(parser *p, const char *s)
{
    if (is_punct(peek(p), s)) {
        next(p);
        return true;
    }
    return false;
}
static inline int expect(parser *p, const char *s)
{
    const ctf_token *t = peek(p);
    if (!is_punct(t, s))
        return ctf_perr(p, t->line, "syntax error: expected '%s' before '%.40s'", s, t->text);
    next(p);
    return 0;
}

/* Constant values of attributes (ctf_parse.c). */
int ctf_parse_value(parser *p, pvalue *v);
int ctf_value_bool(parser *p, const pvalue *v, bool *out);
int ctf_value_uint(parser *p, const pvalue *v, const char *what, uint64_t *out);
/* byte order: 0 little, 1 big, 2 native */
int ctf_value_byte_order(parser *p, const pvalue *v, int *out);

/* Type specifiers and scoped type names (ctf_parse_types.c). */
int ctf_parse_type_spec(parser *p, ctf_type **out);
int ctf_parse_typealias(parser *p);
int ctf_parse_typedef(parser *p);
/* A typealias or typedef inside a block or a structure (t is the next token): 1 read, 0 not
 * one, <0 error. */
int ctf_parse_scoped_name(parser *p, const ctf_token *t);

#endif
