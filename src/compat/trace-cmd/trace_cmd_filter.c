/* trace_cmd_filter.c - `trace-cmd report -F FILTER` and `-v`: libtraceevent's event filter
 * language, with the meaning trace-cmd 3.1 gives it.
 *
 *   -F 'sched_switch,irq/.*:prev_pid > 10 && (CPU == 1 || !(common_flags & 0x8))'
 *
 * A filter string is a comma list of event regexes ("name" matches a system or an event name,
 * "system/name" both; anchored, case-insensitive POSIX basic regexes), then optionally ':' and
 * an expression: comparisons `field OP value` (== != < > <= >= on numbers, == != =~ !~ on
 * strings), `field & value`-style arithmetic (true when not zero), `&&`, `||`, `!` and
 * parentheses.  The parser is libtraceevent's state machine, kept as it is, because users'
 * filters mean what it makes of them: `&&` and `||` have no precedence (left to right), `!`
 * takes one comparison or one parenthesis, `prev_prio == -1` is `prev_prio - 1`.  A field an
 * event does not have (or COMM, CPU: the task name and the cpu) makes the comparison false.
 * Numbers compare as unsigned 64-bit (signed fields sign-extended); a string compared with a
 * number field compares its symbol (pointer and long fields: kallsyms) or its "0x%llx".
 *
 * trace-cmd keeps the -F filters given before -v (one must match) apart from those after it
 * (none may match); an event of no positive filter is hidden, except a kernel or user stack
 * right after a shown event of its cpu (tracecmd_filter_match).
 *
 * The expression is parsed once into nodes; each class the filter names resolves its field
 * references once, from the fields it declares (so what trace-cmd refuses is refused before
 * any output), or at its first event for a format that declares none; an event costs one walk
 * of the tree with a field read per reference. */
#include "compat/trace-cmd/trace_cmd_filter.h"

#include <ctype.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_NONE, T_ERROR, T_SPACE, T_NEWLINE, T_OP, T_DELIM, T_ITEM, T_DQUOTE, T_SQUOTE };
enum { NK_BOOL, NK_OP, NK_NUM, NK_STR, NK_EXP, NK_ITEM };
enum { IT_NAME, IT_NUMBER, IT_STRING, IT_CHAR };
enum { OP_AND = 1, OP_OR, OP_NOT };
enum { C_NONE, C_EQ, C_NE, C_GT, C_LT, C_GE, C_LE, C_REGEX, C_NOT_REGEX };
enum { E_NONE, E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_RSHIFT, E_LSHIFT, E_AND, E_OR, E_XOR, E_NOT };
enum { UNBALANCED = 1 }; /* process()'s return for a ')' */

typedef struct node {
    uint8_t kind, type; /* type: op, comparison, arithmetic or item kind */
    bool value;         /* NK_BOOL */
    int left, right;    /* node indices, -1 for none (NK_STR: left is the name) */
    char *text;         /* item: name or string; NK_STR: the string */
    uint64_t num;       /* item: number */
    int slot;           /* IT_NAME: index of its field reference */
    bool regex_ok;      /* NK_STR with a regex */
    regex_t re;
} node;

/* how a name resolves in one class */
enum { REF_NONE, REF_FIELD, REF_COMM, REF_CPU };
typedef struct ref {
    int8_t kind, scope;
    int32_t index;
} ref;

enum { CS_OUT = 0, CS_IN, CS_BOUND, CS_BAD };
typedef struct cls_state {
    uint8_t state;
    int32_t comm; /* index of the COMMON scope's common_comm, -1 */
    ref *refs;
} cls_state;

typedef struct filter {
    char *text; /* as given, for messages */
    node *nodes;
    size_t n_nodes, cap_nodes;
    int root; /* -1: no expression (the events match) */
    int n_slots;
    cls_state *cls;  /* by class number */
    const char *bad; /* why a class cannot take it */
    /* the parser's input */
    const char *in;
    size_t pos, len;
    char *err;
} filter;

struct tc_filters {
    tg_set *set;
    size_t n_classes;
    filter **pos, **neg;
    size_t n_pos, n_neg, cap_pos, cap_neg;
    bool *last_printed; /* by cpu: the last event of the cpu was shown */
    size_t n_cpus, cap_cpus;
    char *sbuf; /* a field's text, NUL-terminated */
    size_t sbuf_cap;
};

/* ---- tokens: libtraceevent's __read_token ------------------------------------------------ */

static int type_of(int ch)
{
    if (ch < 0)
        return T_NONE;
    if (ch == '\n')
        return T_NEWLINE;
    if (isspace(ch))
        return T_SPACE;
    if (isalnum(ch) || ch == '_')
        return T_ITEM;
    if (ch == '\'')
        return T_SQUOTE;
    if (ch == '"')
        return T_DQUOTE;
    if (!isprint(ch))
        return T_NONE;
    if (ch == '(' || ch == ')' || ch == ',')
        return T_DELIM;
    return T_OP;
}

static int peekc(const filter *f) { return f->pos < f->len ? (unsigned char)f->in[f->pos] : -1; }
static int readc(filter *f) { return f->pos < f->len ? (unsigned char)f->in[f->pos++] : -1; }

/* One token into *tok (malloc'd); its type. */
static int read_token(filter *f, char **tok)
{
    char *b = malloc(f->len + 4);
    size_t i = 0;
    *tok = b;
    if (!b)
        return T_ERROR;
    int ch = readc(f), type = type_of(ch);
    if (type == T_NONE) {
        b[0] = 0;
        return T_NONE;
    }
    b[i++] = (char)ch;
    switch (type) {
    case T_NEWLINE:
    case T_DELIM: b[i] = 0; return type;
    case T_OP: {
        bool test_equal = false;
        switch (ch) {
        case '-':
            if (peekc(f) == '>') {
                b[i++] = (char)readc(f);
                break;
            }
            /* fall through */
        case '+':
        case '|':
        case '&':
        case '>':
        case '<':
            if (peekc(f) != ch) {
                test_equal = true;
                break;
            }
            b[i++] = (char)readc(f);
            test_equal = ch == '>' || ch == '<';
            break;
        case '!':
        case '=': test_equal = true; break;
        default: break;
        }
        if (test_equal && peekc(f) == '=')
            b[i++] = (char)readc(f);
        b[i] = 0;
        return type;
    }
    case T_DQUOTE:
    case T_SQUOTE: {
        int quote = ch, last;
        i = 0;
        for (;;) {
            do {
                last = ch;
                ch = readc(f);
                if (ch < 0) { /* libtraceevent reads on forever here */
                    b[i] = 0;
                    return T_ERROR;
                }
                b[i++] = (char)ch;
                if (ch == '\\' && last == '\\')
                    last = 0;
            } while (ch != quote || last == '\\');
            i--; /* the closing quote */
            if (type != T_DQUOTE)
                break;
            size_t save = f->pos; /* "a" "b" is one string */
            do
                ch = readc(f);
            while (ch >= 0 && isspace(ch));
            if (ch != '"') {
                f->pos = save;
                break;
            }
        }
        b[i] = 0;
        return type;
    }
    default: break;
    }
    while (type_of(peekc(f)) == type)
        b[i++] = (char)readc(f);
    b[i] = 0;
    return type;
}

/* filter_read_token: spaces skipped, "=~" and "!~" joined */
static int next_token(filter *f, char **tok)
{
    int type;
    for (;;) {
        type = read_token(f, tok);
        if (type != T_SPACE && type != T_NEWLINE)
            break;
        free(*tok);
    }
    if (type == T_OP && ((*tok)[0] == '=' || (*tok)[0] == '!') && (*tok)[1] == 0 &&
        peekc(f) == '~') {
        (*tok)[1] = (char)readc(f);
        (*tok)[2] = 0;
    }
    return type;
}

/* ---- the parser: libtraceevent's process_filter ---------------------------------------- */

static int fail(filter *f, const char *why)
{
    if (!f->err) {
        size_t n = strlen(why) + 32;
        f->err = malloc(n);
        if (f->err)
            snprintf(f->err, n, "%s (at column %zu)", why, f->pos);
    }
    return TG_ERR_USAGE;
}

static int new_node(filter *f, int kind, int type)
{
    if (tg_grow(&f->nodes, &f->cap_nodes, f->n_nodes + 1, sizeof *f->nodes) < 0)
        return fail(f, "out of memory");
    node *n = &f->nodes[f->n_nodes];
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->type = (uint8_t)type;
    n->left = n->right = -1;
    n->slot = -1;
    return (int)f->n_nodes++;
}

static int new_item(filter *f, const char *tok, int ttype)
{
    int k = ttype == T_DQUOTE ? IT_STRING : ttype == T_SQUOTE ? IT_CHAR : IT_NAME;
    if (k == IT_NAME && isdigit((unsigned char)tok[0]))
        k = IT_NUMBER;
    int n = new_node(f, NK_ITEM, k);
    if (n < 0)
        return n;
    node *it = &f->nodes[n];
    if (k == IT_NUMBER) {
        it->num = strtoull(tok, NULL, 0);
        return n;
    }
    if (!(it->text = strdup(tok)))
        return fail(f, "out of memory");
    if (k == IT_NAME)
        it->slot = f->n_slots++;
    return n;
}

static int add_right(filter *f, int opi, int argi)
{
    node *op = &f->nodes[opi], *arg = &f->nodes[argi];
    switch (op->kind) {
    case NK_EXP:
    case NK_OP:
        if (op->right >= 0)
            return fail(f, "syntax error");
        op->right = argi;
        return 0;
    case NK_NUM:
        if (op->right >= 0)
            return fail(f, "syntax error");
        if (arg->kind != NK_ITEM || arg->type == IT_NAME) /* a field or an unknown name */
            return fail(f, "illegal rvalue: the right of a comparison is a number or a string");
        if (arg->type == IT_CHAR && strlen(arg->text) == 1 && op->type != C_REGEX &&
            op->type != C_NOT_REGEX) {
            /* libtraceevent compares the text's address here */
            arg->type = IT_NUMBER;
            arg->num = (uint64_t)(uintptr_t)arg->text;
        }
        if (arg->type == IT_NUMBER) {
            if (op->type == C_REGEX || op->type == C_NOT_REGEX)
                return fail(f, "=~ and !~ compare strings, not integers");
            op->right = argi;
            return 0;
        }
        /* a string comparison: the field (or, for a class without it, false) */
        op->kind = NK_STR;
        op->text = arg->text;
        arg->text = NULL;
        if (op->type == C_REGEX || op->type == C_NOT_REGEX)
            op->regex_ok = regcomp(&op->re, op->text, REG_ICASE | REG_NOSUB) == 0;
        return 0;
    default: return fail(f, "syntax error");
    }
}

static int add_left(filter *f, int opi, int argi)
{
    node *op = &f->nodes[opi];
    if (argi < 0)
        return fail(f, "syntax error");
    if (op->kind == NK_NUM && (f->nodes[argi].kind != NK_ITEM || f->nodes[argi].type != IT_NAME))
        return fail(f, "the left of a comparison must be a field");
    op->left = argi;
    return 0;
}

static int op_kind(const char *t, int *type)
{
    static const struct {
        const char *tok;
        int kind, type;
    } ops[] = {
        {"&&", NK_OP, OP_AND},       {"||", NK_OP, OP_OR}, {"!", NK_OP, OP_NOT},
        {"+", NK_EXP, E_ADD},        {"-", NK_EXP, E_SUB}, {"*", NK_EXP, E_MUL},
        {"/", NK_EXP, E_DIV},        {"%", NK_EXP, E_MOD}, {">>", NK_EXP, E_RSHIFT},
        {"<<", NK_EXP, E_LSHIFT},    {"&", NK_EXP, E_AND}, {"|", NK_EXP, E_OR},
        {"^", NK_EXP, E_XOR},        {"~", NK_EXP, E_NOT}, {"==", NK_NUM, C_EQ},
        {"!=", NK_NUM, C_NE},        {"<", NK_NUM, C_LT},  {">", NK_NUM, C_GT},
        {"<=", NK_NUM, C_LE},        {">=", NK_NUM, C_GE}, {"=~", NK_NUM, C_REGEX},
        {"!~", NK_NUM, C_NOT_REGEX},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(t, ops[i].tok) == 0) {
            *type = ops[i].type;
            return ops[i].kind;
        }
    return -1;
}

static bool op_done(const filter *f, int i)
{
    const node *n = &f->nodes[i];
    switch (n->kind) {
    case NK_EXP:
    case NK_OP:
    case NK_NUM: return n->right >= 0;
    case NK_STR:
    case NK_BOOL: return true;
    default: return false;
    }
}

static int process(filter *f, int *parg, bool not )
{
    int cur_op = -1, cur_exp = -1, left = -1, arg = -1, rc = 0;
    char *tok = NULL;
    *parg = -1;
    for (;;) {
        free(tok);
        int type = next_token(f, &tok);
        if (type == T_NONE)
            break;
        if (type == T_ERROR) {
            rc = fail(f, "unterminated string");
            break;
        }
        if (type == T_ITEM || type == T_DQUOTE || type == T_SQUOTE) {
            if ((arg = new_item(f, tok, type)) < 0) {
                rc = arg;
                break;
            }
            if (left < 0) {
                left = arg;
            } else if (cur_exp >= 0) {
                if ((rc = add_right(f, cur_exp, arg)) < 0)
                    break;
                left = -1;
                if (not ) { /* a not takes one expression */
                    free(tok);
                    if (cur_op >= 0)
                        return fail(f, "syntax error");
                    *parg = cur_exp;
                    return 0;
                }
            } else {
                rc = fail(f, "syntax error");
                break;
            }
            continue;
        }
        if (type == T_DELIM) {
            if (tok[0] == ',') {
                rc = fail(f, "illegal token ','");
                break;
            }
            if (tok[0] == '(') {
                if (left >= 0 || cur_exp >= 0) {
                    rc = fail(f, "an open parenthesis cannot follow an item or an expression");
                    break;
                }
                rc = process(f, &arg, false);
                if (rc != UNBALANCED) {
                    if (rc == 0)
                        rc = fail(f, "unbalanced number of '('");
                    break;
                }
                rc = 0;
                if (not ) {
                    free(tok);
                    if (cur_op >= 0)
                        return fail(f, "syntax error");
                    *parg = arg;
                    return 0;
                }
                if (cur_op >= 0) {
                    if ((rc = add_right(f, cur_op, arg)) < 0)
                        break;
                } else {
                    cur_exp = arg;
                }
                continue;
            }
            /* ')' */
            if ((cur_op < 0 && cur_exp < 0) || (cur_exp >= 0 && !op_done(f, cur_exp)) ||
                (cur_op >= 0 && !op_done(f, cur_op))) {
                rc = fail(f, "syntax error");
                break;
            }
            free(tok);
            *parg = cur_op >= 0 ? cur_op : cur_exp;
            return UNBALANCED;
        }
        if (type != T_OP) {
            rc = fail(f, "syntax error");
            break;
        }
        int otype, kind = op_kind(tok, &otype);
        if (kind < 0) {
            rc = fail(f, "unknown operator");
            break;
        }
        bool is_not = kind == NK_OP && otype == OP_NOT;
        if ((kind == NK_OP && !is_not && cur_exp < 0 && cur_op < 0) ||
            (kind == NK_OP && left >= 0) || (kind != NK_OP && left < 0)) {
            rc = fail(f, "syntax error");
            break;
        }
        if ((arg = new_node(f, kind, otype)) < 0) {
            rc = arg;
            break;
        }
        if (kind == NK_OP && !is_not) {
            rc = add_left(f, arg, cur_op >= 0 ? cur_op : cur_exp);
            cur_op = arg;
            cur_exp = -1;
        } else if (is_not) {
            if (cur_op >= 0 && (rc = add_right(f, cur_op, arg)) < 0)
                break;
            cur_exp = arg;
            int inner;
            if ((rc = process(f, &inner, true)) < 0)
                break;
            if (rc == UNBALANCED || inner < 0) {
                rc = fail(f, "syntax error");
                break;
            }
            rc = add_right(f, cur_exp, inner);
        } else {
            if (cur_op >= 0 && (rc = add_right(f, cur_op, arg)) < 0)
                break;
            rc = add_left(f, arg, left);
            cur_exp = arg;
        }
        if (rc < 0)
            break;
    }
    free(tok);
    if (rc < 0)
        return rc;
    if (cur_op < 0 && cur_exp < 0)
        return fail(f, "syntax error");
    *parg = cur_op >= 0 ? cur_op : cur_exp;
    return 0;
}

/* libtraceevent dereferences what a half-written expression leaves out (trace-cmd crashes):
 * here it is an error. */
static bool complete(const filter *f, int i)
{
    if (i < 0)
        return false;
    const node *n = &f->nodes[i];
    switch (n->kind) {
    case NK_OP: return complete(f, n->right) && (n->type == OP_NOT || complete(f, n->left));
    case NK_NUM:
    case NK_EXP: return complete(f, n->left) && complete(f, n->right);
    default: return true;
    }
}

/* ---- which events a filter names --------------------------------------------------------- */

static int bind_class(filter *f, cls_state *cs, const tg_event_class *cls, const tg_event *ev);

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static bool regex_full(regex_t *re, const char *pat)
{
    size_t n = strlen(pat);
    char *anchored = malloc(n + 3);
    if (!anchored)
        return false;
    anchored[0] = '^';
    memcpy(anchored + 1, pat, n);
    memcpy(anchored + 1 + n, "$", 2);
    bool ok = regcomp(re, anchored, REG_ICASE | REG_NOSUB) == 0;
    free(anchored);
    return ok;
}

/* Marks the classes "sys/name" (or "name": a system or an event) names; 0, or an error. */
static int select_events(tc_filters *fs, filter *f, char *entry, tg_error **err)
{
    char *save = NULL, *sys = strtok_r(entry, "/", &save), *name = strtok_r(NULL, "/", &save);
    if (!sys)
        return tg_err(err, TG_ERR_USAGE, "filter '%s': an empty event name", f->text);
    if (!name) {
        name = sys;
        sys = NULL;
    }
    regex_t ere, sre;
    if (!regex_full(&ere, trim(name)))
        return tg_err(err, TG_ERR_USAGE, "filter '%s': bad event regex '%s'", f->text, name);
    if (sys && !regex_full(&sre, trim(sys))) {
        regfree(&ere);
        return tg_err(err, TG_ERR_USAGE, "filter '%s': bad system regex '%s'", f->text, sys);
    }
    bool found = false;
    for (size_t t = 0; t < tg_set_trace_count(fs->set); t++) {
        const tg_trace *tr = tg_set_trace(fs->set, t);
        for (size_t i = 0; i < tg_trace_class_count(tr); i++) {
            const tg_event_class *c = tg_trace_class(tr, i);
            const char *s = c->system;
            if (!s)
                continue;
            bool m =
                sys ? regexec(&sre, s, 0, NULL, 0) == 0 && regexec(&ere, c->name, 0, NULL, 0) == 0
                    : regexec(&ere, s, 0, NULL, 0) == 0 || regexec(&ere, c->name, 0, NULL, 0) == 0;
            if (!m || c->number >= fs->n_classes)
                continue;
            found = true;
            cls_state *cs = &f->cls[c->number];
            if (cs->state != CS_OUT)
                continue;
            cs->state = CS_IN;
            int rc = f->root >= 0 ? bind_class(f, cs, c, NULL) : 1;
            if (rc < 0 || rc == 0)
                cs->state = rc < 0 ? CS_BAD : CS_BOUND;
            if (rc < 0) {
                regfree(&ere);
                if (sys)
                    regfree(&sre);
                return rc == TG_ERR_NOMEM ? tg_err(err, rc, "out of memory")
                                          : tg_err(err, TG_ERR_USAGE, "filter '%s' on %s: %s",
                                                   f->text, c->name, f->bad);
            }
        }
    }
    regfree(&ere);
    if (sys)
        regfree(&sre);
    if (!found)
        return tg_err(err, TG_ERR_USAGE, "filter '%s': no event matches '%s%s%s'", f->text,
                      sys ? sys : "", sys ? "/" : "", name);
    return 0;
}

/* ---- evaluation --------------------------------------------------------------------------- */

/* The index of field `name` in a scope of the class: from the class's declaration, or from
 * the event's fields when the format declares none; -1 when the class has no such field. */
static long find_field(const tg_event_class *cls, const tg_event *ev, tg_scope scope,
                       const char *name)
{
    const char *fn;
    for (size_t i = 0; !ev && (fn = tg_event_class_field_name(cls, scope, i)); i++)
        if (strcmp(fn, name) == 0)
            return (long)i;
    size_t n = ev ? tg_event_field_count(ev, scope) : 0;
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) == 0 && v.name && strcmp(v.name, name) == 0 &&
            !(scope == TG_SCOPE_COMMON && strcmp(name, "common_comm") == 0))
            return (long)i; /* common_comm is the reader's task name, not a format field */
    }
    return -1;
}

/* Resolves the names of f for a class (common fields first, then the event's, then COMM and
 * CPU), from its declared fields, or from its first event (ev) when it declares none: 0, 1
 * when it needs an event, or a negative status (what libtraceevent refuses in f->bad). */
static int bind_class(filter *f, cls_state *cs, const tg_event_class *cls, const tg_event *ev)
{
    if (!ev && !tg_event_class_field_name(cls, TG_SCOPE_COMMON, 0) &&
        !tg_event_class_field_name(cls, TG_SCOPE_PAYLOAD, 0))
        return 1;
    cs->comm = -2; /* looked up at the first COMM */
    cs->refs = calloc((size_t)(f->n_slots ? f->n_slots : 1), sizeof *cs->refs);
    if (!cs->refs)
        return TG_ERR_NOMEM;
    for (size_t k = 0; k < f->n_nodes; k++) {
        node *n = &f->nodes[k];
        if (n->kind != NK_ITEM || n->type != IT_NAME)
            continue;
        ref *r = &cs->refs[n->slot];
        static const tg_scope scopes[2] = {TG_SCOPE_COMMON, TG_SCOPE_PAYLOAD};
        for (int s = 0; s < 2 && r->kind == REF_NONE; s++) {
            long i = find_field(cls, ev, scopes[s], n->text);
            if (i >= 0)
                *r = (ref){REF_FIELD, (int8_t)scopes[s], (int32_t)i};
        }
        if (r->kind == REF_NONE && strcmp(n->text, "COMM") == 0)
            r->kind = REF_COMM;
        else if (r->kind == REF_NONE && strcmp(n->text, "CPU") == 0)
            r->kind = REF_CPU;
    }
    /* what libtraceevent refuses when the field exists */
    for (size_t k = 0; k < f->n_nodes; k++) {
        const node *n = &f->nodes[k];
        if (n->kind != NK_STR || cs->refs[f->nodes[n->left].slot].kind == REF_NONE)
            continue;
        if (n->type != C_EQ && n->type != C_NE && n->type != C_REGEX && n->type != C_NOT_REGEX)
            f->bad = "a string compared with <, >, <= or >=";
        else if ((n->type == C_REGEX || n->type == C_NOT_REGEX) && !n->regex_ok)
            f->bad = "a regex that does not compile";
        if (f->bad)
            return TG_ERR_USAGE;
    }
    return 0;
}

static uint64_t num_of(const tg_event *ev, cls_state *cs, const ref *r, const char **comm)
{
    tg_value v;
    switch (r->kind) {
    case REF_CPU: return (uint64_t)(int64_t)ev->cpu;
    case REF_COMM:
        if (cs->comm == -2) { /* the reader's task name, a COMMON field of the event */
            size_t n = tg_event_field_count(ev, TG_SCOPE_COMMON);
            cs->comm = -1;
            for (size_t i = 0; i < n && cs->comm < 0; i++)
                if (tg_event_field(ev, TG_SCOPE_COMMON, i, &v) == 0 && v.name &&
                    strcmp(v.name, "common_comm") == 0 && v.type == TG_VAL_STRING)
                    cs->comm = (int32_t)i;
        }
        *comm = cs->comm >= 0 && tg_event_field(ev, TG_SCOPE_COMMON, (size_t)cs->comm, &v) == 0
                    ? v.v.str.ptr
                    : "<...>";
        return (uint64_t)(uintptr_t)*comm;
    case REF_FIELD:
        if (tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) < 0)
            return 0;
        return v.type == TG_VAL_UINT ? v.v.u : v.type == TG_VAL_SINT ? (uint64_t)v.v.s : 0;
    default: return 0;
    }
}

/* The text a string comparison sees for a field, NUL-terminated (in fs->sbuf or hex). */
static const char *text_of(tc_filters *fs, const tg_event *ev, cls_state *cs, const ref *r,
                           char hex[32])
{
    const char *comm = NULL;
    tg_value v;
    if (r->kind == REF_FIELD && tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) == 0 &&
        v.type == TG_VAL_STRING) {
        if (tg_grow(&fs->sbuf, &fs->sbuf_cap, v.v.str.len + 1, 1) < 0)
            return "";
        memcpy(fs->sbuf, v.v.str.ptr, v.v.str.len);
        fs->sbuf[v.v.str.len] = 0;
        return fs->sbuf;
    }
    uint64_t x = num_of(ev, cs, r, &comm);
    if (r->kind == REF_COMM) {
        size_t n = strlen(comm);
        if (tg_grow(&fs->sbuf, &fs->sbuf_cap, n + 1, 1) < 0)
            return "";
        memcpy(fs->sbuf, comm, n + 1);
        return fs->sbuf;
    }
    if (r->kind == REF_FIELD && tg_event_field(ev, (tg_scope)r->scope, (size_t)r->index, &v) == 0 &&
        (v.flags & (TG_VALF_POINTER | TG_VALF_LONG))) {
        const char *sym = tg_trace_symbol(tg_event_trace(ev), x);
        if (sym)
            return sym;
    }
    snprintf(hex, 32, "0x%llx", (unsigned long long)x);
    return hex;
}

/* An item's number; *bad when it is a string (libtraceevent's "not a number"). */
static uint64_t item_value(const filter *f, int i, const tg_event *ev, cls_state *cs, bool *bad,
                           bool *unknown)
{
    const node *n = &f->nodes[i];
    const char *comm;
    if (n->type == IT_NUMBER)
        return n->num;
    if (n->type != IT_NAME) {
        *bad = true;
        return 0;
    }
    const ref *r = &cs->refs[n->slot];
    if (r->kind == REF_NONE)
        *unknown = true;
    return num_of(ev, cs, r, &comm);
}

static bool eval(tc_filters *fs, const filter *f, int i, const tg_event *ev, cls_state *cs,
                 bool *bad)
{
    const node *n = &f->nodes[i];
    switch (n->kind) {
    case NK_BOOL: return n->value;
    case NK_OP:
        if (n->type == OP_AND)
            return eval(fs, f, n->left, ev, cs, bad) && eval(fs, f, n->right, ev, cs, bad);
        if (n->type == OP_OR)
            return eval(fs, f, n->left, ev, cs, bad) || eval(fs, f, n->right, ev, cs, bad);
        return !eval(fs, f, n->right, ev, cs, bad);
    case NK_NUM: {
        bool unknown = false;
        uint64_t l = item_value(f, n->left, ev, cs, bad, &unknown);
        uint64_t r = item_value(f, n->right, ev, cs, bad, &unknown);
        if (unknown)
            return false;
        switch (n->type) {
        case C_EQ: return l == r;
        case C_NE: return l != r;
        case C_GT: return l > r;
        case C_LT: return l < r;
        case C_GE: return l >= r;
        case C_LE: return l <= r;
        default: *bad = true; return false;
        }
    }
    case NK_STR: {
        const ref *r = &cs->refs[f->nodes[n->left].slot];
        if (r->kind == REF_NONE)
            return false;
        char hex[32];
        const char *s = text_of(fs, ev, cs, r, hex);
        switch (n->type) {
        case C_EQ: return strcmp(s, n->text) == 0;
        case C_NE: return strcmp(s, n->text) != 0;
        case C_REGEX: return regexec(&n->re, s, 0, NULL, 0) == 0;
        default: return regexec(&n->re, s, 0, NULL, 0) != 0;
        }
    }
    case NK_EXP: {
        /* a name the class lacks makes it false (libtraceevent folds it away at parse time,
         * before a string operand could make it an error) */
        bool unknown = false, not_num = false;
        uint64_t l = item_value(f, n->left, ev, cs, &not_num, &unknown);
        uint64_t r = item_value(f, n->right, ev, cs, &not_num, &unknown);
        if (unknown)
            return false;
        if (not_num) {
            *bad = true;
            return false;
        }
        switch (n->type) {
        case E_ADD: return l + r != 0;
        case E_SUB: return l - r != 0;
        case E_MUL: return l * r != 0;
        case E_DIV:
        case E_MOD:
            if (!r) { /* trace-cmd dies of SIGFPE */
                *bad = true;
                return false;
            }
            return (n->type == E_DIV ? l / r : l % r) != 0;
        case E_RSHIFT: return r < 64 && l >> r != 0;
        case E_LSHIFT: return r < 64 && l << r != 0;
        case E_AND: return (l & r) != 0;
        case E_OR: return (l | r) != 0;
        case E_XOR: return (l ^ r) != 0;
        default: *bad = true; return false;
        }
    }
    default: *bad = true; return false;
    }
}

/* tep_filter_match: 1 match, 0 miss or not the filter's event, or a negative status. */
static int filter_match(tc_filters *fs, filter *f, const tg_event *ev, tg_error **err)
{
    size_t c = ev->cls ? ev->cls->number : SIZE_MAX;
    if (c >= fs->n_classes)
        return 0;
    cls_state *cs = &f->cls[c];
    if (cs->state == CS_OUT)
        return 0;
    if (f->root < 0)
        return 1;
    if (cs->state == CS_IN) { /* a class that declares no fields: bound at its first event */
        int rc = bind_class(f, cs, ev->cls, ev);
        cs->state = rc < 0 ? CS_BAD : CS_BOUND;
        if (rc == TG_ERR_NOMEM)
            return tg_err(err, rc, "out of memory");
    }
    if (cs->state == CS_BAD)
        return tg_err(err, TG_ERR_USAGE, "filter '%s' on %s: %s", f->text, ev->cls->name,
                      f->bad ? f->bad : "cannot be applied");
    bool bad = false;
    bool m = eval(fs, f, f->root, ev, cs, &bad);
    return m && !bad;
}

/* ---- the filter set ------------------------------------------------------------------------ */

static void filter_free(filter *f, size_t n_classes)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_nodes; i++) {
        free(f->nodes[i].text);
        if (f->nodes[i].regex_ok)
            regfree(&f->nodes[i].re);
    }
    for (size_t i = 0; f->cls && i < n_classes; i++)
        free(f->cls[i].refs);
    free(f->cls);
    free(f->nodes);
    free(f->text);
    free(f->err);
    free(f);
}

tc_filters *tc_filters_new(tg_set *set)
{
    tc_filters *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->set = set;
    for (size_t t = 0; t < tg_set_trace_count(set); t++) {
        const tg_trace *tr = tg_set_trace(set, t);
        for (size_t i = 0; i < tg_trace_class_count(tr); i++) {
            size_t n = tg_trace_class(tr, i)->number + 1;
            if (n > fs->n_classes)
                fs->n_classes = n;
        }
    }
    return fs;
}

void tc_filters_free(tc_filters *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->n_pos; i++)
        filter_free(fs->pos[i], fs->n_classes);
    for (size_t i = 0; i < fs->n_neg; i++)
        filter_free(fs->neg[i], fs->n_classes);
    free(fs->pos);
    free(fs->neg);
    free(fs->last_printed);
    free(fs->sbuf);
    free(fs);
}

int tc_filters_add(tc_filters *fs, const char *str, bool neg, tg_error **err)
{
    filter *f = calloc(1, sizeof *f);
    char *events = NULL;
    int rc = TG_ERR_NOMEM;
    if (!f || !(f->text = strdup(str)) ||
        !(f->cls = calloc(fs->n_classes ? fs->n_classes : 1, sizeof *f->cls)))
        goto out;
    f->root = -1;
    const char *colon = strchr(str, ':');
    if (!(events = strndup(str, colon ? (size_t)(colon - str) : strlen(str))))
        goto out;
    if (colon) {
        f->in = colon + 1;
        f->len = strlen(f->in);
        int root;
        rc = process(f, &root, false);
        if (rc == 0 && !complete(f, root))
            rc = fail(f, "an incomplete expression");
        if (rc == UNBALANCED)
            rc = fail(f, "unbalanced ')'");
        if (rc < 0) {
            rc =
                tg_err(err, TG_ERR_USAGE, "filter '%s': %s", str, f->err ? f->err : "syntax error");
            goto out;
        }
        f->root = root;
    }
    if (!events[0] || events[strspn(events, ",")] == 0) {
        rc = tg_err(err, TG_ERR_USAGE, "filter '%s': no event named", str);
        goto out;
    }
    char *save = NULL;
    for (char *e = events, *tok; (tok = strtok_r(e, ",", &save)); e = NULL)
        if ((rc = select_events(fs, f, tok, err)) < 0)
            goto out;
    filter ***list = neg ? &fs->neg : &fs->pos;
    size_t *n = neg ? &fs->n_neg : &fs->n_pos, *cap = neg ? &fs->cap_neg : &fs->cap_pos;
    if (tg_grow(list, cap, *n + 1, sizeof **list) < 0) {
        rc = TG_ERR_NOMEM;
        goto out;
    }
    (*list)[(*n)++] = f;
    free(events);
    return 0;
out:
    if (rc == TG_ERR_NOMEM && !(err && *err))
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    free(events);
    filter_free(f, fs->n_classes);
    return rc;
}

static bool is_stack(const tg_event *ev)
{
    const tg_event_class *c = ev->cls;
    return c && c->system && strcmp(c->system, "ftrace") == 0 &&
           (strcmp(c->name, "kernel_stack") == 0 || strcmp(c->name, "user_stack") == 0);
}

int tc_filters_show(tc_filters *fs, const tg_event *ev, tg_error **err)
{
    bool found = false, stack = false;
    for (size_t i = 0; i < fs->n_pos && !found; i++) {
        int m = filter_match(fs, fs->pos[i], ev, err);
        if (m < 0)
            return m;
        found = m;
    }
    size_t cpu = ev->cpu >= 0 ? (size_t)ev->cpu : 0;
    if (cpu >= fs->n_cpus && tg_grow_zeroed(&fs->last_printed, &fs->n_cpus, &fs->cap_cpus, cpu + 1,
                                            sizeof *fs->last_printed) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (!found && fs->n_pos) {
        /* a stack trace goes with the event before it on its cpu */
        if (!is_stack(ev) || !fs->last_printed[cpu])
            return 0;
        stack = true;
    }
    found = false;
    for (size_t i = 0; i < fs->n_neg && !found; i++) {
        int m = filter_match(fs, fs->neg[i], ev, err);
        if (m < 0)
            return m;
        found = m;
    }
    fs->last_printed[cpu] = !stack && !found;
    return !found;
}
