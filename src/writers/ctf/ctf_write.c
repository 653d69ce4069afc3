/* ctf_write.c - the CTF 1.8 converter: traceglot convert --to ctf -o DIR PATH...
 *
 * One pass over the merged, filtered events.  Each input trace becomes one output trace
 * (DIR itself for one input trace, DIR/NAME for several, named after their paths) with the
 * input's environment and clock class, and its events at their times on that clock, so
 * that babeltrace2 puts the output traces on its timeline as it puts the inputs (and
 * --begin/--end bound each trace by its own clock, as babeltrace2's do).  Each input stream
 * becomes one output stream
 * file of bounded packets; each event class becomes a CTF event class whose fields are
 * written with the class's declared schema (CTF input: the same types, so babeltrace2 prints
 * the same) or with types derived from its values (every other format).  The layout follows
 * LTTng's: a packet header (magic, trace uuid, stream id), a packet context with begin/end
 * timestamps, sizes, a sequence number and the running count of discarded events (lost
 * records close the packet so the count lands between packets), then events with a header
 * (class id, timestamp as a value of the trace's clock).  The metadata (ctf_metadata.c) is
 * written last, when every class and every enumeration label has been seen.
 *
 * perf.data traces are written as perf's converter writes them (ctf_perf.c): samples only,
 * one stream per CPU, perf's field names and types.
 *
 * Memory: one packet buffer per stream (packets close at CW_PACKET_BYTES), the class and
 * stream tables; nothing grows with the number of events. */
#include "writers/ctf/ctf_writer.h"
#include "writers/dir_output.h"
#include "core/error_internal.h"
#include "core/grow.h"
#include "core/consumer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define CW_PACKET_BYTES (256u * 1024u)
#define CW_MAGIC 0xC1FC1FC1u

typedef struct cw_stream {
    tg_stream *in;
    int64_t cpu; /* its packet context's cpu_id (perf.data: the key, with in) */
    cw_otrace *tr;
    cw_sclass *sc;
    uint32_t instance;
    int fd;
    char fname[32];
    cw_pack pkt;
    int open;        /* a packet is being filled */
    size_t n_events; /* in the open packet */
    int64_t ts_begin, ts_end;
    uint64_t discarded, seq;
    uint64_t written_discarded; /* as the last packet written said */
    uint8_t *pctx_bytes;        /* the open packet's own context members, encoded */
    size_t pctx_len;
    const cw_class *last_cls;
} cw_stream;

typedef struct cw_writer {
    const char *dir;
    cw_otrace *traces; /* one per input trace */
    size_t n_traces;
    cw_class **classes;
    size_t n_classes, cap_classes;
    cw_stream **streams;
    size_t n_streams, cap_streams;
    cw_stream *last_stream;
    cw_derived *derived;
    cw_perf *perf;
    tg_value *vals; /* one scope's top-level values */
    size_t cap_vals;
    tg_value *pay; /* derived classes: the payload's values (func, args, ret) */
    size_t n_pay, cap_pay;
    cw_pack scratch;
    tg_set *set;
} cw_writer;

/* ---- the writer's own fixed types ---------------------------------------------------------- */

static const tg_field_type u32_le = {
    .kind = TG_FT_INT, .bits = 32, .align = 8, .byte_order = 1, .base = 10};
static const tg_field_type s32_le = {
    .kind = TG_FT_INT, .bits = 32, .align = 8, .byte_order = 1, .base = 10, .is_signed = 1};
static const tg_field_member cpu_member[] = {{"cpu_id", "cpu_id", &u32_le}};
static const tg_field_type cpu_ctx = {
    .kind = TG_FT_STRUCT, .align = 8, .members = cpu_member, .n_members = 1};
static const tg_field_member pid_members[] = {{"pid", "_pid", &s32_le}, {"tid", "_tid", &s32_le}};
static const tg_field_type pid_ctx = {
    .kind = TG_FT_STRUCT, .align = 8, .members = pid_members, .n_members = 2};

/* ---- tables ------------------------------------------------------------------------------- */

static cw_sclass *add_sclass(cw_otrace *tr, const tg_field_type *pctx, const tg_field_type *sctx,
                             int derived)
{
    for (size_t i = 0; i < tr->n_sclasses; i++) {
        cw_sclass *sc = tr->sclasses[i];
        if (sc->pctx == pctx && sc->sctx == sctx && sc->derived == derived)
            return sc;
    }
    cw_sclass *sc = calloc(1, sizeof *sc);
    if (!sc ||
        tg_grow(&tr->sclasses, &tr->cap_sclasses, tr->n_sclasses + 1, sizeof *tr->sclasses) < 0) {
        free(sc);
        return NULL;
    }
    sc->tr = tr;
    sc->id = (uint32_t)tr->n_sclasses;
    sc->pctx = pctx;
    sc->sctx = sctx;
    sc->derived = derived;
    tr->sclasses[tr->n_sclasses++] = sc;
    return sc;
}

static int gather(cw_writer *w, const tg_event *ev, tg_scope scope, size_t front, size_t *n,
                  tg_error **err)
{
    size_t k = tg_event_field_count(ev, scope);
    if (tg_grow(&w->vals, &w->cap_vals, front + k + 1, sizeof *w->vals) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++) {
        int rc = tg_event_field(ev, scope, i, &w->vals[front + i]);
        if (rc < 0)
            return tg_err(err, rc, "%s: field %zu unreadable", tg_event_name(ev), i);
    }
    *n = front + k;
    return 0;
}

static int is_func(tg_event_kind k)
{
    return k == TG_KIND_FUNC_ENTRY || k == TG_KIND_FUNC_EXIT || k == TG_KIND_FUNC_TAIL_EXIT;
}

/* The function-event members the writer puts before the payload. */
static size_t func_front(const tg_event *ev, tg_value *v)
{
    const char *fn = tg_event_func_name(ev);
    memset(v, 0, 3 * sizeof *v);
    v[0].type = TG_VAL_STRING;
    v[0].name = "func";
    v[0].v.str.ptr = fn ? fn : "";
    v[0].v.str.len = fn ? strlen(fn) : 0;
    v[1].type = TG_VAL_UINT;
    v[1].name = "addr";
    v[1].v.u = tg_event_func_addr(ev);
    v[2].type = TG_VAL_SINT;
    v[2].name = "depth";
    v[2].v.s = tg_event_depth(ev);
    return 3;
}

/* Derived classes: the event's values, function members first. */
static int derived_values(cw_writer *w, const tg_event *ev, int func, tg_error **err)
{
    size_t np = tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    size_t nr = tg_event_field_count(ev, TG_SCOPE_RETURN);
    if (tg_grow(&w->pay, &w->cap_pay, 3 + np + nr + 1, sizeof *w->pay) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    size_t n = func ? func_front(ev, w->pay) : 0;
    for (size_t i = 0; i < np; i++, n++)
        if (tg_event_field(ev, TG_SCOPE_PAYLOAD, i, &w->pay[n]) < 0)
            return tg_err(err, TG_ERR_FORMAT, "%s: field %zu unreadable", tg_event_name(ev), i);
    for (size_t i = 0; i < nr; i++, n++)
        if (tg_event_field(ev, TG_SCOPE_RETURN, i, &w->pay[n]) < 0)
            return tg_err(err, TG_ERR_FORMAT, "%s: return value %zu unreadable", tg_event_name(ev),
                          i);
    w->n_pay = n;
    return 0;
}

/* A hash of the payload's names and types: one input class whose events carry different
 * fields (uftrace entries with each function's arguments) becomes one CTF class per shape. */
static uint64_t shape_of(const tg_value *v, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = (uint64_t)v[i].type | (uint64_t)v[i].bits << 8 |
                     (uint64_t)(v[i].flags & TG_VALF_ENUM) << 24 |
                     (uint64_t)(v[i].type == TG_VAL_STRUCT ? v[i].count : 0) << 32;
        h = (h ^ k) * 1099511628211ull;
        for (const char *c = v[i].name ? v[i].name : ""; *c; c++)
            h = (h ^ (uint8_t)*c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    }
    return h;
}

static int declared(const tg_event_class *in)
{
    return tg_event_class_schema(in, TG_SCOPE_PAYLOAD) ||
           tg_event_class_schema(in, TG_SCOPE_PACKET_CONTEXT) ||
           tg_event_class_schema(in, TG_SCOPE_STREAM_CONTEXT) ||
           tg_event_class_schema(in, TG_SCOPE_EVENT_CONTEXT);
}

static cw_class *new_class(cw_writer *w, cw_otrace *tr, const tg_event *ev, uint64_t shape,
                           tg_error **err)
{
    const tg_event_class *in = tg_event_class_of(ev);
    cw_class *c = calloc(1, sizeof *c);
    if (!c || tg_grow(&w->classes, &w->cap_classes, w->n_classes + 1, sizeof *w->classes) < 0) {
        free(c);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    w->classes[w->n_classes++] = c;
    c->in = in;
    c->shape = shape;
    if (declared(in)) {
        c->payload = tg_event_class_schema(in, TG_SCOPE_PAYLOAD);
        c->ectx = tg_event_class_schema(in, TG_SCOPE_EVENT_CONTEXT);
        c->sc = add_sclass(tr, tg_event_class_schema(in, TG_SCOPE_PACKET_CONTEXT),
                           tg_event_class_schema(in, TG_SCOPE_STREAM_CONTEXT), 0);
    } else {
        c->derived = 1;
        c->func = is_func(tg_event_kind_of(ev));
        if (w->n_pay) {
            c->payload = cw_derive_struct(w->derived, w->pay, w->n_pay, err);
            if (!c->payload)
                return NULL;
        }
        if (!tr->derived_sc)
            tr->derived_sc = add_sclass(tr, tr->derived_pctx, &pid_ctx, 1);
        c->sc = tr->derived_sc;
    }
    if (!c->sc) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->id = c->sc->next_event_id++;
    return c;
}

/* The CTF class of ev; for derived classes also gathers the payload into w->pay. */
static cw_class *class_of(cw_writer *w, cw_stream *s, const tg_event *ev, tg_error **err)
{
    const tg_event_class *in = tg_event_class_of(ev);
    const cw_class *last = s->last_cls;
    uint64_t shape = 0;
    if (last && last->in == in && !last->derived)
        return (cw_class *)last;
    if ((last && last->in == in) || !declared(in)) {
        if (derived_values(w, ev, is_func(tg_event_kind_of(ev)), err) < 0)
            return NULL;
        shape = shape_of(w->pay, w->n_pay);
        if (last && last->in == in && last->shape == shape)
            return (cw_class *)last;
    }
    for (size_t i = 0; i < w->n_classes; i++)
        if (w->classes[i]->in == in && w->classes[i]->shape == shape)
            return w->classes[i];
    return new_class(w, s->tr, ev, shape, err);
}

/* The output stream of input stream in; perf.data (perf_cpu >= 0): of in and that CPU. */
static cw_stream *stream_of(cw_writer *w, tg_stream *in, int64_t perf_cpu, tg_error **err)
{
    cw_stream *last = w->last_stream;
    if (last && last->in == in && (perf_cpu < 0 || last->cpu == perf_cpu))
        return last;
    for (size_t i = 0; i < w->n_streams; i++)
        if (w->streams[i]->in == in && (perf_cpu < 0 || w->streams[i]->cpu == perf_cpu))
            return w->last_stream = w->streams[i];
    cw_stream *s = calloc(1, sizeof *s);
    if (!s || tg_grow(&w->streams, &w->cap_streams, w->n_streams + 1, sizeof *w->streams) < 0) {
        free(s);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->in = in;
    s->fd = -1;
    /* the input's stream order, which readers use to order events with equal times */
    const tg_trace *tin = tg_stream_trace(in);
    for (size_t t = 0; t < w->n_traces; t++)
        if (w->traces[t].in == tin)
            s->tr = &w->traces[t];
    for (size_t i = 0; i < tg_trace_stream_count(tin); i++)
        if (tg_trace_stream(tin, i) == in)
            s->instance = (uint32_t)i;
    if (!s->tr) {
        free(s);
        tg_err(err, TG_ERR_FORMAT, "stream %s: of no trace of the set", tg_stream_name(in));
        return NULL;
    }
    s->cpu = tg_stream_cpu(in) < 0 ? 0 : tg_stream_cpu(in);
    if (perf_cpu >= 0) { /* perf's streams: numbered as they are first written */
        s->cpu = perf_cpu;
        s->instance = s->tr->n_perf_streams++;
        snprintf(s->fname, sizeof s->fname, "perf_stream_%u", s->instance);
    } else {
        snprintf(s->fname, sizeof s->fname, "stream_%u", s->instance);
    }
    w->streams[w->n_streams++] = s;
    return w->last_stream = s;
}

/* ---- packets ----------------------------------------------------------------------------- */

/* Byte offsets of the fields patched when a packet closes. */
enum { OFF_TS_END = 40, OFF_CONTENT = 48, OFF_PSIZE = 56, OFF_DISC = 72 };
enum { OFF_CONTENT_NC = 32, OFF_PSIZE_NC = 40, OFF_DISC_NC = 56 };

/* Packets cover the stream's time without gaps, as LTTng's do: a stream's first packet
 * begins with the first event written (of any stream), each later one where the one before
 * ended.  (babeltrace2 orders packet beginnings among events by these times.) */
static int open_packet(cw_writer *w, cw_stream *s, int64_t ts, tg_error **err)
{
    (void)w;
    cw_pack *p = &s->pkt;
    const cw_otrace *tr = s->tr;
    int64_t begin = s->seq ? s->ts_end : tr->first_ts;
    if (begin > ts)
        begin = ts;
    uint64_t begin_value = 0;
    if (tr->has_clock)
        TG_TRY(cw_clock_cycles(&tr->clock, begin, &begin_value, err));
    cw_pack_reset(p);
    int rc = cw_pack_uint(p, CW_MAGIC, 32, 0);
    rc |= cw_pack_bytes(p, tr->uuid, 16);
    rc |= cw_pack_uint(p, s->sc->id, 32, 0);
    rc |= cw_pack_uint(p, s->instance, 64, 0);
    if (tr->has_clock) {
        rc |= cw_pack_uint(p, begin_value, 64, 0); /* timestamp_begin */
        rc |= cw_pack_uint(p, 0, 64, 0);           /* timestamp_end */
    }
    rc |= cw_pack_zeros(p, 8 * 4); /* content_size, packet_size, packet_seq_num, discarded */
    if (rc < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    cw_pack_patch64(p, (tr->has_clock ? 64 : 48), s->seq, 0);
    if (s->pctx_len && cw_pack_bytes(p, s->pctx_bytes, s->pctx_len) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    s->open = 1;
    s->n_events = 0;
    s->ts_begin = begin;
    s->ts_end = ts;
    return 0;
}

/* The output trace's directory exists (a subdirectory is made with its first file). */
static int dir_ready(const cw_otrace *tr, tg_error **err)
{
    if (mkdir(tr->dir, 0777) < 0 && errno != EEXIST) /* the umask decides, as for files */
        return tg_err(err, TG_ERR_IO, "%s: cannot create: %s", tr->dir, strerror(errno));
    return 0;
}

static int close_packet(cw_stream *s, tg_error **err)
{
    if (!s->open)
        return 0;
    const cw_otrace *tr = s->tr;
    cw_pack *p = &s->pkt;
    uint64_t content = p->bits;
    if (cw_pack_align(p, 8) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    uint64_t size = p->bits;
    if (tr->has_clock) {
        uint64_t end_value;
        TG_TRY(cw_clock_cycles(&tr->clock, s->ts_end, &end_value, err));
        cw_pack_patch64(p, OFF_TS_END, end_value, 0);
        cw_pack_patch64(p, OFF_CONTENT, content, 0);
        cw_pack_patch64(p, OFF_PSIZE, size, 0);
        cw_pack_patch64(p, OFF_DISC, s->discarded, 0);
    } else {
        cw_pack_patch64(p, OFF_CONTENT_NC, content, 0);
        cw_pack_patch64(p, OFF_PSIZE_NC, size, 0);
        cw_pack_patch64(p, OFF_DISC_NC, s->discarded, 0);
    }
    if (s->fd < 0) {
        TG_TRY(dir_ready(tr, err));
        s->fd = tg_dir_file_create(tr->dir, s->fname, err);
        if (s->fd < 0)
            return s->fd;
    }
    TG_TRY(tg_dir_file_write(s->fd, s->fname, p->buf, (size_t)(size / 8), err));
    s->open = 0;
    s->seq++;
    s->written_discarded = s->discarded;
    return 0;
}

/* The stream's own packet-context members for this event (CTF input: cpu_id and the other
 * visible members; derived: the stream's cpu).  A change starts a new packet. */
static int packet_members(cw_writer *w, cw_stream *s, const tg_event *ev, tg_error **err)
{
    const tg_field_type *pctx = s->sc->pctx;
    cw_pack *sp = &w->scratch;
    cw_pack_reset(sp);
    if (!pctx)
        return 0;
    size_t n = 0;
    if (s->sc->derived) {
        tg_value v = {.type = TG_VAL_UINT, .name = "cpu_id", .v.u = (uint64_t)s->cpu};
        if (tg_grow(&w->vals, &w->cap_vals, 1, sizeof *w->vals) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        w->vals[0] = v;
        n = 1;
    } else {
        TG_TRY(gather(w, ev, TG_SCOPE_PACKET_CONTEXT, 0, &n, err));
    }
    cw_lengths lens = {.n = 0};
    TG_TRY(cw_encode_members(sp, pctx, w->vals, n, &lens, err));
    size_t len = (size_t)((sp->bits + 7) / 8);
    if (s->open && len == s->pctx_len && memcmp(sp->buf, s->pctx_bytes, len) == 0)
        return 0;
    TG_TRY(close_packet(s, err));
    uint8_t *copy = realloc(s->pctx_bytes, len ? len : 1);
    if (!copy)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    memcpy(copy, sp->buf, len);
    s->pctx_bytes = copy;
    s->pctx_len = len;
    return 0;
}

static int encode_event(cw_writer *w, cw_stream *s, const cw_class *c, const tg_event *ev,
                        uint64_t clock_value, tg_error **err)
{
    cw_pack *p = &s->pkt;
    cw_lengths lens = {.n = 0};
    if (cw_pack_align(p, 8) < 0 || cw_pack_uint(p, c->id, 32, 0) < 0 ||
        (s->tr->has_clock && cw_pack_uint(p, clock_value, 64, 0) < 0))
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    size_t n = 0;
    if (s->sc->derived && s->sc->sctx == &pid_ctx) {
        tg_value v[2] = {{.type = TG_VAL_SINT, .name = "pid", .v.s = tg_event_pid(ev)},
                         {.type = TG_VAL_SINT, .name = "tid", .v.s = tg_event_tid(ev)}};
        TG_TRY(cw_encode_members(p, &pid_ctx, v, 2, &lens, err));
    } else if (s->sc->sctx) {
        TG_TRY(gather(w, ev, TG_SCOPE_STREAM_CONTEXT, 0, &n, err));
        TG_TRY(cw_encode_members(p, s->sc->sctx, w->vals, n, &lens, err));
    }
    if (c->ectx) {
        TG_TRY(gather(w, ev, TG_SCOPE_EVENT_CONTEXT, 0, &n, err));
        TG_TRY(cw_encode_members(p, c->ectx, w->vals, n, &lens, err));
    }
    if (!c->payload)
        return 0;
    if (c->perf) {
        const tg_value *vals;
        TG_TRY(cw_perf_values(w->perf, ev, &vals, &n, err));
        return cw_encode_members(p, c->payload, vals, n, &lens, err);
    }
    if (!c->derived) {
        TG_TRY(gather(w, ev, TG_SCOPE_PAYLOAD, 0, &n, err));
        return cw_encode_members(p, c->payload, w->vals, n, &lens, err);
    }
    /* enumeration labels are collected for the metadata */
    for (size_t i = 0, m = 0; i < c->payload->n_members && m < w->n_pay; i++) {
        const tg_field_member *mb = &c->payload->members[i];
        if (mb->type == &cw_length_type)
            continue;
        if (mb->type->kind == TG_FT_ENUM && w->pay[m].label &&
            cw_derived_enum_label(w->derived, mb->type, w->pay[m].label, w->pay[m].v.u) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        m++;
    }
    return cw_encode_members(p, c->payload, w->pay, w->n_pay, &lens, err);
}

/* The class of perf.data sample ev, and its CPU's stream in *sp. */
static cw_class *perf_class_of(cw_writer *w, const tg_event *ev, cw_stream **sp, tg_error **err)
{
    const char *name;
    if (!w->perf && !(w->perf = cw_perf_new())) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const tg_field_type *payload = cw_perf_payload(w->perf, ev, &name, err);
    if (!payload)
        return NULL;
    cw_stream *s = *sp = stream_of(w, tg_event_stream(ev), cw_perf_cpu(w->perf, ev), err);
    if (!s)
        return NULL;
    const tg_event_class *in = tg_event_class_of(ev);
    if (s->last_cls && s->last_cls->in == in)
        return (cw_class *)s->last_cls;
    for (size_t i = 0; i < w->n_classes; i++)
        if (w->classes[i]->in == in && w->classes[i]->perf)
            return w->classes[i];
    cw_otrace *tr = s->tr;
    cw_class *c = calloc(1, sizeof *c);
    if (!tr->perf_sc)
        tr->perf_sc = add_sclass(tr, &cpu_ctx, NULL, 2);
    if (!c || !tr->perf_sc ||
        tg_grow(&w->classes, &w->cap_classes, w->n_classes + 1, sizeof *w->classes) < 0) {
        free(c);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    w->classes[w->n_classes++] = c;
    *c = (cw_class){.in = in, .sc = tr->perf_sc, .payload = payload, .perf = 1, .name = name};
    c->id = c->sc->next_event_id++;
    return c;
}

/* Whether input stream in is of a perf.data trace (known from the last stream written). */
static int of_perf(const cw_writer *w, const tg_stream *in)
{
    if (w->last_stream && w->last_stream->in == in)
        return w->last_stream->tr->perf;
    const tg_trace *t = tg_stream_trace(in);
    for (size_t i = 0; i < w->n_traces; i++)
        if (w->traces[i].in == t)
            return w->traces[i].perf;
    return 0;
}

static int write_event(cw_writer *w, const tg_event *ev, tg_error **err)
{
    cw_stream *s = NULL;
    cw_class *c;
    if (of_perf(w, tg_event_stream(ev))) {
        if (!cw_perf_is_sample(ev))
            return 0; /* perf converts the samples only */
        c = perf_class_of(w, ev, &s, err);
        if (!c)
            return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
        goto write;
    }
    s = stream_of(w, tg_event_stream(ev), -1, err);
    if (!s)
        return TG_ERR_NOMEM;
    if (tg_event_kind_of(ev) == TG_KIND_LOST) {
        /* the loss is reported at the end of the packet before it: that packet ends at
         * the time the input gives the loss */
        if (s->open && tg_event_trace_time_ns(ev) > s->ts_end)
            s->ts_end = tg_event_trace_time_ns(ev);
        TG_TRY(close_packet(s, err));
        s->discarded += tg_event_lost_count(ev);
        return 0;
    }
    c = class_of(w, s, ev, err);
    if (!c)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
write:
    s->last_cls = c;
    if (!s->sc) {
        s->sc = c->sc;
    } else if (s->sc != c->sc) {
        return tg_err(err, TG_ERR_UNSUPPORTED,
                      "stream %s: events of two stream classes in one stream",
                      tg_stream_name(s->in));
    }
    cw_otrace *tr = s->tr;
    int64_t ts = tg_event_trace_time_ns(ev);
    uint64_t value = 0;
    if (tr->has_clock)
        TG_TRY(cw_clock_cycles(&tr->clock, ts, &value, err));
    if (!tr->any_event) {
        tr->first_ts = ts;
        tr->any_event = 1;
    }
    tr->last_ts = ts;
    TG_TRY(packet_members(w, s, ev, err));
    if (!s->open)
        TG_TRY(open_packet(w, s, ts, err));
    uint64_t mark = s->pkt.bits;
    int rc = encode_event(w, s, c, ev, value, err);
    if (rc >= 0 && s->pkt.bits / 8 > CW_PACKET_BYTES && s->n_events) {
        cw_pack_truncate(&s->pkt, mark);
        TG_TRY(close_packet(s, err));
        TG_TRY(open_packet(w, s, ts, err));
        rc = encode_event(w, s, c, ev, value, err);
    }
    if (rc < 0)
        return tg_err_wrap(err, "%s at %lld ns", tg_event_name(ev), (long long)ts);
    s->n_events++;
    s->ts_end = ts;
    return 0;
}

/* ---- the converter ------------------------------------------------------------------------ */

static void writer_free(cw_writer *w)
{
    for (size_t i = 0; i < w->n_streams; i++) {
        cw_stream *s = w->streams[i];
        if (s->fd >= 0)
            close(s->fd);
        cw_pack_free(&s->pkt);
        free(s->pctx_bytes);
        free(s);
    }
    for (size_t i = 0; i < w->n_classes; i++)
        free(w->classes[i]);
    for (size_t t = 0; t < w->n_traces; t++) {
        cw_otrace *tr = &w->traces[t];
        for (size_t i = 0; i < tr->n_sclasses; i++)
            free(tr->sclasses[i]);
        free(tr->sclasses);
        free(tr->dir);
    }
    free(w->traces);
    free(w->streams);
    free(w->classes);
    free(w->vals);
    free(w->pay);
    cw_pack_free(&w->scratch);
    cw_derived_free(w->derived);
    cw_perf_free(w->perf);
}

static int finish(cw_writer *w, tg_error **err)
{
    for (size_t i = 0; i < w->n_streams; i++) {
        cw_stream *s = w->streams[i];
        if (!s->sc)
            continue;
        /* records lost after the last event: an empty packet carries their count */
        if (!s->open && s->discarded != s->written_discarded)
            TG_TRY(open_packet(w, s, s->ts_end, err));
        if (s->open && s->ts_end < s->tr->last_ts)
            s->ts_end = s->tr->last_ts; /* and the last packets end with the last event */
        TG_TRY(close_packet(s, err));
        if (s->fd >= 0 && close(s->fd) < 0) {
            s->fd = -1;
            return tg_err(err, TG_ERR_IO, "%s/%s: close failed", s->tr->dir, s->fname);
        }
        s->fd = -1;
    }
    /* every trace with streams written has its metadata; with none at all, the first */
    int any = 0;
    for (size_t t = 0; t < w->n_traces; t++)
        any |= w->traces[t].n_sclasses > 0;
    for (size_t t = 0; t < w->n_traces; t++) {
        cw_otrace *tr = &w->traces[t];
        if (tr->n_sclasses || (!any && t == 0)) {
            TG_TRY(dir_ready(tr, err));
            TG_TRY(cw_write_metadata(tr, w->classes, w->n_classes, err));
        }
    }
    return 0;
}

/* The output trace of input trace t: a fresh uuid, the input's clock, and its directory:
 * the target itself for one input trace, else a subdirectory named after t's path (made
 * when its first file is written). */
static int otrace_init(cw_writer *w, size_t index, tg_error **err)
{
    cw_otrace *tr = &w->traces[index];
    const tg_trace *t = tg_set_trace(w->set, index);
    tr->in = t;
    if (getrandom(tr->uuid, sizeof tr->uuid, 0) != (ssize_t)sizeof tr->uuid)
        for (int i = 0; i < 16; i++)
            tr->uuid[i] = (uint8_t)(i * 37 + 11 + index);
    tr->uuid[6] = (uint8_t)((tr->uuid[6] & 0x0f) | 0x40);
    tr->uuid[8] = (uint8_t)((tr->uuid[8] & 0x3f) | 0x80);
    const char *ck = tg_trace_clock(t)->name;
    tr->has_clock = ck != NULL && strcmp(ck, "unknown") != 0;
    cw_clock_of(&tr->clock, t, tr->uuid);
    tr->perf = cw_perf_is_trace(t);
    if (tr->perf) { /* perf's converter: a clock of offset 0 counting the samples' times */
        tr->has_clock = 1;
        cw_perf_clock(&tr->clock);
    }
    /* derived streams carry their cpu when every stream of the trace has one */
    int all_cpu = 1;
    for (size_t i = 0; i < tg_trace_stream_count(t); i++)
        all_cpu &= tg_stream_cpu(tg_trace_stream(t, i)) >= 0;
    tr->derived_pctx = tg_trace_stream_count(t) && all_cpu ? &cpu_ctx : NULL;
    char name[256];
    const char *path = tg_trace_path(t), *base = path ? path : "";
    size_t len = strlen(base);
    while (len > 1 && base[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && base[start - 1] != '/')
        start--;
    if (len - start == 0 || len - start >= 200 || (len - start <= 2 && base[start] == '.'))
        snprintf(name, sizeof name, "trace%zu", index);
    else
        snprintf(name, sizeof name, "%.*s", (int)(len - start), base + start);
    for (size_t i = 0; i < index; i++)
        if (strcmp(strrchr(w->traces[i].dir, '/') + 1, name) == 0) {
            size_t n = strlen(name);
            snprintf(name + n, sizeof name - n, "-%zu", index);
            break;
        }
    size_t need = strlen(w->dir) + 1 + strlen(name) + 1;
    tr->dir = malloc(need);
    if (!tr->dir)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (w->n_traces == 1)
        memcpy(tr->dir, w->dir, strlen(w->dir) + 1);
    else
        snprintf(tr->dir, need, "%s/%s", w->dir, name);
    return 0;
}

static int convert_ctf(tg_set *set, tg_iter *it, const tg_options *opts, const char *dir,
                       tg_error **err)
{
    (void)opts;
    cw_writer w = {.dir = dir, .set = set};
    int rc = 0;
    w.derived = cw_derived_new();
    w.n_traces = tg_set_trace_count(set);
    w.traces = calloc(w.n_traces ? w.n_traces : 1, sizeof *w.traces);
    if (!w.derived || !w.traces)
        rc = tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t t = 0; rc >= 0 && t < w.n_traces; t++)
        rc = otrace_init(&w, t, err);
    /* each output trace keeps its own clock: bounds too are on each trace's clock */
    tg_iter_use_trace_clocks(it);
    const tg_event *ev;
    while (rc >= 0 && (rc = tg_iter_next(it, &ev)) > 0)
        if ((rc = write_event(&w, ev, err)) < 0)
            break;
    if (rc >= 0)
        rc = finish(&w, err);
    writer_free(&w);
    return rc;
}

TG_CONVERTER(ctf) = {"ctf", NULL, convert_ctf};
