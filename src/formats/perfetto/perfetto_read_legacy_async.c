/* perfetto_read_legacy_async.c - Chrome's legacy async events (a TrackEvent whose
 * legacy_event has phase S T p F, or the nestable b e n) as trace_processor imports them.
 *
 * Such an event belongs to no thread: its id (unscoped_id, global_id, or local_id scoped to
 * its process) and its scope (the event's name for S T p F, its category for b e n, either
 * prefixed "category:" by an id_scope) pick an async track, named by the event.  S and b
 * begin a slice there, F and e end the innermost one, T p n are instants.  Every such
 * event's args are trace_processor's: "legacy_trace_source_id" (the id), its own args,
 * "legacy_event.passthrough_utid" (the thread that wrote it, a TG_VALF_THREAD value the
 * args table shows as its utid) and, for S T p, "legacy_event.phase".  An ending event's
 * args merge into the slice it ends: a key the slice has takes the new value (its
 * passthrough thread stays), a dict merges key by key, an array grows, a new key is
 * appended. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"
#include "core/kernel_model.h"

#include <string.h>

#define PF_PASSTHROUGH_KEY "legacy_event.passthrough_utid"

/* The uuid (in pf_trace.track_by_uuid) of the async track of id, scope and process pid (-1:
 * global): a hash apart from the descriptors' uuids. */
static uint64_t async_uuid(uint64_t id, const char *scope, int64_t pid)
{
    uint64_t key = pf_counter_key(0x1e9ac7a5c0000000ull, &id, sizeof id);
    key = pf_counter_key(key, &pid, sizeof pid);
    return pf_counter_key(key, scope ? scope : "", scope ? strlen(scope) + 1 : 0);
}

/* The scope of an event's id: its name (S T p F) or its category (b e n), prefixed
 * "category:" by an id_scope. */
static const char *id_scope(tg_trace *t, const PerfettoRead__TrackEvent__LegacyEvent *l,
                            const char *name, const char *category, bool legacy)
{
    if (!l->id_scope)
        return legacy ? name : category;
    size_t nc = category ? strlen(category) : 0, ns = strlen(l->id_scope);
    char *s = tg_arena_alloc(&t->arena, nc + ns + 2);
    if (s) {
        memcpy(s, category ? category : "", nc);
        s[nc] = ':';
        memcpy(s + nc + 1, l->id_scope, ns + 1);
    }
    return s;
}

/* ---- merging an ending event's args into its slice's ------------------------------------ */

static int merge_lists(tg_trace *t, const tg_value *old, size_t n_old, const tg_value *add,
                       size_t n_add, bool top, tg_value **out, size_t *n_out, int depth);

static int children(tg_trace *t, const tg_value *v, tg_value **out)
{
    *out = v->count ? tg_arena_alloc(&t->arena, v->count * sizeof **out) : NULL;
    if (v->count && !*out)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < v->count; i++)
        if (tg_value_child(v, i, &(*out)[i]) < 0)
            memset(&(*out)[i], 0, sizeof(*out)[i]);
    return 0;
}

/* *into (a slot of the merged list) takes add merged in. */
static int merge_value(tg_trace *t, tg_value *into, const tg_value *add, int depth)
{
    bool dicts = into->type == TG_VAL_STRUCT && add->type == TG_VAL_STRUCT;
    bool arrays = into->type == TG_VAL_ARRAY && add->type == TG_VAL_ARRAY;
    if ((!dicts && !arrays) || depth > 32) {
        const char *name = into->name;
        *into = *add;
        into->name = name;
        return 0;
    }
    tg_value *a, *b, *merged;
    size_t n;
    int rc = children(t, into, &a);
    if (rc == 0)
        rc = children(t, add, &b);
    if (rc < 0)
        return rc;
    if (arrays) { /* the new elements follow */
        n = into->count + add->count;
        if (!(merged = tg_arena_alloc(&t->arena, n * sizeof *merged)))
            return TG_ERR_NOMEM;
        if (into->count)
            memcpy(merged, a, into->count * sizeof *merged);
        if (add->count)
            memcpy(merged + into->count, b, add->count * sizeof *merged);
    } else if ((rc = merge_lists(t, a, into->count, b, add->count, false, &merged, &n, depth + 1)) <
               0)
        return rc;
    const char *name = into->name;
    memset(into, 0, sizeof *into);
    pf_arg_tree_value(into, arrays ? TG_VAL_ARRAY : TG_VAL_STRUCT, merged, n);
    into->name = name;
    return 0;
}

static int merge_lists(tg_trace *t, const tg_value *old, size_t n_old, const tg_value *add,
                       size_t n_add, bool top, tg_value **out, size_t *n_out, int depth)
{
    tg_value *m = tg_arena_alloc(&t->arena, (n_old + n_add) * sizeof *m + 1);
    if (!m)
        return TG_ERR_NOMEM;
    if (n_old)
        memcpy(m, old, n_old * sizeof *m);
    size_t n = n_old;
    for (size_t i = 0; i < n_add; i++) {
        const tg_value *v = &add[i];
        size_t at = 0;
        while (at < n && !(v->name && m[at].name && strcmp(v->name, m[at].name) == 0))
            at++;
        if (at == n) {
            m[n++] = *v;
            continue;
        }
        if (top && strcmp(v->name, PF_PASSTHROUGH_KEY) == 0)
            continue; /* the thread that began it stays */
        int rc = merge_value(t, &m[at], v, depth);
        if (rc < 0)
            return rc;
    }
    *out = m;
    *n_out = n;
    return 0;
}

/* The slice begun by record begin takes the args of end. */
static int merge_into(tg_trace *t, size_t begin, const pf_slice_info *end)
{
    pf_trace *p = t->priv;
    if (!end || !end->n_args)
        return 0;
    const pf_slice_info *old = p->recs[begin].slice;
    pf_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
    if (!info)
        return TG_ERR_NOMEM;
    if (old)
        *info = *old;
    else
        memset(info, 0, sizeof *info);
    int rc = merge_lists(t, old ? old->args : NULL, old ? old->n_args : 0, end->args, end->n_args,
                         true, &info->args, &info->n_args, 0);
    if (rc < 0)
        return rc;
    p->recs[begin].slice = info;
    return 0;
}

/* ---- the events --------------------------------------------------------------------------- */

/* e's args as trace_processor gives them (see the top), into a copy of *info. */
static int legacy_args(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                       int64_t id, char phase, const pf_slice_info **info)
{
    const pf_slice_info *own;
    int rc = pf_event_slice_info(t, s, e, false, &own);
    if (rc < 0)
        return rc;
    pf_slice_info *out = tg_arena_alloc(&t->arena, sizeof *out);
    size_t n_own = own ? own->n_args : 0;
    tg_value *args = tg_arena_alloc(&t->arena, (n_own + 3) * sizeof *args);
    char *phase_text = tg_arena_alloc(&t->arena, 2);
    if (!out || !args || !phase_text)
        return TG_ERR_NOMEM;
    if (own)
        *out = *own;
    else
        memset(out, 0, sizeof *out);
    size_t n = 0;
    args[n++] = pf_value_int("legacy_trace_source_id", id);
    if (n_own)
        memcpy(args + n, own->args, n_own * sizeof *args);
    n += n_own;
    if (s->tid >= 0) {
        args[n] = pf_value_uint(PF_PASSTHROUGH_KEY, (uint64_t)s->tid);
        args[n++].flags = TG_VALF_THREAD;
    }
    if (phase == 'S' || phase == 'T' || phase == 'p') {
        phase_text[0] = phase;
        phase_text[1] = 0;
        args[n++] = pf_value_string("legacy_event.phase", phase_text);
    }
    out->args = args;
    out->n_args = n;
    *info = out;
    return 0;
}

int pf_read_legacy_async(tg_trace *t, const PerfettoRead__TrackEvent *e, pf_sequence *s,
                         const char *name, int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    const PerfettoRead__TrackEvent__LegacyEvent *l = e->legacy_event;
    char phase = (char)l->phase;
    int64_t pid = -1;
    uint64_t id;
    switch (l->id_case) {
    case PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID: id = l->unscoped_id; break;
    case PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__ID_GLOBAL_ID: id = l->global_id; break;
    case PERFETTO_READ__TRACK_EVENT__LEGACY_EVENT__ID_LOCAL_ID:
        if (s->pid < 0)
            return tg_trace_count(t, "track_event_parser_errors", "error", 1);
        id = l->local_id;
        pid = s->pid;
        break;
    default: return tg_trace_count(t, "track_event_parser_errors", "error", 1);
    }
    const char *category;
    if (pf_event_category(t, s, e, &category) < 0)
        return TG_ERR_NOMEM;
    bool legacy = phase == 'S' || phase == 'T' || phase == 'p' || phase == 'F';
    const char *scope = id_scope(t, l, name, category, legacy);
    if (l->id_scope && !scope)
        return TG_ERR_NOMEM;
    pf_track *k = pf_track_of(p, async_uuid(id, scope, pid), true);
    if (!k)
        return TG_ERR_NOMEM;
    if (!k->name && name && !(k->name = tg_arena_strdup(&t->arena, name)))
        return TG_ERR_NOMEM;
    if (pid >= 0) {
        k->process = true;
        k->pid = (int32_t)pid;
    }
    if (pf_legacy_async_track_args(t, k, scope, name, pid >= 0 ? pid : s->pid, pid >= 0) < 0)
        return TG_ERR_NOMEM;
    const pf_slice_info *info;
    if (phase == 'F' || phase == 'e') {
        if (!k->open)
            return 0; /* an end without a begin: trace_processor drops it too */
        size_t begin = k->open_recs[k->open - 1];
        int rc = legacy_args(t, s, e, (int64_t)id, phase, &info);
        if (rc == 0)
            rc = merge_into(t, begin, info);
        if (rc == 0)
            rc = pf_slice_record(t, false, ts, k, k->stack[--k->open], offset);
        return rc < 0 ? rc : pf_event_slice_info(t, s, e, true, &p->recs[p->n_recs - 1].slice);
    }
    uint64_t n = pf_name_number(t, name);
    if (n == UINT64_MAX)
        return TG_ERR_NOMEM;
    int rc = pf_slice_record(t, true, ts, k, n, offset);
    if (rc == 0)
        rc = legacy_args(t, s, e, (int64_t)id, phase, &p->recs[p->n_recs - 1].slice);
    if (rc < 0)
        return rc;
    if (phase == 'S' || phase == 'b') {
        if (tg_grow(&k->stack, &k->cap, (size_t)k->open + 1, sizeof *k->stack) < 0 ||
            tg_grow(&k->open_recs, &k->cap_open_recs, (size_t)k->open + 1, sizeof *k->open_recs) <
                0)
            return TG_ERR_NOMEM;
        k->open_recs[k->open] = p->n_recs - 1;
        k->stack[k->open++] = n;
        return 0;
    }
    return pf_slice_record(t, false, ts, k, n, offset); /* an instant: T p n */
}
