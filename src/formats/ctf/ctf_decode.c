/* ctf_decode.c - the step interpreter: CTF bits to values, to value trees or to text.
 *
 * Runs a compiled scope (ctf_compile.c) over the current packet's bits, in one of three
 * modes.  In skip mode it only advances the bit position, keeping what later fields or the
 * stream need (registers for sequence lengths and variant tags, the clock, the special
 * fields); in build mode it also records every value as a node of a tree (ctf_tree), which
 * ctf_value.c hands out as tg_value; in print mode it writes the visible values as
 * babeltrace2 prints them (ctf_text.h) into d->out, decoding and printing in one pass,
 * because printing is most of the work of `traceglot cat`.  One interpreter body serves
 * the three: each mode is a copy of it specialised by the compiler (the mode is a
 * constant), so no mode pays for another's branches.  Integers are read bit-exact in either
 * byte order at any alignment; every read is checked against the packet's content size
 * first, so damage stops with the field's name and bit position instead of reading past
 * the data. */
#include "formats/ctf/ctf_bits.h"
#include "formats/ctf/ctf_stream.h"
#include "formats/ctf/ctf_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int derr(ctf_dec *d, const ctf_step *st, const char *fmt, uint64_t a, uint64_t b)
{
    d->where = st ? st->name : NULL;
    snprintf(d->msg, sizeof d->msg, fmt, (unsigned long long)a, (unsigned long long)b);
    return TG_ERR_FORMAT;
}

static inline void update_clock(ctf_dec *d, uint64_t v, unsigned size)
{
    if (size == 64) {
        d->clock_value = v;
        return;
    }
    uint64_t mask = (1ull << size) - 1;
    if (v < (d->clock_value & mask))
        d->clock_value += mask + 1;
    d->clock_value = (d->clock_value & ~mask) | v;
}

static void set_meaning(ctf_dec *d, unsigned mn, uint64_t v)
{
    switch (mn) {
    case CTF_M_MAGIC: d->magic = v; break;
    case CTF_M_STREAM_ID: d->stream_id = v; break;
    case CTF_M_STREAM_INSTANCE_ID: d->stream_instance_id = v; break;
    case CTF_M_CONTENT_SIZE: d->content_size = v; break;
    case CTF_M_PACKET_SIZE: d->packet_size = v; break;
    case CTF_M_TS_BEGIN: d->ts_begin = v; break;
    case CTF_M_TS_END: d->ts_end = v; break;
    case CTF_M_DISCARDED: d->discarded = v; break;
    case CTF_M_SEQ_NUM: d->seq_num = v; break;
    case CTF_M_EVENT_ID: d->event_id = v; break;
    case CTF_M_CPU_ID: d->cpu_id = v; break;
    case CTF_M_VTID: d->vtid = v; break;
    case CTF_M_TID: d->tid = v; break;
    case CTF_M_VPID: d->vpid = v; break;
    case CTF_M_PID: d->pid = v; break;
    default: return;
    }
    d->seen |= 1u << mn;
}

/* ---- nodes -------------------------------------------------------------------------------- */

static int64_t node_new(ctf_dec *d, const ctf_step *st)
{
    ctf_tree *t = d->tree;
    if (t->n == t->cap) {
        if (t->cap >= CTF_MAX_NODES_PER_SCOPE)
            return derr(d, st, "more than %llu values in one scope%.0llu", CTF_MAX_NODES_PER_SCOPE,
                        0);
        if (tg_grow(&t->nodes, &t->cap, (size_t)t->n + 1, sizeof *t->nodes) < 0)
            return TG_ERR_NOMEM;
    }
    ctf_node *n = &t->nodes[t->n];
    n->st = st;
    n->kids = 0;
    n->count = 0;
    n->option = 0;
    n->v.u = 0;
    return t->n++;
}

static int64_t kids_reserve(ctf_dec *d, const ctf_step *st, uint64_t count)
{
    ctf_tree *t = d->tree;
    if (count > CTF_MAX_NODES_PER_SCOPE || t->n_kid + count > CTF_MAX_NODES_PER_SCOPE)
        return derr(d, st, "more than %llu values in one scope%.0llu", CTF_MAX_NODES_PER_SCOPE, 0);
    uint32_t need = t->n_kid + (uint32_t)count;
    if (tg_grow(&t->kid, &t->cap_kid, need, sizeof *t->kid) < 0)
        return TG_ERR_NOMEM;
    uint32_t at = t->n_kid;
    t->n_kid = need;
    return at;
}

/* ---- the interpreter ---------------------------------------------------------------------- */

/* The clock and special-field side effects of an integer (headers and packet contexts). */
__attribute__((noinline)) static void int_effects(ctf_dec *d, const ctf_step *st, uint64_t v)
{
    if (st->clock)
        update_clock(d, v, st->size);
    if (st->meaning)
        set_meaning(d, st->meaning, v);
}

/* An integer at pos (already aligned), with its side effects: register, clock, meaning.
 * Inlined in the loops that read the needed integers of a struct (most of skipping). */
__attribute__((always_inline)) static inline int read_int(ctf_dec *d, const ctf_step *st,
                                                          uint64_t pos, uint64_t *out)
{
    if (st->size > d->bits - pos)
        return derr(d, st, "integer of %llu bits runs past the packet content (%llu bits left)",
                    st->size, d->bits - pos);
    uint64_t v = read_bits(d, pos, st->size, st->big_endian);
    if (st->is_signed && st->size < 64 && (v >> (st->size - 1)) & 1)
        v |= ~0ull << st->size;
    d->pos = pos + st->size;
    if (st->reg >= 0)
        d->regs[st->reg] = v;
    if (!d->quiet && (st->clock || st->meaning))
        int_effects(d, st, v);
    *out = v;
    return 0;
}

/* A variable-length integer (unsigned or signed LEB128, CTF 2) at pos, with the side effects
 * of an integer.  Values wider than 64 bits (more than 10 bytes) are refused. */
static int read_vlint(ctf_dec *d, const ctf_step *st, uint64_t pos, uint64_t *out)
{
    if (pos & 7)
        return derr(d, st, "variable-length integer at bit %llu is not byte-aligned%.0llu", pos, 0);
    uint64_t off = pos / 8, end = d->bits / 8, v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (off >= end)
            return derr(d, st,
                        "variable-length integer at bit %llu runs past the packet "
                        "content (%llu bits)",
                        pos, d->bits);
        if (shift >= 70)
            return derr(d, st, "variable-length integer at bit %llu is wider than 64 bits%.0llu",
                        pos, 0);
        b = d->buf[off++];
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (st->is_signed && shift < 64 && (b & 0x40))
        v |= ~0ull << shift;
    d->pos = off * 8;
    if (st->reg >= 0)
        d->regs[st->reg] = v;
    if (!d->quiet && (st->clock || st->meaning))
        int_effects(d, st, v);
    *out = v;
    return 0;
}

/* The three modes of the interpreter; each is a copy of step() with the mode a constant. */
enum { RUN_SKIP, RUN_BUILD, RUN_PRINT };

static int run_skip(ctf_dec *d, const ctf_step *s0, uint32_t i);
static int run_build(ctf_dec *d, const ctf_step *s0, uint32_t i, uint32_t *node);
static int run_print(ctf_dec *d, const ctf_step *s0, uint32_t i);

/* One step in the given mode (resolved at compile time). */
__attribute__((always_inline)) static inline int run_in(ctf_dec *d, const ctf_step *s0, uint32_t i,
                                                        uint32_t *node, int mode)
{
    if (mode == RUN_BUILD)
        return run_build(d, s0, i, node);
    if (mode == RUN_PRINT)
        return run_print(d, s0, i);
    return run_skip(d, s0, i);
}

/* The option a variant's tag register selects, or UINT32_MAX. */
static inline uint32_t variant_option(const ctf_dec *d, const ctf_step *vs)
{
    uint64_t tag = vs->reg >= 0 ? d->regs[vs->reg] : 0;
    const ctf_type *vt = vs->type;
    bool sig = vt->ref_target && vt->ref_target->is_signed;
    for (size_t k = 0; k < vt->n_ranges; k++) {
        const ctf_var_range *r = &vt->ranges[k];
        bool in = sig ? ((int64_t)tag >= r->lo && (int64_t)tag <= r->hi)
                      : (tag >= (uint64_t)r->lo && tag <= (uint64_t)r->hi);
        if (in)
            return r->option;
    }
    return UINT32_MAX;
}

/* Print mode, a text that decodes empty (a string "", a text array or sequence of length 0
 * or starting with NUL): babeltrace2 2.0 shows the text an earlier event left in the
 * recycled field, which ctf_btcompat.c found, when the babeltrace rendering asks for it
 * (owner set); otherwise "". */
__attribute__((noinline)) static void print_empty_text(ctf_dec *d, const ctf_step *st)
{
    const ctf_quirk *q;
    d->empty_text = true;
    if (d->owner && (q = ctf_quirk_find(d->owner, st)) != NULL)
        ctf_text_escaped(d->out, q->s, q->len);
    else
        ctf_text_escaped(d->out, "", 0);
}

/* With the on_text hook, an element of fixed size is skipped at once only when no text
 * array lies inside it. */
static inline bool skippable(const ctf_dec *d, const ctf_step *s0, uint32_t i)
{
    return !d->on_text || !s0[i].holds_text_array;
}

/* With the on_text hook, a field of fixed size is skipped at once when no text array lies
 * inside it or all of them lie at known offsets (see told_skipping). */
static inline bool skippable_field(const ctf_dec *d, const ctf_step *s0, uint32_t i)
{
    return !d->on_text || !s0[i].holds_text_array || s0[i].text_at;
}

/* The on_text hook, for a text of at most count bytes at p. */
__attribute__((noinline)) static void tell_text(ctf_dec *d, const ctf_step *st, const uint8_t *p,
                                                uint64_t count)
{
    d->on_text(d->text_ctx, st, p, count);
}

/* Field i of fixed size, skipped from bit pos (within the packet content): the on_text hook
 * hears of the text arrays inside it. */
static inline void told_skipping(ctf_dec *d, const ctf_step *s0, uint32_t i, uint64_t pos)
{
    const uint32_t *at = s0[i].text_at;
    if (__builtin_expect(!d->on_text, 1) || !at)
        return;
    for (uint32_t k = 0; k < at[0]; k++) {
        const ctf_step *ts = &s0[at[1 + 2 * k]];
        uint64_t p = pos + at[2 + 2 * k];
        if (!(p & 7))
            tell_text(d, ts, d->buf + p / 8, ts->count);
    }
}

/* An array or sequence of 8-bit text: one string value. */
static int run_text(ctf_dec *d, const ctf_step *st, uint64_t count, uint32_t *node, int mode)
{
    if (d->pos & 7)
        return derr(d, st, "text array at bit %llu is not byte-aligned%.0llu", d->pos, 0);
    if (count > (d->bits - d->pos) / 8)
        return derr(d, st, "text of %llu bytes runs past the packet content (%llu bits left)",
                    count, d->bits - d->pos);
    const uint8_t *p = d->buf + d->pos / 8;
    if (d->on_text)
        tell_text(d, st, p, count);
    if (mode == RUN_BUILD) {
        int64_t n = node_new(d, st);
        if (n < 0)
            return (int)n;
        const uint8_t *nul = memchr(p, 0, (size_t)count);
        d->tree->nodes[n].v.str.off = d->pos / 8;
        d->tree->nodes[n].v.str.len = (uint32_t)(nul ? (uint64_t)(nul - p) : count);
        d->tree->nodes[n].count = (uint32_t)count; /* the length, NUL included */
        *node = (uint32_t)n;
    } else if (mode == RUN_PRINT) {
        if (count == 0 || p[0] == 0)
            print_empty_text(d, st);
        else
            ctf_text_escaped(d->out, (const char *)p, (size_t)count);
    }
    d->pos += count * 8;
    return 0;
}

/* Print mode, integers at a fixed stride: one bounds check for the whole array. */
static int print_int_array(ctf_dec *d, const ctf_step *st, const ctf_step *el, uint64_t count)
{
    tg_buf *w = d->out;
    uint64_t stride = align_up(el->fixed_bits, el->align);
    uint64_t pos = align_up(d->pos, el->align);
    if (pos > d->bits || count > (d->bits - pos) / stride + 1 ||
        (count - 1) * stride + el->fixed_bits > d->bits - pos)
        return derr(d, st, "array of %llu elements runs past the packet content (%llu bits left)",
                    count, d->bits - d->pos);
    TG_BUF_LIT(w, "[");
    for (uint64_t k = 0; k < count; k++) {
        if (d->no_names) {
            if (k)
                TG_BUF_LIT(w, ", ");
            else
                TG_BUF_LIT(w, " ");
        } else {
            if (k)
                TG_BUF_LIT(w, ", [");
            else
                TG_BUF_LIT(w, " [");
            tg_buf_u64_fast(w, k);
            TG_BUF_LIT(w, "] = ");
        }
        uint64_t v = read_bits(d, pos + k * stride, el->size, el->big_endian);
        if (el->is_signed && el->size < 64 && (v >> (el->size - 1)) & 1)
            v |= ~0ull << el->size;
        ctf_text_int(w, el, v);
    }
    TG_BUF_LIT(w, " ]");
    d->pos = pos + (count - 1) * stride + el->fixed_bits;
    return 0;
}

__attribute__((always_inline)) static inline int run_elems(ctf_dec *d, const ctf_step *s0,
                                                           const ctf_step *st, uint32_t i,
                                                           uint64_t count, uint32_t *node, int mode)
{
    const ctf_step *el = &s0[i + 1];
    if (st->op == CTF_OP_TEXT_ARRAY || st->op == CTF_OP_TEXT_SEQUENCE)
        return run_text(d, st, count, node, mode);
    if (count > CTF_MAX_ARRAY_LEN)
        return derr(d, st, "array or sequence length %llu exceeds the limit (%llu)", count,
                    CTF_MAX_ARRAY_LEN);
    if (mode == RUN_SKIP && el->fixed && skippable(d, s0, i + 1)) {
        if (count) {
            uint64_t stride = align_up(el->fixed_bits, el->align);
            if (stride && count > (d->bits - d->pos) / stride + 1)
                return derr(d, st,
                            "array of %llu elements runs past the packet content (%llu "
                            "bits left)",
                            count, d->bits - d->pos);
            uint64_t total = (count - 1) * stride + el->fixed_bits;
            if (total > d->bits - d->pos)
                return derr(d, st,
                            "array of %llu elements runs past the packet content (%llu "
                            "bits left)",
                            count, d->bits - d->pos);
            d->pos += total;
        }
        return 0;
    }
    if (mode == RUN_PRINT && count && el->op == CTF_OP_INT && el->fixed &&
        el->type->kind == CTF_T_INT)
        return print_int_array(d, st, el, count);
    if (el->fixed && el->fixed_bits && count > (d->bits - d->pos) / el->fixed_bits + 1)
        return derr(d, st, "array of %llu elements runs past the packet content (%llu bits left)",
                    count, d->bits - d->pos);
    int64_t kids = 0;
    if (mode == RUN_BUILD) {
        int64_t n = node_new(d, st);
        if (n < 0)
            return (int)n;
        kids = kids_reserve(d, st, count);
        if (kids < 0)
            return (int)kids;
        d->tree->nodes[n].kids = (uint32_t)kids;
        d->tree->nodes[n].count = (uint32_t)count;
        *node = (uint32_t)n;
    }
    if (mode == RUN_PRINT)
        TG_BUF_LIT(d->out, "[");
    for (uint64_t k = 0; k < count; k++) {
        if (mode == RUN_PRINT && d->no_names) {
            if (k)
                TG_BUF_LIT(d->out, ", ");
            else
                TG_BUF_LIT(d->out, " ");
        } else if (mode == RUN_PRINT) {
            if (k)
                TG_BUF_LIT(d->out, ", [");
            else
                TG_BUF_LIT(d->out, " [");
            tg_buf_u64_fast(d->out, k);
            TG_BUF_LIT(d->out, "] = ");
        }
        uint32_t kid = 0;
        TG_TRY(run_in(d, s0, i + 1, &kid, mode));
        if (mode == RUN_BUILD)
            d->tree->kid[kids + k] = kid;
    }
    if (mode == RUN_PRINT)
        TG_BUF_LIT(d->out, " ]");
    return 0;
}

/* Skip mode, a string, sequence or text sequence member (of fixed-size elements): done here
 * without the calls when every check passes (1); 0 leaves it to the step, which reports. */
static inline int skip_var_member(ctf_dec *d, const ctf_step *s0, const ctf_step *cs, uint32_t j)
{
    uint64_t pos = align_up(d->pos, cs->align);
    if (pos > d->bits)
        return 0;
    if (cs->op == CTF_OP_STRING) {
        uint64_t off = pos / 8, end = d->bits / 8;
        const uint8_t *nul = off < end ? memchr(d->buf + off, 0, (size_t)(end - off)) : NULL;
        if (!nul)
            return 0;
        if (d->on_text)
            tell_text(d, cs, d->buf + off, (uint64_t)(nul - (d->buf + off)));
        d->pos = (off + (uint64_t)(nul - (d->buf + off)) + 1) * 8;
        return 1;
    }
    uint64_t len = cs->reg >= 0 ? d->regs[cs->reg] : 0;
    const ctf_type *lt = cs->type->ref_target;
    if (lt && lt->is_signed && (int64_t)len < 0)
        return 0;
    if (cs->op == CTF_OP_TEXT_SEQUENCE) {
        if ((pos & 7) || len > (d->bits - pos) / 8)
            return 0;
        if (d->on_text)
            tell_text(d, cs, d->buf + pos / 8, len);
        d->pos = pos + len * 8;
        return 1;
    }
    const ctf_step *el = &s0[j + 1];
    if (len > CTF_MAX_ARRAY_LEN || !el->fixed || !skippable(d, s0, j + 1))
        return 0;
    if (len) {
        uint64_t stride = align_up(el->fixed_bits, el->align);
        if (stride && len > (d->bits - pos) / stride + 1)
            return 0;
        uint64_t total = (len - 1) * stride + el->fixed_bits;
        if (total > d->bits - pos)
            return 0;
        pos += total;
    }
    d->pos = pos;
    return 1;
}

/* Skip mode, a variant member whose chosen option is a struct (event headers: the compact
 * or extended layout): the option's members are read here, without the two calls.  0 when
 * it is not that case or a check fails before anything was read (the step then does it
 * and reports), 1 done, <0 a member's error. */
static int skip_variant_struct(ctf_dec *d, const ctf_step *s0, const ctf_step *vs)
{
    uint32_t opt = variant_option(d, vs);
    if (opt == UINT32_MAX || d->depth + 2 > CTF_MAX_NESTING * 4)
        return 0;
    uint32_t oi = vs->opt[opt];
    const ctf_step *os = &s0[oi];
    if (os->op != CTF_OP_STRUCT || os->fixed)
        return 0;
    uint64_t pos = align_up(align_up(d->pos, vs->align), os->align);
    if (pos > d->bits)
        return 0;
    d->pos = pos;
    d->depth += 2;
    uint32_t j = oi + 1;
    for (uint64_t k = 0; k < os->count; k++) {
        const ctf_step *cs = &s0[j];
        if (cs->op == CTF_OP_INT && !cs->fixed) {
            uint64_t p = align_up(d->pos, cs->align), v;
            if (p > d->bits)
                return derr(d, cs, "field at bit %llu is past the packet content (%llu bits)", p,
                            d->bits);
            TG_TRY(read_int(d, cs, p, &v));
        } else if (cs->fixed && skippable_field(d, s0, j)) {
            uint64_t p = align_up(d->pos, cs->align);
            if (p > d->bits || cs->fixed_bits > d->bits - p)
                return derr(d, cs, "field of %llu bits runs past the packet content (%llu bits)",
                            cs->fixed_bits, d->bits);
            d->pos = p + cs->fixed_bits;
            told_skipping(d, s0, j, p);
        } else {
            TG_TRY(run_skip(d, s0, j));
        }
        j = cs->end;
    }
    d->depth -= 2;
    return 1;
}

/* Print mode, a struct whose members are numbers at known offsets: one bounds check. */
static int print_flat_struct(ctf_dec *d, const ctf_step *s0, const ctf_step *st, uint32_t i)
{
    tg_buf *w = d->out;
    uint64_t pos = d->pos;
    if (st->fixed_bits > d->bits - pos)
        return derr(d, st, "field of %llu bits runs past the packet content (%llu bits left)",
                    st->fixed_bits, d->bits - pos);
    uint32_t j = i + 1;
    for (uint64_t k = 0; k < st->count; k++, j++) {
        const ctf_step *cs = &s0[j];
        if (!cs->in_ir)
            continue;
        ctf_text_eq_or_sep(d, w, cs);
        uint64_t v = read_bits(d, pos + cs->off, cs->size, cs->big_endian);
        if (cs->op != CTF_OP_FLOAT && cs->is_signed && cs->size < 64 && (v >> (cs->size - 1)) & 1)
            v |= ~0ull << cs->size;
        ctf_text_number(w, cs, v);
    }
    d->pos = pos + st->fixed_bits;
    return 0;
}

/* One struct's members: the loop of the step below. */
__attribute__((always_inline)) static inline int
run_members(ctf_dec *d, const ctf_step *s0, const ctf_step *st, uint32_t i, int64_t kids, int mode)
{
    uint32_t j = i + 1;
    for (uint64_t k = 0; k < st->count; k++) {
        const ctf_step *cs = &s0[j];
        if (mode == RUN_SKIP) {
            if (cs->op == CTF_OP_INT && !cs->fixed) {
                /* an integer someone needs (length, tag, clock, special field): no call */
                uint64_t p = align_up(d->pos, cs->align), v;
                if (p > d->bits)
                    return derr(d, cs, "field at bit %llu is past the packet content (%llu bits)",
                                p, d->bits);
                TG_TRY(read_int(d, cs, p, &v));
                j = cs->end;
                continue;
            }
            if (cs->fixed && skippable_field(d, s0, j)) {
                /* skipping a fixed member: no call */
                uint64_t p = align_up(d->pos, cs->align);
                if (p > d->bits || cs->fixed_bits > d->bits - p)
                    return derr(d, cs,
                                "field of %llu bits runs past the packet content (%llu "
                                "bits)",
                                cs->fixed_bits, d->bits);
                d->pos = p + cs->fixed_bits;
                told_skipping(d, s0, j, p);
                j = cs->end;
                continue;
            }
            if ((cs->op == CTF_OP_STRING || cs->op == CTF_OP_SEQUENCE ||
                 cs->op == CTF_OP_TEXT_SEQUENCE) &&
                skip_var_member(d, s0, cs, j)) {
                j = cs->end;
                continue;
            }
            if (cs->op == CTF_OP_VARIANT) {
                int vr = skip_variant_struct(d, s0, cs);
                if (vr < 0)
                    return vr;
                if (vr > 0) {
                    j = cs->end;
                    continue;
                }
            }
        }
        if (mode == RUN_PRINT) {
            if (!cs->in_ir) {
                /* hidden: decoded for its registers only */
                TG_TRY(run_skip(d, s0, j));
                j = cs->end;
                continue;
            }
            ctf_text_eq_or_sep(d, d->out, cs);
            if (cs->op == CTF_OP_INT && cs->fixed && cs->type->kind == CTF_T_INT) {
                /* a plain integer member: inline */
                uint64_t p = align_up(d->pos, cs->align);
                if (p > d->bits || cs->size > d->bits - p)
                    return derr(d, cs,
                                "integer of %llu bits runs past the packet content "
                                "(%llu bits)",
                                cs->size, d->bits);
                d->pos = p + cs->size;
                uint64_t v = read_bits(d, p, cs->size, cs->big_endian);
                if (cs->is_signed && cs->size < 64 && (v >> (cs->size - 1)) & 1)
                    v |= ~0ull << cs->size;
                ctf_text_int(d->out, cs, v);
                j = cs->end;
                continue;
            }
        }
        uint32_t kid = 0;
        TG_TRY(run_in(d, s0, j, &kid, mode));
        if (mode == RUN_BUILD)
            d->tree->kid[kids + k] = kid;
        j = cs->end;
    }
    return 0;
}

/* What the mode does with an integer read: a node, its text, or nothing. */
__attribute__((always_inline)) static inline int int_value(ctf_dec *d, const ctf_step *st,
                                                           uint64_t v, uint32_t *node, int mode)
{
    if (mode == RUN_BUILD) {
        int64_t n = node_new(d, st);
        if (n < 0)
            return (int)n;
        d->tree->nodes[n].v.u = v;
        *node = (uint32_t)n;
    } else if (mode == RUN_PRINT) {
        if (st->type->kind == CTF_T_ENUM)
            ctf_text_enum(d->out, st, v);
        else
            ctf_text_int(d->out, st, v);
    }
    return 0;
}

/* The interpreter: step i of s0 in the given mode. */
__attribute__((always_inline)) static inline int step(ctf_dec *d, const ctf_step *s0, uint32_t i,
                                                      uint32_t *node, int mode)
{
    const ctf_step *st = &s0[i];
    uint64_t pos = align_up(d->pos, st->align);
    if (pos > d->bits)
        return derr(d, st, "field at bit %llu is past the packet content (%llu bits)", pos,
                    d->bits);
    d->pos = pos;
    if (mode == RUN_SKIP && st->fixed && skippable_field(d, s0, i)) {
        if (st->fixed_bits > d->bits - pos)
            return derr(d, st, "field of %llu bits runs past the packet content (%llu bits left)",
                        st->fixed_bits, d->bits - pos);
        d->pos = pos + st->fixed_bits;
        told_skipping(d, s0, i, pos);
        return 0;
    }
    switch (st->op) {
    case CTF_OP_INT: {
        uint64_t v;
        TG_TRY(read_int(d, st, pos, &v));
        return int_value(d, st, v, node, mode);
    }
    case CTF_OP_VLINT: {
        uint64_t v;
        TG_TRY(read_vlint(d, st, pos, &v));
        return int_value(d, st, v, node, mode);
    }
    case CTF_OP_FLOAT: {
        if (st->size > d->bits - pos)
            return derr(d, st, "float of %llu bits runs past the packet content (%llu bits left)",
                        st->size, d->bits - pos);
        uint64_t v = read_bits(d, pos, st->size, st->big_endian);
        d->pos = pos + st->size;
        if (mode == RUN_BUILD) {
            int64_t n = node_new(d, st);
            if (n < 0)
                return (int)n;
            if (st->size == 32) {
                uint32_t w = (uint32_t)v;
                float f;
                memcpy(&f, &w, 4);
                d->tree->nodes[n].v.f = f;
            } else {
                double f;
                memcpy(&f, &v, 8);
                d->tree->nodes[n].v.f = f;
            }
            *node = (uint32_t)n;
        } else if (mode == RUN_PRINT) {
            ctf_text_number(d->out, st, v);
        }
        return 0;
    }
    case CTF_OP_STRING: {
        uint64_t off = pos / 8, end = d->bits / 8;
        const uint8_t *p = d->buf + off;
        const uint8_t *nul = off < end ? memchr(p, 0, (size_t)(end - off)) : NULL;
        if (!nul)
            return derr(d, st,
                        "string at bit %llu has no terminating NUL before the packet "
                        "content ends (%llu bits)",
                        pos, d->bits);
        uint64_t len = (uint64_t)(nul - p);
        d->pos = (off + len + 1) * 8;
        if (d->on_text)
            tell_text(d, st, p, len);
        if (mode == RUN_BUILD) {
            int64_t n = node_new(d, st);
            if (n < 0)
                return (int)n;
            d->tree->nodes[n].v.str.off = off;
            d->tree->nodes[n].v.str.len = (uint32_t)(len > UINT32_MAX ? UINT32_MAX : len);
            *node = (uint32_t)n;
        } else if (mode == RUN_PRINT) {
            if (len)
                ctf_text_escaped(d->out, (const char *)p, (size_t)len);
            else
                print_empty_text(d, st);
        }
        return 0;
    }
    case CTF_OP_STRUCT: {
        if (++d->depth > CTF_MAX_NESTING * 4)
            return derr(d, st, "values nested deeper than %llu%.0llu", CTF_MAX_NESTING * 4, 0);
        int64_t kids = 0;
        if (mode == RUN_BUILD) {
            int64_t n = node_new(d, st);
            if (n < 0)
                return (int)n;
            kids = kids_reserve(d, st, st->count);
            if (kids < 0)
                return (int)kids;
            d->tree->nodes[n].kids = (uint32_t)kids;
            d->tree->nodes[n].count = (uint32_t)st->count;
            *node = (uint32_t)n;
        }
        if (mode == RUN_PRINT) {
            TG_BUF_LIT(d->out, "{");
            TG_TRY(st->flat ? print_flat_struct(d, s0, st, i) : run_members(d, s0, st, i, 0, mode));
            TG_BUF_LIT(d->out, " }");
        } else {
            TG_TRY(run_members(d, s0, st, i, kids, mode));
        }
        d->depth--;
        return 0;
    }
    case CTF_OP_ARRAY:
    case CTF_OP_TEXT_ARRAY: return run_elems(d, s0, st, i, st->count, node, mode);
    case CTF_OP_SEQUENCE:
    case CTF_OP_TEXT_SEQUENCE: {
        uint64_t len = st->reg >= 0 ? d->regs[st->reg] : 0;
        const ctf_type *lt = st->type->ref_target;
        if (lt && lt->is_signed && (int64_t)len < 0)
            return derr(d, st, "sequence length %lld is negative%.0llu", len, 0);
        return run_elems(d, s0, st, i, len, node, mode);
    }
    case CTF_OP_VARIANT: {
        uint32_t opt = variant_option(d, st);
        if (opt == UINT32_MAX)
            return derr(d, st, "variant tag value %llu selects no option%.0llu",
                        st->reg >= 0 ? d->regs[st->reg] : 0, 0);
        if (++d->depth > CTF_MAX_NESTING * 4)
            return derr(d, st, "values nested deeper than %llu%.0llu", CTF_MAX_NESTING * 4, 0);
        int64_t kids = 0;
        if (mode == RUN_BUILD) {
            int64_t n = node_new(d, st);
            if (n < 0)
                return (int)n;
            kids = kids_reserve(d, st, 1);
            if (kids < 0)
                return (int)kids;
            d->tree->nodes[n].kids = (uint32_t)kids;
            d->tree->nodes[n].count = 1;
            d->tree->nodes[n].option = opt;
            *node = (uint32_t)n;
        }
        if (mode == RUN_PRINT)
            TG_BUF_LIT(d->out, "{ ");
        uint32_t kid = 0;
        TG_TRY(run_in(d, s0, st->opt[opt], &kid, mode));
        if (mode == RUN_BUILD)
            d->tree->kid[kids] = kid;
        if (mode == RUN_PRINT)
            TG_BUF_LIT(d->out, " }");
        d->depth--;
        return 0;
    }
    }
    return derr(d, st, "bad step %llu%.0llu", st->op, 0);
}

static int run_skip(ctf_dec *d, const ctf_step *s0, uint32_t i)
{
    return step(d, s0, i, NULL, RUN_SKIP);
}

static int run_build(ctf_dec *d, const ctf_step *s0, uint32_t i, uint32_t *node)
{
    return step(d, s0, i, node, RUN_BUILD);
}

static int run_print(ctf_dec *d, const ctf_step *s0, uint32_t i)
{
    return step(d, s0, i, NULL, RUN_PRINT);
}

int ctf_run(ctf_dec *d, const ctf_prog *prog)
{
    if (!prog || !prog->n)
        return 0;
    if (__builtin_expect(prog->bo_split != 0 || prog->bo_careful, 0)) {
        if (prog->bo_split)
            return ctf_bo_split_err(d, prog);
        TG_TRY(ctf_bo_check(d, prog));
    }
    d->depth = 0;
    uint32_t root = 0;
    return d->tree ? run_build(d, prog->steps, 0, &root) : run_skip(d, prog->steps, 0);
}

int64_t ctf_thread_at_read(const ctf_dec *d, uint64_t pos, const ctf_thread_at *a)
{
    uint64_t v = read_bits(d, pos, a->size, a->big_endian);
    if (a->is_signed && a->size < 64 && (v >> (a->size - 1)) & 1)
        v |= ~0ull << a->size;
    return (int64_t)v;
}

int ctf_run_print(ctf_dec *d, const ctf_prog *prog, tg_buf *out)
{
    if (!prog || !prog->n)
        return 0;
    if (__builtin_expect(prog->bo_split != 0 || prog->bo_careful, 0)) {
        if (prog->bo_split)
            return ctf_bo_split_err(d, prog);
        TG_TRY(ctf_bo_check(d, prog));
    }
    d->depth = 0;
    d->out = out;
    return run_print(d, prog->steps, 0);
}
