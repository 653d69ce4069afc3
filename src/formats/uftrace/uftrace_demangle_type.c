/* uftrace_demangle_type.c - the types, template arguments and expressions of a mangled name,
 * read the way uftrace 0.13's own demangler reads them (see uftrace_demangle.c): nothing of
 * them is written but the names a special name's type carries, and a failure inside an
 * expression is stepped over where uftrace steps over it, so that the same names fail. */
#include "formats/uftrace/uftrace_demangle.h"

static int dm_expression(uft_dm *d);
static int dm_expr_primary(uft_dm *d);

static int function_param(uft_dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    if (at_end(d))
        return -1;
    if (c0 != 'f' || (c1 != 'p' && c1 != 'L'))
        return refuse(d, -2);
    if (digit(cur(d))) {
        uft_dm_number(d);
        if (c1 == 'L' && expect(d, 'p') < 0)
            return -1;
    }
    qualifier(d);
    if (digit(cur(d)))
        uft_dm_number(d);
    return expect(d, '_');
}

int uft_dm_template_param(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'T') < 0)
        return -1;
    uft_dm_number(d);
    return expect(d, '_');
}

static int template_arg(uft_dm *d);

/* Arguments up to an 'E', which is taken; the level stays raised when one fails. */
static int args_to_end(uft_dm *d)
{
    d->level++;
    while (cur(d) != 'E')
        if (template_arg(d) < 0)
            return -1;
    if (expect(d, 'E') < 0)
        return -1;
    d->level--;
    return 0;
}

static int template_arg(uft_dm *d)
{
    if (at_end(d))
        return -1;
    char c = cur(d);
    if (c == 'X') {
        take(d, 1);
        d->level++;
        dm_expression(d);
        if (expect(d, 'E') < 0)
            return -1;
        d->level--;
        return 0;
    }
    if (c == 'L')
        return dm_expr_primary(d) < 0 ? -1 : 0;
    if (c == 'J') {
        take(d, 1);
        return args_to_end(d);
    }
    return uft_dm_type(d) < 0 ? -1 : 0;
}

int uft_dm_template_args(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'I') < 0)
        return -1;
    d->templates++;
    if (args_to_end(d) < 0)
        return -1;
    d->templates--;
    return 0;
}

/* ---- unresolved names (in expressions) ----------------------------------------------------- */

static int simple_id(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (!digit(cur(d)))
        return refuse(d, -1);
    if (uft_dm_source_name(d) < 0)
        return -1;
    return cur(d) == 'I' ? uft_dm_template_args(d) : 0;
}

static int unresolved_type(uft_dm *d)
{
    if (at_end(d))
        return -1;
    char c = cur(d);
    if (c == 'T')
        return uft_dm_template_param(d);
    if (c == 'D')
        return uft_dm_decltype(d);
    if (c != 'S')
        return -1;
    if (uft_dm_substitution(d) < 0)
        return -1;
    if (cur(d) == 'I')
        return uft_dm_template_args(d);
    return digit(cur(d)) ? uft_dm_unqualified_name(d) : 0;
}

static int base_unresolved_name(uft_dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);
    if (at_end(d))
        return -1;
    if (c0 == 'o' && c1 == 'n') {
        take(d, 2);
        if (uft_dm_operator_name(d) < 0)
            return -1;
        return cur(d) == 'I' ? uft_dm_template_args(d) : 0;
    }
    if (c0 == 'd' && c1 == 'n') {
        take(d, 2);
        if (at_end(d))
            return -1;
        return digit(cur(d)) ? uft_dm_source_name(d) : unresolved_type(d);
    }
    return simple_id(d);
}

static int unresolved_name(uft_dm *d)
{
    char c0 = cur(d), c1 = peek(d, 1);
    if (at_end(d))
        return -1;
    if (c0 == 'g' && c1 == 's') {
        take(d, 2);
        c0 = cur(d);
        c1 = peek(d, 1);
    }
    if (c0 == 's' && c1 == 'r') {
        take(d, 2);
        c0 = cur(d);
        if (c0 == 'T' || c0 == 'D' || c0 == 'S') {
            if (uft_dm_type(d) < 0 || base_unresolved_name(d) < 0)
                return -1;
            if (cur(d) == 'I')
                uft_dm_template_args(d);
            return 0;
        }
        if (c0 == 'N') {
            take(d, 1);
            if (uft_dm_type(d) < 0)
                return -1;
        }
        while (cur(d) != 'E')
            if (simple_id(d) < 0)
                return 0;
        if (expect(d, 'E') < 0)
            return -1;
    }
    return base_unresolved_name(d);
}

/* ---- expressions (read, never written) ---------------------------------------------------- */

static int dm_expr_primary(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'L') < 0)
        return -1;
    d->type++;
    d->level++;
    if (cur(d) == '_' && peek(d, 1) == 'Z') {
        take(d, 2);
        if (uft_dm_encoding(d) < 0 || expect(d, 'E') < 0)
            return -1;
    } else {
        uft_dm_type(d);
        uft_dm_number(d);
        if (cur(d) == '_') {
            take(d, 1);
            uft_dm_number(d);
        }
        if (expect(d, 'E') < 0)
            return -1;
    }
    d->level--;
    d->type--;
    return 0;
}

/* Expressions up to an 'E' or '_', which is taken. */
static int expr_list(uft_dm *d)
{
    if (at_end(d))
        return -1;
    d->level++;
    while (cur(d) != 'E' && cur(d) != '_')
        if (dm_expression(d) < 0)
            return -1;
    take(d, 1);
    d->level--;
    return 0;
}

static int two_expressions(uft_dm *d) { return dm_expression(d) < 0 ? -1 : dm_expression(d); }

static int dm_expression(uft_dm *d)
{
    static const char *const unary[] = {"ps", "ng", "ad", "de", "pp_", "mm_", "pp", "mm", "dl",
                                        "da", "te", "sz", "az", "nx",  "sp",  "tw", "nt"};
    const char *here = d->in + d->pos; /* before a "gs": the unary operators are looked up here */
    char c0 = peek(d, 0), c1 = peek(d, 1);
    if (at_end(d))
        return -1;
    if (!enter(d))
        return -1;
    int rc;
    if (c0 == 'g' && c1 == 's') {
        take(d, 2);
        c0 = cur(d);
        c1 = peek(d, 1);
    }
    if (c0 == 'L') {
        rc = dm_expr_primary(d);
        goto done;
    }
    for (size_t i = 0; i < sizeof unary / sizeof *unary; i++) {
        size_t n = strlen(unary[i]);
        if (strncmp(unary[i], here, n) == 0) {
            take(d, (int)n);
            rc = dm_expression(d);
            goto done;
        }
    }
    if (is(c0, c1, "qu")) {
        take(d, 2);
        rc = dm_expression(d) < 0 ? -1 : two_expressions(d);
        goto done;
    }
    for (size_t i = 0; i < uft_dm_n_operators; i++) {
        if (!is(c0, c1, uft_dm_operators[i].code) || c0 == 'c' || c1 == 'v')
            continue; /* binary; the casts and calls are below */
        take(d, 2);
        rc = two_expressions(d);
        goto done;
    }
    if (is(c0, c1, "cl") || is(c0, c1, "il")) {
        take(d, 2);
        rc = expr_list(d);
    } else if (is(c0, c1, "cv")) {
        take(d, 2);
        if (uft_dm_type(d) < 0)
            rc = -1;
        else if (cur(d) == '_') {
            take(d, 1);
            rc = expr_list(d);
        } else
            rc = dm_expression(d);
    } else if (is(c0, c1, "tl")) {
        take(d, 2);
        rc = uft_dm_type(d) < 0 ? -1 : expr_list(d);
    } else if (one_of("dscr", c0) && c1 == 'c') {
        take(d, 2);
        rc = uft_dm_type(d) < 0 ? -1 : dm_expression(d);
    } else if (is(c0, c1, "ti") || is(c0, c1, "st") || is(c0, c1, "at")) {
        take(d, 2);
        rc = uft_dm_type(d);
    } else if (c0 == 'T' && (c1 == '_' || digit(c1))) {
        rc = uft_dm_template_param(d);
    } else if (c0 == 'f' && (c1 == 'p' || c1 == 'L')) {
        rc = function_param(d);
    } else if (is(c0, c1, "dt")) {
        take(d, 2);
        rc = dm_expression(d) < 0 ? -1 : unresolved_name(d);
    } else if (is(c0, c1, "ds")) {
        take(d, 2);
        rc = two_expressions(d);
    } else if (is(c0, c1, "sZ")) {
        take(d, 2);
        rc = cur(d) == 'T' ? uft_dm_template_param(d) : cur(d) == 'f' ? function_param(d) : -1;
    } else if (is(c0, c1, "sP")) {
        take(d, 2);
        rc = args_to_end(d);
    } else if (is(c0, c1, "tr")) {
        take(d, 2);
        rc = 0;
    } else {
        rc = unresolved_name(d);
    }
done:
    d->depth--;
    return rc;
}

/* ---- types (read; their names are not written) ---------------------------------------------- */

static int function_type(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'F') < 0)
        return -1;
    if (cur(d) == 'Y')
        take(d, 1);
    d->type++;
    d->level++;
    char c = cur(d);
    while (c != 'E') {
        int before = d->pos;
        if (uft_dm_type(d) < 0) {
            d->pos = before;
            break;
        }
        c = cur(d);
    }
    if (c == 'R' || c == 'O')
        qualifier(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->level--;
    d->type--;
    return 0;
}

static int array_type(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (expect(d, 'A') < 0)
        return -1;
    if (digit(cur(d)))
        uft_dm_number(d);
    else if (cur(d) != '_')
        dm_expression(d);
    if (expect(d, '_') < 0)
        return -1;
    return uft_dm_type(d);
}

int uft_dm_decltype(uft_dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    if (at_end(d))
        return -1;
    if (c0 != 'D' || (c1 != 'T' && c1 != 't'))
        return refuse(d, -2);
    d->type++;
    d->level++;
    dm_expression(d);
    if (expect(d, 'E') < 0)
        return -1;
    d->level--;
    d->type--;
    return 0;
}

/* Dv<dimension>_ (the element type follows as a type of its own). */
static int vector_type(uft_dm *d)
{
    char c0 = take(d, 1), c1 = take(d, 1);
    if (at_end(d))
        return -1;
    if (c0 != 'D' || c1 != 'v')
        return refuse(d, -2);
    d->type++;
    if (cur(d) == '_') {
        take(d, 1);
        dm_expression(d);
    } else if (uft_dm_number(d) < 0)
        return -1;
    if (expect(d, '_') < 0)
        return -1;
    d->type--;
    return 0;
}

static bool builtin_type(char c) { return c && strchr("vwbcahstijlmxynofdegz", c) != NULL; }

int uft_dm_type(uft_dm *d)
{
    if (at_end(d))
        return -1;
    if (!enter(d))
        return -1;
    int rc = -1;
    bool done = false;
    d->type++;
    d->level++;
    while (!done && !at_end(d)) {
        char c = cur(d), next = peek(d, 1);
        done = true;
        if (one_of("rVK", c)) {
            qualifier(d);
            done = false;
        } else if (one_of("PROCG", c)) {
            take(d, 1);
            done = false;
        } else if (c == 'F') {
            rc = function_type(d);
        } else if (c == 'T') {
            if (one_of("sue", next)) { /* struct, union, enum */
                take(d, 2);
                rc = uft_dm_name(d);
            } else if (next == '_' || digit(next)) {
                rc = uft_dm_template_param(d);
                if (cur(d) == 'I')
                    rc = uft_dm_template_args(d);
            }
        } else if (c == 'A') {
            rc = array_type(d);
        } else if (c == 'M') { /* pointer to member: the class, then the member's type */
            take(d, 1);
            rc = uft_dm_type(d) < 0 ? -1 : uft_dm_type(d);
        } else if (c == 'D') {
            if (one_of("defhisacnu", next)) {
                take(d, 2);
                rc = 0;
            } else if (next == 'p') { /* a pack expansion */
                take(d, 2);
                done = false;
            } else if (next == 'v') {
                vector_type(d);
                done = false;
            } else if (next == 't' || next == 'T')
                rc = uft_dm_decltype(d);
        } else if (c == 'S') {
            rc = uft_dm_substitution(d);
            if (rc == 0 && next == 't' && digit(cur(d)))
                rc = uft_dm_unqualified_name(d);
            if (cur(d) == 'I')
                rc = uft_dm_template_args(d);
        } else if (c == 'u') { /* a vendor's type */
            take(d, 1);
            rc = uft_dm_source_name(d);
        } else if (c == 'U') { /* a vendor's qualifier, then the type */
            take(d, 1);
            rc = uft_dm_source_name(d);
            if (rc == 0 && cur(d) == 'I')
                rc = uft_dm_template_args(d);
            done = rc < 0;
        } else if (c == 'I') {
            rc = uft_dm_template_args(d);
        } else if (digit(c) || c == 'N' || c == 'Z') {
            rc = uft_dm_name(d);
        } else if (builtin_type(c)) {
            take(d, 1);
            rc = 0;
        }
    }
    d->level--;
    d->type--;
    d->depth--;
    return rc;
}
