/* uftrace_demangle.h - the state of the walk over a mangled name that uftrace_demangle.c
 * (names, the entry) and uftrace_demangle_type.c (types, template arguments, expressions)
 * share, the reading and writing steps both take, and the parts each calls in the other. */
#ifndef TG_UFTRACE_DEMANGLE_H
#define TG_UFTRACE_DEMANGLE_H

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { DM_MAX_DEPTH = 256 };

typedef struct uft_dm {
    const char *in; /* the mangled name, past a _GLOBAL__sub_I_ prefix */
    int len, pos;
    int level;      /* nesting: must be 0 at the end */
    int type;       /* inside a type: names are not written */
    int templates;  /* inside template arguments: names are not written */
    int depth;      /* recursion guard (uftrace has none; a stack this deep fails here) */
    long steps;     /* types, expressions and names entered so far, and the most allowed: */
    long budget;    /* where uftrace's walk stops moving (it loops for ever), this one fails */
    bool type_info; /* a special name writes the type it names */
    bool first;     /* the next component is the first: no "::" before it */
    bool stepped;   /* the first failed expectation stepped back already */
    bool no_disc;   /* a reference temporary: no discriminator */
    bool broken;    /* out of memory or too deep */
    char *out;
    size_t n, cap;
} uft_dm;

/* ---- reading and writing ------------------------------------------------------------------ */

static inline bool at_end(const uft_dm *d) { return d->pos >= d->len; }

static inline char peek(const uft_dm *d, int ahead)
{
    if (d->pos + ahead > d->len || d->pos + ahead < 0)
        return 0;
    return d->in[d->pos + ahead];
}

static inline char cur(const uft_dm *d) { return peek(d, 0); }

/* Takes n characters and returns the first; when fewer are left, takes none and returns 0. */
static inline char take(uft_dm *d, int n)
{
    char c = cur(d);
    if (d->pos + n > d->len)
        return 0;
    d->pos += n;
    return c;
}

/* A failed check: the position moves by back (uftrace's error report does so), -1. */
static inline int refuse(uft_dm *d, int back)
{
    d->pos += back;
    d->stepped = true;
    return -1;
}

/* Takes one character that must be c; the first mismatch steps the position back by one. */
static inline int expect(uft_dm *d, char c)
{
    if (take(d, 1) == c)
        return 0;
    if (!d->stepped) {
        d->pos--;
        d->stepped = true;
    }
    return -1;
}

/* Whether c is in set; the string's terminator counts as in every set (as strchr has it). */
static inline bool one_of(const char *set, char c) { return strchr(set, c) != NULL; }

static inline bool digit(char c) { return isdigit((unsigned char)c) != 0; }

static inline void put_len(uft_dm *d, const char *s, size_t n)
{
    if (d->n + n + 1 > d->cap) {
        size_t cap = (d->n + n + 1) * 2;
        char *p = realloc(d->out, cap);
        if (!p) {
            d->broken = true;
            return;
        }
        d->out = p;
        d->cap = cap;
    }
    memcpy(d->out + d->n, s, n);
    d->n += n;
    d->out[d->n] = 0;
}

static inline void put(uft_dm *d, const char *s) { put_len(d, s, strlen(s)); }

/* "::" before every component but the first. */
static inline void separate(uft_dm *d)
{
    if (!d->first)
        put(d, "::");
    d->first = false;
}

/* Optional cv- and ref-qualifiers, skipped. */
static inline int qualifier(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (one_of("rVKRO", cur(d)))
        take(d, 1);
    return 0;
}

/* Entering a type, an expression, a name or an encoding: false (and the walk broken) past
 * the recursion or step bounds. */
static inline bool enter(uft_dm *d)
{
    if (++d->depth > DM_MAX_DEPTH || ++d->steps > d->budget) {
        d->broken = true;
        return false;
    }
    return true;
}

/* Whether c0 c1 is the two-letter code. */
static inline bool is(char c0, char c1, const char *code) { return c0 == code[0] && c1 == code[1]; }

/* The operator codes and the names uftrace writes after "operator". */
typedef struct uft_dm_op {
    char code[2];
    const char *name;
} uft_dm_op;
extern const uft_dm_op uft_dm_operators[];
extern const size_t uft_dm_n_operators;

/* uftrace_demangle.c */
int uft_dm_number(uft_dm *d);
int uft_dm_substitution(uft_dm *d);
int uft_dm_source_name(uft_dm *d);
int uft_dm_unqualified_name(uft_dm *d);
int uft_dm_operator_name(uft_dm *d);
int uft_dm_name(uft_dm *d);
int uft_dm_encoding(uft_dm *d);

/* uftrace_demangle_type.c */
int uft_dm_type(uft_dm *d);
int uft_dm_template_args(uft_dm *d);
int uft_dm_template_param(uft_dm *d);
int uft_dm_decltype(uft_dm *d);

#endif
