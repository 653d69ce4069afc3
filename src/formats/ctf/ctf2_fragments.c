/* ctf2_fragments.c - the fragments of CTF 2 metadata, in order, into a ctf_meta.
 *
 * The JSON text sequence is cut at its record separators and each fragment parsed with
 * json-c: the preamble first, then trace, clock, data stream and event record classes and
 * field class aliases, each read into the declarations the CTF 1.8 passes use (their field
 * classes through ctf2_meta.c). */
#include "formats/ctf/ctf2_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- fragments ----------------------------------------------------------------------------- */

static int frag_trace_class(ctf2_ctx *c, json_object *f)
{
    ctf_meta *m = c->m;
    TG_TRY(ctf2_get_uuid(c, f, "uuid", m->uuid, &m->has_uuid));
    TG_TRY(ctf2_scope_class(c, f, "packet-header-field-class", CTF_SCOPE_PACKET_HEADER,
                            &m->packet_header));
    json_object *env = ctf2_member(f, "environment");
    if (env && json_object_is_type(env, json_type_object)) {
        json_object_object_foreach(env, key, val)
        {
            ctf_env e = {.key = ctf2_dup_str(c, key)};
            if (!e.key)
                return TG_ERR_NOMEM;
            if (json_object_is_type(val, json_type_int)) {
                e.is_int = true;
                e.i = json_object_get_int64(val);
            } else if (json_object_is_type(val, json_type_string)) {
                if (!(e.s = ctf2_dup_str(c, json_object_get_string(val))))
                    return TG_ERR_NOMEM;
            } else {
                continue;
            }
            if (tg_grow(&m->env, &m->cap_env, m->n_env + 1, sizeof *m->env) < 0)
                return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
            m->env[m->n_env++] = e;
        }
    }
    return 0;
}

static int frag_clock_class(ctf2_ctx *c, json_object *f)
{
    ctf_meta *m = c->m;
    ctf_clock *k = tg_arena_alloc(m->arena, sizeof *k);
    if (!k)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    const char *id = ctf2_get_str(f, "id"), *name = ctf2_get_str(f, "name");
    if (!id && !name)
        return ctf2_jerr(c, "clock class without an id or a name");
    if (!(k->name = ctf2_dup_str(c, id ? id : name)))
        return TG_ERR_NOMEM;
    const char *desc = ctf2_get_str(f, "description");
    if (desc && !(k->description = ctf2_dup_str(c, desc)))
        return TG_ERR_NOMEM;
    int rc = ctf2_get_uint(c, f, "frequency", &k->freq);
    TG_TRY(rc);
    if (!rc || k->freq == 0)
        return ctf2_jerr(c, "clock class `%.60s` without a frequency", k->name);
    TG_TRY(ctf2_get_uint(c, f, "precision", &k->precision));
    TG_TRY(ctf2_get_uuid(c, f, "uuid", k->uuid, &k->has_uuid));
    json_object *off = ctf2_member(f, "offset-from-origin");
    if (off) {
        TG_TRY(ctf2_get_int(c, off, "seconds", &k->offset_s));
        TG_TRY(ctf2_get_uint(c, off, "cycles", &k->offset));
    }
    k->line = c->frag;
    for (size_t i = 0; i < m->n_clocks; i++)
        if (!strcmp(m->clocks[i]->name, k->name))
            return ctf2_jerr(c, "duplicate clock class `%.60s`", k->name);
    if (tg_grow(&m->clocks, &m->cap_clocks, m->n_clocks + 1, sizeof *m->clocks) < 0)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    m->clocks[m->n_clocks++] = k;
    return 0;
}

static int frag_stream_class(ctf2_ctx *c, json_object *f)
{
    ctf_meta *m = c->m;
    ctf_stream_decl *s = tg_arena_alloc(m->arena, sizeof *s);
    if (!s)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    TG_TRY(ctf2_get_uint(c, f, "id", &s->id));
    s->has_id = true;
    s->line = c->frag;
    const char *ck = ctf2_get_str(f, "default-clock-class-id");
    if (!ck)
        ck = ctf2_get_str(f, "default-clock-class-name");
    if (ck) {
        for (size_t i = 0; i < m->n_clocks; i++)
            if (!strcmp(m->clocks[i]->name, ck))
                s->clock = m->clocks[i];
        if (!s->clock)
            return ctf2_jerr(c, "unknown default clock class `%.60s`", ck);
    }
    for (size_t i = 0; i < m->n_streams; i++)
        if (m->streams[i]->id == s->id)
            return ctf2_jerr(c, "duplicate data stream class id %llu", (unsigned long long)s->id);
    c->stream = s;
    TG_TRY(ctf2_scope_class(c, f, "packet-context-field-class", CTF_SCOPE_PACKET_CONTEXT,
                            &s->packet_context));
    TG_TRY(ctf2_scope_class(c, f, "event-record-header-field-class", CTF_SCOPE_EVENT_HEADER,
                            &s->event_header));
    TG_TRY(ctf2_scope_class(c, f, "event-record-common-context-field-class",
                            CTF_SCOPE_STREAM_CONTEXT, &s->event_context));
    if (tg_grow(&m->streams, &m->cap_streams, m->n_streams + 1, sizeof *m->streams) < 0)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    m->streams[m->n_streams++] = s;
    return 0;
}

static int frag_event_class(ctf2_ctx *c, json_object *f)
{
    ctf_meta *m = c->m;
    ctf_event_decl *e = tg_arena_alloc(m->arena, sizeof *e);
    if (!e)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    TG_TRY(ctf2_get_uint(c, f, "id", &e->id));
    TG_TRY(ctf2_get_uint(c, f, "data-stream-class-id", &e->stream_id));
    e->has_id = e->has_stream_id = true;
    e->line = c->frag;
    const char *name = ctf2_get_str(f, "name");
    if (!(e->name = ctf2_dup_str(c, name ? name : "")))
        return TG_ERR_NOMEM;
    c->stream = ctf_meta_stream(m, e->stream_id);
    if (!c->stream)
        return ctf2_jerr(c, "event record class `%.60s` names unknown data stream class %llu",
                         e->name, (unsigned long long)e->stream_id);
    TG_TRY(ctf2_scope_class(c, f, "specific-context-field-class", CTF_SCOPE_EVENT_CONTEXT,
                            &e->context));
    TG_TRY(ctf2_scope_class(c, f, "payload-field-class", CTF_SCOPE_PAYLOAD, &e->fields));
    if (tg_grow(&m->events, &m->cap_events, m->n_events + 1, sizeof *m->events) < 0)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    m->events[m->n_events++] = e;
    return 0;
}

static int frag_alias(ctf2_ctx *c, json_object *f)
{
    const char *name = ctf2_get_str(f, "name");
    if (!name)
        return ctf2_jerr(c, "field class alias without a name");
    ctf_type *t;
    c->scope = CTF_SCOPE_PAYLOAD;
    c->stream = NULL;
    TG_TRY(ctf2_field_class(c, ctf2_member(f, "field-class"), &t));
    if (tg_grow(&c->aliases, &c->cap_alias, c->n_alias + 1, sizeof *c->aliases) < 0)
        return tg_err(c->err, TG_ERR_NOMEM, "out of memory");
    c->aliases[c->n_alias].name = ctf2_dup_str(c, name);
    c->aliases[c->n_alias++].type = t;
    return c->aliases[c->n_alias - 1].name ? 0 : TG_ERR_NOMEM;
}

static int fragment(ctf2_ctx *c, json_object *f)
{
    const char *ty = ctf2_get_str(f, "type");
    if (!ty)
        return ctf2_jerr(c, "fragment is not an object with a `type`");
    if (c->frag == 1) {
        int64_t version = 0;
        if (strcmp(ty, "preamble") || ctf2_get_int(c, f, "version", &version) <= 0 || version != 2)
            return ctf2_jerr(c, "the first fragment is not a CTF 2 preamble (version 2)");
        json_object *ext = ctf2_member(f, "extensions");
        if (ext && json_object_is_type(ext, json_type_object) && json_object_object_length(ext) > 0)
            return ctf2_jerr(c, "the preamble requires extensions this reader does not know");
        return ctf2_get_uuid(c, f, "uuid", c->m->uuid, &c->m->has_uuid) < 0 ? TG_ERR_FORMAT : 0;
    }
    if (!strcmp(ty, "trace-class"))
        return frag_trace_class(c, f);
    if (!strcmp(ty, "clock-class"))
        return frag_clock_class(c, f);
    if (!strcmp(ty, "data-stream-class"))
        return frag_stream_class(c, f);
    if (!strcmp(ty, "event-record-class"))
        return frag_event_class(c, f);
    if (!strcmp(ty, "field-class-alias"))
        return frag_alias(c, f);
    if (!strcmp(ty, "preamble"))
        return ctf2_jerr(c, "a second preamble");
    return ctf2_jerr(c, "unknown fragment type `%.60s`", ty);
}

bool ctf2_is_metadata(const char *text, size_t len)
{
    return len > 0 && (unsigned char)text[0] == 0x1e;
}

int ctf2_parse(const char *text, size_t len, ctf_meta *m, tg_error **err)
{
    ctf2_ctx c = {.m = m, .err = err};
    m->ctf2 = true;
    m->major = 2;
    m->minor = 0;
    m->has_major = m->has_minor = m->has_byte_order = true;
    json_tokener *tok = json_tokener_new_ex(CTF_MAX_NESTING * 2);
    if (!tok)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    int rc = 0;
    size_t i = 0;
    while (rc >= 0 && i < len) {
        if ((unsigned char)text[i] != 0x1e) {
            rc = tg_err(err, TG_ERR_FORMAT, "%s: byte %zu: expected a record separator (0x1e)",
                        m->path, i);
            break;
        }
        size_t start = ++i;
        while (i < len && (unsigned char)text[i] != 0x1e)
            i++;
        size_t n = i - start;
        c.frag++;
        if (n > CTF2_MAX_FRAGMENT) {
            rc = ctf2_jerr(&c, "fragment of %zu bytes is too large", n);
            break;
        }
        json_tokener_reset(tok);
        json_object *f = json_tokener_parse_ex(tok, text + start, (int)n);
        enum json_tokener_error je = json_tokener_get_error(tok);
        size_t used = json_tokener_get_parse_end(tok);
        while (f && used < n &&
               (text[start + used] == ' ' || text[start + used] == '\n' ||
                text[start + used] == '\r' || text[start + used] == '\t'))
            used++;
        if (!f || je != json_tokener_success || used != n) {
            rc = tg_err(err, TG_ERR_FORMAT, "%s: metadata fragment %d (byte %zu): invalid JSON: %s",
                        m->path, c.frag, start,
                        f ? "text after the value" : json_tokener_error_desc(je));
            json_object_put(f);
            break;
        }
        rc = fragment(&c, f);
        json_object_put(f);
    }
    json_tokener_free(tok);
    free(c.aliases);
    if (rc >= 0 && c.frag == 0)
        rc = tg_err(err, TG_ERR_FORMAT, "%s: empty CTF 2 metadata", m->path);
    return rc < 0 ? rc : 0;
}
