/* ctf_perf.c - perf.data samples written as `perf data convert --to-ctf` writes them.
 *
 * perf's converter (tools/perf/util/data-convert-bt.c) writes each sample, and nothing else
 * by default, as an event named after its perf event ("cpu-clock", "sched:sched_switch")
 * in one stream per CPU (the sample's cpu, 0 without one), on a clock of offset 0 counting
 * the sample's time.  The fields, in this order, are the sample's own as the attribute's
 * sample_type gives them: perf_ip (hexadecimal), perf_tid and perf_pid (signed 32-bit),
 * perf_id, perf_stream_id, perf_period, perf_weight, perf_data_src, perf_transaction, and
 * the call chain as perf_callchain_size and the sequence perf_callchain (hexadecimal); then
 * a tracepoint's common_* fields and its own, typed from the format's flags: strings (with
 * unprintable bytes as "\xNN"), unsigned long or pointer as 64-bit hexadecimal, other
 * integers as signed or unsigned of 64 bits when 8 bytes wide, else 32, fixed arrays as
 * arrays of those.  The trace's env is perf's own (host, sysname, release, version,
 * machine, domain, tracer_name).  babeltrace2 then prints the same text for this output
 * as for perf's.
 *
 * The writer sees the events through the public model only: a perf.data sample is an
 * event of a class that is not a PERF_RECORD_*, whose sample fields ("ip", "tid", ...) are
 * its payload, or its event context when it is a tracepoint (a class with a system). */
#include "writers/ctf/ctf_writer.h"
#include "core/error_internal.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tg_field_type t_u64_hex = {
    .kind = TG_FT_INT, .bits = 64, .align = 8, .byte_order = 1, .base = 16};
static const tg_field_type t_u64 = {
    .kind = TG_FT_INT, .bits = 64, .align = 8, .byte_order = 1, .base = 10};
static const tg_field_type t_u32 = {
    .kind = TG_FT_INT, .bits = 32, .align = 8, .byte_order = 1, .base = 10};
static const tg_field_type t_s64 = {
    .kind = TG_FT_INT, .bits = 64, .align = 8, .byte_order = 1, .base = 10, .is_signed = 1};
static const tg_field_type t_s32 = {
    .kind = TG_FT_INT, .bits = 32, .align = 8, .byte_order = 1, .base = 10, .is_signed = 1};
static const tg_field_type t_string = {.kind = TG_FT_STRING, .align = 8, .encoding = 1};
static const tg_field_type t_callchain = {
    .kind = TG_FT_SEQUENCE, .align = 8, .element = &t_u64_hex, .ref = "perf_callchain_size"};

/* Where a member's value comes from. */
enum { FROM_FIELD, FROM_CHAIN_SIZE };

typedef struct perf_member {
    int from;
    tg_scope scope;
    size_t index; /* the field's index in its scope (the call chain's, for its size) */
} perf_member;

/* The layout of one input class. */
typedef struct perf_layout {
    const tg_event_class *in;
    char *name; /* perf's event name: "system:event" for tracepoints */
    tg_field_member *members;
    perf_member *from;
    tg_field_type *arrays; /* element arrays of fixed-array members */
    size_t n, n_arrays;
    int cpu_index; /* the sample's "cpu" field in the sample scope, -1: none */
    tg_field_type payload;
} perf_layout;

struct cw_perf {
    perf_layout **layouts;
    size_t n_layouts, cap_layouts;
    const perf_layout *last;
    tg_value *vals;
    size_t cap_vals;
    char *text; /* the event's escaped strings */
    size_t cap_text;
};

cw_perf *cw_perf_new(void) { return calloc(1, sizeof(cw_perf)); }

void cw_perf_free(cw_perf *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_layouts; i++) {
        perf_layout *l = p->layouts[i];
        free(l->name);
        free(l->members);
        free(l->from);
        free(l->arrays);
        free(l);
    }
    free(p->layouts);
    free(p->vals);
    free(p->text);
    free(p);
}

int cw_perf_is_trace(const tg_trace *t)
{
    const char *f = tg_trace_format(t);
    return f && strcmp(f, "perf") == 0;
}

int cw_perf_is_sample(const tg_event *ev)
{
    const char *n = tg_event_name(ev);
    return tg_event_kind_of(ev) == TG_KIND_GENERIC && n && strncmp(n, "PERF_RECORD_", 12) != 0;
}

static tg_scope sample_scope(const tg_event_class *c)
{
    return tg_event_class_system(c) ? TG_SCOPE_EVENT_CONTEXT : TG_SCOPE_PAYLOAD;
}

/* perf_* names of the sample fields perf converts, in its order. */
static const struct {
    const char *field, *name;
    const tg_field_type *type;
} generic[] = {
    {"ip", "perf_ip", &t_u64_hex},
    {"tid", "perf_tid", &t_s32},
    {"pid", "perf_pid", &t_s32},
    {"id", "perf_id", &t_u64},
    {"stream_id", "perf_stream_id", &t_u64},
    {"period", "perf_period", &t_u64},
    {"weight", "perf_weight", &t_u64},
    {"data_src", "perf_data_src", &t_u64},
    {"transaction", "perf_transaction", &t_u64},
};
#define N_GENERIC (sizeof generic / sizeof *generic)

/* A tracepoint field's type as perf's get_tracepoint_field_type chooses it. */
static const tg_field_type *scalar_type(const tg_value *v)
{
    if (v->type == TG_VAL_STRING)
        return &t_string;
    if (v->type == TG_VAL_SINT)
        return v->bits == 64 ? &t_s64 : &t_s32;
    if (v->flags & (TG_VALF_LONG | TG_VALF_POINTER))
        return &t_u64_hex;
    return v->bits == 64 ? &t_u64 : &t_u32;
}

static int add_member(perf_layout *l, size_t *cap, const char *name, const tg_field_type *t,
                      int from, tg_scope scope, size_t index)
{
    if (l->n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        tg_field_member *m = realloc(l->members, c * sizeof *m);
        if (!m)
            return -1;
        l->members = m;
        perf_member *f = realloc(l->from, c * sizeof *f);
        if (!f)
            return -1;
        l->from = f;
        *cap = c;
    }
    l->members[l->n] = (tg_field_member){name, name, t};
    l->from[l->n] = (perf_member){from, scope, index};
    l->n++;
    return 0;
}

/* The tracepoint's fields of scope (common_*, then its own). */
static int add_tracepoint_fields(perf_layout *l, size_t *cap, const tg_event *ev, tg_scope scope)
{
    size_t n = tg_event_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (tg_event_field(ev, scope, i, &v) < 0 || !v.name)
            return -1;
        const tg_field_type *t = scalar_type(&v);
        if (v.type == TG_VAL_BYTES && v.bits >= 8 && v.bits % 8 == 0) {
            /* a fixed array: elements typed as its element type */
            tg_field_type *a = &l->arrays[l->n_arrays++];
            tg_value e = v;
            e.type = TG_VAL_UINT; /* (the value does not say whether elements are signed) */
            *a = (tg_field_type){.kind = TG_FT_ARRAY,
                                 .align = 8,
                                 .element = scalar_type(&e),
                                 .length = v.v.str.len / (v.bits / 8)};
            t = a;
        }
        if (add_member(l, cap, v.name, t, FROM_FIELD, scope, i) < 0)
            return -1;
    }
    return 0;
}

static perf_layout *layout_new(cw_perf *p, const tg_event *ev, tg_error **err)
{
    const tg_event_class *c = tg_event_class_of(ev);
    perf_layout *l = calloc(1, sizeof *l);
    if (!l || tg_grow(&p->layouts, &p->cap_layouts, p->n_layouts + 1, sizeof *p->layouts) < 0) {
        free(l);
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    p->layouts[p->n_layouts++] = l;
    l->in = c;
    l->cpu_index = -1;
    const char *sys = tg_event_class_system(c), *name = tg_event_class_name(c);
    size_t len = strlen(name) + (sys ? strlen(sys) + 1 : 0) + 1;
    l->name = malloc(len);
    size_t n_tp =
        tg_event_field_count(ev, TG_SCOPE_COMMON) + tg_event_field_count(ev, TG_SCOPE_PAYLOAD);
    l->arrays = calloc(n_tp + 1, sizeof *l->arrays);
    if (!l->name || !l->arrays) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (sys)
        snprintf(l->name, len, "%s:%s", sys, name);
    else
        snprintf(l->name, len, "%s", name);
    tg_scope ss = sample_scope(c);
    size_t cap = 0, n = tg_event_field_count(ev, ss);
    int chain = -1;
    tg_value v;
    for (size_t g = 0; g < N_GENERIC; g++)
        for (size_t i = 0; i < n; i++)
            if (tg_event_field(ev, ss, i, &v) == 0 && v.name &&
                strcmp(v.name, generic[g].field) == 0 &&
                add_member(l, &cap, generic[g].name, generic[g].type, FROM_FIELD, ss, i) < 0)
                goto nomem;
    for (size_t i = 0; i < n; i++) {
        if (tg_event_field(ev, ss, i, &v) < 0 || !v.name)
            continue;
        if (strcmp(v.name, "cpu") == 0)
            l->cpu_index = (int)i;
        else if (strcmp(v.name, "callchain") == 0 && v.type == TG_VAL_ARRAY)
            chain = (int)i;
    }
    if (chain >= 0 &&
        (add_member(l, &cap, "perf_callchain_size", &t_u32, FROM_CHAIN_SIZE, ss, (size_t)chain) <
             0 ||
         add_member(l, &cap, "perf_callchain", &t_callchain, FROM_FIELD, ss, (size_t)chain) < 0))
        goto nomem;
    if (sys && (add_tracepoint_fields(l, &cap, ev, TG_SCOPE_COMMON) < 0 ||
                add_tracepoint_fields(l, &cap, ev, TG_SCOPE_PAYLOAD) < 0)) {
        tg_err(err, TG_ERR_FORMAT, "%s: a tracepoint field is unreadable", l->name);
        return NULL;
    }
    l->payload =
        (tg_field_type){.kind = TG_FT_STRUCT, .align = 8, .members = l->members, .n_members = l->n};
    return l;
nomem:
    tg_err(err, TG_ERR_NOMEM, "out of memory");
    return NULL;
}

static const perf_layout *layout_of(cw_perf *p, const tg_event *ev, tg_error **err)
{
    const tg_event_class *c = tg_event_class_of(ev);
    if (p->last && p->last->in == c)
        return p->last;
    for (size_t i = 0; i < p->n_layouts; i++)
        if (p->layouts[i]->in == c)
            return p->last = p->layouts[i];
    const perf_layout *l = layout_new(p, ev, err);
    return l ? (p->last = l) : NULL;
}

const tg_field_type *cw_perf_payload(cw_perf *p, const tg_event *ev, const char **name,
                                     tg_error **err)
{
    const perf_layout *l = layout_of(p, ev, err);
    if (!l)
        return NULL;
    *name = l->name;
    return &l->payload;
}

int64_t cw_perf_cpu(cw_perf *p, const tg_event *ev)
{
    const perf_layout *l = p->last;
    tg_value v;
    if (!l || l->in != tg_event_class_of(ev) || l->cpu_index < 0 ||
        tg_event_field(ev, sample_scope(l->in), (size_t)l->cpu_index, &v) < 0 ||
        v.type != TG_VAL_UINT)
        return 0;
    return (int64_t)v.v.u;
}

/* The room a string takes with its unprintable bytes as "\xNN", and the copy. */
static size_t escaped_len(const tg_value *v)
{
    size_t n = 0;
    for (size_t i = 0; i < v->v.str.len; i++) {
        unsigned char ch = (unsigned char)v->v.str.ptr[i];
        n += ch >= 0x20 && ch < 0x7f ? 1 : 4;
    }
    return n;
}

static size_t escape(char *out, const tg_value *v)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (size_t i = 0; i < v->v.str.len; i++) {
        unsigned char ch = (unsigned char)v->v.str.ptr[i];
        if (ch >= 0x20 && ch < 0x7f) {
            out[n++] = (char)ch;
        } else {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[ch >> 4];
            out[n++] = hex[ch & 15];
        }
    }
    return n;
}

int cw_perf_values(cw_perf *p, const tg_event *ev, const tg_value **vals, size_t *n, tg_error **err)
{
    const perf_layout *l = layout_of(p, ev, err);
    if (!l)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    if (tg_grow(&p->vals, &p->cap_vals, l->n + 1, sizeof *p->vals) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    size_t text = 0;
    for (size_t i = 0; i < l->n; i++) {
        const perf_member *f = &l->from[i];
        tg_value *v = &p->vals[i];
        if (tg_event_field(ev, f->scope, f->index, v) < 0)
            return tg_err(err, TG_ERR_FORMAT, "%s: field %s unreadable", l->name,
                          l->members[i].name);
        if (f->from == FROM_CHAIN_SIZE)
            *v = (tg_value){.type = TG_VAL_UINT, .v.u = v->count};
        else if (l->members[i].type == &t_string)
            text += escaped_len(v);
        else if (v->type == TG_VAL_NONE)
            *v = (tg_value){.type = TG_VAL_UINT};
        v->name = l->members[i].name;
    }
    if (text && tg_grow(&p->text, &p->cap_text, text, 1) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (size_t i = 0, at = 0; text && i < l->n; i++) {
        tg_value *v = &p->vals[i];
        if (l->members[i].type != &t_string)
            continue;
        size_t k = escape(p->text + at, v);
        v->type = TG_VAL_STRING;
        v->v.str.ptr = p->text + at;
        v->v.str.len = k;
        at += k;
    }
    *vals = p->vals;
    *n = l->n;
    return 0;
}

void cw_perf_env(tg_buf *b, const tg_trace *t)
{
    const tg_host_info *h = tg_trace_host(t);
    const tg_tracer_info *tr = tg_trace_tracer(t);
    tg_buf_puts(b, "env {\n");
    const char *release = NULL;
    char sys[64] = "";
    if (h->kernel) {
        const char *sp = strchr(h->kernel, ' ');
        size_t k = sp ? (size_t)(sp - h->kernel) : 0;
        if (k >= sizeof sys)
            k = sizeof sys - 1;
        memcpy(sys, h->kernel, k);
        sys[k] = 0;
        release = sp ? sp + 1 : h->kernel;
    }
    const char *keys[] = {"host", "sysname", "release", "version", "machine"};
    const char *values[] = {h->hostname, sys[0] ? sys : NULL, release, tr->version, h->arch};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        if (!values[i])
            continue;
        tg_buf_printf(b, "    %s = ", keys[i]);
        cw_tsdl_quoted(b, values[i]);
        tg_buf_puts(b, ";\n");
    }
    tg_buf_puts(b, "    domain = \"kernel\";\n    tracer_name = \"perf\";\n};\n\n");
}

void cw_perf_clock(cw_clock *c)
{
    snprintf(c->name, sizeof c->name, "perf_clock");
    c->description = "perf clock";
    c->freq = 1000000000u;
    c->precision = 10;
    c->offset_s = 0;
    c->offset_cycles = 0;
    c->base_ns = 0;
}
