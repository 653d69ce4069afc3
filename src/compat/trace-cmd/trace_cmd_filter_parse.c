/* trace_cmd_filter_parse.c - the expression of a `trace-cmd report -F` filter into nodes:
 * libtraceevent's tokenizer (__read_token) and its process_filter state machine, kept as
 * they are because users' filters mean what they make of them (no precedence between && and
 * ||, `!` on one comparison or parenthesis, `prev_prio == -1` as `prev_prio - 1`); an
 * expression libtraceevent would leave half-built (trace-cmd then crashes) is an error here.
 * trace_cmd_filter.c binds the nodes to event classes and evaluates them. */
#include "compat/trace-cmd/trace_cmd_filter_tree.h"
#include "core/consumer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int tc_filter_parse(filter *f)
{
    int root;
    int rc = process(f, &root, false);
    if (rc == 0 && !complete(f, root))
        rc = fail(f, "an incomplete expression");
    if (rc == UNBALANCED)
        rc = fail(f, "unbalanced ')'");
    if (rc < 0)
        return rc;
    f->root = root;
    return 0;
}
