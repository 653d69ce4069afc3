/* perfetto_read_chrome_track_args.c - the dimension and source args trace_processor gives
 * the tracks it makes for TrackEvents beside their descriptors' own words: a legacy async
 * track's (its scope, name and track_compressor_idx as dimensions; the source "chrome",
 * whether its id is process-scoped, the upid of its first event's process and its scope as
 * source args) and a root track of no thread or process that a descriptor (or the trace's
 * "Default Track") made (source "descriptor", its uuid as trace_id, its name as the key it
 * merges its siblings by, no parent).  The args table lists them with the track's. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/kernel_model.h"

#include <string.h>

static tg_value bool_value(const char *name, bool b)
{
    tg_value v = pf_value_uint(name, b);
    v.bits = 1;
    return v;
}

/* A string value of text copied into the arena, a NULL string for NULL text. */
static bool string_value(tg_trace *t, tg_value *v, const char *name, const char *text)
{
    if (text)
        return pf_value_text(t, v, name, text, strlen(text));
    *v = (tg_value){.name = name, .type = TG_VAL_STRING};
    return true;
}

int pf_legacy_async_track_args(tg_trace *t, pf_track *k, const char *scope, const char *name,
                               int64_t pid, bool process_scoped)
{
    if (k->dims || k->source_args)
        return 0; /* made by its first event */
    tg_value *dims = tg_arena_alloc(&t->arena, 4 * sizeof *dims);
    tg_value *src = tg_arena_alloc(&t->arena, 4 * sizeof *src);
    if (!dims || !src)
        return TG_ERR_NOMEM;
    size_t n = 0;
    tg_value upid = pf_value_uint("upid", pid > 0 ? (uint64_t)pid : 0);
    upid.flags = TG_VALF_PROCESS;
    if (process_scoped)
        dims[n++] = upid;
    if (!string_value(t, &dims[n++], "scope", scope) || !string_value(t, &dims[n++], "name", name))
        return TG_ERR_NOMEM;
    dims[n++] = pf_value_int("track_compressor_idx", 0);
    k->dims = dims;
    k->n_dims = n;
    src[0] = pf_value_string("source", "chrome");
    src[1] = bool_value("trace_id_is_process_scoped", process_scoped);
    src[2] = upid;
    if (!string_value(t, &src[3], "source_scope", scope))
        return TG_ERR_NOMEM;
    k->source_args = src;
    k->n_source_args = 4;
    return 0;
}

int pf_descriptor_track_args(tg_trace *t, const pf_track *k, tg_track_decl *d)
{
    if (!k->descriptor || k->thread || k->process || k->counter || k->has_parent || d->dims)
        return 0;
    tg_value *dims = tg_arena_alloc(&t->arena, sizeof *dims);
    size_t n_own = d->source_args ? d->n_source_args : 0;
    tg_value *src = tg_arena_alloc(&t->arena, (n_own + 6) * sizeof *src);
    if (!dims || !src)
        return TG_ERR_NOMEM;
    dims[0] = pf_value_int("track_compressor_idx", 0);
    if (n_own)
        memcpy(src, d->source_args, n_own * sizeof *src);
    size_t n = n_own;
    src[n++] = bool_value("is_root_in_scope", true);
    src[n++] = pf_value_int("merge_key_type", 0);
    if (!string_value(t, &src[n++], "merge_key_value", d->name))
        return TG_ERR_NOMEM;
    src[n++] = pf_value_uint("parent_track_uuid", 0);
    src[n++] = pf_value_string("source", "descriptor");
    src[n++] = pf_value_uint("trace_id", k->uuid);
    d->dims = dims;
    d->n_dims = 1;
    d->source_args = src;
    d->n_source_args = n;
    return 0;
}
