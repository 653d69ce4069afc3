/* call_args.c - a call's arguments and return value for the viewers (see call_args.h). */
#include "writers/viewers/call_args.h"

#include "core/consumer.h"
#include "core/grow.h"
#include "core/value_text.h"

#include <stdlib.h>
#include <string.h>

/* Whether the trace's function records render as their arguments: uftrace's do (an ftrace
 * function_graph record renders as trace-cmd's line instead). */
static bool renders_args(tg_call_args *ca, const tg_event *ev)
{
    const tg_trace *tr = ev->cls->trace;
    if (tr != ca->trace) {
        ca->trace = tr;
        ca->rendered = strcmp(tg_trace_format(tr), "uftrace") == 0;
    }
    return ca->rendered;
}

/* The "args" payload field's elements as "(a, b)": 1 written, 0 none. */
static int args_field(tg_call_args *ca, const tg_event *ev, tg_buf *out)
{
    size_t n = ev->cls->number;
    if (n >= ca->has_field_cap) {
        size_t old = ca->has_field_cap;
        if (tg_grow(&ca->has_field, &ca->has_field_cap, n + 1, 1) < 0)
            return TG_ERR_NOMEM;
        memset(ca->has_field + old, 0, ca->has_field_cap - old);
    }
    if (ca->has_field[n] == 2)
        return 0;
    tg_value v, e;
    int rc = tg_event_field_by_name(ev, TG_SCOPE_PAYLOAD, "args", &v);
    ca->has_field[n] = rc < 0 ? 2 : 1;
    if (rc < 0 || (v.type != TG_VAL_ARRAY && v.type != TG_VAL_SEQUENCE) || !v.count)
        return 0;
    tg_buf_putc(out, '(');
    for (size_t i = 0; i < v.count && tg_value_child(&v, i, &e) == 0; i++) {
        if (i)
            tg_buf_puts(out, ", ");
        tg_text_value(out, &e);
    }
    tg_buf_putc(out, ')');
    return 1;
}

int tg_call_args_entry(tg_call_args *ca, const tg_event *ev, tg_buf *out)
{
    if (renders_args(ca, ev)) {
        if (!ev->size) /* only a payload has arguments */
            return 0;
        size_t at = tg_buf_len(out);
        tg_buf_putc(out, '(');
        if (tg_event_render(ev, out) <= 0) {
            out->len = at; /* out is in memory (call_args.h) */
            return 0;
        }
        tg_buf_putc(out, ')');
        return 1;
    }
    return args_field(ca, ev, out);
}

int tg_call_args_retval(tg_call_args *ca, const tg_event *ev, const tg_call *call, tg_buf *out)
{
    if (!ev || !ev->cls || ev->cls->kind != TG_KIND_FUNC_EXIT || !ev->size ||
        ev->addr != call->addr || !renders_args(ca, ev))
        return 0;
    return tg_event_render(ev, out) > 0;
}

void tg_call_args_free(tg_call_args *ca)
{
    free(ca->has_field);
    *ca = (tg_call_args){0};
}
