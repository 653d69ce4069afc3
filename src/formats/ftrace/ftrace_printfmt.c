/* ftrace_printfmt.c - the print-fmt engine: an event format's "print fmt" compiled once and
 * evaluated per event, printing exactly what `trace-cmd report` (libtraceevent) prints.
 *
 * A print fmt is a C format string and C argument expressions over REC->field.  It is
 * compiled on first use into a list of items (literal text, or a conversion with its
 * argument expression tree); rendering walks the list.  The evaluation rules are
 * libtraceevent's, including its quirks, because the output must match byte for byte:
 * fields are read zero-extended, casts only mask, arithmetic is on long long, __print_symbolic
 * and __print_flags fall back to hex, unknown conversions print ">c<", %p prints like glibc,
 * %ps/%pS look the address up in kallsyms, and a print fmt that cannot be parsed prints
 * "[FAILED TO PARSE]" followed by the raw fields.  ftrace's bprint events take their format
 * from the printk table and their arguments from the binary buffer (vbin_printf layout).
 * Common conversions are formatted without printf. */
#include "formats/ftrace/ftrace_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expression trees ------------------------------------------------------------------- */

enum {
    N_NUM, N_ATOM, N_FIELD, N_CAST, N_BIN, N_UN, N_COND, N_GETSTR, N_DYNARR, N_DYNLEN,
    N_SYM, N_FLAGS, N_HEX, N_HEXSTR, N_ARRAY, N_INDEX, N_BITMASK, N_BSTR, N_NONE, N_NULL,
};


typedef struct ft_sym {
    uint64_t value;
    const char *str;
} ft_sym;

typedef struct ft_node {
    int kind, op, prio;
    char opstr[3];
    uint64_t num;       /* N_NUM; N_CAST: mask (0 = none) */
    const char *str;    /* N_ATOM text, N_FLAGS delimiter, N_BSTR string */
    const ft_field *field;
    struct ft_node *a, *b, *c;
    ft_sym *syms;
    size_t n_syms;
} ft_node;

enum { IT_TEXT, IT_DIGIT, IT_PTR, IT_STR };

typedef struct pf_item {
    int type;
    char *text;       /* IT_TEXT: the literal; others: the printf conversion */
    size_t text_len;
    int ls;
    char pch;         /* IT_PTR: the letter after 'p' (0 none) */
    char pch2;        /* IT_PTR: the letter after that ('F'/'R' for MAC, '4'/'6' for IP) */
    ft_node *arg, *len_arg;
    int fast;         /* 0: printf; 'd','u','x' with ls: formatted directly */
    bool direct;      /* the argument is a plain field or a constant index into an array
                         field: read at d_off, d_size (d_idx: eval's bounds check) */
    uint32_t d_size;
    uint64_t d_off, d_idx;
    int width;        /* fast path: minimum width */
    bool zero;        /* fast path: pad with zeros */
} pf_item;

struct ft_pf {
    pf_item *items;
    size_t n, cap;
    tg_arena arena;
    bool failed;
};

void ft_pf_free(struct ft_pf *pf)
{
    if (!pf)
        return;
    free(pf->items);
    tg_arena_free(&pf->arena);
    free(pf);
}

/* ---- the output of one event ----------------------------------------------------------------
 * An event's text is assembled in a stack buffer and handed to the tg_buf in one call (it
 * spills into the tg_buf only when an event's text is longer than the buffer). */

typedef struct ft_sink {
    tg_buf *out;
    size_t n;
    char b[2048];
} ft_sink;

static void sk_flush(ft_sink *o)
{
    if (o->n)
        tg_buf_put(o->out, o->b, o->n);
    o->n = 0;
}

static inline void sk_put(ft_sink *o, const void *p, size_t n)
{
    if (n > sizeof o->b - o->n) {
        sk_flush(o);
        if (n > sizeof o->b) {
            tg_buf_put(o->out, p, n);
            return;
        }
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static inline void sk_putc(ft_sink *o, char c)
{
    if (o->n == sizeof o->b)
        sk_flush(o);
    o->b[o->n++] = c;
}

static inline void sk_puts(ft_sink *o, const char *s) { sk_put(o, s, strlen(s)); }

static void sk_u64(ft_sink *o, uint64_t v)
{
    char d[24];
    size_t k = sizeof d;
    do {
        d[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sk_put(o, d + k, sizeof d - k);
}

static void sk_i64(ft_sink *o, int64_t v)
{
    if (v < 0) {
        sk_putc(o, '-');
        sk_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        sk_u64(o, (uint64_t)v);
    }
}

static void sk_hex(ft_sink *o, uint64_t v)
{
    static const char hx[] = "0123456789abcdef";
    char d[24];
    size_t k = sizeof d;
    do {
        d[--k] = hx[v & 15];
        v >>= 4;
    } while (v);
    sk_put(o, d + k, sizeof d - k);
}

static void sk_printf(ft_sink *o, const char *fmt, ...) TG_PRINTF(2, 3);
static void sk_printf(ft_sink *o, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k > 0)
        sk_put(o, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

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
    const ft_event *ev;
    struct ft_pf *pf;
    bool fail;
} pctx;

static ft_node *new_node(pctx *c, int kind)
{
    ft_node *n = tg_arena_alloc(&c->pf->arena, sizeof *n);
    if (!n)
        c->fail = true;
    else
        n->kind = kind;
    return n;
}

struct rctx {
    const ft_event *ev;
    const ft_file *f;
    const uint8_t *data;
    size_t size;
    bool strip_nl; /* printing the last item of the event's text */
};
typedef struct rctx rctx;
static uint64_t eval(const rctx *r, const ft_node *n);
static uint64_t flag_value_of(ft_node *n, bool *ok);

/* A string literal token's contents (escapes kept as libtraceevent keeps them). */
static char *tok_string(pctx *c)
{
    const lexer *lx = &c->lx;
    size_t n = lx->len >= 2 ? lx->len - 2 : 0;
    return tg_arena_strndup(&c->pf->arena, lx->tok + 1, n);
}

static const ft_field *field_named(pctx *c, const char *name, size_t len)
{
    char buf[128];
    if (len >= sizeof buf)
        return NULL;
    memcpy(buf, name, len);
    buf[len] = 0;
    return ft_find_field(c->ev, buf);
}

/* A field argument of __get_str(x) and friends: "x" or "REC->x". */
static const ft_field *parse_field_arg(pctx *c)
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
    const ft_field *f = field_named(c, c->lx.tok, c->lx.len);
    lex_next(&c->lx);
    if (!f)
        c->fail = true;
    return f;
}

/* libtraceevent's eval_type_str: casts only mask to the size of small types. */
static uint64_t cast_mask(const char *type, size_t n)
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
    {"HI_SOFTIRQ", 0}, {"TIMER_SOFTIRQ", 1}, {"NET_TX_SOFTIRQ", 2}, {"NET_RX_SOFTIRQ", 3},
    {"BLOCK_SOFTIRQ", 4}, {"IRQ_POLL_SOFTIRQ", 5}, {"TASKLET_SOFTIRQ", 6}, {"SCHED_SOFTIRQ", 7},
    {"HRTIMER_SOFTIRQ", 8}, {"RCU_SOFTIRQ", 9}, {"HRTIMER_NORESTART", 0}, {"HRTIMER_RESTART", 1},
};

/* The parser follows libtraceevent's process_arg/process_op step by step, not C's grammar:
 * trace-cmd prints what that parser builds, including its operator-priority rotations
 * (`a & (b | c)` becomes `(a & b) | c`) and single-item ternary branches. */

enum { K_END, K_ITEM, K_STR, K_OP, K_DELIM };

static int tok_kind(const lexer *lx)
{
    switch (lx->type) {
    case T_END: return K_END;
    case T_IDENT: case T_NUM: return K_ITEM;
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
        case '~': case '!': return 4;
        case '*': case '/': case '%': return 6;
        case '+': case '-': return 7;
        case '<': case '>': return 9;
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

static void set_op(ft_node *n, const lexer *lx)
{
    size_t l = lx->len < 2 ? lx->len : 2;
    memcpy(n->opstr, lx->tok, l);
    n->opstr[l] = 0;
}

static void p_item(pctx *c, ft_node *n);
static void p_op(pctx *c, ft_node *arg);

/* process_arg followed by any operators (process_field_arg in the helpers). */
static ft_node *p_full(pctx *c)
{
    ft_node *n = new_node(c, N_NONE);
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
static void p_fields(pctx *c, ft_node *n)
{
    size_t cap = 0;
    do {
        lex_next(&c->lx); /* past ',' */
        if (!expect_k(c, K_OP, "{"))
            return;
        ft_node *v = new_node(c, N_NONE);
        if (!v)
            return;
        p_item(c, v);
        if (!c->fail && tok_kind(&c->lx) == K_OP)
            p_op(c, v);
        if (c->fail || !expect_k(c, K_DELIM, ","))
            return;
        /* the name: a string, or anything arg_eval turns into text ("((void *)0)") */
        ft_node *sn = new_node(c, N_NONE);
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
            snprintf(nb, sizeof nb, "%lld", (long long)eval(&r0, sn));
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
            ft_sym *ns = tg_arena_alloc(&c->pf->arena, cap * sizeof *ns);
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

static void p_call(pctx *c, ft_node *n, const char *name, size_t nl)
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
            n->str = c->lx.type == T_STR ? tok_string(c)
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
        ft_node *x = p_full(c);
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
        const ft_file *f = c->ev->file;
        uint64_t v = 4;
        char t[64];
        if (tl < sizeof t) {
            memcpy(t, s, tl);
            t[tl] = 0;
            const char *rec = strstr(t, "REC->");
            const ft_field *fl = NULL;
            if (rec) {
                char nm[64];
                size_t k = 0;
                for (const char *q = rec + 5; (isalnum((unsigned char)*q) || *q == '_') && k < 63; q++)
                    nm[k++] = *q;
                nm[k] = 0;
                fl = ft_find_field(c->ev, nm);
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
static void p_paren(pctx *c, ft_node *n)
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
        ft_node *item = new_node(c, N_NONE);
        if (!item)
            return;
        const char *type = n->str;
        n->kind = N_CAST;
        n->num = cast_mask(type, strlen(type));
        n->str = type;
        n->a = item;
        p_item(c, item);
    }
}

/* process_arg_token: one item, no binary operators. */
static void p_item(pctx *c, ft_node *n)
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
    default:
        c->fail = true;
    }
}

static bool is_binop(const char *s)
{
    static const char *const ops[] = {">>", "<<", "&", "|", "&&", "||", "-", "+", "*", "^",
                                      "/", "%", "<", ">", "<=", ">=", "==", "!="};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(s, ops[i]))
            return true;
    return false;
}

/* process_op: arg is the item (or op tree) left of the operator that is the current token. */
static void p_op(pctx *c, ft_node *arg)
{
    lexer *lx = &c->lx;
    if (c->fail)
        return;
    char op[3];
    size_t l = lx->len < 2 ? lx->len : 2;
    memcpy(op, lx->tok, l);
    op[l] = 0;
    ft_node *right = NULL;
    if (arg->kind == N_BIN && !arg->a) {
        /* a single (unary) op */
        if (op[1] || !strchr("~!+-", op[0])) {
            c->fail = true;
            return;
        }
        ft_node *left = new_node(c, N_NULL);
        right = new_node(c, N_NONE);
        if (!left || !right)
            return;
        arg->a = left;
        arg->b = right;
        lex_next(lx);
        p_item(c, right);
    } else if (!strcmp(op, "?")) {
        ft_node *left = new_node(c, N_NONE);
        ft_node *colon = new_node(c, N_BIN), *t = new_node(c, N_NONE), *f = new_node(c, N_NONE);
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
        ft_node *left = new_node(c, N_NONE);
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
            ft_node tmp = *arg;
            *arg = *right;
            *right = tmp;
            arg->a = right;
        } else {
            arg->b = right;
        }
    } else if (!strcmp(op, "[")) {
        ft_node *left = new_node(c, N_NONE);
        if (!left)
            return;
        *left = *arg;
        memset(arg, 0, sizeof *arg);
        arg->kind = N_BIN;
        strcpy(arg->opstr, "[");
        arg->a = left;
        arg->prio = 0;
        lex_next(lx);
        ft_node *idx = new_node(c, N_NONE);
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

/* ---- evaluation ----------------------------------------------------------------------------- */


static uint64_t read_field(const rctx *r, const ft_field *fl)
{
    if (fl->offset + (size_t)fl->size > r->size)
        return 0;
    return ft_read_num(r->f, r->data + fl->offset, fl->size);
}

/* Offset and length of a dynamic field's data, bounded by the record. */
static bool dyn_loc(const rctx *r, const ft_field *fl, size_t *off, size_t *len)
{
    if (fl->offset + (size_t)fl->size > r->size)
        return false;
    uint64_t v = ft_read_num(r->f, r->data + fl->offset, fl->size);
    size_t o = (size_t)(v & 0xffff), l = (size_t)((v >> 16) & 0xffff);
    if (fl->flags & FT_F_RELATIVE)
        o += fl->offset + fl->size;
    if (o > r->size)
        return false;
    if (l > r->size - o)
        l = r->size - o;
    *off = o;
    *len = l;
    return true;
}

static uint64_t eval(const rctx *r, const ft_node *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case N_NUM:
    case N_ATOM:
        return n->num;
    case N_FIELD:
        return read_field(r, n->field);
    case N_CAST: {
        uint64_t v = eval(r, n->a);
        return n->num ? v & n->num : v;
    }
    case N_BIN: {
        const char *op = n->opstr;
        if (op[0] == '[' ) {
            uint64_t idx = eval(r, n->b);
            const ft_node *base = n->a, *typearg = NULL;
            while (base && base->kind == N_CAST) {
                if (!typearg)
                    typearg = base;
                base = base->a;
            }
            size_t esize = (size_t)r->f->long_size, off;
            if (base && base->kind == N_DYNARR && base->field) {
                if (base->field->offset + (size_t)base->field->size > r->size)
                    return 0;
                off = (size_t)(ft_read_num(r->f, r->data + base->field->offset,
                                           base->field->size) & 0xffff);
                if (base->field->elem_size)
                    esize = base->field->elem_size;
                off += (size_t)idx;
            } else if (base && base->kind == N_FIELD) {
                esize = base->field->elem_size;
                off = base->field->offset + (size_t)idx * esize;
            } else {
                return 0;
            }
            if (idx > r->size || off > r->size || esize > r->size - off)
                return 0;
            uint64_t v = ft_read_num(r->f, r->data + off, (uint32_t)esize);
            if (typearg) {
                size_t tl = strlen(typearg->str);
                if (tl >= 2 && typearg->str[tl - 1] == '*') {
                    uint64_t m = cast_mask(typearg->str, tl - 2);
                    if (m)
                        v &= m;
                }
            }
            return v;
        }
        if (op[0] == '?' && !op[1]) {
            const ft_node *colon = n->b;
            if (!colon)
                return 0;
            return eval(r, n->a) ? eval(r, colon->a) : eval(r, colon->b);
        }
        /* unsigned long long throughout, as libtraceevent evaluates */
        uint64_t a = eval(r, n->a), b = eval(r, n->b);
        switch (op[0]) {
        case '!':
            return op[1] == '=' ? a != b : !b;
        case '~':
            return ~b;
        case '|':
            return op[1] ? (a || b) : (a | b);
        case '&':
            return op[1] ? (a && b) : (a & b);
        case '<':
            if (op[1] == '<')
                return a << (b & 63); /* x86 takes the count modulo 64 */
            return op[1] == '=' ? a <= b : a < b;
        case '>':
            if (op[1] == '>')
                return a >> (b & 63);
            return op[1] == '=' ? a >= b : a > b;
        case '=':
            return a == b;
        case '-':
            return a - b;
        case '+':
            return a + b;
        case '*':
            return a * b;
        case '/':
            return b ? a / b : 0;
        case '%':
            return b ? a % b : 0;
        case '^':
            return a ^ b;
        }
        return 0;
    }
    case N_DYNLEN:
        if (!n->field || n->field->offset + (size_t)n->field->size > r->size)
            return 0;
        return ft_read_num(r->f, r->data + n->field->offset, n->field->size) >> 16 & 0xffff;
    default:
        return 0;
    }
}

static uint64_t flag_value_of(ft_node *n, bool *ok)
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
        long long v = (long long)eval(&r, n);
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

/* ---- output helpers ------------------------------------------------------------------------ */

static void put_printf_num(ft_sink *out, const pf_item *it, int plen, uint64_t val)
{
    char buf[128];
    int n;
    const char *fmt = it->text;
    if (plen >= 0) {
        switch (it->ls) {
        case -2: n = snprintf(buf, sizeof buf, fmt, plen, (char)val); break;
        case -1: n = snprintf(buf, sizeof buf, fmt, plen, (short)val); break;
        case 0: n = snprintf(buf, sizeof buf, fmt, plen, (int)val); break;
        case 1: n = snprintf(buf, sizeof buf, fmt, plen, (long)val); break;
        default: n = snprintf(buf, sizeof buf, fmt, plen, (long long)val); break;
        }
    } else {
        switch (it->ls) {
        case -2: n = snprintf(buf, sizeof buf, fmt, (char)val); break;
        case -1: n = snprintf(buf, sizeof buf, fmt, (short)val); break;
        case 0: n = snprintf(buf, sizeof buf, fmt, (int)val); break;
        case 1: n = snprintf(buf, sizeof buf, fmt, (long)val); break;
        default: n = snprintf(buf, sizeof buf, fmt, (long long)val); break;
        }
    }
    if (n > 0)
        sk_put(out, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static const char dec_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

static const char hex_pairs[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static size_t dec_len(uint64_t v)
{
    size_t n = 1;
    for (;;) {
        if (v < 10)
            return n;
        if (v < 100)
            return n + 1;
        if (v < 1000)
            return n + 2;
        if (v < 10000)
            return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* The fast conversions ("%d", "%08lx", "%llu" ...): the digit count is known first, so the
 * padding and the digits are written straight into the sink, last digit first. */
static inline __attribute__((always_inline)) void put_num(ft_sink *out, const pf_item *it,
                                                         int plen, uint64_t val)
{
    if (it->fast && plen < 0) {
        uint64_t v = val;
        switch (it->ls) {
        case -2: v = (uint8_t)v; break;
        case -1: v = (uint16_t)v; break;
        case 0: v = (uint32_t)v; break;
        default: break;
        }
        bool neg = false;
        if (it->fast == 'd') {
            int64_t sv = it->ls == -2 ? (int8_t)v : it->ls == -1 ? (int16_t)v
                       : it->ls == 0 ? (int32_t)v : (int64_t)v;
            neg = sv < 0;
            v = neg ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv;
        }
        size_t nd = it->fast == 'x' ? (size_t)(67 - __builtin_clzll(v | 1)) / 4 : dec_len(v);
        size_t len = nd + neg;
        size_t pad = it->width > 0 && (size_t)it->width > len ? (size_t)it->width - len : 0;
        /* width < 64 and at most 20 digits: 100 bytes are enough */
        if (sizeof out->b - out->n < 100)
            sk_flush(out);
        char *w = out->b + out->n;
        if (!it->zero)
            for (; pad; pad--)
                *w++ = ' ';
        if (neg)
            *w++ = '-';
        for (; pad; pad--)
            *w++ = '0';
        char *e = w + nd;
        out->n = (size_t)(e - out->b);
        if (it->fast == 'x') {
            while (e - w >= 2) {
                unsigned r = (unsigned)(v & 0xff);
                v >>= 8;
                e -= 2;
                e[0] = hex_pairs[2 * r];
                e[1] = hex_pairs[2 * r + 1];
            }
            if (e > w)
                *--e = hex_pairs[2 * (v & 15) + 1];
        } else {
            while (v >= 100) {
                unsigned r = (unsigned)(v % 100);
                v /= 100;
                e -= 2;
                e[0] = dec_pairs[2 * r];
                e[1] = dec_pairs[2 * r + 1];
            }
            if (v >= 10) {
                e -= 2;
                e[0] = dec_pairs[2 * v];
                e[1] = dec_pairs[2 * v + 1];
            } else {
                *--e = (char)('0' + v);
            }
        }
        return;
    }
    put_printf_num(out, it, plen, val);
}

/* print_str_to_seq: the string through the conversion (width, precision, '-'). */
/* strip: the string ends the event's text, where trace-cmd drops one trailing newline */
static void put_str(ft_sink *out, const pf_item *it, int plen, const char *s, size_t n, bool strip)
{
    size_t l = strnlen(s, n);
    if (strip && l && s[l - 1] == '\n')
        l--;
    if (!it || (it->text_len == 2 && plen < 0)) { /* plain "%s" */
        sk_put(out, s, l);
        return;
    }
    char tmp[4096];
    if (l >= sizeof tmp)
        l = sizeof tmp - 1;
    memcpy(tmp, s, l);
    tmp[l] = 0;
    char buf[8192];
    int k = plen >= 0 ? snprintf(buf, sizeof buf, it->text, plen, tmp)
                      : snprintf(buf, sizeof buf, it->text, tmp);
    if (k > 0)
        sk_put(out, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

static void put_hex0x(ft_sink *out, uint64_t v)
{
    sk_puts(out, "0x");
    sk_hex(out, v);
}

static void put_glibc_ptr(ft_sink *out, uint64_t v)
{
    if (!v)
        sk_puts(out, "(nil)");
    else
        put_hex0x(out, v);
}

static void print_bitmask(const rctx *r, ft_sink *out, const pf_item *it, int plen,
                          const uint8_t *data, size_t size)
{
    if (size > 1024)
        size = 1024;
    size_t nr_bits = size * 8;
    size_t str_size = (nr_bits + 3) / 4 + (nr_bits ? (nr_bits - 1) / 32 : 0);
    char str[4096];
    if (str_size >= sizeof str)
        return;
    str[str_size] = 0;
    size_t len = 0;
    for (long i = (long)str_size - 2; i >= 0; i -= 2) {
        size_t index = r->f->big_endian ? size - (len + 1) : len;
        static const char hx[] = "0123456789abcdef";
        str[i] = hx[data[index] >> 4];
        str[i + 1] = hx[data[index] & 15];
        len++;
        if (!(len & 3) && i > 0) {
            i--;
            str[i] = ',';
        }
    }
    put_str(out, it, plen, str, str_size, r->strip_nl);
}

static void print_str_arg(const rctx *r, ft_sink *out, const pf_item *it, int plen,
                          const ft_node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_ATOM:
    case N_BSTR:
        put_str(out, it, plen, n->str, SIZE_MAX, r->strip_nl);
        return;
    case N_FIELD: {
        const ft_field *fl = n->field;
        if (!(fl->flags & FT_F_ARRAY) && fl->size == (uint32_t)r->f->long_size) {
            uint64_t addr = read_field(r, fl);
            const char *pk = ft_find_printk(r->f, addr);
            if (pk)
                sk_puts(out, pk);
            else
                sk_hex(out, addr);
            return;
        }
        if (fl->offset > r->size)
            return;
        size_t len = fl->size ? fl->size : r->size - fl->offset;
        if (len > r->size - fl->offset)
            len = r->size - fl->offset;
        put_str(out, it, plen, (const char *)r->data + fl->offset, len, r->strip_nl);
        return;
    }
    case N_FLAGS: {
        uint64_t val = eval(r, n->a);
        bool print = false;
        for (size_t i = 0; i < n->n_syms; i++) {
            uint64_t fv = n->syms[i].value;
            /* values are long long: a name libtraceevent does not know is -1 */
            if (!val && (int64_t)fv < 0) {
                put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                break;
            }
            if ((int64_t)fv > 0 && (val & fv) == fv) {
                if (print && n->str)
                    sk_puts(out, n->str);
                put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                print = true;
                val &= ~fv;
            }
        }
        if (val) {
            if (print && n->str)
                sk_puts(out, n->str);
            put_hex0x(out, val);
        }
        return;
    }
    case N_SYM: {
        uint64_t val = eval(r, n->a);
        for (size_t i = 0; i < n->n_syms; i++)
            if (n->syms[i].value == val) {
                put_str(out, it, plen, n->syms[i].str, SIZE_MAX, r->strip_nl);
                return;
            }
        put_hex0x(out, val);
        return;
    }
    case N_HEX:
    case N_HEXSTR:
    case N_ARRAY: {
        const ft_node *base = n->a;
        size_t off, avail;
        if (base && base->kind == N_DYNARR && base->field) {
            size_t l;
            if (!dyn_loc(r, base->field, &off, &l))
                return;
            /* libtraceevent ignores the relative part here */
            off = (size_t)(read_field(r, base->field) & 0xffff);
        } else if (base && base->kind == N_FIELD) {
            off = base->field->offset;
        } else {
            return;
        }
        if (off > r->size)
            return;
        avail = r->size - off;
        const uint8_t *p = r->data + off;
        uint64_t len = eval(r, n->b);
        if (n->kind != N_ARRAY) {
            for (uint64_t i = 0; i < len && i < avail; i++) {
                if (i && n->kind == N_HEX)
                    sk_putc(out, ' ');
                static const char hx[] = "0123456789abcdef";
                sk_putc(out, hx[p[i] >> 4]);
                sk_putc(out, hx[p[i] & 15]);
            }
            return;
        }
        uint64_t el = eval(r, n->c);
        for (uint64_t i = 0; i < len; i++) {
            if (i)
                sk_putc(out, ' ');
            size_t es = (el == 1 || el == 2 || el == 4 || el == 8) ? (size_t)el : 1;
            if (es > avail)
                return;
            /* host-order load, as libtraceevent does */
            uint64_t v = 0;
            if (es == 1)
                v = p[0];
            else if (es == 2) {
                uint16_t t;
                memcpy(&t, p, 2);
                v = t;
            } else if (es == 4) {
                uint32_t t;
                memcpy(&t, p, 4);
                v = t;
            } else {
                memcpy(&v, p, 8);
            }
            if (es != (size_t)el) {
                sk_printf(out, "BAD SIZE:%d 0x%x", (int)el, p[0]);
            } else {
                sk_u64(out, v);
            }
            p += es;
            avail -= es;
        }
        return;
    }
    case N_GETSTR: {
        size_t off, len;
        if (!n->field || !dyn_loc(r, n->field, &off, &len))
            return;
        put_str(out, it, plen, (const char *)r->data + off, r->size - off, r->strip_nl);
        return;
    }
    case N_BITMASK: {
        size_t off, len;
        if (!n->field || !dyn_loc(r, n->field, &off, &len))
            return;
        print_bitmask(r, out, it, plen, r->data + off, len);
        return;
    }
    case N_BIN:
        /* the only op for a string is ?: */
        if (n->opstr[0] == '?' && n->b)
            print_str_arg(r, out, it, plen, eval(r, n->a) ? n->b->a : n->b->b);
        return;
    default:
        return;
    }
}

static void print_function(const rctx *r, ft_sink *out, char pch, uint64_t val)
{
    const ft_func *fn = ft_find_func(r->f, val);
    if (fn) {
        sk_puts(out, fn->name);
        if (pch == 'F' || pch == 'S') {
            sk_puts(out, "+0x");
            sk_hex(out, val - fn->addr);
        }
        return;
    }
    if (r->f->long_size == 4)
        val = (uint64_t)(long)val;
    put_hex0x(out, val);
}

static void print_pointer(const rctx *r, ft_sink *out, const pf_item *it, int plen)
{
    const ft_node *a = it->arg;
    if (a && a->kind == N_BSTR) {
        sk_puts(out, a->str);
        return;
    }
    switch (it->pch) {
    case 'F': case 'f': case 'S': case 's':
        print_function(r, out, it->pch, eval(r, a));
        return;
    case 'M': case 'm': {
        if (!a || a->kind != N_FIELD) {
            sk_printf(out, "ARG TYPE NOT FIELD BUT %d", a ? 1 : 0);
            return;
        }
        if (a->field->size != 6 || a->field->offset + 6 > r->size) {
            sk_puts(out, "INVALIDMAC");
            return;
        }
        const uint8_t *b = r->data + a->field->offset;
        const char *sep = it->pch == 'm' ? "" : it->pch2 == 'F' ? "-" : ":";
        bool rev = it->pch2 == 'R';
        for (int i = 0; i < 6; i++) {
            if (i)
                sk_puts(out, sep);
            uint8_t v = b[rev ? 5 - i : i];
            static const char hx[] = "0123456789abcdef";
            sk_putc(out, hx[v >> 4]);
            sk_putc(out, hx[v & 15]);
        }
        return;
    }
    case 'I': case 'i':
        if (it->pch2 == '4' && a && a->kind == N_FIELD && a->field->size >= 4 &&
            a->field->offset + 4 <= r->size) {
            const uint8_t *b = r->data + a->field->offset;
            sk_printf(out, "%d.%d.%d.%d", b[0], b[1], b[2], b[3]);
            return;
        }
        put_glibc_ptr(out, eval(r, a));
        return;
    default:
        (void)plen;
        put_glibc_ptr(out, eval(r, a));
        return;
    }
}

/* ---- compiling the format string ----------------------------------------------------------- */

static pf_item *add_item(struct ft_pf *pf)
{
    if (pf->n == pf->cap) {
        size_t cap = pf->cap ? pf->cap * 2 : 8;
        pf_item *ni = realloc(pf->items, cap * sizeof *ni);
        if (!ni)
            return NULL;
        pf->items = ni;
        pf->cap = cap;
    }
    pf_item *it = &pf->items[pf->n++];
    memset(it, 0, sizeof *it);
    return it;
}

/* parse_arg_format_pointer: how many letters after %p belong to the conversion */
static int pointer_ext(const char *f)
{
    int ret = 0, index, loop;
    switch (*f) {
    case 'F': case 'S': case 'f': case 's':
        return 1;
    case 'M': case 'm':
        return (f[1] == 'R' || f[1] == 'F') ? 2 : 1;
    case 'I': case 'i':
        index = 2;
        loop = 1;
        switch (f[1]) {
        case 'S':
            while (loop) {
                switch (f[index]) {
                case 'p': case 'f': case 's':
                    ret++;
                    index++;
                    break;
                default:
                    loop = 0;
                    break;
                }
            }
            /* fall through */
        case '4':
            switch (f[index]) {
            case 'h': case 'n': case 'l': case 'b':
                ret++;
                index++;
                break;
            }
            if (f[1] == '4') {
                ret++;
                break;
            }
            /* fall through */
        case '6':
            if (f[index] == 'c')
                ret++;
            ret++;
            break;
        }
        ret++;
        break;
    case 'U':
        if (f[1] == 'L' || f[1] == 'l' || f[1] == 'B' || f[1] == 'b')
            ret++;
        ret++;
        break;
    case 'h':
        if (f[1] == 'C' || f[1] == 'D' || f[1] == 'N')
            ret++;
        ret++;
        break;
    default:
        break;
    }
    return ret;
}

typedef struct argv_list {
    ft_node **v;
    size_t n, i;
} argv_list;

static ft_node *next_arg(argv_list *a) { return a->i < a->n ? a->v[a->i++] : NULL; }

static char *dup_n(struct ft_pf *pf, const char *s, size_t n)
{
    return tg_arena_strndup(&pf->arena, s, n);
}

/* A literal's copy with 16 zero bytes after it: rendering copies a short literal with one
 * fixed 16-byte move (see put_text). */
#define TEXT_PAD 16
static char *dup_text(struct ft_pf *pf, const char *s, size_t n)
{
    if (n > SIZE_MAX - TEXT_PAD - 1)
        return NULL;
    char *p = tg_arena_alloc(&pf->arena, n + TEXT_PAD + 1); /* zeroed */
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Splits the format into items like libtraceevent's parse_args. */
static int compile_format(struct ft_pf *pf, const char *fmt, argv_list *args)
{
    const char *p = fmt;
    char lit[4096];
    while (*p) {
        if (*p == '%' && p[1] != '%') {
            const char *start = p;
            int ls = 0;
            ft_node *len_arg = NULL;
            p++;
            for (;; p++) {
                char ch = *p;
                if (!ch) {
                    return 0; /* dangling conversion: ignored */
                }
                if (ch == '#' || ch == '.' || ch == 'z' || ch == 'Z' || ch == '-' ||
                    (ch >= '0' && ch <= '9'))
                    continue;
                if (ch == 'h') {
                    ls--;
                    continue;
                }
                if (ch == 'l') {
                    ls++;
                    continue;
                }
                if (ch == 'L') {
                    ls = 2;
                    continue;
                }
                if (ch == '*') {
                    if (args->i >= args->n || len_arg)
                        return -1;
                    len_arg = next_arg(args);
                    continue;
                }
                pf_item *it;
                if (ch == 'p') {
                    if (args->i >= args->n)
                        return -1;
                    int ext = pointer_ext(p + 1);
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_PTR;
                    it->pch = ext > 0 ? p[1] : 0;
                    it->pch2 = ext > 1 ? p[2] : 0;
                    p += ext;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->ls = ls;
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    p++;
                    break;
                }
                if (ch == 'd' || ch == 'u' || ch == 'i' || ch == 'x' || ch == 'X' || ch == 'o') {
                    if (args->i >= args->n)
                        return -1;
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_DIGIT;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->text_len = (size_t)(p + 1 - start);
                    it->ls = ls;
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    /* "%d", "%ld", "%08lx", "%03d", "%llu" ... go without printf */
                    const char *q = it->text + 1;
                    if (*q == '0') {
                        it->zero = true;
                        q++;
                    }
                    while (*q >= '0' && *q <= '9' && it->width < 64)
                        it->width = it->width * 10 + (*q++ - '0');
                    while (*q == 'l' || *q == 'h' || *q == 'L' || *q == 'z')
                        q++;
                    if (q == it->text + it->text_len - 1 && !len_arg)
                        it->fast = (ch == 'd' || ch == 'i') ? 'd' : ch == 'u' ? 'u' : ch == 'x' ? 'x' : 0;
                    if (it->fast && ls < -2)
                        it->fast = 0;
                    if (ls > 2 || ls < -2)
                        return -1;
                    p++;
                    break;
                }
                if (ch == 's') {
                    if (args->i >= args->n)
                        return -1;
                    it = add_item(pf);
                    if (!it)
                        return -1;
                    it->type = IT_STR;
                    it->text = dup_n(pf, start, (size_t)(p + 1 - start));
                    it->text_len = (size_t)(p + 1 - start);
                    it->arg = next_arg(args);
                    it->len_arg = len_arg;
                    p++;
                    break;
                }
                /* anything else prints as ">c<" */
                it = add_item(pf);
                if (!it)
                    return -1;
                it->type = IT_TEXT;
                char t[4] = {'>', ch, '<', 0};
                it->text = dup_text(pf, t, 3);
                it->text_len = 3;
                p++;
                break;
            }
            continue;
        }
        /* literal text with escapes, up to the next conversion */
        size_t n = 0;
        while (*p && n < sizeof lit - 1) {
            if (*p == '\\') {
                p++;
                char e = *p;
                if (!e)
                    break;
                lit[n++] = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
                p++;
            } else if (*p == '%') {
                if (p[1] == '%') {
                    lit[n++] = '%';
                    p += 2;
                } else {
                    break;
                }
            } else {
                lit[n++] = *p++;
            }
        }
        pf_item *it = add_item(pf);
        if (!it)
            return -1;
        it->type = IT_TEXT;
        it->text = dup_text(pf, lit, n);
        it->text_len = n;
    }
    return 0;
}

static struct ft_pf *pf_new(void)
{
    struct ft_pf *pf = calloc(1, sizeof *pf);
    if (pf)
        tg_arena_init(&pf->arena);
    return pf;
}

/* An argument eval would read as one field (N_FIELD: read_field) or as a constant element
 * of an array field (the '[' operator on an uncast N_FIELD) is read directly when rendering,
 * with the same bounds checks. */
static void set_direct(pf_item *it)
{
    const ft_node *n = it->arg;
    if (it->type != IT_DIGIT || !n)
        return;
    if (n->kind == N_FIELD && n->field) {
        it->direct = true;
        it->d_off = n->field->offset;
        it->d_size = n->field->size;
        it->d_idx = 0;
    } else if (n->kind == N_BIN && n->opstr[0] == '[' && n->a && n->a->kind == N_FIELD &&
               n->a->field && n->b && (n->b->kind == N_NUM || n->b->kind == N_ATOM)) {
        uint64_t idx = n->b->num, esize = n->a->field->elem_size;
        if (idx > UINT32_MAX || esize > UINT32_MAX)
            return;
        it->direct = true;
        it->d_idx = idx;
        it->d_off = n->a->field->offset + idx * esize;
        it->d_size = (uint32_t)esize;
    }
}

static uint64_t read_direct(const rctx *r, const pf_item *it)
{
    if (it->d_idx > r->size || it->d_off > r->size || it->d_size > r->size - it->d_off)
        return 0;
    const uint8_t *p = r->data + it->d_off;
    if (!r->f->big_endian) {
        switch (it->d_size) {
        case 1: return p[0];
        case 2: return tg_le16(p);
        case 4: return tg_le32(p);
        case 8: return tg_le64(p);
        default: return 0;
        }
    }
    return ft_read_num(r->f, p, it->d_size);
}

/* Compiles "fmt", args into e->pf. */
static struct ft_pf *compile_event(const ft_event *e)
{
    struct ft_pf *pf = pf_new();
    if (!pf)
        return NULL;
    pctx c;
    memset(&c, 0, sizeof c);
    c.ev = e;
    c.pf = pf;
    c.lx.p = e->print_fmt;
    c.lx.end = e->print_fmt + strlen(e->print_fmt);
    lex_next(&c.lx);
    if (c.lx.type != T_STR) {
        pf->failed = true;
        return pf;
    }
    /* the format: one or more adjacent string literals */
    size_t cap = 256, n = 0;
    char *fmt = malloc(cap);
    while (fmt && c.lx.type == T_STR) {
        size_t l = c.lx.len - 2;
        if (n + l + 1 > cap) {
            cap = (n + l + 1) * 2;
            char *nf = realloc(fmt, cap);
            if (!nf) {
                free(fmt);
                fmt = NULL;
                break;
            }
            fmt = nf;
        }
        memcpy(fmt + n, c.lx.tok + 1, l);
        n += l;
        lex_next(&c.lx);
    }
    if (!fmt) {
        pf->failed = true;
        return pf;
    }
    fmt[n] = 0;
    if (memchr(fmt, '\t', n)) {
        /* trace-cmd fails to parse a print fmt with a literal tab in its format */
        free(fmt);
        pf->failed = true;
        return pf;
    }
    ft_node *argv[128];
    argv_list args = {argv, 0, 0};
    while (!c.fail && is_tok(&c.lx, ",")) {
        lex_next(&c.lx);
        ft_node *a = new_node(&c, N_NONE);
        if (!a)
            break;
        p_item(&c, a);
        if (!c.fail && tok_kind(&c.lx) == K_OP)
            p_op(&c, a);
        if (c.fail || args.n >= 128)
            break;
        argv[args.n++] = a;
    }
    if (c.fail || c.lx.type != T_END || compile_format(pf, fmt, &args) < 0)
        pf->failed = true;
    for (size_t i = 0; !pf->failed && i < pf->n; i++)
        set_direct(&pf->items[i]);
    free(fmt);
    return pf;
}

/* ---- rendering ------------------------------------------------------------------------------ */

static void render_items(const rctx *r0, const struct ft_pf *pf, ft_sink *out)
{
    rctx last = *r0;
    last.strip_nl = true;
    for (size_t i = 0; i < pf->n; i++) {
        const pf_item *it = &pf->items[i];
        const rctx *r = i + 1 == pf->n ? &last : r0;
        int plen = it->len_arg ? (int)eval(r, it->len_arg) : -1;
        switch (it->type) {
        case IT_TEXT: {
            size_t n = it->text_len -
                       (r->strip_nl && it->text_len && it->text[it->text_len - 1] == '\n');
            if (n <= TEXT_PAD && sizeof out->b - out->n >= TEXT_PAD) {
                memcpy(out->b + out->n, it->text, TEXT_PAD); /* padded: see dup_text */
                out->n += n;
            } else {
                sk_put(out, it->text, n);
            }
            break;
        }
        case IT_DIGIT:
            put_num(out, it, plen, it->direct ? read_direct(r, it) : eval(r, it->arg));
            break;
        case IT_PTR:
            print_pointer(r, out, it, plen);
            break;
        case IT_STR:
            print_str_arg(r, out, it, plen, it->arg);
            break;
        }
    }
}

/* bprint: the format comes from the printk table, the arguments from the binary buffer. */
static void render_bprint(const rctx *r, ft_sink *out)
{
    const ft_event *e = r->ev;
    const ft_field *ipf = ft_find_field(e, "ip"), *fmtf = ft_find_field(e, "fmt"),
                   *buff = ft_find_field(e, "buf");
    if (!ipf || !fmtf || !buff)
        return;
    uint64_t ip = read_field(r, ipf);
    uint64_t faddr = read_field(r, fmtf);
    const char *pk = ft_find_printk(r->f, faddr);
    char *fmt;
    char nf[96];
    if (pk) {
        size_t l = strlen(pk);
        fmt = malloc(l + 6);
        if (!fmt)
            return;
        memcpy(fmt, "%ps: ", 5);
        memcpy(fmt + 5, pk, l + 1);
    } else {
        snprintf(nf, sizeof nf, "%%ps: (NO FORMAT FOUND at %llx)\n", (unsigned long long)faddr);
        fmt = strdup(nf);
        if (!fmt)
            return;
    }
    struct ft_pf *pf = pf_new();
    if (!pf) {
        free(fmt);
        return;
    }
    ft_node *argv[64];
    size_t na = 0;
    ft_node *ipn = tg_arena_alloc(&pf->arena, sizeof *ipn);
    if (ipn) {
        ipn->kind = N_ATOM;
        ipn->num = ip;
        ipn->str = "";
        argv[na++] = ipn;
    }
    /* make_bprint_args: walk the printk format, reading values 4-byte aligned */
    size_t bp = buff->offset;
    const char *p = pk ? pk : "";
    for (; bp < r->size && *p && na < 64; p++) {
        if (*p != '%')
            continue;
        int ls = 0;
        bool done = false;
        while (!done) {
            p++;
            char ch = *p;
            size_t vsize = 0;
            bool is_str = false;
            if (!ch) {
                p--;
                break;
            }
            switch (ch) {
            case '%':
                done = true;
                continue;
            case 'l':
                ls++;
                continue;
            case 'L':
                ls = 2;
                continue;
            case '.':
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            case '8': case '9':
                continue;
            case 'z': case 'Z':
                ls = 1;
                continue;
            case 'p':
                ls = 1;
                if (isalnum((unsigned char)p[1])) {
                    p++;
                    char pc = *p;
                    if (pc == 's' || pc == 'S' || pc == 'x')
                        ;
                    else if ((pc == 'f' || pc == 'F') && p[1] != 'w')
                        ;
                    else if (bp < r->size && isprint(r->data[bp]))
                        is_str = true;
                }
                /* fall through */
            case 'd': case 'u': case 'i': case 'x': case 'X': case 'o':
                vsize = ls == 0 ? 4 : ls == 1 ? (size_t)r->f->long_size : ls == 2 ? 8 : (size_t)ls;
                /* fall through */
            case '*':
                if (is_str)
                    goto string;
                if (ch == '*')
                    vsize = 4;
                bp = (bp + 3) & ~(size_t)3;
                {
                    uint64_t val = 0;
                    if (bp <= r->size && vsize <= r->size - bp &&
                        (vsize == 1 || vsize == 2 || vsize == 4 || vsize == 8))
                        val = ft_read_num(r->f, r->data + bp, (uint32_t)vsize);
                    bp += vsize;
                    ft_node *n = tg_arena_alloc(&pf->arena, sizeof *n);
                    if (!n)
                        goto out;
                    n->kind = N_ATOM;
                    n->num = val;
                    n->str = "";
                    argv[na++] = n;
                }
                if (ch == '*')
                    continue;
                done = true;
                continue;
            case 's':
            string: {
                ft_node *n = tg_arena_alloc(&pf->arena, sizeof *n);
                if (!n)
                    goto out;
                n->kind = N_BSTR;
                size_t avail = bp < r->size ? r->size - bp : 0;
                size_t l = avail ? strnlen((const char *)r->data + bp, avail) : 0;
                n->str = tg_arena_strndup(&pf->arena, avail ? (const char *)r->data + bp : "", l);
                if (!n->str)
                    goto out;
                bp += l + 1;
                argv[na++] = n;
                done = true;
                continue;
            }
            default:
                done = true;
                continue;
            }
        }
    }
    {
        argv_list args = {argv, na, 0};
        if (compile_format(pf, fmt, &args) == 0)
            render_items(r, pf, out);
    }
out:
    ft_pf_free(pf);
    free(fmt);
}

static void render_raw(const ft_event *e, const uint8_t *data, size_t size, ft_sink *out);

static void render_info(const ft_event *e, const uint8_t *data, size_t size, ft_sink *out)
{
    rctx r = {e, e->file, data, size};
    if (e->file->raw) {
        render_raw(e, data, size, out);
        return;
    }
    if (e->plugin) {
        /* plugins write to the tg_buf directly: nothing is pending in the sink yet (the
         * event's text starts here) */
        if (!ft_plugin_render(e, data, size, out->out))
            return;
    }
    if (e->is_bprint) {
        render_bprint(&r, out);
        return;
    }
    if (!e->pf_state) {
        /* compiled on first use; the event format is otherwise immutable */
        ft_event *me = (ft_event *)e;
        me->pf = e->print_fmt ? compile_event(e) : NULL;
        me->pf_state = (me->pf && !me->pf->failed) ? 1 : -1;
    }
    if (e->pf_state < 0) {
        sk_puts(out, "[FAILED TO PARSE]");
        render_raw(e, data, size, out);
        return;
    }
    render_items(&r, e->pf, out);
}

/* The event's text as trace-cmd prints it.  A trailing newline (a trace_marker string ends
 * with one) is dropped as trace-cmd drops it: the last item of the text is printed without
 * it (rctx.strip_nl), so the text goes straight into out. */
int ft_render(const ft_event *e, const uint8_t *data, size_t size, tg_buf *out)
{
    ft_sink o;
    o.out = out;
    o.n = 0;
    render_info(e, data, size, &o);
    sk_flush(&o);
    return 1;
}

/* ---- raw fields (trace-cmd report -R) ------------------------------------------------------- */

static bool printable_array(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len && p[i]; i++)
        if (!isprint(p[i]) && !isspace(p[i]))
            return false;
    return true;
}

static void raw_default(const rctx *r, const ft_field *fl, ft_sink *out)
{
    if (fl->flags & FT_F_ARRAY) {
        size_t off = fl->offset, len = fl->size;
        if (fl->flags & FT_F_DYNAMIC) {
            if (!dyn_loc(r, fl, &off, &len))
                return;
        } else if (off > r->size) {
            return;
        } else if (len > r->size - off) {
            len = r->size - off;
        }
        const uint8_t *p = r->data + off;
        if ((fl->flags & FT_F_STRING) && printable_array(p, len)) {
            /* "%s": up to the NUL, even past a zero-sized "char buf[]" */
            size_t l = strnlen((const char *)p, r->size - off);
            if (r->strip_nl && l && p[l - 1] == '\n')
                l--;
            sk_put(out, p, l);
        } else {
            sk_puts(out, "ARRAY[");
            static const char hx[] = "0123456789abcdef";
            for (size_t i = 0; i < len; i++) {
                if (i)
                    sk_puts(out, ", ");
                sk_putc(out, hx[p[i] >> 4]);
                sk_putc(out, hx[p[i] & 15]);
            }
            sk_putc(out, ']');
        }
        return;
    }
    uint64_t v = read_field(r, fl);
    if (fl->flags & FT_F_POINTER) {
        put_hex0x(out, v);
    } else if (fl->flags & FT_F_SIGNED) {
        switch (fl->size) {
        case 4:
            if (fl->flags & FT_F_LONG) {
                put_hex0x(out, (uint32_t)v);
            } else {
                sk_i64(out, (int32_t)v);
            }
            break;
        case 2:
            sk_printf(out, "%2d", (short)v);
            break;
        case 1:
            sk_printf(out, "%1d", (signed char)v);
            break;
        default:
            sk_i64(out, (int64_t)v);
        }
    } else if (fl->flags & FT_F_LONG) {
        put_hex0x(out, v);
    } else {
        sk_u64(out, v);
    }
}

static void render_raw(const ft_event *e, const uint8_t *data, size_t size, ft_sink *out)
{
    rctx r = {e, e->file, data, size};
    if (!e->pf_state) {
        ft_event *me = (ft_event *)e;
        me->pf = e->print_fmt && !e->is_bprint ? compile_event(e) : NULL;
        me->pf_state = (me->pf && !me->pf->failed) ? 1 : -1;
    }
    const struct ft_pf *pf = e->pf_state > 0 ? e->pf : NULL;
    size_t pos = 0;
    for (size_t i = 0; i < e->n_fields; i++) {
        const ft_field *fl = &e->fields[i];
        r.strip_nl = i + 1 == e->n_fields;
        sk_putc(out, ' ');
        sk_puts(out, fl->name);
        sk_putc(out, '=');
        bool done = false;
        if (pf && pf->n && !(fl->flags & FT_F_ARRAY)) {
            /* the conversion the print fmt applies to this very field, if any: searched
             * round the format from after the previous match (once a match was the last
             * conversion, libtraceevent's cursor is NULL and nothing matches any more) */
            bool has_0x = false;
            size_t k = pos;
            if (pos < pf->n) {
                do {
                    const pf_item *it = &pf->items[k];
                    size_t nk = k + 1 < pf->n ? k + 1 : 0;
                    if (it->type == IT_TEXT) {
                        has_0x = it->text_len >= 2 &&
                                 memcmp(it->text + it->text_len - 2, "0x", 2) == 0;
                        k = nk;
                        continue;
                    }
                    const ft_node *a = it->arg;
                    while (a && a->kind == N_CAST)
                        a = a->a;
                    if (a && a->kind == N_FIELD && a->field == fl) {
                        if (has_0x)
                            sk_puts(out, "0x");
                        int plen = it->len_arg ? (int)eval(&r, it->len_arg) : -1;
                        if (it->type == IT_DIGIT)
                            put_num(out, it, plen, eval(&r, it->arg));
                        else if (it->type == IT_PTR)
                            print_pointer(&r, out, it, plen);
                        else
                            print_str_arg(&r, out, it, plen, it->arg);
                        done = true;
                        pos = k + 1;
                        break;
                    }
                    k = nk;
                } while (k != pos);
            }
        }
        if (!done)
            raw_default(&r, fl, out);
    }
}

void ft_render_raw(const ft_event *e, const uint8_t *data, size_t size, tg_buf *out)
{
    ft_sink o;
    o.out = out;
    o.n = 0;
    render_raw(e, data, size, &o);
    sk_flush(&o);
}
