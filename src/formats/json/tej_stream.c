/* tej_stream.c - a JSON trace's records as one traceglot stream, and their fields.
 *
 * The records are sorted already (tej_format.c): next() hands them out in turn and, after
 * the last, the damage reading stopped at (if any).  A slice's begin carries its event's
 * "args" as payload fields ("args.NAME", as trace_processor keys them), in the order the
 * file lists them: numbers as integers or
 * floats, strings as strings, true/false as 1/0, an object or array as its JSON text. */
#include "formats/json/tej_internal.h"

#include "core/record_run.h"

#include <stdlib.h>
#include <string.h>

typedef struct tej_stream {
    tej_trace *j;
    tg_record_run run;
} tej_stream;

static int tej_next(tg_stream *s, tg_event *ev, tg_error **err)
{
    tej_stream *st = s->priv;
    tej_trace *j = st->j;
    size_t at = 0;
    int rc = tg_record_run_next(&st->run, j->n_recs, j->damage, &at, err);
    if (rc <= 0)
        return rc;
    const tej_record *r = &j->recs[at];
    tg_record_event(ev, s, r->ts, r->cls, r->pid, r->tid);
    ev->addr = r->name;
    ev->offset = r->offset;
    ev->auxp = r;
    return 1;
}

static bool tej_thread_time(const tg_event *ev, int64_t *ns)
{
    const tej_record *r = ev->auxp;
    *ns = r->thread_ns;
    return r->thread_ns != TEJ_NO_TIME;
}

static const char *tej_func_category(const tg_event *ev)
{
    const tej_record *r = ev->auxp;
    return r->info ? r->info->category : NULL;
}

static size_t tej_flows(const tg_event *ev, const tg_flow **out)
{
    const tej_record *r = ev->auxp;
    if (!r->info || !r->info->n_flows)
        return 0;
    *out = &r->info->flow;
    return r->info->n_flows;
}

static int tej_rewind(tg_stream *s, tg_error **err)
{
    (void)err;
    tej_stream *st = s->priv;
    tg_record_run_rewind(&st->run);
    return 0;
}

/* A JSON value as a field's value: numbers as integers or floats, strings as strings,
 * true/false as 1/0, an object or array as its JSON text. */
static int tej_value(struct json_object *val, tg_value *out)
{
    switch (json_object_get_type(val)) {
    case json_type_int:
        out->type = TG_VAL_SINT;
        out->v.s = json_object_get_int64(val);
        out->bits = 64;
        out->base = 10;
        break;
    case json_type_boolean:
        out->type = TG_VAL_UINT;
        out->v.u = json_object_get_boolean(val) != 0;
        out->bits = 8;
        out->base = 10;
        break;
    case json_type_double:
        out->type = TG_VAL_FLOAT;
        out->v.f = json_object_get_double(val);
        out->bits = 64;
        break;
    case json_type_null: out->type = TG_VAL_NONE; break;
    default: {
        const char *s = json_object_get_type(val) == json_type_string
                            ? json_object_get_string(val)
                            : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN);
        out->type = TG_VAL_STRING;
        out->v.str.ptr = s ? s : "";
        out->v.str.len = s ? strlen(s) : 0;
        break;
    }
    }
    return 0;
}

static size_t tej_field_count(const tg_event *ev, tg_scope scope)
{
    const tej_record *r = ev->auxp;
    if (scope != TG_SCOPE_PAYLOAD || !r->args || !json_object_is_type(r->args, json_type_object))
        return 0;
    return (size_t)json_object_object_length(r->args);
}

static int tej_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    const tej_record *r = ev->auxp;
    if (i >= tej_field_count(ev, scope))
        return TG_ERR_USAGE;
    memset(out, 0, sizeof *out);
    size_t k = 0;
    json_object_object_foreach(r->args, key, val)
    {
        if (k++ != i)
            continue;
        /* keyed as trace_processor keys a JSON event's args: "args.NAME" (kept once each,
         * among the trace's names); a thread state's by their own names */
        tej_stream *st = ev->stream->priv;
        if (r->cls == st->j->thread_state) {
            out->name = key;
            return tej_value(val, out);
        }
        size_t n = strlen(key);
        char stack[128], *text = n + 6 <= sizeof stack ? stack : malloc(n + 6);
        if (!text)
            return TG_ERR_NOMEM;
        memcpy(text, "args.", 5);
        memcpy(text + 5, key, n + 1);
        uint64_t number = tej_name_number(ev->stream->trace, text);
        if (text != stack)
            free(text);
        if (number == UINT64_MAX)
            return TG_ERR_NOMEM;
        out->name = st->j->names[number];
        return tej_value(val, out);
    }
    return TG_ERR_USAGE;
}

static const char *tej_func_name(const tg_event *ev)
{
    const tej_stream *st = ev->stream->priv;
    return ev->addr < st->j->n_names ? st->j->names[ev->addr] : NULL;
}

static void tej_destroy(tg_stream *s) { free(s->priv); }

static int64_t tej_event_track(const tg_event *ev)
{
    const tej_record *r = ev->auxp;
    return r ? r->track : -1;
}

static const struct tg_stream_ops tej_stream_ops = {
    .next = tej_next,
    .field_count = tej_field_count,
    .field = tej_field,
    .func_name = tej_func_name,
    .destroy = tej_destroy,
    .rewind = tej_rewind,
    .thread_time = tej_thread_time,
    .func_category = tej_func_category,
    .track = tej_event_track,
    .flows = tej_flows,
    .events_independent = true, /* records and their args live as long as the trace */
};

int tej_add_stream(tg_trace *t)
{
    tej_stream *st = calloc(1, sizeof *st);
    if (!st)
        return TG_ERR_NOMEM;
    st->j = t->priv;
    if (!tg_trace_add_stream(t, &tej_stream_ops, "events", -1, -1, st)) {
        free(st);
        return TG_ERR_NOMEM;
    }
    return 0;
}
