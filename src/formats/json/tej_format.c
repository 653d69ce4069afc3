/* tej_format.c - TG_FORMAT(json): finding Chrome JSON traces (the Trace Event Format) and
 * reading their events (see tej_internal.h).
 *
 * The events array is read one element at a time with json-c, so each event is parsed once
 * and a damaged or truncated file gives every event before the damage; the error names the
 * file, the offset and the event.  The format allows the array's closing bracket to be
 * missing (a trace written while the program ran), a comma after the last event, and an
 * empty element (",,": what `uftrace dump --chrome` writes for lost records); none of these
 * is damage.  The object form is parsed whole first; when it does not parse, its
 * "traceEvents" array is read as above, up to the damage.  displayTimeUnit is a hint for
 * viewers: times are microseconds whatever it says, as trace_processor reads them. */
#define _GNU_SOURCE /* memmem */
#include "formats/json/tej_internal.h"

#include "core/file_input.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t *skip_space(const uint8_t *p, const uint8_t *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static int tej_probe(const tg_probe_input *in)
{
    if (in->is_dir || in->head_len == 0)
        return 0;
    const uint8_t *end = in->head + in->head_len, *p = skip_space(in->head, end);
    if (p >= end)
        return 0;
    if (*p == '[') {
        p = skip_space(p + 1, end);
        return p < end && (*p == '{' || *p == ']') ? 60 : p == end ? 20 : 0;
    }
    if (*p != '{')
        return 0;
    if (memmem(p, (size_t)(end - p), "\"traceEvents\"", 13))
        return 70;
    if (memmem(p, (size_t)(end - p), "\"ph\"", 4))
        return 40;
    return 0;
}

static int damage(tg_trace *t, const char *what, uint64_t offset, size_t n, const char *why)
{
    tej_trace *j = t->priv;
    if (!j->damage)
        tg_err(&j->damage, TG_ERR_FORMAT, "%s: offset 0x%llx: event %zu: %s%s", t->path,
               (unsigned long long)offset, n + 1, what, why ? why : "");
    return TG_ERR_FORMAT;
}

/* The elements of the events array from p (just after its '['). */
static int read_array(tg_trace *t, const uint8_t *p, const uint8_t *end)
{
    tej_trace *j = t->priv;
    struct json_tokener *tok = json_tokener_new();
    if (!tok)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (size_t n = 0;; n++) {
        p = skip_space(p, end);
        if (p >= end || *p == ']')
            break; /* the end, or an array left open: both fine */
        if (*p == ',') {
            p++; /* an empty element (uftrace dump --chrome writes one for lost records) */
            n--;
            continue;
        }
        size_t left = (size_t)(end - p) > INT32_MAX ? INT32_MAX : (size_t)(end - p);
        json_tokener_reset(tok);
        struct json_object *ev = json_tokener_parse_ex(tok, (const char *)p, (int)left);
        uint64_t at = (uint64_t)(p - j->map.data);
        if (!ev) {
            enum json_tokener_error e = json_tokener_get_error(tok);
            rc = e == json_tokener_continue
                     ? damage(t, "the file ends inside it", at, n, NULL)
                     : damage(t, "not JSON: ", at, n, json_tokener_error_desc(e));
            break;
        }
        p += json_tokener_get_parse_end(tok);
        rc = tej_read_event(t, ev, at);
        json_object_put(ev);
        if (rc < 0)
            break;
        p = skip_space(p, end);
        if (p < end && *p == ',')
            p++;
        else if (p < end && *p != ']') {
            rc = damage(t, "expected ',' or ']' after it", (uint64_t)(p - j->map.data), n, NULL);
            break;
        }
    }
    json_tokener_free(tok);
    return rc;
}

static int read_object(tg_trace *t, const uint8_t *p, const uint8_t *end)
{
    tej_trace *j = t->priv;
    size_t len = (size_t)(end - p);
    struct json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
    struct json_object *top =
        tok && len <= INT32_MAX ? json_tokener_parse_ex(tok, (const char *)p, (int)len) : NULL;
    json_tokener_free(tok);
    struct json_object *events = NULL;
    if (top && json_object_object_get_ex(top, "traceEvents", &events) &&
        json_object_is_type(events, json_type_array)) {
        /* each element's offset is not kept by json-c: the array's start names them */
        const uint8_t *at = memmem(p, len, "\"traceEvents\"", 13);
        uint64_t offset = at ? (uint64_t)(at - j->map.data) : 0;
        int rc = 0;
        for (size_t i = 0; rc == 0 && i < json_object_array_length(events); i++)
            rc = tej_read_event(t, json_object_array_get_idx(events, i), offset);
        json_object_put(top);
        return rc;
    }
    if (top) {
        json_object_put(top);
        return 0; /* an object with no events: an empty trace */
    }
    const uint8_t *key = memmem(p, len, "\"traceEvents\"", 13);
    const uint8_t *q = key ? skip_space(key + 13, end) : end;
    if (q < end && *q == ':')
        q = skip_space(q + 1, end);
    if (q >= end || *q != '[')
        return damage(t, "no \"traceEvents\" array in the object", (uint64_t)(p - j->map.data), 0,
                      NULL);
    return read_array(t, q + 1, end);
}

static int compare_records(const void *a, const void *b)
{
    const tej_record *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->longer != y->longer)
        return x->longer < y->longer ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int tej_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    tej_trace *j = calloc(1, sizeof *j);
    if (!j)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = j;
    if (tg_map_open(&j->map, path, err) < 0)
        return TG_ERR_IO;
    tg_trace_set_version(t, "trace event format");
    tg_trace_set_tracer(t, "chrome-json", NULL);
    if (tg_trace_add_slice_classes(t, &j->begin, &j->end) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const uint8_t *end = j->map.data + j->map.size, *p = skip_space(j->map.data, end);
    int rc = p < end && *p == '[' ? read_array(t, p + 1, end) : read_object(t, p, end);
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, rc, "out of memory");
    if (j->n_recs > 1)
        qsort(j->recs, j->n_recs, sizeof *j->recs, compare_records);
    /* what trace_processor counts that this reader counts too; it drops no slice */
    if (tg_trace_count(t, "json_tokenizer_failure", "error", j->damage != NULL) < 0 ||
        tg_trace_count(t, "slice_drop_overlapping_complete_event", "error", 0) < 0 ||
        tej_count_spills(t) < 0 || tej_add_stream(t) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return 0;
}

static void tej_close(tg_trace *t)
{
    tej_trace *j = t->priv;
    if (!j)
        return;
    for (size_t i = 0; i < j->n_recs; i++)
        if (j->recs[i].args)
            json_object_put(j->recs[i].args);
    free(j->recs);
    free(j->names);
    free(j->open);
    tej_async_free(j);
    tg_hash_free(&j->name_by_hash);
    tg_error_free(j->damage);
    tg_map_close(&j->map);
    free(j);
    t->priv = NULL;
}

TG_FORMAT(json) = {
    .name = "json",
    .probe = tej_probe,
    .open = tej_open,
    .close = tej_close,
};
