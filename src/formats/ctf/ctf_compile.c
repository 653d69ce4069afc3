/* ctf_compile.c - the last metadata pass: each scope's type becomes a flat list of steps.
 *
 * A step is one field (integer, float, string, or the head of a struct, array, sequence or
 * variant) in pre-order; `end` points past its subtree, so the interpreter in ctf_decode.c
 * walks an array without any tree of pointers and can jump over what it does not need.
 * Subtrees whose size never changes and that have no side effects (no register, no clock,
 * no special meaning) are marked fixed: skipping them is one addition, even for arrays. */
#include "formats/ctf/ctf_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cbuf {
    ctf_step *v;
    uint32_t n;
    size_t cap;
    tg_arena *a;
    tg_error **err;
    bool thread_fixed; /* thread meanings do not stop an integer being skipped at once */
} cbuf;

static int64_t emit(cbuf *b)
{
    if (b->n == b->cap) {
        if (b->cap >= CTF_MAX_STEPS)
            return tg_err(b->err, TG_ERR_LIMIT, "metadata describes too many fields");
        if (tg_grow(&b->v, &b->cap, (size_t)b->n + 1, sizeof *b->v) < 0)
            return tg_err(b->err, TG_ERR_NOMEM, "out of memory");
    }
    memset(&b->v[b->n], 0, sizeof b->v[0]);
    return b->n++;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Appends the text arrays of fixed step i, which starts `base` bits into the list's step, to
 * the list `at` (its count first). */
static void add_text_offsets(const cbuf *b, uint32_t i, uint32_t base, uint32_t *at)
{
    const ctf_step *st = &b->v[i];
    if (st->op == CTF_OP_TEXT_ARRAY) {
        at[1 + 2 * at[0]] = i;
        at[2 + 2 * at[0]] = base;
        at[0]++;
        return;
    }
    if (st->op != CTF_OP_STRUCT)
        return;
    for (uint32_t j = i + 1, k = 0; k < st->count; k++, j = b->v[j].end)
        if (b->v[j].holds_text_array)
            add_text_offsets(b, j, base + b->v[j].off, at);
}

/* Step i's subtree just compiled (its children already done): whether it holds a text
 * array (the decoder's on_text hook must see those) and, for a fixed step, where they lie
 * when no array is on the way (the hook is then told without walking the subtree). */
static int find_text_arrays(cbuf *b, uint32_t i)
{
    ctf_step *st = &b->v[i];
    uint32_t n = 0;
    bool known = st->fixed;
    switch (st->op) {
    case CTF_OP_TEXT_ARRAY: n = 1; break;
    case CTF_OP_STRUCT:
    case CTF_OP_ARRAY:
    case CTF_OP_SEQUENCE:
    case CTF_OP_VARIANT:
        known &= st->op == CTF_OP_STRUCT;
        for (uint32_t j = i + 1; j < st->end; j = b->v[j].end) {
            const ctf_step *c = &b->v[j];
            if (!c->holds_text_array)
                continue;
            if (c->text_at && c->op != CTF_OP_VARIANT)
                n += c->text_at[0];
            else
                known = false, n++;
        }
        break;
    default: break;
    }
    st->holds_text_array = n > 0;
    if (!n || !known)
        return 0;
    uint32_t *at = tg_arena_alloc(b->a, (1 + 2 * (size_t)n) * sizeof *at);
    if (!at)
        return tg_err(b->err, TG_ERR_NOMEM, "out of memory");
    at[0] = 0;
    add_text_offsets(b, i, 0, at);
    st->text_at = at;
    return 0;
}

/* Compiles t; sets fixed/fixed_bits of its step. */
static int compile_type(cbuf *b, const ctf_type *t, const char *name)
{
    int64_t at = emit(b);
    if (at < 0)
        return (int)at;
    uint32_t i = (uint32_t)at;
    ctf_step *st = &b->v[i];
    st->type = t;
    st->name = name;
    st->align = t->align ? t->align : 1;
    st->reg = t->reg;
    st->in_ir = t->in_ir;
    st->meaning = (uint8_t)t->meaning;
    bool fixed = false;
    uint64_t bits = 0;
    switch (t->kind) {
    case CTF_T_INT:
    case CTF_T_ENUM:
        if (t->varlen) {
            st->op = CTF_OP_VLINT;
            st->size = 64;
            st->is_signed = t->is_signed;
            st->clock = t->clock != NULL;
            break;
        }
        st->op = CTF_OP_INT;
        st->size = (uint8_t)t->size;
        st->is_signed = t->is_signed;
        st->big_endian = t->big_endian;
        st->clock = t->clock != NULL;
        fixed = t->reg < 0 && !t->clock &&
                (t->meaning == CTF_M_NONE || (b->thread_fixed && ctf_meaning_thread(t->meaning)));
        bits = t->size;
        break;
    case CTF_T_FLOAT:
        st->op = CTF_OP_FLOAT;
        st->size = (uint8_t)t->size;
        st->big_endian = t->big_endian;
        fixed = true;
        bits = t->size;
        break;
    case CTF_T_STRING: st->op = CTF_OP_STRING; break;
    case CTF_T_STRUCT: {
        st->op = CTF_OP_STRUCT;
        st->count = t->n_fields;
        fixed = true;
        bool flat = true, first_visible = true;
        for (size_t k = 0; k < t->n_fields; k++) {
            uint32_t child = b->n;
            TG_TRY(compile_type(b, t->fields[k].type, t->fields[k].name));
            ctf_step *c = &b->v[child];
            {
                /* the member's prefix as babeltrace2 prints it */
                const char *nm = t->fields[k].name;
                size_t nl = strlen(nm);
                /* 16 zero bytes of slack: the renderer copies short prefixes 16 at a time */
                char *eq = tg_arena_alloc(b->a, nl + 6 + CTF_EQ_SLACK);
                if (!eq)
                    return tg_err(b->err, TG_ERR_NOMEM, "out of memory");
                memset(eq, 0, nl + 6 + CTF_EQ_SLACK);
                size_t o = 0;
                if (first_visible && c->in_ir)
                    eq[o++] = ' ';
                else {
                    eq[o++] = ',';
                    eq[o++] = ' ';
                }
                memcpy(eq + o, nm, nl);
                memcpy(eq + o + nl, " = ", 4);
                c->eq = eq;
                c->eq_len = (uint32_t)(o + nl + 3);
                if (c->in_ir)
                    first_visible = false;
            }
            if (c->op != CTF_OP_INT && c->op != CTF_OP_FLOAT)
                flat = false;
            if (!c->fixed) {
                fixed = false;
            } else {
                bits = align_up(bits, c->align);
                c->off = (uint32_t)(bits < UINT32_MAX ? bits : 0);
                bits += c->fixed_bits;
            }
        }
        b->v[i].flat = fixed && flat && bits < (1ull << 31);
        break;
    }
    case CTF_T_VARIANT: {
        st->op = CTF_OP_VARIANT;
        st->count = t->n_fields;
        st->reg = t->ref_target ? t->ref_target->reg : -1;
        uint32_t *opt = tg_arena_alloc(b->a, (t->n_fields + 1) * sizeof *opt);
        if (!opt)
            return tg_err(b->err, TG_ERR_NOMEM, "out of memory");
        for (size_t k = 0; k < t->n_fields; k++) {
            opt[k] = b->n;
            TG_TRY(compile_type(b, t->fields[k].type, t->fields[k].name));
        }
        b->v[i].opt = opt;
        break;
    }
    case CTF_T_ARRAY:
    case CTF_T_SEQUENCE: {
        bool seq = t->kind == CTF_T_SEQUENCE;
        st->op = t->is_text ? (seq ? CTF_OP_TEXT_SEQUENCE : CTF_OP_TEXT_ARRAY)
                            : (seq ? CTF_OP_SEQUENCE : CTF_OP_ARRAY);
        st->count = t->length;
        st->reg = seq && t->ref_target ? t->ref_target->reg : -1;
        uint32_t child = b->n;
        TG_TRY(compile_type(b, t->elem, NULL));
        const ctf_step *c = &b->v[child];
        if (!seq && c->fixed) {
            uint64_t stride = align_up(c->fixed_bits, c->align);
            uint64_t total = t->length ? (t->length - 1) * stride + c->fixed_bits : 0;
            if (total < (1ull << 31)) {
                fixed = true;
                bits = total;
            }
        }
        break;
    }
    }
    st = &b->v[i];
    st->end = b->n;
    if (fixed && bits < (1ull << 31)) {
        st->fixed = true;
        st->fixed_bits = (uint32_t)bits;
    }
    return find_text_arrays(b, i);
}

/* The first integer or float of a scope that always starts inside a byte whose first bits the
 * field read before it filled in the other byte order (CTF packs a big-endian field from a
 * byte's high bits, a little-endian one from its low bits: the two cannot share a byte, and
 * babeltrace2 stops there), as 1 + its step; 0 when none does.  Only what is certain counts:
 * the walk follows the fields always read, in order, while their bit offset within a byte is
 * known; an array, a sequence or a variant leaves the offset and the last byte order unknown
 * (a field after them may still start at a byte boundary: its alignment says). */
static uint32_t find_bo_split(const ctf_step *s, uint32_t n)
{
    bool known = false;
    unsigned mod = 0;
    int last_be = -1; /* the last field's byte order: -1 unknown, 0 little, 1 big */
    for (uint32_t i = 0; i < n;) {
        const ctf_step *st = &s[i];
        if (st->align >= 8)
            known = true, mod = 0;
        else if (known)
            mod = (unsigned)align_up(mod, st->align) % 8;
        switch (st->op) {
        case CTF_OP_INT:
        case CTF_OP_FLOAT:
            if (known && mod && last_be >= 0 && last_be != st->big_endian)
                return i + 1;
            mod = (mod + st->size) % 8;
            last_be = st->big_endian;
            i++;
            break;
        case CTF_OP_STRUCT: i++; break;
        case CTF_OP_STRING:
        case CTF_OP_TEXT_ARRAY:
        case CTF_OP_TEXT_SEQUENCE:
        case CTF_OP_VLINT: /* whole bytes: the next field starts at a byte boundary */
            known = true, mod = 0, last_be = -1;
            i = st->end;
            break;
        default:
            known = false, last_be = -1;
            i = st->end;
            break;
        }
    }
    return 0;
}

/* Whether a number of the scope may start inside a byte (its alignment is below 8 bits)
 * while another number of the scope has the other byte order, past what find_bo_split can
 * follow (an array, a sequence or a variant before it): ctf_bo_check.c then checks each
 * record as babeltrace2 reads it. */
static bool may_split(const ctf_step *s, uint32_t n)
{
    bool has[2] = {false, false}, inside[2] = {false, false}, compound = false;
    for (uint32_t i = 0; i < n; i++) {
        const ctf_step *st = &s[i];
        if (st->op == CTF_OP_ARRAY || st->op == CTF_OP_SEQUENCE || st->op == CTF_OP_VARIANT ||
            st->op == CTF_OP_TEXT_ARRAY || st->op == CTF_OP_TEXT_SEQUENCE)
            compound = true;
        if (st->op != CTF_OP_INT && st->op != CTF_OP_FLOAT)
            continue;
        has[st->big_endian] = true;
        if (st->align % 8)
            inside[st->big_endian] = true;
    }
    return compound && ((inside[0] && has[1]) || (inside[1] && has[0]));
}

int ctf_bo_split_err(ctf_dec *d, const ctf_prog *prog)
{
    const ctf_step *st = &prog->steps[prog->bo_split - 1];
    d->where = st->name;
    snprintf(d->msg, sizeof d->msg,
             "a %s-endian field starts inside the byte a %s-endian one ends in: two different "
             "byte orders not at a byte boundary",
             st->big_endian ? "big" : "little", st->big_endian ? "little" : "big");
    return TG_ERR_FORMAT;
}

static int compile_scope(ctf_meta *m, const ctf_type *t, ctf_scope_id scope, ctf_prog **out,
                         tg_error **err)
{
    *out = NULL;
    if (!t)
        return 0;
    /* a context of fixed size holding the thread is skipped at once, the thread read where it
     * lies; any other keeps the thread's integers to be read as they are met */
    bool contexts = scope == CTF_SCOPE_STREAM_CONTEXT || scope == CTF_SCOPE_EVENT_CONTEXT;
    cbuf b = {.a = m->arena, .err = err, .thread_fixed = contexts};
    int rc = compile_type(&b, t, NULL);
    if (rc >= 0 && contexts && !b.v[0].fixed) {
        b.n = 0;
        b.thread_fixed = false;
        rc = compile_type(&b, t, NULL);
    }
    if (rc < 0) {
        free(b.v);
        return rc;
    }
    ctf_prog *p = tg_arena_alloc(m->arena, sizeof *p);
    ctf_step *steps = p ? tg_arena_alloc(m->arena, b.n * sizeof *steps) : NULL;
    if (!steps) {
        free(b.v);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    memcpy(steps, b.v, b.n * sizeof *steps);
    free(b.v);
    p->steps = steps;
    p->n = b.n;
    p->scope = scope;
    p->self_contained = true;
    for (uint32_t i = 0; i < b.n; i++) {
        uint8_t op = steps[i].op;
        if (op == CTF_OP_SEQUENCE || op == CTF_OP_VARIANT || op == CTF_OP_TEXT_SEQUENCE)
            p->self_contained = false;
    }
    p->tid_at = p->pid_at = (ctf_thread_at){0};
    if (b.thread_fixed && steps[0].op == CTF_OP_STRUCT) {
        uint8_t tid_mn = 0, pid_mn = 0; /* vtid before tid, vpid before pid */
        uint32_t j = 1;
        for (uint64_t k = 0; k < steps[0].count; k++) {
            const ctf_step *c = &steps[j];
            ctf_thread_at at = {c->size, c->is_signed, c->big_endian, c->off};
            bool tid = c->meaning == CTF_M_VTID || c->meaning == CTF_M_TID;
            bool pid = c->meaning == CTF_M_VPID || c->meaning == CTF_M_PID;
            if (c->op == CTF_OP_INT && tid && (!tid_mn || c->meaning < tid_mn)) {
                p->tid_at = at;
                tid_mn = c->meaning;
            } else if (c->op == CTF_OP_INT && pid && (!pid_mn || c->meaning < pid_mn)) {
                p->pid_at = at;
                pid_mn = c->meaning;
            }
            j = c->end;
        }
    }
    p->bo_split = find_bo_split(steps, b.n);
    p->bo_careful = !p->bo_split && may_split(steps, b.n);
    p->has_thread = p->tid_at.size || p->pid_at.size;
    p->thread_fast = p->has_thread && steps[0].align % 8 == 0;
    for (int k = 0; k < 2; k++) {
        const ctf_thread_at *a = k ? &p->pid_at : &p->tid_at;
        if (a->size && (a->size != 32 || a->big_endian || a->off % 8))
            p->thread_fast = false;
    }
    *out = p;
    return 0;
}

int ctf_compile(ctf_meta *m, tg_error **err)
{
    TG_TRY(
        compile_scope(m, m->packet_header, CTF_SCOPE_PACKET_HEADER, &m->prog_packet_header, err));
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        TG_TRY(compile_scope(m, s->packet_context, CTF_SCOPE_PACKET_CONTEXT,
                             &s->prog_packet_context, err));
        TG_TRY(
            compile_scope(m, s->event_header, CTF_SCOPE_EVENT_HEADER, &s->prog_event_header, err));
        TG_TRY(compile_scope(m, s->event_context, CTF_SCOPE_STREAM_CONTEXT, &s->prog_event_context,
                             err));
        for (size_t j = 0; j < s->n_events; j++) {
            ctf_event_decl *e = s->events[j];
            TG_TRY(compile_scope(m, e->context, CTF_SCOPE_EVENT_CONTEXT, &e->prog_context, err));
            TG_TRY(compile_scope(m, e->fields, CTF_SCOPE_PAYLOAD, &e->prog_fields, err));
        }
    }
    return 0;
}
