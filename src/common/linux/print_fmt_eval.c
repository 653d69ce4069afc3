/* print_fmt_eval.c - a print fmt's argument expression evaluated on one record.
 *
 * The rules are libtraceevent's, including its quirks, because the output must match byte
 * for byte: fields are read zero-extended and bounded by the record (0 past its end), casts
 * only mask, arithmetic is on unsigned long long, division by zero gives 0, shifts take the
 * count modulo 64 as x86 does, and an array index reads an element of a fixed or dynamic
 * array field in the trace's byte order. */
#include "common/linux/print_fmt.h"

#include <string.h>

uint64_t tg_pf_eval(const rctx *r, const tg_pf_node *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case N_NUM:
    case N_ATOM: return n->num;
    case N_FIELD: return read_field(r, n->field);
    case N_CAST: {
        uint64_t v = tg_pf_eval(r, n->a);
        return n->num ? v & n->num : v;
    }
    case N_BIN: {
        const char *op = n->opstr;
        if (op[0] == '[') {
            uint64_t idx = tg_pf_eval(r, n->b);
            const tg_pf_node *base = n->a, *typearg = NULL;
            while (base && base->kind == N_CAST) {
                if (!typearg)
                    typearg = base;
                base = base->a;
            }
            size_t esize = (size_t)r->env->long_size, off;
            if (base && base->kind == N_DYNARR && base->field) {
                if (base->field->offset + (size_t)base->field->size > r->size)
                    return 0;
                off = (size_t)(tg_evf_read_num(r->env->big_endian, r->data + base->field->offset,
                                               base->field->size) &
                               0xffff);
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
            uint64_t v = tg_evf_read_num(r->env->big_endian, r->data + off, (uint32_t)esize);
            if (typearg) {
                size_t tl = strlen(typearg->str);
                if (tl >= 2 && typearg->str[tl - 1] == '*') {
                    uint64_t m = tg_pf_cast_mask(typearg->str, tl - 2);
                    if (m)
                        v &= m;
                }
            }
            return v;
        }
        if (op[0] == '?' && !op[1]) {
            const tg_pf_node *colon = n->b;
            if (!colon)
                return 0;
            return tg_pf_eval(r, n->a) ? tg_pf_eval(r, colon->a) : tg_pf_eval(r, colon->b);
        }
        /* unsigned long long throughout, as libtraceevent evaluates */
        uint64_t a = tg_pf_eval(r, n->a), b = tg_pf_eval(r, n->b);
        switch (op[0]) {
        case '!': return op[1] == '=' ? a != b : !b;
        case '~': return ~b;
        case '|': return op[1] ? (a || b) : (a | b);
        case '&': return op[1] ? (a && b) : (a & b);
        case '<':
            if (op[1] == '<')
                return a << (b & 63); /* x86 takes the count modulo 64 */
            return op[1] == '=' ? a <= b : a < b;
        case '>':
            if (op[1] == '>')
                return a >> (b & 63);
            return op[1] == '=' ? a >= b : a > b;
        case '=': return a == b;
        case '-': return a - b;
        case '+': return a + b;
        case '*': return a * b;
        case '/': return b ? a / b : 0;
        case '%': return b ? a % b : 0;
        case '^': return a ^ b;
        }
        return 0;
    }
    case N_DYNLEN:
        if (!n->field || n->field->offset + (size_t)n->field->size > r->size)
            return 0;
        return tg_evf_read_num(r->env->big_endian, r->data + n->field->offset, n->field->size) >>
                   16 &
               0xffff;
    default: return 0;
    }
}
