/* ctf_lexer.c - TSDL text to tokens.
 *
 * Identifiers, integer constants (decimal, 0x hex, 0 octal, with C suffixes), string and
 * character literals with C escapes, comments and the punctuation of TSDL (`:=` and `...`
 * are single tokens).  Every token keeps its line, so every later pass can say "metadata
 * line N".  Literal text is unescaped into the arena here, once. */
#include "formats/ctf/ctf_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lex_error(tg_error **err, const char *path, int line, const char *what)
{
    return tg_err(err, TG_ERR_FORMAT, "%s: metadata line %d: %s", path, line, what);
}

static int push(ctf_tokens *out, const ctf_token *t)
{
    if (out->n == out->cap) {
        if (tg_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0)
            return TG_ERR_NOMEM;
    }
    out->v[out->n++] = *t;
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Unescapes the literal between p and end (exclusive) into dst; returns its length or -1. */
static long unescape(const char *p, const char *end, char *dst)
{
    long n = 0;
    while (p < end) {
        char c = *p++;
        if (c != '\\') {
            dst[n++] = c;
            continue;
        }
        if (p >= end)
            return -1;
        c = *p++;
        switch (c) {
        case 'n': dst[n++] = '\n'; break;
        case 't': dst[n++] = '\t'; break;
        case 'r': dst[n++] = '\r'; break;
        case 'a': dst[n++] = '\a'; break;
        case 'b': dst[n++] = '\b'; break;
        case 'f': dst[n++] = '\f'; break;
        case 'v': dst[n++] = '\v'; break;
        case 'e': dst[n++] = 27; break;
        case '\\':
        case '\'':
        case '"':
        case '?': dst[n++] = c; break;
        case 'x': {
            int v = 0, k = 0;
            while (p < end && k < 2 && hexval(*p) >= 0)
                v = v * 16 + hexval(*p++), k++;
            if (!k)
                return -1;
            dst[n++] = (char)v;
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                int v = c - '0', k = 1;
                while (p < end && k < 3 && *p >= '0' && *p <= '7')
                    v = v * 8 + (*p++ - '0'), k++;
                dst[n++] = (char)v;
                break;
            }
            return -1;
        }
    }
    return n;
}

static int lex_number(const char *p, const char *end, ctf_token *t)
{
    const char *s = p;
    uint64_t v = 0;
    bool ovf = false;
    unsigned base = 10;
    if (*p == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (*p == '0') {
        base = 8;
    }
    const char *digits = p;
    while (p < end) {
        int d = hexval(*p);
        if (d < 0 || (unsigned)d >= base)
            break;
        if (v > (UINT64_MAX - (unsigned)d) / base)
            ovf = true;
        v = v * base + (unsigned)d;
        p++;
    }
    if (base == 16 && p == digits)
        return -1;
    while (p < end && (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L'))
        p++;
    if (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        return -1;
    t->kind = CTF_TK_INT;
    t->text = s;
    t->len = (size_t)(p - s);
    t->ival = v;
    t->ival_overflow = ovf;
    return 0;
}

int ctf_lex(const char *text, size_t len, tg_arena *arena, ctf_tokens *out, const char *path,
            tg_error **err)
{
    const char *p = text, *end = text + len;
    /* trailing NUL padding (fixed-size metadata files) ends the text */
    while (end > text && end[-1] == 0)
        end--;
    int line = 1;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            line++;
            p++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '*') {
            const char *q = p + 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) {
                if (*q == '\n')
                    line++;
                q++;
            }
            if (q + 1 >= end)
                return lex_error(err, path, line, "unterminated comment");
            p = q + 2;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        ctf_token t = {.line = line};
        if (isalpha((unsigned char)c) || c == '_') {
            const char *s = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            t.kind = CTF_TK_IDENT;
            t.text = tg_arena_strndup(arena, s, (size_t)(p - s));
            t.len = (size_t)(p - s);
        } else if (isdigit((unsigned char)c)) {
            if (lex_number(p, end, &t) < 0)
                return lex_error(err, path, line, "malformed integer constant");
            p += t.len;
            /* the token outlives the text it was read from */
            t.text = tg_arena_strndup(arena, t.text, t.len);
            if (!t.text)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            if (t.ival_overflow) {
                char msg[96];
                snprintf(msg, sizeof msg, "integer constant %.40s%s is out of range", t.text,
                         t.len > 40 ? "..." : "");
                return lex_error(err, path, line, msg);
            }
        } else if (c == '"' || c == '\'') {
            const char *s = ++p;
            while (p < end && *p != c && *p != '\n') {
                if (*p == '\\' && p + 1 < end)
                    p++;
                p++;
            }
            if (p >= end || *p != c)
                return lex_error(err, path, line, "unterminated literal");
            char *dst = tg_arena_alloc(arena, (size_t)(p - s) + 1);
            if (!dst)
                return TG_ERR_NOMEM;
            long n = unescape(s, p, dst);
            if (n < 0 || memchr(dst, 0, (size_t)n)) {
                char msg[120];
                snprintf(msg, sizeof msg,
                         "invalid escape sequence or NUL byte in literal \"%.60s\"",
                         tg_arena_strndup(arena, s, (size_t)(p - s)));
                return lex_error(err, path, line, msg);
            }
            p++;
            t.kind = c == '"' ? CTF_TK_STRING : CTF_TK_CHAR;
            t.text = dst;
            t.len = (size_t)n;
            if (t.kind == CTF_TK_CHAR)
                t.ival = n > 0 ? (unsigned char)dst[0] : 0;
        } else {
            t.kind = CTF_TK_PUNCT;
            if (c == ':' && p + 1 < end && p[1] == '=') {
                t.text = ":=";
                t.len = 2;
            } else if (c == '.' && p + 2 < end && p[1] == '.' && p[2] == '.') {
                t.text = "...";
                t.len = 3;
            } else if (strchr("{}[]();,:=.<>*+-", c)) {
                static const char single[] = "{}[]();,:=.<>*+-";
                const char *q = strchr(single, c);
                t.text = tg_arena_strndup(arena, q, 1);
                t.len = 1;
            } else {
                char msg[64];
                if (c == 0)
                    snprintf(msg, sizeof msg, "unexpected NUL byte");
                else
                    snprintf(msg, sizeof msg, "unexpected character '%c' (0x%02x)",
                             isprint((unsigned char)c) ? c : '?', (unsigned char)c);
                return lex_error(err, path, line, msg);
            }
            p += t.len;
        }
        if (!t.text || push(out, &t) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    ctf_token eof = {.kind = CTF_TK_EOF, .text = "end of metadata", .line = line};
    if (push(out, &eof) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}
