/* ctf_parse.c - TSDL tokens to declarations (the first metadata pass): the top level and
 * its blocks.
 *
 * A recursive-descent parser for the TSDL of CTF 1.8.  This file reads the trace, env,
 * clock, stream, event and callsite blocks and the constant values of their attributes;
 * type specifiers and the scoped typealias/typedef names are in ctf_parse_types.c.
 * Nothing is resolved across declarations here: sequence lengths, variant tags and clock
 * maps stay as written for ctf_resolve.c. */
#include "formats/ctf/ctf_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ctf_perr(parser *p, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tg_err(p->err, TG_ERR_FORMAT, "%s: metadata line %d: %s", p->m->path, line, msg);
}

void ctf_pwarn(parser *p, int line, const char *fmt, ...)
{
    if (!p->m->trace)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *copy = strdup(msg);
    if (!copy || tg_grow(&p->warns, &p->cap_warns, p->n_warns + 1, sizeof *p->warns) < 0) {
        free(copy);
        return; /* out of memory: the warning is lost, not the trace */
    }
    p->warns[p->n_warns++] = (struct ctf_pwarning){p->phase, line, copy};
}

/* Tells the trace the warnings, phase by phase (in order within each). */
static void flush_warnings(parser *p)
{
    for (int phase = CTF_PHASE_CLOCK; phase <= CTF_PHASE_OTHER; phase++)
        for (size_t i = 0; i < p->n_warns; i++)
            if (p->warns[i].phase == phase)
                tg_trace_warn(p->m->trace, "%s: At line %d in metadata stream: %s", p->m->path,
                              p->warns[i].line, p->warns[i].msg);
    for (size_t i = 0; i < p->n_warns; i++)
        free(p->warns[i].msg);
    free(p->warns);
}

/* ---- values -------------------------------------------------------------------------------- */

int ctf_parse_value(parser *p, pvalue *v)
{
    const ctf_token *t = peek(p);
    v->line = t->line;
    v->neg = false;
    if (is_punct(t, "-") || is_punct(t, "+")) {
        v->neg = is_punct(t, "-");
        next(p);
        t = peek(p);
        if (t->kind != CTF_TK_INT)
            return ctf_perr(p, t->line, "syntax error: expected an integer after the sign");
    }
    if (t->kind == CTF_TK_INT || t->kind == CTF_TK_CHAR) {
        next(p);
        v->kind = PV_INT;
        if (v->neg ? t->ival > (uint64_t)INT64_MAX + 1 : false)
            return ctf_perr(p, t->line, "integer constant -%s is out of range", t->text);
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
                return ctf_perr(p, t->line, "identifier path too long");
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
    return ctf_perr(p, t->line, "syntax error: unexpected '%.40s' where a value was expected",
                    t->text);
}

int ctf_value_bool(parser *p, const pvalue *v, bool *out)
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
    return ctf_perr(p, v->line, "expected a boolean (true, false, 1 or 0)");
}

int ctf_value_uint(parser *p, const pvalue *v, const char *what, uint64_t *out)
{
    if (v->kind != PV_INT || v->neg)
        return ctf_perr(p, v->line, "`%s` expects a non-negative integer", what);
    *out = (uint64_t)v->i;
    return 0;
}

int ctf_value_byte_order(parser *p, const pvalue *v, int *out)
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
    return ctf_perr(p, v->line, "invalid byte_order (expected le, be, network or native)");
}

/* ---- blocks -------------------------------------------------------------------------------- */

typedef enum { B_TRACE, B_ENV, B_CLOCK, B_STREAM, B_EVENT, B_CALLSITE } block_kind;

/* What babeltrace2 calls the class a block declares, in its warnings (a trace block's
 * unknown attributes are "in stream class" there too). */
static const char *block_class(int bk)
{
    switch (bk) {
    case B_CLOCK: return "clock class";
    case B_EVENT: return "event class";
    default: return "stream class";
    }
}

static void unknown_attr(parser *p, block_kind bk, const char *key, int line)
{
    ctf_pwarn(p, line, "Unknown attribute in %s: attr-name=\"%.64s\"", block_class(bk), key);
}

static int parse_uuid(parser *p, const pvalue *v, uint8_t out[16])
{
    if (v->kind != PV_STRING)
        return ctf_perr(p, v->line, "uuid is not a string");
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
            return ctf_perr(p, v->line, "malformed uuid \"%s\"", s);
        if (k % 2 == 0)
            out[k / 2] = (uint8_t)(h << 4);
        else
            out[k / 2] |= (uint8_t)h;
        k++;
    }
    if (k != 32 || strlen(s) != 36)
        return ctf_perr(p, v->line, "malformed uuid \"%s\"", s);
    return 0;
}

#define PUSH(arr, n, cap, item)                                                                    \
    do {                                                                                           \
        if (tg_grow(&(arr), &(cap), (n) + 1, sizeof *(arr)) < 0)                                   \
            return tg_err(p->err, TG_ERR_NOMEM, "out of memory");                                  \
        (arr)[(n)++] = (item);                                                                     \
    } while (0)

static int block_attr(parser *p, block_kind bk, void *obj, const char *key, int line)
{
    ctf_meta *m = p->m;
    if (bk == B_ENV) {
        pvalue v;
        TG_TRY(expect(p, "="));
        TG_TRY(ctf_parse_value(p, &v));
        ctf_env e = {.key = key, .is_int = v.kind == PV_INT, .i = v.i, .s = v.s};
        for (size_t i = 0; i < m->n_env; i++)
            if (!strcmp(m->env[i].key, key)) {
                m->env[i] = e; /* babeltrace2 keeps the last value of a repeated entry */
                return 0;
            }
        PUSH(m->env, m->n_env, m->cap_env, e);
        return 0;
    }
    if (accept(p, ":=")) {
        ctf_type *t;
        TG_TRY(ctf_parse_type_spec(p, &t));
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
        if (!slot && (bk == B_TRACE || bk == B_STREAM || bk == B_EVENT || bk == B_CLOCK)) {
            unknown_attr(p, bk, key, line); /* babeltrace2 ignores it */
            return 0;
        }
        if (!slot)
            return ctf_perr(p, line, "unknown type assignment '%s'", key);
        if (*slot)
            return ctf_perr(p, line, "duplicate '%s'", key);
        if (t->kind != CTF_T_STRUCT)
            return ctf_perr(p, line, "'%s' must be a structure", key);
        *slot = t;
        return 0;
    }
    TG_TRY(expect(p, "="));
    pvalue v;
    TG_TRY(ctf_parse_value(p, &v));
    uint64_t u = 0;
    switch (bk) {
    case B_TRACE:
        if (!strcmp(key, "major")) {
            TG_TRY(ctf_value_uint(p, &v, key, &u));
            if (u != 1)
                return ctf_perr(p, v.line, "invalid trace `major` attribute %llu: expecting 1",
                                (unsigned long long)u);
            m->major = 1;
            m->has_major = true;
        } else if (!strcmp(key, "minor")) {
            TG_TRY(ctf_value_uint(p, &v, key, &u));
            if (u != 8)
                return ctf_perr(p, v.line, "invalid trace `minor` attribute %llu: expecting 8",
                                (unsigned long long)u);
            m->minor = 8;
            m->has_minor = true;
        } else if (!strcmp(key, "uuid")) {
            TG_TRY(parse_uuid(p, &v, m->uuid));
            m->has_uuid = true;
        } else if (!strcmp(key, "byte_order")) {
            int bo;
            TG_TRY(ctf_value_byte_order(p, &v, &bo));
            if (bo == 2)
                return ctf_perr(p, v.line, "the trace byte_order cannot be native");
            m->big_endian = bo == 1;
            m->has_byte_order = true;
        } else {
            unknown_attr(p, bk, key, line);
        }
        break;
    case B_CLOCK: {
        ctf_clock *c = obj;
        if (!strcmp(key, "name")) {
            if (v.kind == PV_INT)
                return ctf_perr(p, v.line, "clock name is not an identifier");
            c->name = v.s;
        } else if (!strcmp(key, "description")) {
            c->description = v.kind == PV_INT ? "" : v.s;
        } else if (!strcmp(key, "uuid")) {
            TG_TRY(parse_uuid(p, &v, c->uuid));
            c->has_uuid = true;
        } else if (!strcmp(key, "freq")) {
            TG_TRY(ctf_value_uint(p, &v, key, &c->freq));
            if (!c->freq)
                return ctf_perr(p, v.line, "clock frequency is 0");
        } else if (!strcmp(key, "precision")) {
            TG_TRY(ctf_value_uint(p, &v, key, &c->precision));
        } else if (!strcmp(key, "offset_s")) {
            if (v.kind != PV_INT)
                return ctf_perr(p, v.line, "clock offset_s is not an integer");
            c->offset_s = v.i;
        } else if (!strcmp(key, "offset")) {
            TG_TRY(ctf_value_uint(p, &v, key, &c->offset));
        } else if (!strcmp(key, "absolute")) {
            TG_TRY(ctf_value_bool(p, &v, &c->absolute));
        } else {
            unknown_attr(p, bk, key, line);
        }
        break;
    }
    case B_STREAM: {
        ctf_stream_decl *s = obj;
        if (!strcmp(key, "id")) {
            TG_TRY(ctf_value_uint(p, &v, key, &s->id));
            s->has_id = true;
        } else {
            unknown_attr(p, bk, key, line);
        }
        break;
    }
    case B_EVENT: {
        ctf_event_decl *e = obj;
        if (!strcmp(key, "name")) {
            if (v.kind == PV_INT)
                return ctf_perr(p, v.line, "event name is not a string");
            e->name = v.s;
        } else if (!strcmp(key, "id")) {
            TG_TRY(ctf_value_uint(p, &v, key, &e->id));
            e->has_id = true;
        } else if (!strcmp(key, "stream_id")) {
            TG_TRY(ctf_value_uint(p, &v, key, &e->stream_id));
            e->has_stream_id = true;
        } else if (!strcmp(key, "loglevel")) {
            if (v.kind != PV_INT)
                return ctf_perr(p, v.line, "event loglevel is not an integer");
            e->loglevel = v.i;
            e->has_loglevel = true;
        } else if (!strcmp(key, "model.emf.uri")) {
            e->emf_uri = v.kind == PV_INT ? NULL : v.s;
        } else {
            unknown_attr(p, bk, key, line);
        }
        break;
    }
    default: break;
    }
    return 0;
}

static int parse_block_body(parser *p, block_kind bk);

static int parse_block(parser *p, block_kind bk)
{
    p->phase = bk == B_CLOCK    ? CTF_PHASE_CLOCK
               : bk == B_TRACE  ? CTF_PHASE_TRACE
               : bk == B_STREAM ? CTF_PHASE_STREAM
               : bk == B_EVENT  ? CTF_PHASE_EVENT
                                : CTF_PHASE_OTHER;
    int rc = parse_block_body(p, bk);
    p->phase = CTF_PHASE_ROOT;
    return rc;
}

static int parse_block_body(parser *p, block_kind bk)
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
            return ctf_perr(p, t->line, "syntax error: unexpected end of metadata in the %s block",
                            kw->text);
        int scoped = ctf_parse_scoped_name(p, t);
        TG_TRY(scoped);
        if (scoped)
            continue;
        if (t->kind != CTF_TK_IDENT)
            return ctf_perr(p, t->line, "syntax error: unexpected '%.40s' in the %s block", t->text,
                            kw->text);
        if (bk != B_ENV &&
            (is_ident(t, "struct") || is_ident(t, "variant") || is_ident(t, "enum")) &&
            !is_punct(peek2(p), "=") && !is_punct(peek2(p), ":=")) {
            ctf_type *dummy;
            TG_TRY(ctf_parse_type_spec(p, &dummy));
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
                return ctf_perr(p, k->line, "syntax error: bad attribute name '%.40s'", k->text);
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
            return ctf_perr(p, kw->line, "clock block without a name");
        for (size_t i = 0; i < m->n_clocks; i++)
            if (!strcmp(m->clocks[i]->name, c->name))
                return ctf_perr(p, kw->line, "duplicate clock '%s'", c->name);
        PUSH(m->clocks, m->n_clocks, m->cap_clocks, c);
    } else if (bk == B_STREAM) {
        ctf_stream_decl *s = obj;
        for (size_t i = 0; i < m->n_streams; i++)
            if (m->streams[i]->id == s->id)
                return ctf_perr(p, kw->line, "duplicate stream id %llu", (unsigned long long)s->id);
        PUSH(m->streams, m->n_streams, m->cap_streams, s);
    } else if (bk == B_EVENT) {
        ctf_event_decl *e = obj;
        if (!e->name)
            return ctf_perr(p, kw->line, "event block without a name");
        PUSH(m->events, m->n_events, m->cap_events, e);
    }
    return 0;
}

int ctf_parse(const ctf_tokens *toks, ctf_meta *meta, tg_error **err)
{
    parser p = {.t = toks->v,
                .n = toks->n,
                .m = meta,
                .a = meta->arena,
                .err = err,
                .phase = CTF_PHASE_ROOT};
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
            rc = ctf_parse_typealias(&p);
        else if (is_ident(t, "typedef"))
            rc = ctf_parse_typedef(&p);
        else if (t->kind == CTF_TK_IDENT) {
            ctf_type *dummy;
            rc = ctf_parse_type_spec(&p, &dummy);
            if (rc >= 0)
                rc = expect(&p, ";");
        } else {
            rc =
                ctf_perr(&p, t->line, "syntax error: unexpected '%.40s' at the top level", t->text);
        }
    }
    free(p.aliases);
    flush_warnings(&p);
    return rc < 0 ? rc : 0;
}
