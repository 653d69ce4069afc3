/* lttng0_stream.c - one LTTng 0.x tracefile as a traceglot stream, and its payload fields.
 *
 * next() and next_batch() fill only the event header (time, class, cpu, payload location);
 * the payload is decoded when a consumer asks for a field, from the marker's field list:
 * integers in the trace's byte order (network order for "#n" fields) sign-extended when
 * signed, pointers flagged as addresses, strings in place.  Each value carries the marker's
 * own conversion text ("%lu", "0x%lX") so that a printer can print the field as the
 * marker's format says. */
#include "formats/lttng0/lttng0_internal.h"

#include "io/byte_reader.h"

#include <stdlib.h>
#include <string.h>

typedef struct lt0_stream {
    lt0_cursor cur;
    tg_window win;
    const lt0_trace *lt;
    lt0_tracefile *tf;
} lt0_stream;

static int fill(lt0_stream *st, const lt0_raw *r, int kind, tg_event *ev)
{
    ev->ts = lt0_tsc_to_ns(st->lt, r->tsc);
    ev->cpu = st->tf->cpu;
    ev->pid = ev->tid = -1;
    ev->depth = -1;
    ev->offset = r->off;
    ev->aux[1] = r->tsc;
    if (kind == 2) {
        ev->cls = st->lt->lost_cls;
        ev->lost = r->lost;
        ev->data = NULL;
        ev->size = 0;
        ev->auxp = NULL;
        return 1;
    }
    ev->cls = r->m->cls;
    ev->lost = 0;
    ev->data = r->data;
    ev->size = r->size;
    ev->aux[0] = r->data_off;
    ev->auxp = r->m;
    return 1;
}

static int lt0_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    lt0_stream *st = s->priv;
    lt0_raw r;
    int rc = lt0_cursor_next(&st->cur, &r, err);
    if (rc <= 0)
        return rc;
    return fill(st, &r, rc, ev);
}

static size_t lt0_next_batch(tg_stream *s, tg_event *evs, size_t max)
{
    lt0_stream *st = s->priv;
    size_t n = 0;
    while (n < max) {
        /* stop before block ends and damage: next() reports those */
        const lt0_cursor *c = &st->cur;
        if (!c->in_block || c->pos >= c->end)
            break;
        lt0_raw r;
        lt0_cursor save = st->cur;
        tg_error *e = NULL;
        int rc = lt0_cursor_next(&st->cur, &r, &e);
        if (rc != 1) {
            st->cur = save;
            tg_error_free(e);
            break;
        }
        fill(st, &r, rc, &evs[n++]);
    }
    return n;
}

static int lt0_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    lt0_stream *st = s->priv;
    lt0_cursor_init(&st->cur, st->lt, st->tf, &st->win);
    return 0;
}

static void lt0_destroy(tg_stream *s)
{
    free(s->priv);
    s->priv = NULL;
}

static size_t lt0_field_count(const tg_event *ev, tg_scope scope)
{
    const lt0_marker *m = ev->auxp;
    return scope == TG_SCOPE_PAYLOAD && m ? m->n_fields : 0;
}

static int lt0_field_get(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const lt0_marker *m = ev->auxp;
    if (scope != TG_SCOPE_PAYLOAD || !m || i >= m->n_fields)
        return TG_ERR_USAGE;
    const lt0_field *f = &m->fields[i];
    size_t end;
    long off = lt0_field_offset(m, i, ev->data, ev->size, (size_t)ev->aux[0], &end);
    if (off < 0)
        return TG_ERR_FORMAT;
    const uint8_t *p = ev->data + off;
    out->name = f->name;
    out->fmt = f->conv;
    if (f->type == LT0_STRING) {
        out->type = TG_VAL_STRING;
        out->v.str.ptr = (const char *)p;
        out->v.str.len = end - (size_t)off - 1;
        return 0;
    }
    const lt0_tracefile *tf = ((const lt0_stream *)ev->stream->priv)->tf;
    bool be = f->net_order || tf->hdr.big_endian;
    uint64_t v = lt0_read_uint(p, f->size, be);
    out->bits = (uint16_t)(f->size * 8);
    out->base = 10;
    if (f->type == LT0_SINT) {
        unsigned sh = 64 - out->bits;
        out->type = TG_VAL_SINT;
        out->v.s = sh ? (int64_t)(v << sh) >> sh : (int64_t)v;
        return 0;
    }
    out->type = TG_VAL_UINT;
    out->v.u = v;
    if (f->type == LT0_PTR) {
        out->flags = TG_VALF_POINTER;
        out->base = 16;
    } else {
        size_t n = strlen(f->conv);
        char letter = n ? f->conv[n - 1] : 'u';
        out->base = letter == 'x' || letter == 'X' ? 16 : letter == 'o' ? 8 : 10;
    }
    return 0;
}

static const struct tg_stream_ops lt0_stream_ops = {
    .next = lt0_next,
    .field_count = lt0_field_count,
    .field = lt0_field_get,
    .destroy = lt0_destroy,
    .rewind = lt0_rewind,
    .next_batch = lt0_next_batch,
    .reads_alone = true, /* a tracefile's cursor; the markers are fixed at open */
};

int lt0_stream_add(tg_trace *t, lt0_trace *lt, lt0_tracefile *tf)
{
    lt0_stream *st = calloc(1, sizeof *st);
    if (!st)
        return TG_ERR_NOMEM;
    st->lt = lt;
    st->tf = tf;
    lt0_cursor_init(&st->cur, lt, tf, &st->win);
    if (!tg_trace_add_stream(t, &lt0_stream_ops, tf->name, tf->cpu, -1, st)) {
        free(st);
        return TG_ERR_NOMEM;
    }
    return 0;
}
