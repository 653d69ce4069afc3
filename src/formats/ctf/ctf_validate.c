/* ctf_validate.c - the third metadata pass: check what the data decoder relies on.
 *
 * The trace block must say CTF 1.8 and its byte order; special packet header fields must
 * have the types the decoder reads them as; every event of a stream needs a distinct id
 * (an event header with an id field is needed to tell several apart).  Each failure names
 * the metadata line of the declaration at fault. */
#include "formats/ctf/ctf_internal.h"

#include <stdlib.h>
#include <string.h>

static int verr(const ctf_meta *m, tg_error **err, int line, const char *what, const char *name)
{
    return tg_err(err, TG_ERR_FORMAT, "%s: metadata line %d: %s%s%s%s", m->path, line, what,
                  name ? " '" : "", name ? name : "", name ? "'" : "");
}

static const ctf_type *root_member(const ctf_type *st, const char *name)
{
    if (!st)
        return NULL;
    for (size_t i = 0; i < st->n_fields; i++)
        if (!strcmp(st->fields[i].name, name))
            return st->fields[i].type;
    return NULL;
}

static bool has_meaning(const ctf_type *t, ctf_meaning mn)
{
    if (!t)
        return false;
    if ((t->kind == CTF_T_INT || t->kind == CTF_T_ENUM) && t->meaning == mn)
        return true;
    for (size_t i = 0; i < t->n_fields; i++)
        if (has_meaning(t->fields[i].type, mn))
            return true;
    return t->elem ? has_meaning(t->elem, mn) : false;
}

ctf_event_decl *ctf_stream_event(const ctf_stream_decl *s, uint64_t id)
{
    if (id < s->n_by_id)
        return s->by_id[id];
    for (size_t i = 0; i < s->n_events; i++)
        if (s->events[i]->id == id)
            return s->events[i];
    return NULL;
}

int ctf_validate(ctf_meta *m, tg_error **err)
{
    if (!m->has_major)
        return verr(m, err, 1, "missing `major` attribute in the trace block", NULL);
    if (!m->has_minor)
        return verr(m, err, 1, "missing `minor` attribute in the trace block", NULL);
    if (!m->has_byte_order)
        return verr(m, err, 1, "missing `byte_order` attribute in the trace block", NULL);
    const ctf_type *ph = m->packet_header;
    const ctf_type *t;
    if ((t = root_member(ph, "magic")) && (t->kind != CTF_T_INT || t->size != 32 || t->is_signed))
        return verr(m, err, t->line, "packet header field is not a 32-bit unsigned integer",
                    "magic");
    if ((t = root_member(ph, "uuid")) && (t->kind != CTF_T_ARRAY || t->length != 16 ||
                                          t->elem->kind != CTF_T_INT || t->elem->size != 8))
        return verr(m, err, t->line, "packet header field is not an array of 16 bytes", "uuid");
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        if (m->n_streams > 1 && !has_meaning(ph, CTF_M_STREAM_ID))
            return verr(m, err, s->line,
                        "several stream classes but no stream_id in the packet header", NULL);
        if (s->n_events > 1 && !has_meaning(s->event_header, CTF_M_EVENT_ID))
            return verr(m, err, s->line,
                        "several event classes but no id in the stream's event header", NULL);
        uint64_t max_id = 0;
        for (size_t j = 0; j < s->n_events; j++) {
            ctf_event_decl *e = s->events[j];
            if (!e->has_id && s->n_events > 1)
                return verr(m, err, e->line, "event without an id in a stream of several events",
                            e->name);
            for (size_t k = 0; k < j; k++)
                if (s->events[k]->id == e->id)
                    return verr(m, err, e->line, "duplicate event id for event", e->name);
            if (e->id > max_id)
                max_id = e->id;
        }
        if (s->n_events && max_id < 4 * s->n_events + 64) {
            s->by_id = tg_arena_alloc(m->arena, (max_id + 1) * sizeof *s->by_id);
            if (!s->by_id)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            s->n_by_id = max_id + 1;
            for (size_t j = 0; j < s->n_events; j++)
                s->by_id[s->events[j]->id] = s->events[j];
        }
    }
    return 0;
}
