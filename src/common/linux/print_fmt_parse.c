/* print_fmt_parse.c - a print fmt's text parsed into a format string and argument trees.
 *
 * The parser follows libtraceevent's process_arg/process_op step by step, not C's grammar,
 * because trace-cmd prints what that parser builds, including its operator-priority
 * rotations (`a & (b | c)` becomes `(a & b) | c`), single-item ternary branches and the
 * helpers (__get_str, __print_flags, __print_symbolic, __print_hex, ...).  Nodes live in the
 * compiled print fmt's arena. */
#include "common/linux/print_fmt.h"
#include "core/grow.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokenizer ----------------------------------------------------------------------------- */

enum { T_END, T_IDENT, T_NUM, T_STR, T_PUNCT };

typedef struct lexer {
    const char *p, *end;
    int type;
    const char *tok;
    size_t len;
    /* one-token lookahead is done by saving/restoring p */
} lexer;

static void lex_next(lexer *lx)
{
    const char *p = lx->p;
    while (p < lx->end && isspace((unsigned char)*p))
        p++;
    lx->tok = p;
    if (p >= lx->end) {
        lx->type = T_END;
        lx->len = 0;
        lx->p = p;
        return;
    }
    unsigned char c = (unsigned char)*p;
    if (isalpha(c) || c == '_') {
        while (p < lx->end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        lx->type = T_IDENT;
    } else if (isdigit(c)) {
        while (p < lx->end && (isalnum((unsigned char)*p) || *p == '.'))
            p++;
        lx->type = T_NUM;
    } else if (c == '"' || c == '\'') {
        p++;
        while (p < lx->end && *p != (char)c) {
            if (*p == '\\' && p + 1 < lx->end)
                p++;
            p++;
        }
        if (p < lx->end)
            p++;
        lx->type = T_STR;
    } else {
        static const char *const two[] = {"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
        lx->type = T_PUNCT;
        p++;
        for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
            if (lx->end - lx->tok >= 2 && memcmp(lx->tok, two[i], 2) == 0) {
                p = lx->tok + 2;
                break;
            }
    }
    lx->len = (size_t)(p - lx->tok);
    lx->p = p;
}

static bool is_tok(const lexer *lx, const char *s)
{
    size_t n = strlen(s);
    return lx->len == n && memcmp(lx->tok, s, n) == 0 && lx->type != T_STR;
}

typedef struct pctx {
    lexer lx;
    const tg_pf_event *ev;
    struct tg_pf *pf;
    bool fail;
} pctx;

static tg_pf_node *new_node(pctx *c, int kind)
{
    tg_pf_node *n = tg_arena_alloc(&c->pf->arena, sizeof *n);
    if (!n)
        c->fail = true;
    else
        n->kind = kind;
    return n;
}

static uint64_t flag_value_of(tg_pf_node *n, bool *ok);

/* A string literal token's contents (escapes kept as libtraceevent keeps them). */
static char *tok_string(pctx *c)
{
    const lexer *lx = &c->lx;
    size_t n = lx->len >= 2 ? lx->len - 2 : 0;
    return tg_arena_strndup(&c->pf->arena, lx->tok + 1, n);
}

static const tg_evf_field *field_named(pctx *c, const char *name, size_t len)
{
    char buf[128];
    if (len >= sizeof buf)
        return NULL;
    memcpy(buf, name, len);
    buf[len] = 0;
    return tg_pf_find_field(c->ev, buf);
}

/* A field argument of __get_str(x) and friends: "x" or "REC->x". */
static const tg_evf_field *parse_field_arg(pctx *c)
{
    if (is_tok(&c->lx, "REC")) {
        lex_next(&c->lx);
        if (!is_tok(&c->lx, "->")) {
            c->fail = true;
            return NULL;
        }
        lex_next(&c->lx);
    }
    if (c->lx.type != T_IDENT) {
        c->fail = true;
        return NULL;
    }
    const tg_evf_field *f = field_named(c, c->lx.tok, c->lx.len);
    lex_next(&c->lx);
    if (!f)
        c->fail = true;
    return f;
}

/* libtraceevent's eval_type_str: casts only mask to the size of small types. */
uint64_t tg_pf_cast_mask(const char *type, size_t n)
{
    while (n && type[n - 1] == ' ')
        n--;
    if (n && type[n - 1] == '*')
        return 0;
    char t[64];
    if (n >= sizeof t)
        return 0;
    memcpy(t, type, n);
    t[n] = 0;
    if (strncmp(t, "struct", 6) == 0)
        return 0;
    if (!strcmp(t, "u8") || !strcmp(t, "s8"))
        return 0xff;
    if (!strcmp(t, "u16") || !strcmp(t, "s16"))
        return 0xffff;
    if (!strcmp(t, "u32") || !strcmp(t, "s32"))
        return 0xffffffffu;
    const char *b = t;
    if (strncmp(b, "unsigned ", 9) == 0)
        b += 9;
    if (!strcmp(b, "char"))
        return 0xff;
    if (!strcmp(b, "short"))
        return 0xffff;
    if (!strcmp(b, "int"))
        return 0xffffffffu;
    return 0;
}

static const struct {
    const char *name;
    uint64_t value;
} known_flags[] = {
    {"HI_SOFTIRQ", 0},      {"TIMER_SOFTIRQ", 1},     {"NET_TX_SOFTIRQ", 2},
    {"NET_RX_SOFTIRQ", 3},  {"BLOCK_SOFTIRQ", 4},     {"IRQ_POLL_SOFTIRQ", 5},
    {"TASKLET_SOFTIRQ", 6}, {"SCHED_SOFTIRQ", 7},     {"HRTIMER_SOFTIRQ", 8},
    {"RCU_SOFTIRQ", 9},     {"HRTIMER_NORESTART", 0}, {"HRTIMER_RESTART", 1},
};

enum { K_END, K_ITEM, K_STR, K_OP, K_DELIM };

static int tok_kind(const lexer *lx)
{
    switch (lx->type) {
    case T_END: return K_END;
    case T_IDENT:
    case T_NUM: return K_ITEM;
    case T_STR: return K_STR;
    default:
        if (lx->len == 1 && (lx->tok[0] == '(' || lx->tok[0] == ')' || lx->tok[0] == ','))
            return K_DELIM;
        return K_OP;
    }
}

static int op_prio(const char *op)
{
    if (!op[1]) {
        switch (op[0]) {
        case '~':
        case '!': return 4;
        case '*':
        case '/':
        case '%': return 6;
        case '+':
        case '-': return 7;
        case '<':
        case '>': return 9;
        case '&': return 11;
        case '^': return 12;
        case '|': return 13;
        case '?': return 16;
        default: return -1;
        }
    }
    if (!strcmp(op, "++") || !strcmp(op, "--"))
        return 3;
    if (!strcmp(op, ">>") || !strcmp(op, "<<"))
        return 8;
    if (!strcmp(op, ">=") || !strcmp(op, "<="))
        return 9;
    if (!strcmp(op, "==") || !strcmp(op, "!="))
        return 10;
    if (!strcmp(op, "&&"))
        return 14;
    if (!strcmp(op, "||"))
        return 15;
    return -1;
}

static void set_op(tg_pf_node *n, const lexer *lx)
{
    size_t l = lx->len < 2 ? lx->len : 2;
    memcpy(n->opstr, lx->tok, l);
    n->opstr[l] = 0;
}

static void p_item(pctx *c, tg_pf_node *n);
static void p_op(pctx *c, tg_pf_node *arg);

/* process_arg followed by any operators (process_field_arg in the helpers). */
static tg_pf_node *p_full(pctx *c)
{
    tg_pf_node *n = new_node(c, N_NONE);
    if (!n)
        return NULL;
    p_item(c, n);
    while (!c->fail && tok_kind(&c->lx) == K_OP)
        p_op(c, n);
    return n;
}

static bool expect_k(pctx *c, int kind, const char *s)
{
    if (tok_kind(&c->lx) != kind || !is_tok(&c->lx, s)) {
        c->fail = true;
        return false;
    }
    lex_next(&c->lx);
    return true;
}

/* { value, "str" }, ... (process_fields); the value is turned into text then read back. */
static void p_fields(pctx *c, tg_pf_node *n)
{
    size_t cap = 0;
    do {
        lex_next(&c->lx); /* past ',' */
        if (!expect_k(c, K_OP, "{"))
            return;
        tg_pf_node *v = new_node(c, N_NONE);
        if (!v)
            return;
        p_item(c, v);
        if (!c->fail && tok_kind(&c->lx) == K_OP)
            p_op(c, v);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        /* the name: a string, or anything arg_eval turns into text ("((void *)0)") */
        tg_pf_node *sn = new_node(c, N_NONE);
        if (!sn)
            return;
        p_item(c, sn);
        if (c->fail || !expect_k(c, K_OP, "}"))
            return;
        while (sn->kind == N_CAST)
            sn = sn->a;
        const char *s = sn->kind == N_ATOM ? sn->str : NULL;
        if (!s && sn->kind == N_BIN) {
            char nb[32];
            rctx r0 = {0};
            snprintf(nb, sizeof nb, "%lld", (long long)tg_pf_eval(&r0, sn));
            s = tg_arena_strndup(&c->pf->arena, nb, strlen(nb));
        }
        if (!s) {
            c->fail = true;
            return;
        }
        bool ok = true;
        uint64_t val = flag_value_of(v, &ok);
        if (!ok) {
            c->fail = true;
            return;
        }
        if (n->n_syms == cap) {
            cap = cap ? cap * 2 : 8;
            tg_pf_sym *ns = tg_arena_alloc(&c->pf->arena, cap * sizeof *ns);
            if (!ns) {
                c->fail = true;
                return;
            }
            if (n->n_syms)
                memcpy(ns, n->syms, n->n_syms * sizeof *ns);
            n->syms = ns;
        }
        n->syms[n->n_syms].value = val;
        n->syms[n->n_syms].str = s;
        n->n_syms++;
    } while (tok_kind(&c->lx) == K_DELIM && is_tok(&c->lx, ","));
}

static void p_call(pctx *c, tg_pf_node *n, const char *name, size_t nl)
{
#define IS(s) (nl == sizeof(s) - 1 && memcmp(name, s, nl) == 0)
    if (IS("__get_str") || IS("__get_rel_str")) {
        n->kind = N_GETSTR;
        n->field = parse_field_arg(c);
    } else if (IS("__get_dynamic_array") || IS("__get_rel_dynamic_array")) {
        n->kind = N_DYNARR;
        n->field = parse_field_arg(c);
    } else if (IS("__get_dynamic_array_len") || IS("__get_rel_dynamic_array_len")) {
        n->kind = N_DYNLEN;
        n->field = parse_field_arg(c);
    } else if (IS("__get_bitmask") || IS("__get_rel_bitmask") || IS("__get_cpumask") ||
               IS("__get_rel_cpumask")) {
        n->kind = N_BITMASK;
        n->field = parse_field_arg(c);
    } else if (IS("__print_symbolic") || IS("__print_symbolic_u64")) {
        n->kind = N_SYM;
        n->a = p_full(c);
        if (!c->fail && tok_kind(&c->lx) == K_DELIM && is_tok(&c->lx, ","))
            p_fields(c, n);
        else
            c->fail = true;
    } else if (IS("__print_flags") || IS("__print_flags_u64")) {
        n->kind = N_FLAGS;
        n->a = p_full(c);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        if (c->lx.type == T_STR || c->lx.type == T_IDENT || c->lx.type == T_NUM) {
            n->str = c->lx.type == T_STR
                         ? tok_string(c)
                         : (char *)tg_arena_strndup(&c->pf->arena, c->lx.tok, c->lx.len);
            lex_next(&c->lx);
        }
        if (tok_kind(&c->lx) == K_DELIM && is_tok(&c->lx, ","))
            p_fields(c, n);
        else
            c->fail = true;
    } else if (IS("__print_hex") || IS("__print_hex_str")) {
        n->kind = IS("__print_hex") ? N_HEX : N_HEXSTR;
        n->a = p_full(c);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        n->b = p_full(c);
    } else if (IS("__print_array")) {
        n->kind = N_ARRAY;
        n->a = p_full(c);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        n->b = p_full(c);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        n->c = p_full(c);
    } else if (IS("__builtin_expect")) {
        /* __builtin_expect(x, hint) is x */
        tg_pf_node *x = p_full(c);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        p_full(c);
        if (!c->fail && x)
            *n = *x;
    } else if (IS("sizeof")) {
        const char *s = c->lx.tok;
        int depth = 0;
        while (!c->fail && c->lx.type != T_END && !(depth == 0 && is_tok(&c->lx, ")"))) {
            if (is_tok(&c->lx, "("))
                depth++;
            if (is_tok(&c->lx, ")"))
                depth--;
            lex_next(&c->lx);
        }
        size_t tl = (size_t)(c->lx.tok - s);
        const tg_pf_env *f = c->ev->env;
        uint64_t v = 4;
        char t[64];
        if (tl < sizeof t) {
            memcpy(t, s, tl);
            t[tl] = 0;
            const char *rec = strstr(t, "REC->");
            const tg_evf_field *fl = NULL;
            if (rec) {
                char nm[64];
                size_t k = 0;
                for (const char *q = rec + 5; (isalnum((unsigned char)*q) || *q == '_') && k < 63;
                     q++)
                    nm[k++] = *q;
                nm[k] = 0;
                fl = tg_pf_find_field(c->ev, nm);
            }
            if (fl)
                v = fl->size;
            else if (strchr(t, '*') || strstr(t, "long"))
                v = strstr(t, "long long") ? 8 : (uint64_t)f->long_size;
            else if (strstr(t, "char") || strstr(t, "8"))
                v = 1;
            else if (strstr(t, "short") || strstr(t, "16"))
                v = 2;
            else if (strstr(t, "64"))
                v = 8;
        }
        n->kind = N_ATOM;
        n->num = v;
        n->str = "";
    } else {
        c->fail = true; /* a function libtraceevent does not know: the event fails to parse */
        return;
    }
    if (!c->fail)
        expect_k(c, K_DELIM, ")");
#undef IS
}

/* process_paren: a parenthesised expression, or a cast when an item follows. */
static void p_paren(pctx *c, tg_pf_node *n)
{
    lex_next(&c->lx); /* past '(' */
    p_item(c, n);
    if (!c->fail && tok_kind(&c->lx) == K_OP)
        p_op(c, n);
    if (c->fail || !expect_k(c, K_DELIM, ")"))
        return;
    int k = tok_kind(&c->lx);
    if (k == K_ITEM || k == K_STR || (k == K_DELIM && is_tok(&c->lx, "("))) {
        if (n->kind != N_ATOM) {
            c->fail = true;
            return;
        }
        tg_pf_node *item = new_node(c, N_NONE);
        if (!item)
            return;
        const char *type = n->str;
        n->kind = N_CAST;
        n->num = tg_pf_cast_mask(type, strlen(type));
        n->str = type;
        n->a = item;
        p_item(c, item);
    }
}

/* process_arg_token: one item, no binary operators. */
static void p_item(pctx *c, tg_pf_node *n)
{
    lexer *lx = &c->lx;
    if (c->fail)
        return;
    switch (tok_kind(lx)) {
    case K_ITEM: {
        const char *name = lx->tok;
        size_t nl = lx->len;
        lex_next(lx);
        if (nl == 3 && memcmp(name, "REC", 3) == 0) {
            if (!expect_k(c, K_OP, "->"))
                return;
            if (lx->type != T_IDENT) {
                c->fail = true;
                return;
            }
            n->kind = N_FIELD;
            n->field = field_named(c, lx->tok, lx->len);
            if (!n->field)
                n->kind = N_NONE; /* libtraceevent: "field not found", value 0 */
            lex_next(lx);
            return;
        }
        if (tok_kind(lx) == K_DELIM && is_tok(lx, "(")) {
            lex_next(lx);
            p_call(c, n, name, nl);
            return;
        }
        /* atoms can be more than one token long ("unsigned long") */
        char buf[256];
        size_t bl = nl < sizeof buf - 1 ? nl : sizeof buf - 1;
        memcpy(buf, name, bl);
        while (tok_kind(lx) == K_ITEM) {
            if (bl + 1 + lx->len < sizeof buf - 1) {
                buf[bl++] = ' ';
                memcpy(buf + bl, lx->tok, lx->len);
                bl += lx->len;
            }
            lex_next(lx);
        }
        n->kind = N_ATOM;
        n->str = tg_arena_strndup(&c->pf->arena, buf, bl);
        n->num = n->str ? strtoull(n->str, NULL, 0) : 0;
        return;
    }
    case K_STR: {
        char *s = tok_string(c);
        lex_next(lx);
        while (s && lx->type == T_STR) {
            char *more = tok_string(c);
            size_t a = strlen(s), b = more ? strlen(more) : 0;
            char *j = tg_arena_alloc(&c->pf->arena, a + b + 1);
            if (!j) {
                c->fail = true;
                return;
            }
            memcpy(j, s, a);
            memcpy(j + a, more ? more : "", b + 1);
            s = j;
            lex_next(lx);
        }
        n->kind = N_ATOM;
        n->str = s;
        n->num = s ? strtoull(s, NULL, 0) : 0;
        return;
    }
    case K_DELIM:
        if (is_tok(lx, "(")) {
            p_paren(c, n);
            return;
        }
        c->fail = true;
        return;
    case K_OP:
        n->kind = N_BIN;
        set_op(n, lx);
        n->a = NULL;
        n->prio = 0;
        p_op(c, n);
        return;
    default: c->fail = true;
    }
}

static bool is_binop(const char *s)
{
    static const char *const ops[] = {">>", "<<", "&", "|", "&&", "||", "-",  "+",  "*",
                                      "^",  "/",  "%", "<", ">",  "<=", ">=", "==", "!="};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(s, ops[i]))
            return true;
    return false;
}

/* process_op: arg is the item (or op tree) left of the operator that is the current token. */
static void p_op(pctx *c, tg_pf_node *arg)
{
    lexer *lx = &c->lx;
    if (c->fail)
        return;
    char op[3];
    size_t l = lx->len < 2 ? lx->len : 2;
    memcpy(op, lx->tok, l);
    op[l] = 0;
    tg_pf_node *right = NULL;
    if (arg->kind == N_BIN && !arg->a) {
        /* a single (unary) op */
        if (op[1] || !strchr("~!+-", op[0])) {
            c->fail = true;
            return;
        }
        tg_pf_node *left = new_node(c, N_NULL);
        right = new_node(c, N_NONE);
        if (!left || !right)
            return;
        arg->a = left;
        arg->b = right;
        lex_next(lx);
        p_item(c, right);
    } else if (!strcmp(op, "?")) {
        tg_pf_node *left = new_node(c, N_NONE);
        tg_pf_node *colon = new_node(c, N_BIN), *t = new_node(c, N_NONE), *f = new_node(c, N_NONE);
        if (!left || !colon || !t || !f)
            return;
        *left = *arg;
        memset(arg, 0, sizeof *arg);
        arg->kind = N_BIN;
        strcpy(arg->opstr, "?");
        arg->a = left;
        arg->prio = 0;
        strcpy(colon->opstr, ":");
        colon->a = t;
        colon->b = f;
        lex_next(lx);
        p_item(c, t);
        while (!c->fail && tok_kind(lx) == K_OP && !is_tok(lx, ":"))
            p_op(c, t);
        if (c->fail || !expect_k(c, K_OP, ":"))
            return;
        p_item(c, f);
        arg->b = colon;
    } else if (is_binop(op)) {
        tg_pf_node *left = new_node(c, N_NONE);
        if (!left)
            return;
        *left = *arg;
        memset(arg, 0, sizeof *arg);
        arg->kind = N_BIN;
        strcpy(arg->opstr, op);
        arg->a = left;
        arg->b = NULL;
        if (left->kind == N_NULL) {
            arg->prio = 0;
        } else {
            arg->prio = op_prio(op);
            if (arg->prio < 0) {
                c->fail = true;
                return;
            }
        }
        lex_next(lx);
        if (!strcmp(op, "*") && tok_kind(lx) == K_DELIM && is_tok(lx, ")")) {
            /* just a pointer type: "(void *)" */
            if (left->kind != N_ATOM) {
                c->fail = true;
                return;
            }
            size_t sl = strlen(left->str);
            char *s = tg_arena_alloc(&c->pf->arena, sl + 3);
            if (!s) {
                c->fail = true;
                return;
            }
            memcpy(s, left->str, sl);
            memcpy(s + sl, " *", 3);
            *arg = *left;
            arg->str = s;
            return;
        }
        right = new_node(c, N_NONE);
        if (!right)
            return;
        p_item(c, right);
        if (c->fail)
            return;
        if (right->kind == N_BIN && op_prio(arg->opstr) < op_prio(right->opstr)) {
            /* rotate ops according to the priority */
            arg->b = right->a;
            tg_pf_node tmp = *arg;
            *arg = *right;
            *right = tmp;
            arg->a = right;
        } else {
            arg->b = right;
        }
    } else if (!strcmp(op, "[")) {
        tg_pf_node *left = new_node(c, N_NONE);
        if (!left)
            return;
        *left = *arg;
        memset(arg, 0, sizeof *arg);
        arg->kind = N_BIN;
        strcpy(arg->opstr, "[");
        arg->a = left;
        arg->prio = 0;
        lex_next(lx);
        tg_pf_node *idx = new_node(c, N_NONE);
        if (!idx)
            return;
        p_item(c, idx);
        if (c->fail || !expect_k(c, K_OP, "]"))
            return;
        arg->b = idx;
    } else {
        c->fail = true;
        return;
    }
    if (!c->fail && tok_kind(lx) == K_OP && !is_tok(lx, ":")) {
        char nop[3];
        size_t nl2 = lx->len < 2 ? lx->len : 2;
        memcpy(nop, lx->tok, nl2);
        nop[nl2] = 0;
        int prio = op_prio(nop);
        if (prio > arg->prio)
            p_op(c, arg);
        else if (right)
            p_op(c, right);
        else
            c->fail = true;
    }
}

static uint64_t flag_value_of(tg_pf_node *n, bool *ok)
{
    /* libtraceevent turns the value into text (arg_eval), then reads a leading digit as a
     * number and looks names up in a short table; anything else is -1 (never matches). */
    if (!n) {
        *ok = false;
        return 0;
    }
    while (n->kind == N_CAST)
        n = n->a;
    const char *s;
    char buf[32];
    if (n->kind == N_ATOM) {
        s = n->str;
    } else if (n->kind == N_BIN) {
        rctx r = {0};
        long long v = (long long)tg_pf_eval(&r, n);
        snprintf(buf, sizeof buf, "%lld", v);
        s = buf;
    } else {
        *ok = false;
        return 0;
    }
    if (isdigit((unsigned char)s[0]))
        return strtoull(s, NULL, 0);
    for (size_t i = 0; i < sizeof known_flags / sizeof known_flags[0]; i++)
        if (strcmp(known_flags[i].name, s) == 0)
            return known_flags[i].value;
    return UINT64_MAX;
}

/* The print fmt of e: "format" (one or more adjacent string literals), then the arguments. */
int tg_pf_parse(const tg_pf_event *e, struct tg_pf *pf, char **fmt_out, tg_pf_node **argv,
                size_t max_args, size_t *n_args)
{
    pctx c;
    memset(&c, 0, sizeof c);
    c.ev = e;
    c.pf = pf;
    c.lx.p = e->print_fmt;
    c.lx.end = e->print_fmt + strlen(e->print_fmt);
    *fmt_out = NULL;
    *n_args = 0;
    lex_next(&c.lx);
    if (c.lx.type != T_STR)
        return -1;
    size_t cap = 0, n = 0;
    char *fmt = NULL;
    while (c.lx.type == T_STR) {
        if (c.lx.len < 2) { /* a quote the text ends in: no closing quote */
            free(fmt);
            return -1;
        }
        size_t l = c.lx.len - 2;
        if (tg_grow(&fmt, &cap, n + l + 1, 1) != 0) {
            free(fmt);
            return -1;
        }
        memcpy(fmt + n, c.lx.tok + 1, l);
        n += l;
        lex_next(&c.lx);
    }
    fmt[n] = 0;
    *fmt_out = fmt;
    if (memchr(fmt, '\t', n))
        return -1; /* trace-cmd fails to parse a print fmt with a literal tab in its format */
    size_t na = 0;
    while (!c.fail && is_tok(&c.lx, ",")) {
        lex_next(&c.lx);
        tg_pf_node *a = new_node(&c, N_NONE);
        if (!a)
            break;
        p_item(&c, a);
        if (!c.fail && tok_kind(&c.lx) == K_OP)
            p_op(&c, a);
        if (c.fail || na >= max_args)
            break;
        argv[na++] = a;
    }
    *n_args = na;
    return c.fail || c.lx.type != T_END ? -1 : 0;
}
