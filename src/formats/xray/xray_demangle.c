/* xray_demangle.c - C++ symbol names as llvm-symbolizer prints them.
 *
 * llvm-xray names functions through llvm-symbolizer, which demangles Itanium names with
 * LLVM's demangler.  libiberty's cplus_demangle (the GNU demangler) prints the same text
 * for the names compilers emit for ordinary code (parameters, templates with "> >",
 * const/volatile, anonymous namespaces, clang's "$_N" local classes).  Where the two
 * demanglers are known to word things differently, the GNU text is rewritten into LLVM's:
 *   - a suffix after the first '.' (clones: .cold, .isra.0, .0): LLVM prints "name (.sfx)";
 *   - closures "{lambda(ARGS)#N}" are "'lambda'(ARGS)" (N = 1) or "'lambda<N-2>'(ARGS)";
 *   - unnamed types "{unnamed type#N}" are "'unnamed'" or "'unnamed<N-2>'";
 *   - "TLS wrapper function for" / "TLS init function for" are LLVM's "thread-local
 *     wrapper routine for" / "thread-local initialization routine for";
 *   - "decltype(nullptr)" is "std::nullptr_t"; "operator<< <T>" is "operator<<<T>";
 *   - where the mangled name used the abbreviations Ss, Si, So, Sd, LLVM keeps them as
 *     std::string, std::istream, std::ostream, std::iostream;
 *   - an empty template parameter pack prints nothing (GNU leaves ", , " or ">>");
 *   - an inheriting constructor (CI1/CI2) is named after its class, not the base. */
#include "formats/xray/xray_internal.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

/* "#N}" at s: the number N (>= 1) and the length consumed, or 0. */
static size_t closure_number(const char *s, unsigned long *num)
{
    if (*s != '#')
        return 0;
    char *end;
    *num = strtoul(s + 1, &end, 10);
    if (end == s + 1 || *end != '}' || *num == 0)
        return 0;
    return (size_t)(end + 1 - s);
}

static void put_counted(tg_buf *b, const char *word, unsigned long num)
{
    tg_buf_putc(b, '\'');
    tg_buf_puts(b, word);
    if (num >= 2)
        tg_buf_u64(b, num - 2);
    tg_buf_putc(b, '\'');
}

/* The buffer's text as a malloc'ed string, or NULL when the buffer ran out of memory. */
static char *take_text(tg_buf *b)
{
    char *s = tg_buf_flush(b) < 0 ? NULL : strdup(tg_buf_data(b));
    tg_buf_free(b);
    return s;
}

/* Rewrites GNU closure and unnamed-type names into LLVM's wording. */
static char *llvm_wording(const char *g)
{
    tg_buf *b = tg_buf_new();
    if (!b)
        return NULL;
    const char *s = g;
    static const char tls_w[] = "TLS wrapper function for ";
    static const char tls_i[] = "TLS init function for ";
    if (strncmp(s, tls_w, sizeof tls_w - 1) == 0) {
        tg_buf_puts(b, "thread-local wrapper routine for ");
        s += sizeof tls_w - 1;
    } else if (strncmp(s, tls_i, sizeof tls_i - 1) == 0) {
        tg_buf_puts(b, "thread-local initialization routine for ");
        s += sizeof tls_i - 1;
    }
    while (*s) {
        if (strncmp(s, "{lambda(", 8) == 0) {
            /* match the parameter list's parentheses */
            const char *p = s + 7;
            int depth = 0;
            do {
                if (*p == '(')
                    depth++;
                else if (*p == ')')
                    depth--;
                p++;
            } while (*p && depth > 0);
            unsigned long num;
            size_t k = depth == 0 ? closure_number(p, &num) : 0;
            if (k) {
                put_counted(b, "lambda", num);
                tg_buf_put(b, s + 7, (size_t)(p - (s + 7)));
                s = p + k;
                continue;
            }
        } else if (strncmp(s, "{unnamed type", 13) == 0) {
            unsigned long num;
            size_t k = closure_number(s + 13, &num);
            if (k) {
                put_counted(b, "unnamed", num);
                s += 13 + k;
                continue;
            }
        }
        size_t n = tg_buf_len(b);
        if (s[0] == '>' && s[1] == '>' &&
            !(n >= 8 && memcmp(tg_buf_data(b) + n - 8, "operator", 8) == 0)) {
            /* LLVM always separates closing template brackets ("> >") */
            tg_buf_puts(b, "> ");
            s++;
            continue;
        }
        tg_buf_putc(b, *s++);
    }
    return take_text(b);
}

/* Replaces every `from` in *s by `to` (to no longer than from), in place; not where the
 * text after it starts with one of the `keep` prefixes (NULL-terminated list, may be NULL). */
static void replace_except(char *s, const char *from, const char *to, const char *const *keep)
{
    size_t fl = strlen(from), tl = strlen(to);
    char *p = s;
    while ((p = strstr(p, from)) != NULL) {
        int skip = 0;
        for (size_t k = 0; keep && keep[k]; k++)
            if (strncmp(p + fl, keep[k], strlen(keep[k])) == 0)
                skip = 1;
        if (skip) {
            p += fl;
            continue;
        }
        memmove(p + tl, p + fl, strlen(p + fl) + 1);
        memcpy(p, to, tl);
        p += tl;
    }
}

static void replace_all(char *s, const char *from, const char *to)
{
    replace_except(s, from, to, NULL);
}

/* "A<..>::B<..>::Base(args)" -> "A<..>::B<..>::B(args)" for inheriting constructors. */
static void inheriting_ctor(char *d)
{
    size_t n = strlen(d);
    if (n < 2 || d[n - 1] != ')')
        return;
    int depth = 0;
    size_t open = n;
    for (size_t i = n; i-- > 0;) {
        if (d[i] == ')')
            depth++;
        else if (d[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == n)
        return;
    /* the constructor name: after the last "::" before open */
    size_t ns = 0;
    for (size_t i = 0; i + 1 < open; i++)
        if (d[i] == ':' && d[i + 1] == ':')
            ns = i + 2;
    if (ns < 2)
        return;
    /* the class: the scope segment before it, without template arguments */
    size_t cend = ns - 2, cstart = 0;
    depth = 0;
    size_t tpl = cend;
    for (size_t i = cend; i-- > 0;) {
        if (d[i] == '>')
            depth++;
        else if (d[i] == '<') {
            if (--depth == 0)
                tpl = i;
        } else if (depth == 0 && d[i] == ':' && i > 0 && d[i - 1] == ':') {
            cstart = i + 1;
            break;
        }
    }
    if (tpl < cstart || tpl > cend)
        tpl = cend;
    size_t cl = tpl - cstart, nl = open - ns;
    if (cl == 0 || cl > nl)
        return; /* only shortening rewrites are done in place */
    memmove(d + ns, d + cstart, cl);
    memmove(d + ns + cl, d + open, n - open + 1);
}

static void llvm_spelling(char *d, const char *mangled)
{
    replace_all(d, ", , ", ", ");
    replace_all(d, "<, ", "<");
    replace_all(d, ", >", ">");
    if (strstr(mangled, "CI1") || strstr(mangled, "CI2"))
        inheriting_ctor(d);
    /* LLVM spells the class out in full where it names a constructor or destructor */
    static const char *const ctor[] = {"::basic_", "::~basic_", NULL};
    replace_all(d, "decltype(nullptr)", "std::nullptr_t");
    replace_all(d, "operator<< <", "operator<<<");
    replace_all(d, "operator< <", "operator<<");
    static const struct {
        const char *abbr, *full, *name;
    } ab[] = {
        {"Ss", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
         "std::string"},
        {"Si", "std::basic_istream<char, std::char_traits<char> >", "std::istream"},
        {"So", "std::basic_ostream<char, std::char_traits<char> >", "std::ostream"},
        {"Sd", "std::basic_iostream<char, std::char_traits<char> >", "std::iostream"},
    };
    for (size_t i = 0; i < sizeof ab / sizeof *ab; i++)
        if (strstr(mangled, ab[i].abbr))
            replace_except(d, ab[i].full, ab[i].name, ctor);
}

char *xray_demangle(const char *name)
{
    const char *dot = strchr(name, '.');
    char *prefix = NULL;
    if (dot) {
        prefix = strndup(name, (size_t)(dot - name));
        if (!prefix)
            return NULL;
    }
    char *g = cplus_demangle(prefix ? prefix : name, DMGL_PARAMS | DMGL_ANSI);
    free(prefix);
    if (!g)
        return NULL;
    char *l = llvm_wording(g);
    free(g);
    if (l)
        llvm_spelling(l, name);
    if (!l || !dot)
        return l;
    tg_buf *b = tg_buf_new();
    if (!b) {
        free(l);
        return NULL;
    }
    tg_buf_puts(b, l);
    tg_buf_puts(b, " (");
    tg_buf_puts(b, dot);
    tg_buf_putc(b, ')');
    free(l);
    return take_text(b);
}
