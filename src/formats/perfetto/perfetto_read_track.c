/* perfetto_read_track.c - a Perfetto trace's tracks and track events as records: track
 * descriptors, TrackEvent slices with their category, args and flows, and atrace's slices
 * written through ftrace print events.  Packets are walked in perfetto_read_format.c. */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* ---- tracks and track events ---------------------------------------------------------------- */

static pf_track *track_of(pf_trace *p, uint64_t uuid, bool add)
{
    uint64_t *slot = tg_hash_find(&p->track_by_uuid, uuid);
    if (slot)
        return &p->tracks[*slot];
    if (!add || tg_grow(&p->tracks, &p->cap_tracks, p->n_tracks + 1, sizeof *p->tracks) < 0 ||
        tg_hash_insert(&p->track_by_uuid, uuid, &slot) < 0)
        return NULL;
    p->tracks[p->n_tracks] = (pf_track){
        .uuid = uuid, .pid = -1, .tid = -1, .decl = -1, .first_slice = UINT64_MAX, .task = -1};
    *slot = p->n_tracks;
    return &p->tracks[p->n_tracks++];
}

int pf_read_track_descriptor(tg_trace *t, const PerfettoRead__TrackDescriptor *d)
{
    pf_trace *p = t->priv;
    pf_track *k = track_of(p, d->uuid, true);
    if (!k)
        return TG_ERR_NOMEM;
    k->descriptor = true;
    if (d->static_or_dynamic_name_case ==
            PERFETTO_READ__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME &&
        d->name && !(k->name = tg_arena_strdup(&t->arena, d->name)))
        return TG_ERR_NOMEM;
    if (d->counter && pf_read_counter_descriptor(t, k, d->counter) < 0)
        return TG_ERR_NOMEM;
    if (pf_track_source_fields(t, k, d) < 0)
        return TG_ERR_NOMEM;
    if (d->has_parent_uuid && d->parent_uuid && d->parent_uuid != d->uuid) {
        k->has_parent = true;
        k->parent_uuid = d->parent_uuid;
    }
    if (d->thread) {
        k->thread = true;
        k->pid = d->thread->has_pid ? d->thread->pid : -1;
        k->tid = d->thread->has_tid ? d->thread->tid : -1;
        /* its events do not share the thread's track with the system's (atrace) slices */
        k->apart = d->has_disallow_merging_with_system_tracks &&
                   d->disallow_merging_with_system_tracks && d->thread->has_tid;
        if (d->thread->has_tid &&
            pf_descriptor_thread(t, k, d->thread->tid, k->pid, d->thread->thread_name) < 0)
            return TG_ERR_NOMEM;
    } else if (d->process && d->process->has_pid) {
        k->process = true;
        k->pid = k->tid = d->process->pid;
        const char *name = d->process->process_name;
        if (!name && d->process->n_cmdline)
            name = d->process->cmdline[0];
        if (pf_descriptor_process(t, k, d->process->pid, name) < 0 ||
            pf_read_chrome_process(t, k, d) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

/* The declaration of track i (its parents' first); guard bounds a cycle of parents. */
static int64_t declare(tg_trace *t, size_t i, int guard)
{
    pf_trace *p = t->priv;
    pf_track *k = &p->tracks[i];
    if ((k->thread && !k->apart && !k->counter) || k->decl >= 0)
        return k->decl;
    tg_track_decl d = {.name = k->name,
                       .type = k->type,
                       .pid = -1,
                       .tid = -1,
                       .parent = -1,
                       .counter = k->counter,
                       .unit = k->unit,
                       .dims = k->dims,
                       .n_dims = k->n_dims,
                       .source_args = k->source_args,
                       .n_source_args = k->n_source_args,
                       .has_machine = k->type != NULL,
                       .machine = k->machine};
    if (k->thread) {
        d.tid = k->tid; /* a track of the thread's own, beside its calls */
        d.has_task = k->task >= 0;
        d.task = k->task >= 0 ? (size_t)k->task : 0;
    } else if (k->type && (k->pid >= 0 || k->tid >= 0)) {
        d.pid = k->pid;
        d.tid = k->tid;
    } else if (k->process) {
        d.pid = k->pid;
        d.has_task = k->task >= 0;
        d.task = k->task >= 0 ? (size_t)k->task : 0;
    } else if (k->has_parent && guard < 64) {
        const uint64_t *slot = tg_hash_find(&p->track_by_uuid, k->parent_uuid);
        if (slot) {
            const pf_track *parent = &p->tracks[*slot];
            int64_t at = declare(t, (size_t)*slot, guard + 1);
            if (at < -1)
                return at;
            /* a process's own track scopes its children (they are the process's tracks)
             * rather than parenting them, as trace_processor keeps them */
            d.parent = parent->process ? -1 : at;
            d.pid = parent->decl >= 0 ? t->tracks[at].pid : parent->pid;
            d.tid = parent->decl >= 0 ? t->tracks[at].tid : parent->thread ? parent->tid : -1;
            d.has_task = parent->decl >= 0 ? t->tracks[at].has_task : parent->task >= 0;
            d.task = parent->decl >= 0   ? t->tracks[at].task
                     : parent->task >= 0 ? (size_t)parent->task
                                         : 0;
        }
    }
    /* a track no descriptor named takes its first slice's name, as trace_processor names it */
    if (!d.name && !k->process && !k->thread && k->first_slice < p->n_names)
        d.name = p->names[k->first_slice];
    k = &p->tracks[i];
    if (k->decl >= 0)
        return k->decl; /* declared through a cycle of parents */
    if (pf_track_source_args(t, k, &d) < 0 || pf_descriptor_track_args(t, k, &d) < 0)
        return TG_ERR_NOMEM;
    int64_t at = tg_trace_add_track(t, &d);
    if (at >= 0)
        p->tracks[i].decl = at;
    return at;
}

int pf_declare_tracks(tg_trace *t)
{
    pf_trace *p = t->priv;
    for (size_t i = 0; i < p->n_tracks; i++)
        if (declare(t, i, 0) < -1)
            return TG_ERR_NOMEM;
    /* their slices belong to no thread */
    for (size_t i = 0; i < p->n_recs; i++) {
        pf_record *r = &p->recs[i];
        if (r->track >= 0 && p->tracks[r->track].decl >= 0)
            r->pid = r->tid = -1;
    }
    return 0;
}

/* ---- the translation table: deobfuscated slice names ---------------------------------------- */

int pf_read_translation_table(tg_trace *t, const PerfettoRead__TranslationTable *tt)
{
    pf_trace *p = t->priv;
    const PerfettoRead__SliceNameTranslationTable *names =
        tt->table_case == PERFETTO_READ__TRANSLATION_TABLE__TABLE_SLICE_NAME ? tt->slice_name
                                                                             : NULL;
    for (size_t i = 0; names && i < names->n_raw_to_deobfuscated_name; i++) {
        const PerfettoRead__SliceNameTranslationTable__RawToDeobfuscatedNameEntry *e =
            names->raw_to_deobfuscated_name[i];
        if (!e->key || !e->value)
            continue;
        uint64_t n = pf_name_number(t, e->key);
        const char *to = tg_arena_strdup(&t->arena, e->value);
        if (n == UINT64_MAX || !to ||
            tg_grow(&p->renames, &p->cap_renames, p->n_renames + 1, sizeof *p->renames) < 0)
            return TG_ERR_NOMEM;
        p->renames[p->n_renames++] = (struct pf_rename){.name = n, .to = to};
    }
    return 0;
}

/* Every slice of a raw name takes its deobfuscated one, wherever the table stood in the file
 * (trace_processor reads the table before it parses the events). */
void pf_apply_renames(pf_trace *p)
{
    for (size_t i = 0; i < p->n_renames; i++)
        p->names[p->renames[i].name] = p->renames[i].to;
}

/* ---- a slice's category and args ---------------------------------------------------------- */

/* One debug annotation's scalar value (nested ones: perfetto_read_arg_tree.c); false when it
 * has no value this reader reads. */
bool pf_annotation_scalar(tg_trace *t, const pf_sequence *s, const PerfettoRead__DebugAnnotation *a,
                          tg_value *v)
{
    const pf_trace *p = t->priv;
    memset(v, 0, sizeof *v);
    v->base = 10;
    v->bits = 64;
    switch (a->value_case) {
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
        v->type = TG_VAL_UINT;
        v->v.u = a->bool_value != 0;
        v->bits = 1; /* a truth value */
        return true;
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
        v->type = TG_VAL_UINT;
        v->v.u = a->uint_value;
        return true;
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_INT_VALUE:
        v->type = TG_VAL_SINT;
        v->v.s = a->int_value;
        return true;
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
        v->type = TG_VAL_FLOAT;
        v->v.f = a->double_value;
        return true;
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
        v->type = TG_VAL_UINT;
        v->v.u = a->pointer_value;
        v->flags = TG_VALF_POINTER;
        v->base = 16;
        return true;
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE:
    case PERFETTO_READ__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID: {
        const char *text =
            a->value_case == PERFETTO_READ__DEBUG_ANNOTATION__VALUE_STRING_VALUE ? a->string_value
            : a->value_case == PERFETTO_READ__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE
                ? a->legacy_json_value
                : pf_interned_text(p, s, PF_INTERNED_ANNOTATION_STRING, a->string_value_iid);
        if (!text)
            return false;
        v->type = TG_VAL_STRING;
        v->v.str.ptr = text; /* copied by the caller */
        v->v.str.len = strlen(text);
        v->bits = 0;
        return true;
    }
    default: return false;
    }
}

const char *pf_annotation_name(const pf_trace *p, const pf_sequence *s,
                               const PerfettoRead__DebugAnnotation *a)
{
    return a->name_field_case == PERFETTO_READ__DEBUG_ANNOTATION__NAME_FIELD_NAME ? a->name
           : a->name_field_case == PERFETTO_READ__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID
               ? pf_interned_text(p, s, PF_INTERNED_ANNOTATION_NAME, a->name_iid)
               : NULL;
}

/* The old field numbers of the flow ids (uint64 before they became fixed64) are marked
 * deprecated in perfetto_trace.proto; producers still write them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static size_t flow_count(const PerfettoRead__TrackEvent *e)
{
    const PerfettoRead__TrackEvent__LegacyEvent *l = e->legacy_event;
    return e->n_flow_ids + e->n_flow_ids_old + e->n_terminating_flow_ids +
           e->n_terminating_flow_ids_old + (l && l->has_bind_id && l->flow_direction);
}

/* The flows a track event names, into info. */
static int slice_flows(tg_trace *t, const PerfettoRead__TrackEvent *e, pf_slice_info *info)
{
    size_t n = flow_count(e);
    if (!n)
        return 0;
    if (!(info->flows = tg_arena_alloc(&t->arena, n * sizeof *info->flows)))
        return TG_ERR_NOMEM;
    const unsigned step = TG_FLOW_IN | TG_FLOW_OUT, last = TG_FLOW_IN | TG_FLOW_END;
    for (size_t i = 0; i < e->n_flow_ids; i++)
        info->flows[info->n_flows++] = (tg_flow){.id = e->flow_ids[i], .flags = step};
    for (size_t i = 0; i < e->n_flow_ids_old; i++)
        info->flows[info->n_flows++] = (tg_flow){.id = e->flow_ids_old[i], .flags = step};
    for (size_t i = 0; i < e->n_terminating_flow_ids; i++)
        info->flows[info->n_flows++] = (tg_flow){.id = e->terminating_flow_ids[i], .flags = last};
    for (size_t i = 0; i < e->n_terminating_flow_ids_old; i++)
        info->flows[info->n_flows++] =
            (tg_flow){.id = e->terminating_flow_ids_old[i], .flags = last};
    const PerfettoRead__TrackEvent__LegacyEvent *l = e->legacy_event;
    if (l && l->has_bind_id && l->flow_direction)
        info->flows[info->n_flows++] =
            (tg_flow){.id = l->bind_id, .flags = (unsigned)l->flow_direction}; /* IN 1, OUT 2 */
    return 0;
}

#pragma GCC diagnostic pop

int pf_event_category(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                      const char **out)
{
    const pf_trace *p = t->priv;
    size_t n_cats = e->n_categories ? e->n_categories : e->n_category_iids;
    *out = NULL;
    if (!n_cats)
        return 0;
    size_t len = 0;
    for (size_t i = 0; i < n_cats; i++) {
        const char *c = e->n_categories
                            ? e->categories[i]
                            : pf_interned_text(p, s, PF_INTERNED_CATEGORY, e->category_iids[i]);
        len += (c ? strlen(c) : 0) + 1;
    }
    char *cat = tg_arena_alloc(&t->arena, len);
    if (!cat)
        return TG_ERR_NOMEM;
    cat[0] = 0;
    for (size_t i = 0, at = 0; i < n_cats; i++) {
        const char *c = e->n_categories
                            ? e->categories[i]
                            : pf_interned_text(p, s, PF_INTERNED_CATEGORY, e->category_iids[i]);
        size_t n = c ? strlen(c) : 0;
        if (i)
            cat[at++] = ',';
        memcpy(cat + at, c ? c : "", n);
        at += n;
        cat[at] = 0;
    }
    *out = cat;
    return 0;
}

int pf_event_slice_info(tg_trace *t, const pf_sequence *s, const PerfettoRead__TrackEvent *e,
                        bool ending, const pf_slice_info **out)
{
    const pf_trace *p = t->priv;
    *out = NULL;
    size_t n_cats = ending ? 0 : e->n_categories ? e->n_categories : e->n_category_iids;
    size_t n_annotations = ending ? 0 : e->n_debug_annotations;
    size_t n_chrome = ending ? 0 : pf_chrome_arg_count(e) + pf_chrome_typed_arg_count(e);
    size_t n_flows = flow_count(e);
    if (!n_cats && !n_annotations && !n_flows && !n_chrome)
        return 0;
    pf_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
    if (!info)
        return TG_ERR_NOMEM;
    memset(info, 0, sizeof *info);
    if (slice_flows(t, e, info) < 0)
        return TG_ERR_NOMEM;
    if (n_cats && pf_event_category(t, s, e, &info->category) < 0)
        return TG_ERR_NOMEM;
    if (n_annotations + n_chrome) {
        info->args = tg_arena_alloc(&t->arena, (n_annotations + n_chrome) * sizeof *info->args);
        if (!info->args)
            return TG_ERR_NOMEM;
    }
    if (n_chrome && pf_chrome_typed_args(t, s, e, info->args, &info->n_args) < 0)
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < n_annotations; i++) {
        const PerfettoRead__DebugAnnotation *a = e->debug_annotations[i];
        const char *name = pf_annotation_name(p, s, a);
        tg_value *v = &info->args[info->n_args];
        int rc = name ? pf_annotation_value(t, s, a, v) : 0;
        if (rc < 0)
            return rc;
        if (!rc)
            continue;
        size_t n = strlen(name);
        char *key = tg_arena_alloc(&t->arena, n + sizeof "debug.");
        if (!key)
            return TG_ERR_NOMEM;
        memcpy(key, "debug.", 6);
        memcpy(key + 6, name, n + 1);
        v->name = key;
        info->n_args++;
    }
    if (n_chrome && pf_chrome_args(t, e, info->args, &info->n_args) < 0)
        return TG_ERR_NOMEM;
    *out = info;
    return 0;
}

static int slice_record(tg_trace *t, const tg_event_class *cls, int64_t ts, const pf_track *k,
                        const pf_sequence *s, uint64_t name, uint64_t offset)
{
    pf_record *r = pf_add_record(t->priv);
    if (!r)
        return TG_ERR_NOMEM;
    r->ts = ts;
    r->cls = cls;
    r->pid = k ? k->pid : s->pid;
    r->tid = k ? k->tid : s->tid;
    r->track = k ? (int32_t)(k - ((const pf_trace *)t->priv)->tracks) : -1;
    if (k && cls == ((const pf_trace *)t->priv)->slice_begin && k->first_slice == UINT64_MAX)
        ((pf_track *)k)->first_slice = name;
    if (r->tid < 0)
        r->tid = r->pid >= 0 ? r->pid : 0;
    r->addr = name;
    r->offset = offset;
    return 0;
}

/* Whether e is a legacy async event, on the track of its id. */
static bool legacy_async_phase(const PerfettoRead__TrackEvent *e)
{
    const PerfettoRead__TrackEvent__LegacyEvent *l = e->legacy_event;
    if (!l || !l->has_phase || (e->has_type && e->type))
        return false;
    switch (l->phase) {
    case 'S':
    case 'T':
    case 'p':
    case 'F':
    case 'b':
    case 'e':
    case 'n': return true;
    default: return false;
    }
}

int pf_read_track_event(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s,
                        int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    const PerfettoRead__TrackEvent *e = pk->track_event;
    const char *name = NULL;
    if (e->name_field_case == PERFETTO_READ__TRACK_EVENT__NAME_FIELD_NAME)
        name = e->name;
    else if (e->name_field_case == PERFETTO_READ__TRACK_EVENT__NAME_FIELD_NAME_IID)
        name = pf_interned_text(p, s, PF_INTERNED_NAME, e->name_iid);
    const PerfettoRead__TrackEvent__LegacyEvent *legacy = e->legacy_event;
    if (!name && legacy && legacy->has_name_iid)
        name = pf_interned_text(p, s, PF_INTERNED_NAME, legacy->name_iid);
    if (!(e->has_type && e->type) && !(legacy && legacy->has_phase))
        return 0; /* neither a type nor a phase: trace_processor rejects it */
    if (pf_content_args(t, s, e, name) < 0)
        return TG_ERR_NOMEM;
    pf_track *k = NULL;
    if (pf_track_event_track(p, e, s, &k) < 0)
        return TG_ERR_NOMEM;
    bool async = legacy_async_phase(e);
    if (!k && !async)
        return 0; /* a track it needs and has not: trace_processor drops it too */
    int type = e->has_type ? (int)e->type : 0;
    if (!type && legacy && legacy->has_phase) {
        switch (legacy->phase) {
        case 'B': type = PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN; break;
        case 'E': type = PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_SLICE_END; break;
        case 'I':
        case 'i':
        case 'R': type = PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_INSTANT; break;
        case 'S':
        case 'T':
        case 'p':
        case 'F':
        case 'b':
        case 'e':
        case 'n': return pf_read_legacy_async(t, e, s, name, ts, offset);
        case 'X': { /* a complete event: its end is duration_us later */
            uint64_t n = pf_name_number(t, name);
            if (n == UINT64_MAX)
                return TG_ERR_NOMEM;
            int rc = slice_record(t, p->slice_begin, ts, k, s, n, offset);
            if (rc == 0)
                rc = pf_event_slice_info(t, s, e, false, &p->recs[p->n_recs - 1].slice);
            int64_t dur =
                legacy->has_duration_us && legacy->duration_us > 0 ? legacy->duration_us * 1000 : 0;
            return rc < 0 ? rc : slice_record(t, p->slice_end, ts + dur, k, s, n, offset);
        }
        default: return 0;
        }
    }
    switch (type) {
    case PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN: {
        uint64_t n = pf_name_number(t, name);
        if (n == UINT64_MAX)
            return TG_ERR_NOMEM;
        if (k) {
            if (tg_grow(&k->stack, &k->cap, (size_t)k->open + 1, sizeof *k->stack) < 0)
                return TG_ERR_NOMEM;
            k->stack[k->open++] = n;
        }
        int rc = slice_record(t, p->slice_begin, ts, k, s, n, offset);
        return rc < 0 ? rc : pf_event_slice_info(t, s, e, false, &p->recs[p->n_recs - 1].slice);
    }
    case PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_SLICE_END:
        if (!k || !k->open)
            return 0; /* an end without a begin: trace_processor drops it too */
        {
            int rc = slice_record(t, p->slice_end, ts, k, s, k->stack[--k->open], offset);
            return rc < 0 ? rc : pf_event_slice_info(t, s, e, true, &p->recs[p->n_recs - 1].slice);
        }
    case PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_INSTANT: {
        uint64_t n = pf_name_number(t, name);
        if (n == UINT64_MAX)
            return TG_ERR_NOMEM;
        int rc = slice_record(t, p->slice_begin, ts, k, s, n, offset);
        if (rc == 0)
            rc = pf_event_slice_info(t, s, e, false, &p->recs[p->n_recs - 1].slice);
        return rc < 0 ? rc : slice_record(t, p->slice_end, ts, k, s, n, offset);
    }
    case PERFETTO_READ__TRACK_EVENT__TYPE__TYPE_COUNTER:
        return pf_track_event_counter(t, e, k, s, ts, offset);
    default: return 0;
    }
}

pf_track *pf_track_of(pf_trace *p, uint64_t uuid, bool add) { return track_of(p, uuid, add); }

int pf_slice_record(tg_trace *t, bool begin, int64_t ts, const pf_track *k, uint64_t name,
                    uint64_t offset)
{
    const pf_trace *p = t->priv;
    return slice_record(t, begin ? p->slice_begin : p->slice_end, ts, k, NULL, name, offset);
}

/* ---- atrace: slices written through ftrace print events ------------------------------------------ */

/* The track of a thread's atrace slices (keyed apart from the trace's own track uuids). */
static pf_track *atrace_track(pf_trace *p, int32_t tid)
{
    return track_of(p, 0xa7ace00000000000ull ^ (uint64_t)(uint32_t)tid, true);
}

int pf_atrace(tg_trace *t, int64_t ts, int32_t tid, const char *buf, size_t len, uint64_t offset)
{
    pf_trace *p = t->priv;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == 0))
        len--;
    if (len < 1 || (len > 1 && buf[1] != '|') || tid < 0)
        return 0;
    char phase = buf[0];
    if (phase == 'S' || phase == 'F')
        return pf_atrace_async(t, ts, buf, len, offset);
    if (phase == 'C' || phase == 'N')
        return pf_atrace_counter(t, ts, buf, len, offset);
    if (phase != 'B' && phase != 'E')
        return 0;
    /* B|pid|name[|args]: the pid, then the name up to the next bar */
    const char *at = len > 2 ? buf + 2 : buf + len, *end = buf + len;
    int64_t pid = 0;
    bool has_pid = false;
    while (at < end && *at >= '0' && *at <= '9' && pid < INT32_MAX) {
        pid = pid * 10 + (*at++ - '0');
        has_pid = true;
    }
    pf_track *k = atrace_track(p, tid);
    if (!k)
        return TG_ERR_NOMEM;
    k->tid = tid;
    k->thread = true;
    if (phase == 'E') {
        if (!k->open)
            return 0; /* an end without a begin: trace_processor drops it */
        return slice_record(t, p->slice_end, ts, k, NULL, k->stack[--k->open], offset);
    }
    if (!has_pid || at >= end || *at != '|')
        return 0; /* not atrace's form */
    const char *name = ++at;
    while (at < end && *at != '|')
        at++;
    char *copy = tg_arena_strndup(&t->arena, name, (size_t)(at - name));
    if (!copy)
        return TG_ERR_NOMEM;
    uint64_t n = pf_name_number(t, copy);
    if (n == UINT64_MAX || tg_grow(&k->stack, &k->cap, (size_t)k->open + 1, sizeof *k->stack) < 0)
        return TG_ERR_NOMEM;
    k->stack[k->open++] = n;
    k->pid = (int32_t)pid;
    return slice_record(t, p->slice_begin, ts, k, NULL, n, offset);
}
