/* ctf_bo_check.c - babeltrace2's rule for a field whose byte order differs from that of the
 * field read before it, where only the data says which field that is.
 *
 * CTF 1.8 packs a little-endian bit field from a byte's low bits and a big-endian one from
 * its high bits, so the two cannot share a byte; babeltrace2 2.0 refuses an integer or a
 * floating point number that starts inside a byte (at a bit offset not a multiple of 8) when
 * the last one it read in the same scope had the other byte order ("Cannot read bit array:
 * two different byte orders not at a byte boundary").  ctf_compile.c finds the fields that
 * always do so (prog->bo_split).  After an array, a sequence or a variant it cannot know:
 * where the next field starts and which integer was read last (the last element's, none for
 * an empty one, the option the tag chose) depend on the lengths and tags in the data.  A
 * scope where that may happen (prog->bo_careful: both byte orders, and fields that may start
 * inside a byte) is walked here first, reading only lengths and tags, as babeltrace2 reads
 * it; the decoding that follows stays as fast as before for every other scope. */
#include "formats/ctf/ctf_internal.h"
#include "formats/ctf/ctf_bits.h"

#include <stdio.h>
#include <string.h>

typedef struct bo_walk {
    ctf_dec *d;
    const ctf_step *s0;
    uint64_t pos;
    int last; /* the byte order of the last number read: -1 none yet, 0 little, 1 big */
    unsigned depth;
} bo_walk;

enum { WALK_OK = 0, WALK_SPLIT = 1, WALK_STOP = 2 /* unreadable: the decoding says why */ };

static uint32_t option_of(const ctf_dec *d, const ctf_step *vs)
{
    uint64_t tag = vs->reg >= 0 ? d->regs[vs->reg] : 0;
    const ctf_type *vt = vs->type;
    bool sig = vt->ref_target && vt->ref_target->is_signed;
    for (size_t k = 0; k < vt->n_ranges; k++) {
        const ctf_var_range *r = &vt->ranges[k];
        if (sig ? ((int64_t)tag >= r->lo && (int64_t)tag <= r->hi)
                : (tag >= (uint64_t)r->lo && tag <= (uint64_t)r->hi))
            return r->option;
    }
    return UINT32_MAX;
}

static int split_at(bo_walk *w, const ctf_step *st, const char *name)
{
    w->d->where = st->name ? st->name : name;
    snprintf(w->d->msg, sizeof w->d->msg,
             "a %s-endian field starts inside the byte a %s-endian one ends in: two different "
             "byte orders not at a byte boundary",
             st->big_endian ? "big" : "little", st->big_endian ? "little" : "big");
    return WALK_SPLIT;
}

/* A number (integer or float) at w->pos, aligned: the rule, then its register. */
static int walk_number(bo_walk *w, const ctf_step *st, const char *name)
{
    ctf_dec *d = w->d;
    uint64_t pos = w->pos;
    if ((pos & 7) && w->last >= 0 && w->last != (int)st->big_endian)
        return split_at(w, st, name);
    if (st->size > d->bits - pos)
        return WALK_STOP;
    if (st->op == CTF_OP_INT && st->reg >= 0) {
        uint64_t v = read_bits(d, pos, st->size, st->big_endian);
        if (st->is_signed && st->size < 64 && (v >> (st->size - 1)) & 1)
            v |= ~0ull << st->size;
        d->regs[st->reg] = v;
    }
    w->pos = pos + st->size;
    w->last = st->big_endian;
    return WALK_OK;
}

/* Step i of the scope (name: the field an element belongs to, for the message). */
static int walk(bo_walk *w, uint32_t i, const char *name)
{
    const ctf_step *st = &w->s0[i];
    ctf_dec *d = w->d;
    uint64_t pos = align_up(w->pos, st->align ? st->align : 1);
    if (pos > d->bits || ++w->depth > CTF_MAX_NESTING * 4)
        return WALK_STOP;
    w->pos = pos;
    int rc = WALK_OK;
    switch (st->op) {
    case CTF_OP_INT:
    case CTF_OP_FLOAT: rc = walk_number(w, st, name); break;
    case CTF_OP_STRING: {
        /* whole bytes: what follows starts at a byte boundary, where any order may */
        uint64_t off = pos / 8, end = d->bits / 8;
        const uint8_t *nul = off < end ? memchr(d->buf + off, 0, (size_t)(end - off)) : NULL;
        if (!nul)
            return WALK_STOP;
        w->pos = (uint64_t)(nul - d->buf + 1) * 8;
        break;
    }
    case CTF_OP_STRUCT:
        for (uint64_t k = 0, j = i + 1; k < st->count && rc == WALK_OK; k++, j = w->s0[j].end)
            rc = walk(w, (uint32_t)j, name);
        break;
    case CTF_OP_ARRAY:
    case CTF_OP_SEQUENCE:
    case CTF_OP_TEXT_ARRAY:
    case CTF_OP_TEXT_SEQUENCE: {
        bool seq = st->op == CTF_OP_SEQUENCE || st->op == CTF_OP_TEXT_SEQUENCE;
        uint64_t count = seq ? (st->reg >= 0 ? d->regs[st->reg] : 0) : st->count;
        if (count > CTF_MAX_ARRAY_LEN)
            return WALK_STOP;
        const char *el_name = st->name ? st->name : name;
        for (uint64_t k = 0; k < count && rc == WALK_OK; k++)
            rc = walk(w, i + 1, el_name);
        break;
    }
    case CTF_OP_VARIANT: {
        uint32_t opt = option_of(d, st);
        if (opt == UINT32_MAX)
            return WALK_STOP;
        rc = walk(w, st->opt[opt], st->name ? st->name : name);
        break;
    }
    default: return WALK_STOP; /* a CTF 2 variable-length integer: not followed */
    }
    w->depth--;
    return rc;
}

int ctf_bo_check(ctf_dec *d, const ctf_prog *prog)
{
    bo_walk w = {.d = d, .s0 = prog->steps, .pos = d->pos, .last = -1};
    return walk(&w, 0, NULL) == WALK_SPLIT ? TG_ERR_FORMAT : 0;
}
