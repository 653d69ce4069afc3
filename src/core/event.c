/* event.c - the public view of an event and of its values.
 *
 * The header part (time, class, cpu/tid, function address) was filled by the stream's next;
 * fields are decoded only here, when a printer or filter asks, by the stream's own ops. */
#include "core/format_api.h"

#include <string.h>

int64_t tg_event_time_ns(const tg_event *ev)
{
    return ev->ts + (ev->stream ? ev->stream->shift_ns : 0);
}
int64_t tg_event_trace_time_ns(const tg_event *ev) { return ev->ts; }
const tg_event_class *tg_event_class_of(const tg_event *ev) { return ev->cls; }
const char *tg_event_name(const tg_event *ev) { return ev->cls ? ev->cls->name : ""; }
tg_event_kind tg_event_kind_of(const tg_event *ev)
{
    return ev->cls ? ev->cls->kind : TG_KIND_GENERIC;
}
tg_stream *tg_event_stream(const tg_event *ev) { return ev->stream; }
tg_trace *tg_event_trace(const tg_event *ev) { return ev->stream ? ev->stream->trace : NULL; }
int tg_event_cpu(const tg_event *ev) { return ev->cpu; }
int tg_event_pid(const tg_event *ev) { return ev->pid; }
tg_cpu_mode tg_event_cpu_mode(const tg_event *ev) { return (tg_cpu_mode)ev->cpu_mode; }

const char *tg_cpu_mode_name(tg_cpu_mode mode)
{
    static const char *const names[] = {"unknown",    "kernel",       "user",
                                        "hypervisor", "guest_kernel", "guest_user"};
    return (unsigned)mode < sizeof names / sizeof *names ? names[mode] : "unknown";
}
int tg_event_tid(const tg_event *ev) { return ev->tid; }
uint64_t tg_event_offset(const tg_event *ev) { return ev->offset; }
uint64_t tg_event_func_addr(const tg_event *ev) { return ev->addr; }
int tg_event_depth(const tg_event *ev) { return ev->depth; }
uint64_t tg_event_lost_count(const tg_event *ev)
{
    /* lost shares its bytes with call_ns: read only on the gaps' kinds */
    return ev->cls && (ev->cls->kind == TG_KIND_LOST || ev->cls->kind == TG_KIND_PACKETS_LOST)
               ? ev->lost
               : 0;
}

const char *tg_event_func_name(const tg_event *ev)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    if (ops && ops->func_name)
        return ops->func_name(ev);
    tg_trace *t = tg_event_trace(ev);
    if (!t)
        return NULL;
    const tg_symbol *s = tg_symtab_lookup(&t->symbols, ev->addr);
    return s ? s->name : NULL;
}

const char *tg_event_func_module(const tg_event *ev)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    return ops && ops->func_module ? ops->func_module(ev) : NULL;
}

const char *tg_event_func_category(const tg_event *ev)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    return ops && ops->func_category ? ops->func_category(ev) : NULL;
}

bool tg_event_thread_time(const tg_event *ev, int64_t *ns)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    return ops && ops->thread_time && ops->thread_time(ev, ns);
}

bool tg_event_call_times(const tg_event *ev, int64_t *call_ns, int64_t *ret_ns)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    if (!ops || !ops->call_times || !ops->call_times(ev, call_ns, ret_ns))
        return false;
    *call_ns += ev->stream->shift_ns;
    *ret_ns += ev->stream->shift_ns;
    return true;
}

size_t tg_event_flows(const tg_event *ev, const tg_flow **flows)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    *flows = NULL;
    return ops && ops->flows ? ops->flows(ev, flows) : 0;
}

/* A symbol of a table as tg_func_symbol: no size means up to the next symbol. */
static int symbol_of(const tg_symtab *st, const tg_symbol *s, tg_func_symbol *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return 0;
    out->name = s->name;
    out->addr = s->addr;
    out->size = s->size;
    if (!out->size && st && s + 1 < st->syms + st->n)
        out->size = s[1].addr - s->addr;
    out->flags = s->type == 'P' ? TG_FUNC_PLT : 0;
    return 1;
}

int tg_event_func_symbol(const tg_event *ev, tg_func_symbol *out)
{
    const struct tg_stream_ops *ops = ev->stream ? ev->stream->ops : NULL;
    if (ops && ops->func_symbol)
        return ops->func_symbol(ev, out);
    tg_trace *t = tg_event_trace(ev);
    if (!t || (ops && ops->func_name)) { /* names of its own, not the table's */
        memset(out, 0, sizeof *out);
        out->name = tg_event_func_name(ev);
        return out->name != NULL;
    }
    return symbol_of(&t->symbols, tg_symtab_lookup(&t->symbols, ev->addr), out);
}

int tg_trace_func_symbol(const tg_trace *t, size_t i, tg_func_symbol *out)
{
    if (t->format && t->format->func_symbol_at)
        return t->format->func_symbol_at(t, i, out);
    return symbol_of(&t->symbols, i < t->symbols.n ? &t->symbols.syms[i] : NULL, out);
}

size_t tg_event_field_count(const tg_event *ev, tg_scope scope)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    return ops->field_count ? ops->field_count(ev, scope) : 0;
}

int tg_event_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    memset(out, 0, sizeof *out);
    if (!ops->field || i >= tg_event_field_count(ev, scope))
        return TG_ERR_USAGE;
    return ops->field(ev, scope, i, out);
}

int tg_event_field_by_name(const tg_event *ev, tg_scope scope, const char *name, tg_value *out)
{
    size_t n = tg_event_field_count(ev, scope);
    for (size_t i = 0; i < n; i++) {
        int rc = tg_event_field(ev, scope, i, out);
        if (rc < 0)
            return rc;
        if (out->name && strcmp(out->name, name) == 0)
            return 0;
    }
    memset(out, 0, sizeof *out);
    return TG_ERR_USAGE;
}

int tg_event_render(const tg_event *ev, tg_buf *out)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    return ops->render ? ops->render(ev, out) : 0;
}

int tg_stream_drop_next(tg_stream *s)
{
    if (!s->ops->drop_next)
        return TG_ERR_UNSUPPORTED;
    s->ops->drop_next(s);
    return 0;
}

int tg_event_render_with(const tg_event *ev, tg_buf *out, unsigned flags)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    if (ops->render_with)
        return ops->render_with(ev, out, flags);
    return !flags && ops->render ? ops->render(ev, out) : 0;
}

bool tg_event_clock_value(const tg_event *ev, uint64_t *cycles)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    return ops->clock_value && ops->clock_value(ev, cycles);
}

bool tg_event_clock_span(const tg_event *ev, uint64_t *begin, uint64_t *end, int64_t *end_ns)
{
    const struct tg_stream_ops *ops = ev->stream->ops;
    return ops->clock_span && ops->clock_span(ev, begin, end, end_ns);
}

bool tg_event_class_log_level(const tg_event_class *c, int *level)
{
    if (c->has_log_level)
        *level = c->log_level;
    return c->has_log_level;
}

const char *tg_event_class_emf_uri(const tg_event_class *c) { return c->emf_uri; }

const char *tg_event_class_name(const tg_event_class *c) { return c->name; }
const char *tg_event_class_system(const tg_event_class *c) { return c->system; }
uint64_t tg_event_class_id(const tg_event_class *c) { return c->id; }
tg_event_kind tg_event_class_kind(const tg_event_class *c) { return c->kind; }
bool tg_event_class_is_kernel(const tg_event_class *c) { return c->kernel; }

int tg_value_child(const tg_value *v, size_t i, tg_value *out)
{
    memset(out, 0, sizeof *out);
    if (!v->ops || !v->ops->child || i >= v->count)
        return TG_ERR_USAGE;
    return v->ops->child(v, i, out);
}

bool tg_value_int(const tg_value *v, int64_t *out)
{
    if (v->type == TG_VAL_SINT)
        *out = v->v.s;
    else if (v->type == TG_VAL_UINT)
        *out = (int64_t)v->v.u;
    else
        return false;
    return true;
}

size_t tg_value_uints(const tg_value *v, size_t first, uint64_t *out, size_t n)
{
    if (!v->ops || first >= v->count)
        return 0;
    if (n > v->count - first)
        n = v->count - first;
    if (v->ops->uints)
        return v->ops->uints(v, first, out, n);
    for (size_t i = 0; i < n; i++) {
        tg_value c;
        if (tg_value_child(v, first + i, &c) < 0 ||
            (c.type != TG_VAL_UINT && c.type != TG_VAL_SINT))
            return i;
        out[i] = c.type == TG_VAL_SINT ? (uint64_t)c.v.s : c.v.u;
    }
    return n;
}
