/* perfetto_read_chrome_trigger.c - Chrome's field-trial triggers (a TracePacket's
 * chrome_trigger) as trace_processor shows them: an instant named by the trigger (or
 * "chrome_trigger") on the global "Trace Triggers" track (the trace triggers' one), its args the name's hash and,
 * where the trace's chrome_study translation table knows the hash, the trigger's name.
 *
 * Both messages are left out of perfetto_read.proto, so they are read from the fields
 * protobuf-c keeps unknown.  The translation table may come anywhere in the file
 * (trace_processor reads tables before it parses events): names are given once every packet
 * is read (pf_resolve_chrome_triggers). */
#include "formats/perfetto/perfetto_read_internal.h"

#include "core/grow.h"

#include <string.h>

enum {
    PF_PACKET_CHROME_TRIGGER = 109,
    PF_TRIGGER_NAME = 1,
    PF_TRIGGER_NAME_HASH = 2,
    PF_TRANSLATION_CHROME_STUDY = 6,
    PF_MAP_ENTRY = 1, /* map<uint64, string> hash_to_name: entries of key 1, value 2 */
};

int pf_read_chrome_study_table(tg_trace *t, const PerfettoRead__TranslationTable *tt)
{
    pf_trace *p = t->priv;
    for (unsigned i = 0; i < tt->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &tt->base.unknown_fields[i];
        size_t len = 0;
        const uint8_t *data =
            u->tag == PF_TRANSLATION_CHROME_STUDY ? pf_unknown_bytes(u, &len) : NULL;
        if (!data)
            continue;
        pf_wire entry;
        for (const uint8_t *at = data, *end = data + len; pf_wire_next(&at, end, &entry) > 0;) {
            if (entry.field != PF_MAP_ENTRY || entry.type != 2)
                continue;
            uint64_t hash = 0;
            const char *name = NULL;
            size_t name_len = 0;
            pf_wire w;
            for (const uint8_t *q = entry.bytes, *q_end = q + entry.len;
                 pf_wire_next(&q, q_end, &w) > 0;) {
                if (w.field == 1 && w.type == 0)
                    hash = w.value;
                else if (w.field == 2 && w.type == 2) {
                    name = (const char *)w.bytes;
                    name_len = w.len;
                }
            }
            if (!name)
                continue;
            const char *copy = tg_arena_strndup(&t->arena, name, name_len);
            uint64_t *slot;
            if (!copy || tg_hash_insert(&p->study_by_hash, hash, &slot) < 0)
                return TG_ERR_NOMEM;
            *slot = (uint64_t)(uintptr_t)copy; /* the last entry for a hash wins */
        }
    }
    return 0;
}

static void put_uint(tg_value *v, const char *key, uint64_t u)
{
    memset(v, 0, sizeof *v);
    v->name = key;
    v->type = TG_VAL_UINT;
    v->v.u = u;
    v->bits = 64;
    v->base = 10;
}

/* One ChromeTrigger message (data, len) at ts. */
static int read_trigger(tg_trace *t, const uint8_t *data, size_t len, int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    const char *name = NULL;
    size_t name_len = 0;
    uint64_t hash = 0;
    pf_wire w;
    for (const uint8_t *at = data, *end = data + len; pf_wire_next(&at, end, &w) > 0;) {
        if (w.field == PF_TRIGGER_NAME && w.type == 2) {
            name = (const char *)w.bytes;
            name_len = w.len;
        } else if (w.field == PF_TRIGGER_NAME_HASH && (w.type == 5 || w.type == 0))
            hash = (uint32_t)w.value;
    }
    char *copy = name ? tg_arena_strndup(&t->arena, name, name_len) : NULL;
    pf_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
    tg_value *args = tg_arena_alloc(&t->arena, 2 * sizeof *args);
    pf_track *k = pf_trigger_track(p);
    if ((name && !copy) || !info || !args || !k)
        return TG_ERR_NOMEM;
    memset(info, 0, sizeof *info);
    info->args = args;
    put_uint(&args[info->n_args++], "chrome_trigger.name_hash", hash);
    if (copy)
        args[info->n_args++] = pf_value_string("chrome_trigger.name", copy);
    else if (tg_grow(&p->study_names, &p->cap_study_names, p->n_study_names + 1,
                     sizeof *p->study_names) < 0)
        return TG_ERR_NOMEM;
    else /* named once the translation tables are read */
        p->study_names[p->n_study_names++] = (struct pf_study_name){.info = info, .hash = hash};
    uint64_t n = pf_name_number(t, copy ? copy : "chrome_trigger");
    if (n == UINT64_MAX || pf_slice_record(t, true, ts, k, n, offset) < 0)
        return TG_ERR_NOMEM;
    p->recs[p->n_recs - 1].slice = info;
    return pf_slice_record(t, false, ts, k, n, offset);
}

int pf_read_chrome_trigger(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts,
                           uint64_t offset)
{
    for (unsigned i = 0; i < pk->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &pk->base.unknown_fields[i];
        size_t len;
        const uint8_t *data = u->tag == PF_PACKET_CHROME_TRIGGER ? pf_unknown_bytes(u, &len) : NULL;
        int rc = data ? read_trigger(t, data, len, ts, offset) : 0;
        if (rc < 0)
            return rc;
    }
    return 0;
}

void pf_resolve_chrome_triggers(pf_trace *p)
{
    for (size_t i = 0; i < p->n_study_names; i++) {
        const uint64_t *slot = tg_hash_find(&p->study_by_hash, p->study_names[i].hash);
        pf_slice_info *info = p->study_names[i].info;
        if (slot)
            info->args[info->n_args++] =
                pf_value_string("chrome_trigger.name", (const char *)(uintptr_t)*slot);
    }
}
