/* ctf_value.c - lazy field access: a scope of the current event as tg_value.
 *
 * The first request for a scope of an event runs that scope's steps once more in build
 * mode, from the position the skipping pass recorded, into the stream's reusable tree for
 * the scope (no allocation once the tree has grown); later requests for the same event
 * reuse it.  Compound values carry (tree, node) in their ctx and fetch children from it.
 * An integer in several enumeration ranges gets all their labels, separated by \x1f.
 * Fields babeltrace2 keeps out of its trace IR (special fields, clock-mapped integers, see
 * ctf_resolve.c) are not shown, except in the event header scope. */
#include "formats/ctf/ctf_stream.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int value_child(const tg_value *v, size_t i, tg_value *out);
static const struct tg_value_ops ctf_value_ops = {.child = value_child};

const ctf_tree *ctf_scope_tree(const tg_event *ev, tg_scope scope, bool *filter)
{
    if (!ev->stream || ev->stream->ops != &ctf_stream_ops)
        return NULL;
    /* a packet's beginning (tg_iter_want_messages) has the packet context only */
    if (!ev->auxp &&
        !(scope == TG_SCOPE_PACKET_CONTEXT && ev->cls && ev->cls->kind == TG_KIND_PACKET_BEGIN))
        return NULL;
    ctf_dstream *ds = ev->stream->priv;
    const ctf_event_decl *e = ev->auxp;
    const ctf_prog *prog;
    uint64_t start;
    *filter = true;
    switch (scope) {
    case TG_SCOPE_PACKET_CONTEXT:
        prog = ds->sc->prog_packet_context;
        start = ds->pc_pos;
        break;
    case TG_SCOPE_EVENT_HEADER:
        prog = ds->sc->prog_event_header;
        start = ev->aux[0];
        *filter = false;
        break;
    case TG_SCOPE_STREAM_CONTEXT:
        prog = ds->sc->prog_event_context;
        start = ev->aux[1];
        break;
    case TG_SCOPE_EVENT_CONTEXT:
        prog = e->prog_context;
        start = ev->aux[2];
        break;
    case TG_SCOPE_PAYLOAD:
        prog = e->prog_fields;
        start = ev->aux[3];
        break;
    default: return NULL;
    }
    if (!prog || !prog->n)
        return NULL;
    ctf_tree *t = &ds->trees[prog->scope];
    if (t->built_for == ds->serial && t->n)
        return t;
    t->n = 0;
    t->n_kid = 0;
    t->built_for = 0;
    ctf_dec d = ds->d;
    d.tree = t;
    d.quiet = true;
    d.pos = start;
    if (ctf_run(&d, prog) < 0 || !t->n)
        return NULL;
    t->base = d.buf;
    t->built_for = ds->serial;
    return t;
}

static bool visible(const ctf_tree *t, uint32_t node, bool filter)
{
    return !filter || t->nodes[node].st->in_ir;
}

static size_t visible_count(const ctf_tree *t, uint32_t node, bool filter)
{
    const ctf_node *n = &t->nodes[node];
    if (n->st->op != CTF_OP_STRUCT || !filter)
        return n->count;
    size_t c = 0;
    for (uint32_t k = 0; k < n->count; k++)
        c += visible(t, t->kid[n->kids + k], filter);
    return c;
}

/* The node of the i-th visible child. */
static int64_t visible_child(const ctf_tree *t, uint32_t node, size_t i, bool filter)
{
    const ctf_node *n = &t->nodes[node];
    if (n->st->op != CTF_OP_STRUCT || !filter)
        return i < n->count ? (int64_t)t->kid[n->kids + i] : -1;
    for (uint32_t k = 0; k < n->count; k++) {
        uint32_t c = t->kid[n->kids + k];
        if (visible(t, c, filter) && i-- == 0)
            return c;
    }
    return -1;
}

static const char *enum_label(const ctf_type *ty, uint64_t v, ctf_dstream *ds)
{
    const char *first = NULL;
    size_t n = 0;
    char *buf = NULL;
    size_t len = 0;
    for (size_t k = 0; k < ty->n_maps; k++) {
        const ctf_enum_map *m = &ty->maps[k];
        if (!ctf_enum_map_has(ty, m, v))
            continue;
        if (n == 0) {
            first = m->label;
        } else {
            if (n == 1) {
                buf = ds->labels[ds->label_slot++ % 8];
                len = (size_t)snprintf(buf, 256, "%s", first);
            }
            if (len < 255)
                len += (size_t)snprintf(buf + len, 256 - len, "\x1f%s", m->label);
            if (len > 255)
                len = 255;
        }
        n++;
    }
    return n > 1 ? buf : first;
}

static void fill(const ctf_tree *t, uint32_t node, bool filter, ctf_dstream *ds, tg_value *out)
{
    const ctf_node *n = &t->nodes[node];
    const ctf_step *st = n->st;
    const ctf_type *ty = st->type;
    memset(out, 0, sizeof *out);
    out->name = st->name;
    out->ctx[0] = t;
    out->ctx[1] = (const void *)(uintptr_t)node;
    switch (st->op) {
    case CTF_OP_INT:
    case CTF_OP_VLINT:
        out->type = st->is_signed ? TG_VAL_SINT : TG_VAL_UINT;
        out->v.u = n->v.u;
        out->bits = st->size;
        out->base = ty->base;
        out->byte_order = st->big_endian ? 2 : 1;
        if (ty->kind == CTF_T_ENUM) {
            out->flags |= TG_VALF_ENUM;
            out->label = enum_label(ty, n->v.u, ds);
        }
        return;
    case CTF_OP_FLOAT:
        out->type = TG_VAL_FLOAT;
        out->v.f = n->v.f;
        out->bits = st->size;
        return;
    case CTF_OP_STRING:
    case CTF_OP_TEXT_ARRAY:
    case CTF_OP_TEXT_SEQUENCE:
        out->type = TG_VAL_STRING;
        out->v.str.ptr = (const char *)t->base + n->v.str.off;
        out->v.str.len = n->v.str.len;
        if (st->op != CTF_OP_STRING)
            out->flags |= TG_VALF_TEXT;
        return;
    case CTF_OP_STRUCT: out->type = TG_VAL_STRUCT; break;
    case CTF_OP_ARRAY: out->type = TG_VAL_ARRAY; break;
    case CTF_OP_SEQUENCE: out->type = TG_VAL_SEQUENCE; break;
    case CTF_OP_VARIANT: out->type = TG_VAL_VARIANT; break;
    }
    out->count = visible_count(t, node, filter);
    out->ops = &ctf_value_ops;
    out->ctx[0] = t;
    out->ctx[1] = (const void *)(uintptr_t)node;
    out->ctx[2] = ds;
    out->ctx[3] = filter ? "" : NULL;
}

const ctf_step *ctf_value_step(const tg_value *v)
{
    const ctf_tree *t = v->ctx[0];
    return t ? t->nodes[(uint32_t)(uintptr_t)v->ctx[1]].st : NULL;
}

static int value_child(const tg_value *v, size_t i, tg_value *out)
{
    const ctf_tree *t = v->ctx[0];
    uint32_t node = (uint32_t)(uintptr_t)v->ctx[1];
    bool filter = v->ctx[3] != NULL;
    int64_t c = visible_child(t, node, i, filter);
    if (c < 0)
        return TG_ERR_USAGE;
    fill(t, (uint32_t)c, filter, (ctf_dstream *)v->ctx[2], out);
    return 0;
}

size_t ctf_field_count(const tg_event *ev, tg_scope scope)
{
    bool filter;
    const ctf_tree *t = ctf_scope_tree(ev, scope, &filter);
    if (!t || (filter && !t->nodes[0].st->in_ir))
        return 0;
    return visible_count(t, 0, filter);
}

int ctf_field_get(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    bool filter;
    const ctf_tree *t = ctf_scope_tree(ev, scope, &filter);
    if (!t)
        return TG_ERR_USAGE;
    int64_t c = visible_child(t, 0, i, filter);
    if (c < 0)
        return TG_ERR_USAGE;
    fill(t, (uint32_t)c, filter, ev->stream->priv, out);
    return 0;
}

bool ctf_field_named(const tg_event *ev, tg_scope scope, const char *name, tg_value *out)
{
    size_t n = ctf_field_count(ev, scope);
    for (size_t i = 0; i < n; i++)
        if (ctf_field_get(ev, scope, i, out) == 0 && out->name && !strcmp(out->name, name))
            return true;
    return false;
}

bool ctf_field_uint(const tg_event *ev, tg_scope scope, const char *name, uint64_t *out)
{
    tg_value v;
    if (!ctf_field_named(ev, scope, name, &v) || (v.type != TG_VAL_UINT && v.type != TG_VAL_SINT))
        return false;
    *out = v.v.u;
    return true;
}
