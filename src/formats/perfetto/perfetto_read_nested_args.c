/* perfetto_read_nested_args.c - the debug annotations whose value holds other values in the
 * two older forms trace_processor still reads: a NestedValue (a dict of dict_keys and
 * dict_values, an array of array_values, or a leaf: its int, double, bool or string) and a
 * legacy_json_value, parsed as JSON (json-c) into the same tree: an object as a dict, an
 * array as an array, numbers, truth values and strings as leaves, null left out.  So
 * "debug.NAME.KEY" and "debug.NAME.KEY[i]" come out of them as out of dict_entries and
 * array_values; JSON that does not parse stays the annotation's string. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <json-c/json.h>
#include <string.h>

enum { PF_NESTED_DEPTH_MAX = 32 }; /* nesting past this is dropped, not recursed into */

static int nested(tg_trace *t, const PerfettoRead__DebugAnnotation__NestedValue *nv, tg_value *v,
                  int depth)
{
    memset(v, 0, sizeof *v);
    bool dict = nv->nested_type == PERFETTO_READ__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__DICT;
    if (dict ||
        nv->nested_type == PERFETTO_READ__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__ARRAY) {
        size_t n = dict
                       ? (nv->n_dict_keys < nv->n_dict_values ? nv->n_dict_keys : nv->n_dict_values)
                       : nv->n_array_values;
        if (!n || depth >= PF_NESTED_DEPTH_MAX)
            return 0;
        pf_members m;
        if (!pf_members_start(t, &m, n))
            return TG_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) {
            const PerfettoRead__DebugAnnotation__NestedValue *c =
                dict ? nv->dict_values[i] : nv->array_values[i];
            int rc = pf_members_keep(t, &m, nested(t, c, pf_members_next(&m), depth + 1),
                                     dict ? nv->dict_keys[i] : NULL);
            if (rc < 0)
                return rc;
        }
        return pf_members_end(&m, v, dict);
    }
    if (nv->has_int_value)
        *v = pf_value_int(NULL, nv->int_value);
    else if (nv->has_double_value)
        *v = pf_value_float(nv->double_value);
    else if (nv->has_bool_value)
        *v = pf_value_bool(nv->bool_value != 0);
    else if (nv->string_value)
        return pf_value_text(t, v, NULL, nv->string_value, strlen(nv->string_value)) ? 1
                                                                                     : TG_ERR_NOMEM;
    else
        return 0;
    return 1;
}

int pf_nested_value(tg_trace *t, const PerfettoRead__DebugAnnotation__NestedValue *nv, tg_value *v)
{
    return nested(t, nv, v, 0);
}

static int json_value(tg_trace *t, json_object *o, tg_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    switch (json_object_get_type(o)) {
    case json_type_boolean: *v = pf_value_bool(json_object_get_boolean(o) != 0); return 1;
    case json_type_int: *v = pf_value_int(NULL, json_object_get_int64(o)); return 1;
    case json_type_double: *v = pf_value_float(json_object_get_double(o)); return 1;
    case json_type_string:
        return pf_value_text(t, v, NULL, json_object_get_string(o),
                             (size_t)json_object_get_string_len(o))
                   ? 1
                   : TG_ERR_NOMEM;
    case json_type_object:
    case json_type_array: {
        bool dict = json_object_get_type(o) == json_type_object;
        size_t n = dict ? (size_t)json_object_object_length(o) : json_object_array_length(o);
        if (!n || depth >= PF_NESTED_DEPTH_MAX)
            return 0;
        pf_members m;
        if (!pf_members_start(t, &m, n))
            return TG_ERR_NOMEM;
        int rc = 0;
        if (dict) {
            json_object_object_foreach(o, key, child)
            {
                tg_value *slot = pf_members_next(&m);
                if (slot &&
                    (rc = pf_members_keep(t, &m, json_value(t, child, slot, depth + 1), key)) < 0)
                    return rc;
            }
        } else
            for (size_t i = 0; i < n; i++)
                if ((rc = pf_members_keep(t, &m,
                                          json_value(t, json_object_array_get_idx(o, i),
                                                     pf_members_next(&m), depth + 1),
                                          NULL)) < 0)
                    return rc;
        return pf_members_end(&m, v, dict);
    }
    default: return 0; /* null */
    }
}

int pf_json_arg_value(tg_trace *t, const char *json, tg_value *v)
{
    json_tokener *tok = json_tokener_new_ex(PF_NESTED_DEPTH_MAX + 2);
    if (!tok)
        return TG_ERR_NOMEM;
    size_t len = strlen(json);
    json_object *o = len <= INT32_MAX ? json_tokener_parse_ex(tok, json, (int)len) : NULL;
    int rc = -1;
    if (o && json_tokener_get_error(tok) == json_tokener_success)
        rc = json_value(t, o, v, 0);
    json_object_put(o);
    json_tokener_free(tok);
    return rc;
}
