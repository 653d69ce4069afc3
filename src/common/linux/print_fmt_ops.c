/* print_fmt_ops.c - a print fmt's items compiled into ops, each in the shape it has.
 *
 * The fast plan (print_fmt_compile.c) covers a text of literals and plain numbers only.  Any
 * other print fmt (the kmem events' "%pS", "%p", "__get_str(name)", "__print_flags(...)",
 * "__print_symbolic(...)", "cond ? \"true\" : \"false\"") runs as a program of ops whose
 * decisions are taken once per event format instead of once per record: which conversion,
 * which field is read where (a direct read with eval's own bounds checks, or the expression
 * evaluated), a constant string folded into text, the flag and symbol names' lengths, the
 * trailing newline of the last item.  Each op prints exactly what the interpreter
 * (render_items and the print_str_arg walk of print_fmt_print.c) prints for its item; a shape
 * not compiled here (widths, '*' lengths, MAC and IP addresses, hex dumps, bitmasks) is an
 * OP_ITEM the interpreter renders.  TG_PRINT_FMT_INTERPRET=1 turns the ops off, for the
 * tests that compare both on every event of the corpus. */
#include "common/linux/print_fmt.h"

#include <string.h>

/* ---- compiling ------------------------------------------------------------------------------ */

static void val_of(const tg_pf_node *n, pf_val *v)
{
    pf_item tmp;
    memset(&tmp, 0, sizeof tmp);
    memset(v, 0, sizeof *v);
    if (n && tg_pf_direct_of(n, &tmp)) {
        v->direct = true;
        v->off = tmp.d_off;
        v->idx = tmp.d_idx;
        v->mask = tmp.d_mask;
        v->size = tmp.d_size;
    } else {
        v->eval = n;
    }
}

static uint32_t *name_lengths(struct tg_pf *pf, const tg_pf_sym *syms, size_t n)
{
    uint32_t *len = tg_arena_alloc(&pf->arena, (n ? n : 1) * sizeof *len);
    if (len)
        for (size_t i = 0; i < n; i++) {
            size_t l = syms[i].str ? strlen(syms[i].str) : 0;
            len[i] = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
        }
    return len;
}

/* A "%s" argument (plain "%s", no '*' length) compiled; last: it ends the text.  NULL: out of
 * memory. */
static pf_sarg *sarg_of(struct tg_pf *pf, const tg_pf_event *e, const tg_pf_node *n, bool last,
                        int depth)
{
    pf_sarg *s = tg_arena_alloc(&pf->arena, sizeof *s); /* zeroed */
    if (!s)
        return NULL;
    s->kind = SA_NODE;
    s->node = n;
    if (!n || depth > 16)
        return s;
    switch (n->kind) {
    case N_ATOM:
    case N_BSTR:
        if (!n->str)
            return s;
        s->kind = SA_CONST;
        s->str = n->str;
        s->len = strlen(n->str);
        if (last && s->len && s->str[s->len - 1] == '\n')
            s->len--;
        return s;
    case N_GETSTR:
        if (n->field)
            s->kind = SA_GETSTR;
        return s;
    case N_FIELD:
        /* a long that is not an array names a printk format: the interpreter's */
        if (n->field &&
            ((n->field->flags & TG_EVF_ARRAY) || n->field->size != (uint32_t)e->env->long_size))
            s->kind = SA_FIELD;
        return s;
    case N_FLAGS:
    case N_SYM:
        s->kind = n->kind == N_FLAGS ? SA_FLAGS : SA_SYM;
        val_of(n->a, &s->val);
        s->syms = n->syms;
        s->n_syms = n->n_syms;
        s->sym_len = name_lengths(pf, n->syms, n->n_syms);
        if (!s->sym_len)
            return NULL;
        if (n->kind == N_FLAGS) {
            s->memo = tg_arena_alloc(&pf->arena, TG_PF_MEMO_N * sizeof *s->memo); /* zeroed */
            if (!s->memo)
                return NULL;
        }
        if (n->kind == N_FLAGS && n->str) {
            s->str = n->str;
            s->len = strlen(n->str);
        }
        return s;
    case N_BIN:
        if (n->opstr[0] != '?' || !n->b)
            return s;
        s->kind = SA_COND;
        val_of(n->a, &s->val);
        s->yes = sarg_of(pf, e, n->b->a, last, depth + 1);
        s->no = sarg_of(pf, e, n->b->b, last, depth + 1);
        return s->yes && s->no ? s : NULL;
    default: return s;
    }
}

int tg_pf_compile_ops(struct tg_pf *pf, const tg_pf_event *e)
{
    if (!pf->n)
        return 0;
    pf_op *ops = tg_arena_alloc(&pf->arena, pf->n * sizeof *ops); /* zeroed */
    if (!ops)
        return -1;
    for (size_t i = 0; i < pf->n; i++) {
        const pf_item *it = &pf->items[i];
        pf_op *op = &ops[i];
        op->last = i + 1 == pf->n;
        op->it = it;
        op->kind = OP_ITEM;
        switch (it->type) {
        case IT_TEXT:
            op->kind = OP_TEXT;
            op->text = it->text;
            op->text_len = it->text_len;
            if (op->last && op->text_len && it->text[op->text_len - 1] == '\n')
                op->text_len--;
            break;
        case IT_DIGIT:
            if (it->len_arg)
                break;
            op->kind = OP_NUM;
            val_of(it->arg, &op->val);
            break;
        case IT_PTR:
            if (it->len_arg || (it->arg && it->arg->kind == N_BSTR))
                break;
            switch (it->pch) {
            case 'F':
            case 'f':
            case 'S':
            case 's': op->kind = OP_FUNC; break;
            case 'M':
            case 'm':
            case 'I':
            case 'i': break;
            default: op->kind = OP_PTR; break;
            }
            if (op->kind != OP_ITEM)
                val_of(it->arg, &op->val);
            break;
        case IT_STR:
            if (it->len_arg || it->text_len != 2)
                break;
            op->s = sarg_of(pf, e, it->arg, op->last, 0);
            if (!op->s)
                return -1;
            op->kind = OP_STR;
            break;
        }
    }
    pf->ops = ops;
    pf->n_ops = pf->n;
    return 0;
}

/* ---- running -------------------------------------------------------------------------------- */

static inline uint64_t val_read(const rctx *r, const pf_val *v)
{
    if (!v->direct)
        return tg_pf_eval(r, v->eval);
    if (v->idx > r->size || v->off > r->size || v->size > r->size - v->off)
        return 0;
    uint64_t x = tg_evf_read_num(r->env->big_endian, r->data + v->off, v->size);
    return v->mask ? x & v->mask : x;
}

/* s, to its NUL within n bytes, less a trailing newline when strip */
static inline void put_plain(tg_pf_sink *out, const char *s, size_t n, bool strip)
{
    size_t l = strnlen(s, n);
    if (strip && l && s[l - 1] == '\n')
        l--;
    sk_put(out, s, l);
}

static inline void put_name(tg_pf_sink *out, const pf_sarg *s, size_t i, bool strip)
{
    size_t l = s->sym_len[i];
    if (strip && l && s->syms[i].str[l - 1] == '\n')
        l--;
    sk_put(out, s->syms[i].str, l);
}

/* __print_flags as print_str_arg prints it: the names of the flags val holds (in the
 * table's order, a name whose bits are all set takes them), the delimiter between them, the
 * bits left in hex; the name of a negative value when val is 0. */
static void put_flags(tg_pf_sink *out, const pf_sarg *s, uint64_t val, bool strip)
{
    bool print = false;
    for (size_t i = 0; i < s->n_syms; i++) {
        uint64_t fv = s->syms[i].value;
        /* values are long long: a name libtraceevent does not know is -1 */
        if (!val && (int64_t)fv < 0) {
            put_name(out, s, i, strip);
            break;
        }
        if ((int64_t)fv > 0 && (val & fv) == fv) {
            if (print && s->str)
                sk_put(out, s->str, s->len);
            put_name(out, s, i, strip);
            print = true;
            val &= ~fv;
        }
    }
    if (val) {
        if (print && s->str)
            sk_put(out, s->str, s->len);
        tg_pf_put_hex0x(out, val);
    }
}

/* put_flags' text written at b (cap bytes): its length, or cap + 1 when it is longer. */
static size_t flags_text(const pf_sarg *s, uint64_t val, bool strip, char *b, size_t cap)
{
    size_t n = 0;
#define FLAGS_PUT(p, l)                                                                            \
    do {                                                                                           \
        size_t l_ = (l);                                                                           \
        if (l_ > cap - n)                                                                          \
            return cap + 1;                                                                        \
        memcpy(b + n, (p), l_);                                                                    \
        n += l_;                                                                                   \
    } while (0)
    bool print = false;
    for (size_t i = 0; i < s->n_syms; i++) {
        uint64_t fv = s->syms[i].value;
        size_t l = s->sym_len[i];
        if (strip && l && s->syms[i].str[l - 1] == '\n')
            l--;
        if (!val && (int64_t)fv < 0) {
            FLAGS_PUT(s->syms[i].str, l);
            break;
        }
        if ((int64_t)fv > 0 && (val & fv) == fv) {
            if (print && s->str)
                FLAGS_PUT(s->str, s->len);
            FLAGS_PUT(s->syms[i].str, l);
            print = true;
            val &= ~fv;
        }
    }
    if (val) {
        if (print && s->str)
            FLAGS_PUT(s->str, s->len);
        char d[24];
        char *p = tg_hex_write(d + sizeof d, val);
        FLAGS_PUT("0x", 2);
        FLAGS_PUT(p, (size_t)(d + sizeof d - p));
    }
#undef FLAGS_PUT
    return n;
}

static void run_sarg(const rctx *r, tg_pf_sink *out, const pf_sarg *s, bool strip)
{
    switch (s->kind) {
    case SA_CONST: sk_put(out, s->str, s->len); return;
    case SA_GETSTR: {
        size_t off, len;
        if (dyn_loc(r, s->node->field, &off, &len))
            put_plain(out, (const char *)r->data + off, r->size - off, strip);
        return;
    }
    case SA_FIELD: {
        const tg_evf_field *fl = s->node->field;
        if (fl->offset > r->size)
            return;
        size_t len = fl->size ? fl->size : r->size - fl->offset;
        if (len > r->size - fl->offset)
            len = r->size - fl->offset;
        put_plain(out, (const char *)r->data + fl->offset, len, strip);
        return;
    }
    case SA_FLAGS: {
        uint64_t val = val_read(r, &s->val);
        pf_memo *m = &s->memo[(val ^ (val >> 7) ^ (val >> 17)) % TG_PF_MEMO_N];
        if (m->len && m->val == val) {
            sk_put(out, m->text, m->len);
            return;
        }
        char text[TG_PF_MEMO_TEXT];
        size_t len = flags_text(s, val, strip, text, sizeof text);
        if (len <= sizeof text) {
            if (len) {
                m->val = val;
                m->len = (uint32_t)len;
                memcpy(m->text, text, len);
            }
            sk_put(out, text, len);
        } else {
            put_flags(out, s, val, strip);
        }
        return;
    }
    case SA_SYM: {
        uint64_t val = val_read(r, &s->val);
        for (size_t i = 0; i < s->n_syms; i++)
            if (s->syms[i].value == val) {
                put_name(out, s, i, strip);
                return;
            }
        tg_pf_put_hex0x(out, val);
        return;
    }
    case SA_COND: run_sarg(r, out, val_read(r, &s->val) ? s->yes : s->no, strip); return;
    default: tg_pf_print_str_arg(r, out, NULL, -1, s->node); return;
    }
}

void tg_pf_run_ops(const rctx *r0, const struct tg_pf *pf, tg_pf_sink *out)
{
    rctx last = *r0;
    last.strip_nl = true;
    for (size_t i = 0; i < pf->n_ops; i++) {
        const pf_op *op = &pf->ops[i];
        const rctx *r = op->last ? &last : r0;
        switch (op->kind) {
        case OP_TEXT:
            if (op->text_len <= TG_PF_TEXT_PAD && out->cap - out->n >= TG_PF_TEXT_PAD) {
                memcpy(out->b + out->n, op->text, TG_PF_TEXT_PAD); /* padded: see dup_text */
                out->n += op->text_len;
            } else {
                sk_put(out, op->text, op->text_len);
            }
            break;
        case OP_NUM: tg_pf_put_num(out, op->it, -1, val_read(r, &op->val)); break;
        case OP_PTR: tg_pf_put_glibc_ptr(out, val_read(r, &op->val)); break;
        case OP_FUNC: tg_pf_print_function(r, out, op->it->pch, val_read(r, &op->val)); break;
        case OP_STR: run_sarg(r, out, op->s, op->last); break;
        default: tg_pf_render_item(r, op->it, out); break;
        }
    }
}
