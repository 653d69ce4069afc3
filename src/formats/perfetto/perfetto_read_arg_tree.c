/* perfetto_read_arg_tree.c - a track event's args that hold other args: debug annotations
 * with dict_entries or array_values, and Chrome's typed messages (chrome_active_processes)
 * as trace_processor flattens them ("debug.NAME.KEY", "NAME.list[i]").
 *
 * A nested arg is a tg_value of type struct or array whose members are tg_values kept in the
 * trace's arena (ctx[0]: the array of members, count their number), handed out through
 * tg_value_child, so the args table flattens it as it flattens any struct or array.  The
 * messages perfetto_read.proto leaves out are read from protobuf-c's unknown fields on the
 * wire (pf_unknown_bytes, pf_varint_at: shared with the other readers of such fields). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <string.h>

enum { PF_ARG_DEPTH_MAX = 32 }; /* nesting past this is dropped, not recursed into */

static int tree_child(const tg_value *v, size_t i, tg_value *out)
{
    if (i >= v->count)
        return TG_ERR_USAGE;
    *out = ((const tg_value *)v->ctx[0])[i];
    return 0;
}

static const struct tg_value_ops tree_ops = {.child = tree_child};

void pf_arg_tree_value(tg_value *v, tg_value_type type, tg_value *members, size_t n)
{
    v->type = type;
    v->bits = 0;
    v->count = n;
    v->ops = &tree_ops;
    v->ctx[0] = members;
}

tg_value *pf_members_start(tg_trace *t, pf_members *m, size_t n)
{
    *m = (pf_members){.at = tg_arena_alloc(&t->arena, n * sizeof *m->at), .n = n};
    return m->at;
}

tg_value *pf_members_next(pf_members *m)
{
    if (m->kept >= m->n)
        return NULL;
    memset(&m->at[m->kept], 0, sizeof m->at[m->kept]);
    return &m->at[m->kept];
}

int pf_members_keep(tg_trace *t, pf_members *m, int rc, const char *name)
{
    if (rc <= 0)
        return rc;
    if (name && !(m->at[m->kept].name = tg_arena_strdup(&t->arena, name)))
        return TG_ERR_NOMEM;
    m->kept++;
    return 0;
}

int pf_members_end(const pf_members *m, tg_value *v, bool dict)
{
    if (!m->kept)
        return 0;
    memset(v, 0, sizeof *v);
    pf_arg_tree_value(v, dict ? TG_VAL_STRUCT : TG_VAL_ARRAY, m->at, m->kept);
    return 1;
}

/* The annotation's value into *v (its name left to the caller): a scalar, or a dict / array
 * of its entries.  1 read, 0 no value this reader reads, TG_ERR_NOMEM. */
static int annotation(tg_trace *t, const pf_sequence *s, const PerfettoRead__DebugAnnotation *a,
                      tg_value *v, int depth)
{
    bool dict = a->n_dict_entries > 0;
    size_t n = dict ? a->n_dict_entries : a->n_array_values;
    if (!n && a->value_case == PERFETTO_READ__DEBUG_ANNOTATION__VALUE_NESTED_VALUE)
        return depth < PF_ARG_DEPTH_MAX ? pf_nested_value(t, a->nested_value, v) : 0;
    if (!n && a->value_case == PERFETTO_READ__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE &&
        depth < PF_ARG_DEPTH_MAX) {
        int rc = pf_json_arg_value(t, a->legacy_json_value, v);
        if (rc != -1)
            return rc;
    }
    if (!n) {
        if (!pf_annotation_scalar(t, s, a, v))
            return 0;
        if (v->type == TG_VAL_STRING &&
            !(v->v.str.ptr = tg_arena_strndup(&t->arena, v->v.str.ptr, v->v.str.len)))
            return TG_ERR_NOMEM;
        return 1;
    }
    if (depth >= PF_ARG_DEPTH_MAX)
        return 0;
    pf_members m;
    if (!pf_members_start(t, &m, n))
        return TG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const PerfettoRead__DebugAnnotation *c = dict ? a->dict_entries[i] : a->array_values[i];
        const char *name = dict ? pf_annotation_name(t->priv, s, c) : NULL;
        if (dict && !name)
            continue;
        int rc = pf_members_keep(t, &m, annotation(t, s, c, pf_members_next(&m), depth + 1), name);
        if (rc < 0)
            return rc;
    }
    return pf_members_end(&m, v, dict);
}

int pf_annotation_value(tg_trace *t, const pf_sequence *s, const PerfettoRead__DebugAnnotation *a,
                        tg_value *v)
{
    return annotation(t, s, a, v, 0);
}

/* ---- Chrome's typed messages on a track event --------------------------------------------- */

/* TrackEvent's field numbers of the Chrome messages read here (perfetto_trace.proto). */
enum { PF_TE_CHROME_ACTIVE_PROCESSES = 49 };

bool pf_varint_at(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; *p < end && shift < 70; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

const uint8_t *pf_unknown_bytes(const ProtobufCMessageUnknownField *u, size_t *len)
{
    const uint8_t *p = u->data, *end = u->data + u->len;
    uint64_t n;
    if (u->wire_type != PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED || !pf_varint_at(&p, end, &n) ||
        n > (uint64_t)(end - p))
        return NULL;
    *len = (size_t)n;
    return p;
}

static void put_pid(tg_value *v, uint64_t pid)
{
    memset(v, 0, sizeof *v);
    v->type = TG_VAL_SINT;
    v->v.s = (int32_t)pid; /* an int32 on the wire: its low 32 bits */
    v->bits = 32;
    v->base = 10;
}

/* ChromeActiveProcesses { repeated int32 pid = 1; } as "chrome_active_processes.pid[i]"
 * (packed or not).  1 read, 0 none, TG_ERR_NOMEM. */
static int active_processes(tg_trace *t, const uint8_t *data, size_t len, tg_value *v)
{
    size_t n = 0;
    pf_wire w;
    const uint8_t *p = data, *end = data + len;
    while (pf_wire_next(&p, end, &w) > 0)
        if (w.field == 1)
            n += w.type == 0 ? 1 : w.type == 2 ? w.len : 0; /* packed: at most a pid a byte */
    if (!n)
        return 0;
    tg_value *pids = tg_arena_alloc(&t->arena, n * sizeof *pids);
    tg_value *list = tg_arena_alloc(&t->arena, sizeof *list);
    if (!pids || !list)
        return TG_ERR_NOMEM;
    size_t kept = 0;
    for (p = data; pf_wire_next(&p, end, &w) > 0;) {
        if (w.field == 1 && w.type == 0 && kept < n)
            put_pid(&pids[kept++], w.value);
        uint64_t pid;
        for (const uint8_t *q = w.bytes, *q_end = w.bytes + w.len;
             w.field == 1 && w.type == 2 && kept < n && pf_varint_at(&q, q_end, &pid);)
            put_pid(&pids[kept++], pid);
    }
    if (!kept)
        return 0;
    memset(list, 0, sizeof *list);
    pf_arg_tree_value(list, TG_VAL_ARRAY, pids, kept);
    list->name = "pid";
    memset(v, 0, sizeof *v);
    pf_arg_tree_value(v, TG_VAL_STRUCT, list, 1);
    v->name = "chrome_active_processes";
    return 1;
}

size_t pf_chrome_arg_count(const PerfettoRead__TrackEvent *e)
{
    size_t n = 0;
    for (unsigned i = 0; i < e->base.n_unknown_fields; i++)
        n += e->base.unknown_fields[i].tag == PF_TE_CHROME_ACTIVE_PROCESSES;
    return n;
}

int pf_chrome_args(tg_trace *t, const PerfettoRead__TrackEvent *e, tg_value *args, size_t *n)
{
    for (unsigned i = 0; i < e->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &e->base.unknown_fields[i];
        size_t len;
        const uint8_t *data = pf_unknown_bytes(u, &len);
        if (!data || u->tag != PF_TE_CHROME_ACTIVE_PROCESSES)
            continue;
        int rc = active_processes(t, data, len, &args[*n]);
        if (rc < 0)
            return rc;
        *n += (size_t)rc;
    }
    return 0;
}
