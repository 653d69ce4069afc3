/* perfetto_read_stream.c - a Perfetto trace's records as one traceglot stream, and their
 * fields.
 *
 * The records are sorted already (perfetto_read_format.c), so next() hands them out in turn
 * and, after the last, the damage reading stopped at (if any).  A kernel event's fields are
 * its typed message's fields in field-number order (protobuf-c's descriptor order), decoded
 * from the record's bytes when a consumer asks: the last decoded message is kept, so a
 * consumer reading every field of an event decodes it once.  A field the event does not
 * carry reads as its default (0, ""), as the kernel would have written it. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/record_run.h"

#include <stdlib.h>
#include <string.h>

typedef struct pf_stream {
    pf_trace *p;
    tg_record_run run;
    const pf_record *decoded_rec; /* the record whose message is decoded */
    ProtobufCMessage *decoded;
} pf_stream;

static int pf_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    pf_stream *st = s->priv;
    pf_trace *p = st->p;
    size_t at = 0;
    int rc = tg_record_run_next(&st->run, p->n_recs, p->damage, &at, err);
    if (rc <= 0)
        return rc;
    const pf_record *r = &p->recs[at];
    tg_record_event(ev, s, r->ts, r->cls, r->pid, r->tid);
    ev->cpu = r->cpu;
    ev->addr = r->cls == p->counter ? 0 : r->addr;
    if (r->cls && r->cls->profile_sample) {
        ev->cpu_mode = (uint8_t)(r->addr >> PF_SAMPLE_MODE_SHIFT);
        ev->addr = r->addr & ((1ull << PF_SAMPLE_MODE_SHIFT) - 1);
    }
    ev->offset = r->offset;
    ev->data = r->data;
    ev->size = r->size;
    ev->auxp = r;
    return 1;
}

static int pf_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    pf_stream *st = s->priv;
    tg_record_run_rewind(&st->run);
    return 0;
}

static const ProtobufCMessageDescriptor *descriptor_of(const tg_event_class *c)
{
    return c ? c->fmt_data : NULL;
}

static size_t pf_field_count(const tg_event *ev, tg_scope scope)
{
    const pf_record *r = ev->auxp;
    if (r && r->slice)
        return scope == TG_SCOPE_PAYLOAD ? r->slice->n_args : 0;
    const ProtobufCMessageDescriptor *d = descriptor_of(ev->cls);
    return scope == TG_SCOPE_PAYLOAD && d ? d->n_fields : 0;
}

static const ProtobufCMessage *decoded(const tg_event *ev)
{
    pf_stream *st = ev->stream->priv;
    const pf_record *r = ev->auxp;
    if (st->decoded_rec == r)
        return st->decoded;
    if (st->decoded)
        protobuf_c_message_free_unpacked(st->decoded, NULL);
    st->decoded = protobuf_c_message_unpack(descriptor_of(ev->cls), NULL, r->size, r->data);
    st->decoded_rec = st->decoded ? r : NULL;
    return st->decoded;
}

/* The value of one scalar field of a decoded message. */
static void scalar(const ProtobufCFieldDescriptor *f, const void *at, tg_value *out)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
        out->type = TG_VAL_SINT;
        out->v.s = *(const int32_t *)at;
        out->bits = 32;
        break;
    case PROTOBUF_C_TYPE_ENUM: {
        out->type = TG_VAL_SINT;
        out->v.s = *(const int *)at;
        out->bits = 32;
        const ProtobufCEnumValue *v =
            protobuf_c_enum_descriptor_get_value(f->descriptor, (int)out->v.s);
        if (v) {
            out->label = v->name;
            out->flags |= TG_VALF_ENUM;
        }
        break;
    }
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        out->type = TG_VAL_SINT;
        out->v.s = *(const int64_t *)at;
        out->bits = 64;
        break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
        out->type = TG_VAL_UINT;
        out->v.u = *(const uint32_t *)at;
        out->bits = 32;
        break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        out->type = TG_VAL_UINT;
        out->v.u = *(const uint64_t *)at;
        out->bits = 64;
        break;
    case PROTOBUF_C_TYPE_BOOL:
        out->type = TG_VAL_UINT;
        out->v.u = *(const protobuf_c_boolean *)at != 0;
        out->bits = 8;
        break;
    case PROTOBUF_C_TYPE_FLOAT:
        out->type = TG_VAL_FLOAT;
        out->v.f = *(const float *)at;
        out->bits = 32;
        break;
    case PROTOBUF_C_TYPE_DOUBLE:
        out->type = TG_VAL_FLOAT;
        out->v.f = *(const double *)at;
        out->bits = 64;
        break;
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(const char *const *)at;
        out->type = TG_VAL_STRING;
        out->v.str.ptr = s ? s : "";
        out->v.str.len = s ? strlen(s) : 0;
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = at;
        out->type = TG_VAL_BYTES;
        out->v.str.ptr = (const char *)b->data;
        out->v.str.len = b->len;
        break;
    }
    default: out->type = TG_VAL_NONE; break;
    }
    if (out->type == TG_VAL_SINT || out->type == TG_VAL_UINT)
        out->base = 10;
}

static int pf_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const pf_record *r = ev->auxp;
    if (r && r->slice) {
        if (scope != TG_SCOPE_PAYLOAD || i >= r->slice->n_args)
            return TG_ERR_USAGE;
        *out = r->slice->args[i];
        return 0;
    }
    const ProtobufCMessageDescriptor *d = descriptor_of(ev->cls);
    if (scope != TG_SCOPE_PAYLOAD || !d || i >= d->n_fields)
        return TG_ERR_USAGE;
    const ProtobufCFieldDescriptor *f = &d->fields[i];
    memset(out, 0, sizeof *out);
    out->name = f->name;
    const ProtobufCMessage *m = decoded(ev);
    if (!m)
        return TG_ERR_FORMAT;
    if (f->label == PROTOBUF_C_LABEL_REPEATED || f->type == PROTOBUF_C_TYPE_MESSAGE) {
        out->type = TG_VAL_NONE;
        return 0;
    }
    scalar(f, (const char *)m + f->offset, out);
    return 0;
}

static const char *pf_func_name(const tg_event *ev)
{
    const pf_stream *st = ev->stream->priv;
    return ev->addr < st->p->n_names ? st->p->names[ev->addr] : NULL;
}

static const char *pf_func_category(const tg_event *ev)
{
    const pf_record *r = ev->auxp;
    return r && r->slice ? r->slice->category : NULL;
}

static size_t pf_flows(const tg_event *ev, const tg_flow **out)
{
    const pf_record *r = ev->auxp;
    if (!r || !r->slice)
        return 0;
    *out = r->slice->flows;
    return r->slice->n_flows;
}

static void pf_destroy(tg_stream *s)
{
    pf_stream *st = s->priv;
    if (st->decoded)
        protobuf_c_message_free_unpacked(st->decoded, NULL);
    free(st);
}

static int64_t pf_event_track(const tg_event *ev)
{
    const pf_stream *st = ev->stream->priv;
    const pf_record *r = ev->auxp;
    return r && r->track >= 0 ? st->p->tracks[r->track].decl : -1;
}

/* The listed task of the thread whose track ev is on (a thread descriptor's, not declared
 * apart: those slices belong to no thread), -1 none. */
static int64_t pf_event_task(const tg_event *ev)
{
    const pf_stream *st = ev->stream->priv;
    const pf_record *r = ev->auxp;
    const pf_track *k = r && r->track >= 0 ? &st->p->tracks[r->track] : NULL;
    return k && k->decl < 0 ? k->task : -1;
}

static bool pf_counter_value(const tg_event *ev, double *value)
{
    const pf_stream *st = ev->stream->priv;
    const pf_record *r = ev->auxp;
    if (!r || !st->p->counter || r->cls != st->p->counter)
        return false;
    *value = r->value;
    return true;
}

static const struct tg_stream_ops pf_stream_ops = {
    .next = pf_next,
    .field_count = pf_field_count,
    .field = pf_field,
    .func_name = pf_func_name,
    .func_category = pf_func_category,
    .track = pf_event_track,
    .task = pf_event_task,
    .counter_value = pf_counter_value,
    .flows = pf_flows,
    .destroy = pf_destroy,
    .rewind = pf_rewind,
};

int pf_add_stream(tg_trace *t)
{
    pf_stream *st = calloc(1, sizeof *st);
    if (!st)
        return TG_ERR_NOMEM;
    st->p = t->priv;
    if (!tg_trace_add_stream(t, &pf_stream_ops, "packets", -1, -1, st)) {
        free(st);
        return TG_ERR_NOMEM;
    }
    return 0;
}
