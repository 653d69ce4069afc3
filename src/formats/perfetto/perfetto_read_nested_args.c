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
        tg_value *members = tg_arena_alloc(&t->arena, n * sizeof *members);
        if (!members)
            return TG_ERR_NOMEM;
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            int rc = nested(t, dict ? nv->dict_values[i] : nv->array_values[i], &members[kept],
                            depth + 1);
            if (rc < 0)
                return rc;
            if (!rc)
                continue;
            if (dict && !(members[kept].name = tg_arena_strdup(&t->arena, nv->dict_keys[i])))
                return TG_ERR_NOMEM;
            kept++;
        }
        if (!kept)
            return 0;
        pf_arg_tree_value(v, dict ? TG_VAL_STRUCT : TG_VAL_ARRAY, members, kept);
        return 1;
    }
    if (nv->has_int_value)
        *v = pf_value_int(NULL, nv->int_value);
    else if (nv->has_double_value)
        *v = (tg_value){.type = TG_VAL_FLOAT, .v.f = nv->double_value, .bits = 64};
    else if (nv->has_bool_value)
        *v = (tg_value){.type = TG_VAL_UINT, .v.u = nv->bool_value != 0, .bits = 1, .base = 10};
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
    case json_type_boolean:
        *v = (tg_value){
            .type = TG_VAL_UINT, .v.u = json_object_get_boolean(o) != 0, .bits = 1, .base = 10};
        return 1;
    case json_type_int: *v = pf_value_int(NULL, json_object_get_int64(o)); return 1;
    case json_type_double:
        *v = (tg_value){.type = TG_VAL_FLOAT, .v.f = json_object_get_double(o), .bits = 64};
        return 1;
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
        tg_value *members = tg_arena_alloc(&t->arena, n * sizeof *members);
        if (!members)
            return TG_ERR_NOMEM;
        size_t kept = 0;
        if (dict) {
            json_object_object_foreach(o, key, child)
            {
                int rc = kept < n ? json_value(t, child, &members[kept], depth + 1) : 0;
                if (rc < 0)
                    return rc;
                if (rc && !(members[kept++].name = tg_arena_strdup(&t->arena, key)))
                    return TG_ERR_NOMEM;
            }
        } else
            for (size_t i = 0; i < n; i++) {
                int rc = json_value(t, json_object_array_get_idx(o, i), &members[kept], depth + 1);
                if (rc < 0)
                    return rc;
                kept += (size_t)rc;
            }
        if (!kept)
            return 0;
        pf_arg_tree_value(v, dict ? TG_VAL_STRUCT : TG_VAL_ARRAY, members, kept);
        return 1;
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
