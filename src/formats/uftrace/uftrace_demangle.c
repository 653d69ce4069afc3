/* uftrace_demangle.c - C++ symbol names the way uftrace shows them by default.
 *
 * uftrace's default ("simple") demangling prints a function's qualified name without its
 * parameter list and without template arguments: _ZNSt8ios_base4InitC1Ev reads
 * std::ios_base::Init::Init.  libiberty's demangler does the decoding (without DMGL_PARAMS);
 * then the text is brought to uftrace's spelling: template argument lists dropped (not the
 * brackets of operator names), the parameter list of an enclosing function dropped
 * (f(int)::Local -> f::Local), "(anonymous namespace)" spelled _GLOBAL__N_1 and lambdas
 * {lambda(int)#1} spelled $_0.  Done once per symbol when a symbol file is loaded. */
#include "formats/uftrace/uftrace_internal.h"

#include <demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* After a balanced "(...)" at s[i] (s[i] == '('): the index past it, or 0 if unbalanced. */
static size_t skip_parens(const char *s, size_t i)
{
    int depth = 0;
    for (; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i + 1;
    }
    return 0;
}

static const char *uft_simplify(tg_arena *a, const char *in)
{
    size_t n = strlen(in);
    char *out = tg_arena_alloc(a, n + 16);
    if (!out)
        return in;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (starts(in + i, "(anonymous namespace)")) {
            memcpy(out + o, "_GLOBAL__N_1", 12);
            o += 12;
            i += strlen("(anonymous namespace)");
            continue;
        }
        if (starts(in + i, "{lambda(")) {
            size_t e = skip_parens(in, i + 7);
            if (e && in[e] == '#') {
                long num = strtol(in + e + 1, NULL, 10);
                size_t k = e + 1;
                while (in[k] >= '0' && in[k] <= '9')
                    k++;
                if (in[k] == '}' && num >= 1 && o + 24 < n + 16) {
                    o += (size_t)snprintf(out + o, n + 16 - o, "$_%ld", num - 1);
                    i = k + 1;
                    continue;
                }
            }
        }
        if (in[i] == '(' && !(i >= 8 && strncmp(in + i - 8, "operator", 8) == 0)) {
            size_t e = skip_parens(in, i);
            size_t k = e;
            while (k && (starts(in + k, " const") || starts(in + k, " volatile") || in[k] == '&' ||
                         starts(in + k, " &"))) {
                if (starts(in + k, " const"))
                    k += 6;
                else if (starts(in + k, " volatile"))
                    k += 9;
                else
                    k += in[k] == '&' ? 1 : 2;
            }
            if (e && starts(in + k, "::")) {
                i = k; /* the enclosing function's parameters */
                continue;
            }
        }
        out[o++] = in[i++];
    }
    out[o] = 0;
    return out;
}

/* At s (just after "operator"): the length of a symbolic operator name ("<<", "()", ...),
 * or 0 when it is a word (new, delete, a conversion). */
static size_t op_symbol_len(const char *s)
{
    static const char *const ops[] = {
        "<<=", ">>=", "<=>", "->*", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
        "+=",  "-=",  "*=",  "/=",  "%=", "&=", "|=", "^=", "->", "()", "[]", "<",  ">",  "+",
        "-",   "*",   "/",   "%",   "^",  "&",  "|",  "~",  "!",  "=",  ",",  NULL};
    for (size_t i = 0; ops[i]; i++)
        if (starts(s, ops[i]))
            return strlen(ops[i]);
    return 0;
}

/* Drops template argument lists and spells conversion operators "operator(cast)". */
static char *strip_templates(tg_arena *a, const char *dem)
{
    size_t n = strlen(dem);
    char *out = tg_arena_alloc(a, n + 16);
    if (!out)
        return NULL;
    size_t o = 0;
    int depth = 0;
    for (size_t i = 0; i < n;) {
        char pc = i ? dem[i - 1] : ' ';
        bool word_start = !(pc == '_' || (pc >= 'a' && pc <= 'z') || (pc >= 'A' && pc <= 'Z') ||
                            (pc >= '0' && pc <= '9'));
        if (depth == 0 && word_start && starts(dem + i, "operator")) {
            size_t k = i + 8, sym = op_symbol_len(dem + k);
            if (sym) {
                memcpy(out + o, dem + i, 8 + sym);
                o += 8 + sym;
                i = k + sym;
                continue;
            }
            if (starts(dem + k, " new") || starts(dem + k, " delete") || starts(dem + k, "\"\"")) {
                memcpy(out + o, "operator", 8);
                o += 8;
                i = k;
                continue;
            }
            if (dem[k] == ' ') { /* a conversion: skip its type up to the next name part */
                memcpy(out + o, "operator(cast)", 14);
                o += 14;
                int d2 = 0;
                for (i = k; i < n; i++) {
                    if (dem[i] == '<' || dem[i] == '(')
                        d2++;
                    else if (dem[i] == '>' || dem[i] == ')')
                        d2--;
                    else if (d2 <= 0 && starts(dem + i, "::"))
                        break;
                }
                continue;
            }
        }
        char c = dem[i++];
        if (c == '<') {
            if (depth++ == 0)
                while (o && out[o - 1] == ' ')
                    o--;
            continue;
        }
        if (c == '>' && depth > 0) {
            depth--;
            continue;
        }
        if (depth == 0)
            out[o++] = c;
    }
    out[o] = 0;
    return out;
}

/* An inheriting constructor (C1I/CI2 in the mangled name) is named after its own class. */
static const char *fix_inheriting_ctor(tg_arena *a, const char *mangled, const char *s)
{
    if (!strstr(mangled, "CI1") && !strstr(mangled, "CI2"))
        return s;
    const char *last = NULL, *prev = NULL;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (depth == 0 && p[0] == ':' && p[1] == ':') {
            prev = last;
            last = p;
            p++;
        }
    }
    if (!last)
        return s;
    const char *cls = prev ? prev + 2 : s;
    size_t cls_len = (size_t)(last - cls), head = (size_t)(last + 2 - s);
    char *out = tg_arena_alloc(a, head + cls_len + 1);
    if (!out)
        return s;
    memcpy(out, s, head);
    memcpy(out + head, cls, cls_len);
    out[head + cls_len] = 0;
    return out;
}

const char *uft_demangle(tg_arena *a, const char *name)
{
    if (strncmp(name, "_Z", 2) != 0)
        return name;
    char *dem = cplus_demangle(name, DMGL_AUTO);
    if (!dem)
        return name;
    char *stripped = strip_templates(a, dem);
    free(dem);
    if (!stripped)
        return name;
    return fix_inheriting_ctor(a, name, uft_simplify(a, stripped));
}
