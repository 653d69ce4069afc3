/* uftrace_demangle.c - C++ (and legacy Rust) symbol names the way uftrace 0.13 shows them.
 *
 * uftrace does not ask a full demangler for its names: its default ("simple") demangler walks
 * the Itanium mangling itself and writes only the qualified name - no parameter list, no
 * template arguments, no return type - with spellings of its own that differ from the GNU
 * demangler's: an ABI tag is one more name component (`std::set::erase::cxx11`), the standard
 * abbreviations keep their template names (`std::basic_ostream::_M_insert`, but Ss is
 * `std::basic_string<>`), a lambda is `$_N`, special names read `__vtable__T`,
 * `__guard_variable__N`, `TLS_wrap::N`, and `_GLOBAL__sub_I_` keeps its prefix before the
 * demangled name of the rest.  Where its walk fails, uftrace prints the mangled name, and a
 * failure deep inside an expression is sometimes stepped over; both matter for which name is
 * printed, so this walk follows the same grammar with the same state: the output and a flag
 * for its first component, the depth of types (whose names are not written) and of template
 * argument lists, whether a special name writes the type it names, a one-shot step back of
 * the position at the first failed expectation, and the nesting level, which must be back to
 * zero for the result to stand.  Written from uftrace's documented behaviour and outputs
 * (tests/uftrace/demangle.sh compares with uftrace itself); done once per symbol when a
 * symbol file is loaded, into the trace's arena. */
#include "formats/uftrace/uftrace_internal.h"
#include "formats/uftrace/uftrace_demangle.h"

#include <stdio.h>

/* ---- numbers and small pieces -------------------------------------------------------------- */

/* A number (an 'n' before it, a negative one, read without its sign); -1 when none. */
int uft_dm_number(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (d->in[d->pos] == 'n')
        d->pos++;
    const char *s = d->in + d->pos;
    if (!digit(*s))
        return refuse(d, 0);
    char *end;
    unsigned long v = strtoul(s, &end, 0);
    d->pos += (int)(end - s);
    return (int)v;
}

static int seq_id(uft_dm *d)
{
    if (at_end(d))
        return -1;
    while (digit(cur(d)) || isupper((unsigned char)cur(d)))
        d->pos++;
    return 0;
}

static int call_offset(uft_dm *d)
{
    if (at_end(d))
        return -1;
    char c = cur(d);
    if (c != 'h' && c != 'v')
        return -1;
    take(d, 1);
    if (uft_dm_number(d) < 0 || expect(d, '_') < 0)
        return -1;
    if (c == 'v' && (uft_dm_number(d) < 0 || expect(d, '_') < 0))
        return -1;
    return 0;
}

static int abi_tag(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'B') < 0)
        return -1;
    return uft_dm_source_name(d);
}

/* S_, S<seq-id>_ (not written: uftrace keeps no substitution table) and the standard
 * abbreviations, written under uftrace's names. */
int uft_dm_substitution(uft_dm *d)
{
    static const struct {
        char code;
        const char *name;
    } abbrevs[] = {{'t', "std"},
                   {'a', "std::allocator"},
                   {'b', "std::basic_string"},
                   {'s', "std::basic_string<>"},
                   {'i', "std::basic_istream"},
                   {'o', "std::basic_ostream"},
                   {'d', "std::basic_iostream"}};
    if (at_end(d))
        return -1;
    if (expect(d, 'S') < 0)
        return -1;
    for (size_t i = 0; i < sizeof abbrevs / sizeof *abbrevs; i++) {
        if (cur(d) != abbrevs[i].code)
            continue;
        take(d, 1);
        if (d->type == 0 || d->type_info) {
            separate(d);
            put(d, abbrevs[i].name);
        }
        if (cur(d) == 'B')
            abi_tag(d);
        return 0;
    }
    seq_id(d);
    return expect(d, '_');
}

/* ---- operators ----------------------------------------------------------------------------- */

const uft_dm_op uft_dm_operators[] = {
    {"nw", " new"}, {"na", " new[]"}, {"dl", " delete"}, {"da", " delete[]"}, {"ps", "+"},
    {"ng", "-"},    {"ad", "&"},      {"de", "*"},       {"co", "~"},         {"pl", "+"},
    {"mi", "-"},    {"ml", "*"},      {"dv", "/"},       {"rm", "%"},         {"an", "&"},
    {"or", "|"},    {"eo", "^"},      {"aS", "="},       {"pL", "+="},        {"mI", "-="},
    {"mL", "*="},   {"dV", "/="},     {"rM", "%="},      {"aN", "&="},        {"oR", "|="},
    {"eO", "^="},   {"ls", "<<"},     {"rs", ">>"},      {"lS", "<<="},       {"rS", ">>="},
    {"eq", "=="},   {"ne", "!="},     {"lt", "<"},       {"gt", ">"},         {"le", "<="},
    {"ge", ">="},   {"nt", "!"},      {"aa", "&&"},      {"oo", "||"},        {"pp", "++"},
    {"mm", "--"},   {"cm", ","},      {"pm", "->*"},     {"pt", "->"},        {"cl", "()"},
    {"ix", "[]"},   {"qu", "?"},      {"cv", "(cast)"},  {"li", "\"\""},
};
const size_t uft_dm_n_operators = sizeof uft_dm_operators / sizeof *uft_dm_operators;

/* ---- names ------------------------------------------------------------------------------------ */

static int special_name(uft_dm *d)
{
    static const char vtables[] = "VTISFJ";
    static const char *const vtable_names[] = {"vtable",   "VTT",         "typeinfo_name",
                                               "typeinfo", "typeinfo_fn", "java_class"};
    char c0 = cur(d), c1 = peek(d, 1);
    if (at_end(d))
        return -1;
    if (c0 == 'T') {
        const char *v = c1 ? strchr(vtables, c1) : NULL;
        if (v) {
            take(d, 2);
            d->type_info = true;
            put(d, "__");
            put(d, vtable_names[v - vtables]);
            put(d, "__");
            return uft_dm_type(d);
        }
        if (c1 == 'h' || c1 == 'v') {
            take(d, 1);
            return call_offset(d) < 0 ? -1 : uft_dm_encoding(d);
        }
        if (c1 == 'c') {
            take(d, 2);
            if (call_offset(d) < 0 || call_offset(d) < 0)
                return -1;
            return uft_dm_encoding(d);
        }
        if (c1 == 'C') { /* construction vtable: the base type is the name written */
            take(d, 2);
            put(d, "__construction_vtable__");
            d->type_info = true;
            if (uft_dm_type(d) < 0 || uft_dm_number(d) < 0)
                return -1;
            if (at_end(d))
                return 0;
            if (expect(d, '_') < 0)
                return -1;
            d->type_info = false;
            return uft_dm_type(d);
        }
        if (c1 == 'H' || c1 == 'W') { /* thread-local init and wrapper functions */
            take(d, 2);
            separate(d);
            put(d, c1 == 'H' ? "TLS_init" : "TLS_wrap");
            return uft_dm_name(d);
        }
    }
    if (c0 == 'G') {
        if (c1 == 'V') {
            take(d, 2);
            put(d, "__guard_variable__");
            return uft_dm_name(d);
        }
        if (c1 == 'R') {
            take(d, 2);
            put(d, "__ref_temp__");
            d->no_disc = true;
            if (uft_dm_name(d) < 0)
                return -1;
            if (cur(d) != '_')
                seq_id(d);
            return expect(d, '_');
        }
        if (c1 == 'A') {
            take(d, 2);
            return uft_dm_encoding(d);
        }
        if (c1 == 'T') { /* transaction clones */
            take(d, 2);
            if (cur(d) != 't' && cur(d) != 'n')
                return -1;
            take(d, 1);
            return uft_dm_encoding(d);
        }
    }
    return refuse(d, 0);
}

/* C1..C5, CI1/CI2 (inheriting: the base's type follows), D0..D5: the last name again. */
static int ctor_dtor_name(uft_dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    if (at_end(d))
        return -1;
    if (c0 != 'C' && c0 != 'D')
        return refuse(d, -2);
    bool inheriting = c1 == 'I';
    if (inheriting)
        c1 = take(d, 1);
    if (!digit(c1))
        return refuse(d, inheriting ? -3 : -2);
    int rc = inheriting ? uft_dm_type(d) : 0;
    if (d->type)
        return rc;
    const char *out = d->out ? d->out : "";
    const char *colon = strrchr(out, ':');
    size_t from = colon ? (size_t)(colon + 1 - out) : 0, n = d->n - from;
    char *last = malloc(n + 1);
    if (!last) {
        d->broken = true;
        return -1;
    }
    memcpy(last, out + from, n);
    put(d, c0 == 'C' ? "::" : "::~");
    put_len(d, last, n);
    free(last);
    return rc;
}

int uft_dm_operator_name(uft_dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    if (at_end(d))
        return -1;
    if (d->type) {
        if (c0 == 'c' && c1 == 'v')
            uft_dm_type(d);
        if (c0 == 'l' && c1 == 'i')
            uft_dm_source_name(d);
        return 0;
    }
    for (size_t i = 0; i < uft_dm_n_operators; i++) {
        if (!is(c0, c1, uft_dm_operators[i].code))
            continue;
        separate(d);
        put(d, "operator");
        put(d, uft_dm_operators[i].name);
        d->type++;
        if (c0 == 'c' && c1 == 'v')
            uft_dm_type(d);
        if (c0 == 'l' && c1 == 'i')
            uft_dm_source_name(d);
        d->type--;
        return 0;
    }
    if (c0 == 'v' && digit(c1)) { /* a vendor's operator */
        d->type++;
        uft_dm_source_name(d);
        d->type--;
    }
    return refuse(d, -2);
}

/* A legacy Rust name component with $..$ escapes: ".." is "::" before an escape, "$u20$as$u20$"
 * ends the component with ">", an unknown escape stops the translation (the rest is written
 * from where the translation stood). */
static void rust_component(uft_dm *d, const char *p, const char *end, const char *dollar)
{
    static const struct {
        const char *code, *text;
    } escapes[] = {{"SP", "@"},  {"BP", "*"},  {"RF", "&"},  {"LT", "<"},  {"GT", ">"},
                   {"LP", "("},  {"RP", ")"},  {"C", ","},   {"u20", " "}, {"u22", "\""},
                   {"u27", "'"}, {"u2b", "+"}, {"u3b", ";"}, {"u3d", "="}, {"u5b", "["},
                   {"u5d", "]"}, {"u7b", "{"}, {"u7d", "}"}, {"u7e", "~"}};
    while (dollar && dollar < end) {
        const char *piece = p;
        int num = (int)(dollar - p);
        for (const char *dots; (dots = strstr(piece, "..")) && dots <= dollar; piece = dots + 2) {
            put_len(d, piece, (size_t)(dots - piece));
            separate(d);
        }
        put_len(d, piece, (size_t)(dollar - piece));
        bool found = false;
        for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
            size_t n = strlen(escapes[i].code);
            if (strncmp(escapes[i].code, dollar + 1, n) != 0)
                continue;
            if (strncmp(dollar, "$u20$as$u20$", 12) == 0) {
                put(d, ">");
                num += (int)(end - dollar);
            } else {
                put(d, escapes[i].text);
                num += (int)n + 2;
            }
            take(d, num);
            p += num;
            found = true;
            break;
        }
        if (found && p > end) { /* an escape cut by the name's end: uftrace's text runs past */
            d->broken = true;
            return;
        }
        if (!found)
            break;
        dollar = strchr(p, '$');
    }
    int rest = (int)(end - p);
    put_len(d, p, (size_t)rest);
    take(d, rest);
}

static bool rust_hash(const char *p, int num)
{
    if (num != 17 || p[0] != 'h')
        return false;
    for (int i = 1; i < 17; i++)
        if (!isxdigit((unsigned char)p[i]))
            return false;
    return true;
}

int uft_dm_source_name(uft_dm *d)
{
    int num = uft_dm_number(d);
    if (num < 0)
        return -1;
    if (at_end(d) || d->pos + num > d->len)
        return refuse(d, 0);
    const char *p = d->in + d->pos;
    if ((d->type && !d->type_info) || d->templates || rust_hash(p, num)) {
        take(d, num);
        return 0;
    }
    separate(d);
    const char *dollar = strchr(p, '$');
    if (dollar && dollar <= p + num) {
        rust_component(d, p, p + num, dollar);
        return 0;
    }
    put_len(d, p, (size_t)num);
    take(d, num);
    return 0;
}

int uft_dm_unqualified_name(uft_dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);
    if (at_end(d))
        return -1;
    int rc = 0;
    if (c0 == 'C' || c0 == 'D')
        rc = ctor_dtor_name(d);
    else if (c0 == 'U' && c1 == 't') { /* an unnamed type */
        d->type++;
        take(d, 2);
        uft_dm_number(d);
        if (expect(d, '_') < 0)
            return -1;
        d->type--;
    } else if (c0 == 'U' && c1 == 'l') { /* a lambda: $_N */
        take(d, 2);
        d->level++;
        while (cur(d) != 'E')
            if (uft_dm_type(d) < 0)
                break;
        if (expect(d, 'E') < 0)
            return -1;
        d->level--;
        int n = -1;
        if (cur(d) != '_' && (n = uft_dm_number(d)) < 0)
            return -1;
        if (expect(d, '_') < 0)
            return -1;
        if (d->type)
            return 0;
        char buf[24];
        snprintf(buf, sizeof buf, "$_%d", n + 1);
        separate(d);
        put(d, buf);
    } else if (c0 == 'U')
        rc = -1;
    else if (islower((unsigned char)c0))
        rc = uft_dm_operator_name(d);
    else {
        if (c0 == 'L')
            take(d, 1);
        rc = uft_dm_source_name(d);
    }
    if (cur(d) == 'B')
        rc = abi_tag(d);
    return rc;
}

static int nested_name(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'N') < 0)
        return -1;
    d->level++;
    int rc = 0;
    while (cur(d) != 'E' && !at_end(d) && !rc) {
        char c0 = cur(d), c1 = peek(d, 1);
        if (c0 == 'D' && (c1 == 'T' || c1 == 't'))
            rc = uft_dm_decltype(d);
        else if (c0 == 'C' || c0 == 'D')
            rc = ctor_dtor_name(d);
        else if (c0 == 'U' || islower((unsigned char)c0) || digit(c0))
            rc = uft_dm_unqualified_name(d);
        else if (c0 == 'T')
            rc = uft_dm_template_param(d);
        else if (c0 == 'I')
            rc = uft_dm_template_args(d);
        else if (c0 == 'S')
            rc = uft_dm_substitution(d);
        else if (c0 == 'M' || c0 == 'L')
            take(d, 1); /* a data-member prefix, a local name's mark */
        else if (one_of("rVKRO", c0))
            qualifier(d);
        else
            break;
    }
    if (expect(d, 'E') < 0)
        return -1;
    d->level--;
    return rc;
}

static int discriminator(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, '_') < 0)
        return -1;
    if (digit(cur(d)))
        return uft_dm_number(d) > 0 ? 0 : -1;
    if (cur(d) == '_') {
        take(d, 1);
        if (uft_dm_number(d) < 0)
            return -1;
        return expect(d, '_');
    }
    return 0;
}

static int local_name(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'Z') < 0)
        return -1;
    d->level++;
    uft_dm_encoding(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->level--;
    if (cur(d) == 'd') { /* a default argument's scope */
        take(d, 1);
        if (cur(d) != '_' && uft_dm_number(d) < 0)
            return -1;
        if (expect(d, '_') < 0)
            return -1;
        return uft_dm_name(d) < 0 ? -1 : 0;
    }
    if (cur(d) == 's') /* a string literal */
        take(d, 1);
    else
        uft_dm_name(d);
    if (cur(d) == '_' && !d->no_disc)
        discriminator(d);
    return 0;
}

int uft_dm_name(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (!enter(d))
        return -1;
    int rc;
    char c = cur(d);
    if (c == 'N')
        rc = nested_name(d);
    else if (c == 'Z')
        rc = local_name(d);
    else if (c == 'S' && uft_dm_substitution(d) < 0)
        rc = -1;
    else if (c == 'S' && cur(d) == 'I')
        rc = uft_dm_template_args(d);
    else if (uft_dm_unqualified_name(d) < 0)
        rc = -1;
    else
        rc = cur(d) == 'I' ? uft_dm_template_args(d) : 0;
    d->depth--;
    return rc;
}

/* <encoding>: a special name, or a name and its parameter types; a clone's suffix (".part.0")
 * and a symbol version ("@GLIBCXX_3.4") end it. */
int uft_dm_encoding(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (d->pos == 0)
        take(d, 2); /* "_Z" */
    if (!enter(d))
        return -1;
    d->level++;
    int rc = 0;
    if (cur(d) == 'T' || cur(d) == 'G') {
        rc = special_name(d);
        d->level--;
    } else if (uft_dm_name(d) < 0)
        rc = -1; /* the level stays raised: the whole name fails */
    else {
        while (!at_end(d) && !one_of("E.@", cur(d)))
            if (uft_dm_type(d) < 0)
                break;
        if (cur(d) == '.' || cur(d) == '@')
            d->len = d->pos;
        d->level--;
    }
    d->depth--;
    return rc;
}

const char *uft_demangle(tg_arena *a, const char *name)
{
    static const char prefix[] = "_GLOBAL__sub_I_";
    const size_t prefix_len = sizeof prefix - 1;
    bool prefixed = strncmp(name, prefix, prefix_len) == 0;
    const char *mangled = prefixed ? name + prefix_len : name;
    if (mangled[0] != '_' || mangled[1] != 'Z')
        return name;
    size_t len = strlen(mangled);
    if (len > 1 << 20)
        return name;
    uft_dm d = {.in = mangled, .len = (int)len, .first = true, .budget = 64 * (long)len + 256};
    bool ok = uft_dm_encoding(&d) == 0 && d.level == 0 && !d.broken;
    if (ok && !at_end(&d))
        ok = d.type_info && uft_dm_name(&d) == 0 && !d.broken;
    const char *shown = name;
    if (ok && d.out) { /* uftrace prints nothing for a name written empty */
        char *out = tg_arena_alloc(a, d.n + (prefixed ? prefix_len : 0) + 1);
        if (out) {
            size_t o = 0;
            if (prefixed) {
                memcpy(out, prefix, prefix_len);
                o = prefix_len;
            }
            memcpy(out + o, d.out, d.n + 1);
            shown = out;
        }
    }
    free(d.out);
    return shown;
}
