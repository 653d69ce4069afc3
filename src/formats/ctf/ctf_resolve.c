/* ctf_resolve.c - the second metadata pass: give the parsed declarations their meaning.
 *
 * - native byte orders become the trace's, clock maps point at clocks (timestamps that map
 *   to none are mapped implicitly, as babeltrace2 does), alignments of compound types are
 *   computed, 8-bit encoded arrays/sequences become text;
 * - events are attached to their stream classes;
 * - sequence lengths and variant tags are resolved (relative paths search the enclosing
 *   structures, then the earlier scopes; absolute paths name their scope), and the
 *   referenced fields get a register slot that the decoder fills;
 * - special fields get their meaning (magic, uuid, stream_id, packet sizes, timestamps,
 *   discarded events, sequence number, event id), and each field learns whether it is
 *   visible to users: babeltrace2 hides special fields and clock-mapped integers unless
 *   another field depends on them, and a structure with no visible member disappears. */
#include "formats/ctf/ctf_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rctx {
    ctf_meta *m;
    tg_error **err;
    ctf_type *roots[CTF_N_SCOPES];
    ctf_type *stack[CTF_MAX_NESTING * 4 + 8];
    int depth;
    ctf_scope_id cur;
} rctx;

static int rerr(rctx *r, int line, const char *fmt, ...) TG_PRINTF(3, 4);
static int rerr(rctx *r, int line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tg_err(r->err, TG_ERR_FORMAT, "%s: metadata line %d: %s", r->m->path, line, msg);
}

static ctf_clock *clock_find(const ctf_meta *m, const char *name)
{
    for (size_t i = 0; i < m->n_clocks; i++)
        if (!strcmp(m->clocks[i]->name, name))
            return m->clocks[i];
    return NULL;
}

/* byte order, clock maps, alignment, text: bottom-up over one type tree */
static int finish_type(rctx *r, ctf_type *t, int depth)
{
    if (!t)
        return 0;
    if (depth > CTF_MAX_NESTING * 4)
        return rerr(r, t->line, "types nested too deeply");
    switch (t->kind) {
    case CTF_T_INT:
    case CTF_T_ENUM:
    case CTF_T_FLOAT:
        if (!t->bo_explicit)
            t->big_endian = r->m->big_endian;
        if (t->map_name && !t->clock) {
            const char *s = t->map_name;
            if (strncmp(s, "clock.", 6) != 0)
                return rerr(r, t->line, "invalid map '%s' (expected clock.NAME.value)", s);
            const char *name = s + 6, *dot = strrchr(name, '.');
            if (!dot || strcmp(dot, ".value") != 0)
                return rerr(r, t->line, "invalid map '%s' (expected clock.NAME.value)", s);
            char buf[256];
            size_t n = (size_t)(dot - name);
            if (n >= sizeof buf)
                n = sizeof buf - 1;
            memcpy(buf, name, n);
            buf[n] = 0;
            t->clock = clock_find(r->m, buf);
            if (!t->clock)
                return rerr(r, t->line, "integer mapped to unknown clock '%s'", buf);
        }
        return 0;
    case CTF_T_STRING: return 0;
    case CTF_T_STRUCT:
    case CTF_T_VARIANT:
        for (size_t i = 0; i < t->n_fields; i++) {
            TG_TRY(finish_type(r, t->fields[i].type, depth + 1));
            if (t->kind == CTF_T_STRUCT && t->fields[i].type->align > t->align)
                t->align = t->fields[i].type->align;
        }
        if (t->kind == CTF_T_VARIANT)
            t->align = 1;
        return 0;
    case CTF_T_ARRAY:
    case CTF_T_SEQUENCE:
        TG_TRY(finish_type(r, t->elem, depth + 1));
        t->align = t->elem->align;
        if (t->elem->kind == CTF_T_INT && t->elem->size == 8 && t->elem->encoding) {
            t->is_text = true;
            t->elem->is_signed = false;
        }
        return 0;
    }
    return 0;
}

/* ---- special meanings and implicit clock maps ------------------------------------------------ */

static void set_meaning(ctf_type *t, const char *name, const char *want, ctf_meaning mn)
{
    switch (t->kind) {
    case CTF_T_INT:
    case CTF_T_ENUM:
        if (name && !strcmp(name, want))
            t->meaning = mn;
        break;
    case CTF_T_STRUCT:
    case CTF_T_VARIANT:
        for (size_t i = 0; i < t->n_fields; i++)
            set_meaning(t->fields[i].type, t->fields[i].name, want, mn);
        break;
    case CTF_T_ARRAY:
    case CTF_T_SEQUENCE: set_meaning(t->elem, NULL, want, mn); break;
    default: break;
    }
}

/* The model's cpu and thread: a top-level integer member of that name, given the meaning
 * unless it has one already (CTF 1.8 and CTF 2 alike: LTTng names them in both). */
static void set_model_meaning(ctf_type *t, const char *want, ctf_meaning mn)
{
    if (!t || t->kind != CTF_T_STRUCT)
        return;
    for (size_t i = 0; i < t->n_fields; i++) {
        ctf_type *f = t->fields[i].type;
        if ((f->kind == CTF_T_INT || f->kind == CTF_T_ENUM) && f->meaning == CTF_M_NONE &&
            !f->clock && !strcmp(t->fields[i].name, want))
            f->meaning = mn;
    }
}

static void set_thread_meanings(ctf_type *ctx)
{
    set_model_meaning(ctx, "vtid", CTF_M_VTID);
    set_model_meaning(ctx, "tid", CTF_M_TID);
    set_model_meaning(ctx, "vpid", CTF_M_VPID);
    set_model_meaning(ctx, "pid", CTF_M_PID);
}

static int auto_map(rctx *r, ctf_type *t, const char *want)
{
    if (t->kind != CTF_T_STRUCT && t->kind != CTF_T_VARIANT)
        return 0;
    for (size_t i = 0; i < t->n_fields; i++) {
        ctf_type *f = t->fields[i].type;
        if (!strcmp(t->fields[i].name, want) && (f->kind == CTF_T_INT || f->kind == CTF_T_ENUM) &&
            !f->clock) {
            ctf_meta *m = r->m;
            if (m->n_clocks == 0) {
                ctf_clock *c = tg_arena_alloc(m->arena, sizeof *c);
                if (!c)
                    return TG_ERR_NOMEM;
                c->name = "default";
                c->freq = 1000000000;
                c->line = f->line;
                if (tg_grow(&m->clocks, &m->cap_clocks, 1, sizeof *m->clocks) < 0)
                    return TG_ERR_NOMEM;
                m->clocks[0] = c;
                m->n_clocks = 1;
            } else if (m->n_clocks > 1) {
                return rerr(r, f->line,
                            "timestamp field '%s' maps to no clock and the trace has several",
                            want);
            }
            f->clock = m->clocks[0];
        }
        TG_TRY(auto_map(r, f, want));
    }
    return 0;
}

/* ---- paths ------------------------------------------------------------------------------------ */

static ctf_type *member(const ctf_type *st, const char *name, size_t len)
{
    if (!st || (st->kind != CTF_T_STRUCT && st->kind != CTF_T_VARIANT))
        return NULL;
    for (size_t i = 0; i < st->n_fields; i++) {
        const ctf_field *f = &st->fields[i];
        if (strlen(f->orig_name) == len && !memcmp(f->orig_name, name, len))
            return f->type;
    }
    for (size_t i = 0; i < st->n_fields; i++) {
        const ctf_field *f = &st->fields[i];
        if (strlen(f->name) == len && !memcmp(f->name, name, len))
            return f->type;
    }
    return NULL;
}

static ctf_type *descend(ctf_type *t, const char *rest)
{
    while (t && *rest) {
        const char *dot = strchr(rest, '.');
        size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
        t = member(t, rest, len);
        rest = dot ? dot + 1 : rest + len;
    }
    return t;
}

static ctf_type *resolve_path(rctx *r, const char *path)
{
    static const struct {
        const char *prefix;
        ctf_scope_id scope;
    } abs[] = {
        {"trace.packet.header.", CTF_SCOPE_PACKET_HEADER},
        {"stream.packet.context.", CTF_SCOPE_PACKET_CONTEXT},
        {"stream.event.header.", CTF_SCOPE_EVENT_HEADER},
        {"stream.event.context.", CTF_SCOPE_STREAM_CONTEXT},
        {"event.context.", CTF_SCOPE_EVENT_CONTEXT},
        {"event.fields.", CTF_SCOPE_PAYLOAD},
    };
    for (size_t i = 0; i < sizeof abs / sizeof abs[0]; i++) {
        size_t l = strlen(abs[i].prefix);
        if (!strncmp(path, abs[i].prefix, l))
            return abs[i].scope <= r->cur ? descend(r->roots[abs[i].scope], path + l) : NULL;
    }
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    const char *rest = dot ? dot + 1 : "";
    for (int d = r->depth - 1; d >= 0; d--) {
        ctf_type *f = member(r->stack[d], path, len);
        if (f)
            return descend(f, rest);
    }
    for (int s = (int)r->cur - 1; s >= 0; s--) {
        ctf_type *f = member(r->roots[s], path, len);
        if (f)
            return descend(f, rest);
    }
    return NULL;
}

static int label_ranges(rctx *r, ctf_type *var, const ctf_type *tag)
{
    size_t n = 0;
    for (size_t o = 0; o < var->n_fields; o++)
        for (size_t k = 0; k < tag->n_maps; k++)
            if (!strcmp(tag->maps[k].label, var->fields[o].orig_name))
                n++;
    var->ranges = n ? tg_arena_alloc(r->m->arena, n * sizeof *var->ranges) : NULL;
    if (n && !var->ranges)
        return TG_ERR_NOMEM;
    var->n_ranges = 0;
    for (size_t o = 0; o < var->n_fields; o++)
        for (size_t k = 0; k < tag->n_maps; k++)
            if (!strcmp(tag->maps[k].label, var->fields[o].orig_name)) {
                ctf_var_range *vr = &var->ranges[var->n_ranges++];
                vr->lo = tag->maps[k].lo;
                vr->hi = tag->maps[k].hi;
                vr->option = (uint32_t)o;
            }
    return 0;
}

static int resolve_refs(rctx *r, ctf_type *t)
{
    switch (t->kind) {
    case CTF_T_STRUCT:
        if (r->depth >= (int)(sizeof r->stack / sizeof r->stack[0]))
            return rerr(r, t->line, "types nested too deeply");
        r->stack[r->depth++] = t;
        for (size_t i = 0; i < t->n_fields; i++)
            TG_TRY(resolve_refs(r, t->fields[i].type));
        r->depth--;
        return 0;
    case CTF_T_VARIANT: {
        if (!t->ref)
            return rerr(r, t->line, "variant without a tag");
        ctf_type *tag = resolve_path(r, t->ref);
        if (!tag)
            return rerr(r, t->line, "cannot find variant tag '%s'", t->ref);
        if (tag->kind != CTF_T_ENUM && !(r->m->ctf2 && tag->kind == CTF_T_INT))
            return rerr(r, t->line, "variant tag '%s' is not an enumeration", t->ref);
        t->ref_target = tag;
        if (tag->reg < 0)
            tag->reg = (int)r->m->n_regs++;
        if (!r->m->ctf2)
            TG_TRY(label_ranges(r, t, tag)); /* CTF 2 options carry their own ranges */
        for (size_t i = 0; i < t->n_fields; i++)
            TG_TRY(resolve_refs(r, t->fields[i].type));
        return 0;
    }
    case CTF_T_SEQUENCE: {
        ctf_type *len = resolve_path(r, t->ref);
        if (!len)
            return rerr(r, t->line, "cannot find sequence length '%s'", t->ref);
        if (len->kind != CTF_T_INT && len->kind != CTF_T_ENUM)
            return rerr(r, t->line, "sequence length '%s' is not an integer", t->ref);
        t->ref_target = len;
        if (len->reg < 0)
            len->reg = (int)r->m->n_regs++;
        return resolve_refs(r, t->elem);
    }
    case CTF_T_ARRAY: return resolve_refs(r, t->elem);
    default: return 0;
    }
}

static int resolve_scope(rctx *r, ctf_scope_id s)
{
    ctf_type *t = r->roots[s];
    if (!t)
        return 0;
    r->cur = s;
    r->depth = 0;
    return resolve_refs(r, t);
}

/* ---- visibility (babeltrace2's "in IR") --------------------------------------------------- */

static void update_in_ir(ctf_type *t)
{
    if (!t)
        return;
    switch (t->kind) {
    case CTF_T_INT:
    case CTF_T_ENUM:
        if (!t->clock && !ctf_meaning_hidden(t->meaning))
            t->in_ir = true;
        break;
    case CTF_T_STRUCT:
        if (t->n_fields == 0)
            t->in_ir = true;
        for (size_t i = t->n_fields; i-- > 0;) {
            update_in_ir(t->fields[i].type);
            if (t->fields[i].type->in_ir)
                t->in_ir = true;
        }
        break;
    case CTF_T_VARIANT:
        for (size_t i = t->n_fields; i-- > 0;) {
            update_in_ir(t->fields[i].type);
            if (t->fields[i].type->in_ir)
                t->in_ir = true;
        }
        if (t->in_ir) {
            for (size_t i = 0; i < t->n_fields; i++)
                t->fields[i].type->in_ir = true;
            if (t->ref_target)
                t->ref_target->in_ir = true;
        }
        break;
    case CTF_T_ARRAY:
        update_in_ir(t->elem);
        t->in_ir = t->elem->in_ir && t->meaning != CTF_M_UUID;
        break;
    case CTF_T_SEQUENCE:
        update_in_ir(t->elem);
        t->in_ir = t->elem->in_ir;
        if (t->in_ir && t->ref_target)
            t->ref_target->in_ir = true;
        break;
    default: t->in_ir = true; break;
    }
}

static ctf_clock *first_clock(const ctf_type *t)
{
    if (!t)
        return NULL;
    if ((t->kind == CTF_T_INT || t->kind == CTF_T_ENUM) && t->clock)
        return t->clock;
    for (size_t i = 0; i < t->n_fields; i++) {
        ctf_clock *c = first_clock(t->fields[i].type);
        if (c)
            return c;
    }
    return t->elem ? first_clock(t->elem) : NULL;
}

ctf_stream_decl *ctf_meta_stream(const ctf_meta *m, uint64_t id)
{
    for (size_t i = 0; i < m->n_streams; i++)
        if (m->streams[i]->id == id)
            return m->streams[i];
    return NULL;
}

int ctf_resolve(ctf_meta *m, tg_error **err)
{
    rctx r = {.m = m, .err = err};
    for (size_t i = 0; i < m->n_clocks; i++) {
        ctf_clock *c = m->clocks[i];
        if (c->offset >= c->freq) {
            uint64_t s = c->offset / c->freq;
            if (s > (uint64_t)INT64_MAX || c->offset_s > INT64_MAX - (int64_t)s)
                return rerr(&r, c->line, "clock offset out of range");
            c->offset_s += (int64_t)s;
            c->offset %= c->freq;
        }
    }
    if (m->n_streams == 0) {
        ctf_stream_decl *s = tg_arena_alloc(m->arena, sizeof *s);
        if (!s || tg_grow(&m->streams, &m->cap_streams, 1, sizeof *m->streams) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        m->streams[0] = s;
        m->n_streams = 1;
    }
    for (size_t i = 0; i < m->n_events; i++) {
        ctf_event_decl *e = m->events[i];
        ctf_stream_decl *s;
        if (e->has_stream_id) {
            s = ctf_meta_stream(m, e->stream_id);
            if (!s)
                return rerr(&r, e->line, "event '%s' refers to unknown stream %llu", e->name,
                            (unsigned long long)e->stream_id);
        } else if (m->n_streams == 1) {
            s = m->streams[0];
        } else {
            return rerr(&r, e->line, "event '%s' has no stream_id and the trace has %zu streams",
                        e->name, m->n_streams);
        }
        if (tg_grow(&s->events, &s->cap_events, s->n_events + 1, sizeof *s->events) < 0)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        s->events[s->n_events++] = e;
    }

    /* type facts */
    TG_TRY(finish_type(&r, m->packet_header, 0));
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        TG_TRY(finish_type(&r, s->packet_context, 0));
        TG_TRY(finish_type(&r, s->event_header, 0));
        TG_TRY(finish_type(&r, s->event_context, 0));
        for (size_t j = 0; j < s->n_events; j++) {
            TG_TRY(finish_type(&r, s->events[j]->context, 0));
            TG_TRY(finish_type(&r, s->events[j]->fields, 0));
        }
        if (m->ctf2)
            continue; /* roles gave CTF 2 fields their clocks and meanings */
        if (s->event_header)
            TG_TRY(auto_map(&r, s->event_header, "timestamp"));
        if (s->packet_context) {
            TG_TRY(auto_map(&r, s->packet_context, "timestamp_begin"));
            TG_TRY(auto_map(&r, s->packet_context, "timestamp_end"));
        }
    }

    /* meanings */
    if (m->packet_header && !m->ctf2) {
        set_meaning(m->packet_header, NULL, "magic", CTF_M_MAGIC);
        set_meaning(m->packet_header, NULL, "stream_id", CTF_M_STREAM_ID);
        set_meaning(m->packet_header, NULL, "stream_instance_id", CTF_M_STREAM_INSTANCE_ID);
        ctf_type *u = member(m->packet_header, "uuid", 4);
        if (u && u->kind == CTF_T_ARRAY)
            u->meaning = CTF_M_UUID;
    }
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        if (m->ctf2)
            break;
        if (s->packet_context) {
            set_meaning(s->packet_context, NULL, "timestamp_begin", CTF_M_TS_BEGIN);
            set_meaning(s->packet_context, NULL, "timestamp_end", CTF_M_TS_END);
            set_meaning(s->packet_context, NULL, "events_discarded", CTF_M_DISCARDED);
            set_meaning(s->packet_context, NULL, "content_size", CTF_M_CONTENT_SIZE);
            set_meaning(s->packet_context, NULL, "packet_size", CTF_M_PACKET_SIZE);
            set_meaning(s->packet_context, NULL, "packet_seq_num", CTF_M_SEQ_NUM);
        }
        if (s->event_header)
            set_meaning(s->event_header, NULL, "id", CTF_M_EVENT_ID);
    }
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        set_model_meaning(s->packet_context, "cpu_id", CTF_M_CPU_ID);
        set_thread_meanings(s->event_context);
        for (size_t j = 0; j < s->n_events; j++)
            set_thread_meanings(s->events[j]->context);
    }

    /* references */
    r.roots[CTF_SCOPE_PACKET_HEADER] = m->packet_header;
    TG_TRY(resolve_scope(&r, CTF_SCOPE_PACKET_HEADER));
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        r.roots[CTF_SCOPE_PACKET_CONTEXT] = s->packet_context;
        r.roots[CTF_SCOPE_EVENT_HEADER] = s->event_header;
        r.roots[CTF_SCOPE_STREAM_CONTEXT] = s->event_context;
        r.roots[CTF_SCOPE_EVENT_CONTEXT] = r.roots[CTF_SCOPE_PAYLOAD] = NULL;
        TG_TRY(resolve_scope(&r, CTF_SCOPE_PACKET_CONTEXT));
        TG_TRY(resolve_scope(&r, CTF_SCOPE_EVENT_HEADER));
        TG_TRY(resolve_scope(&r, CTF_SCOPE_STREAM_CONTEXT));
        for (size_t j = 0; j < s->n_events; j++) {
            r.roots[CTF_SCOPE_EVENT_CONTEXT] = s->events[j]->context;
            r.roots[CTF_SCOPE_PAYLOAD] = s->events[j]->fields;
            TG_TRY(resolve_scope(&r, CTF_SCOPE_EVENT_CONTEXT));
            TG_TRY(resolve_scope(&r, CTF_SCOPE_PAYLOAD));
        }
    }

    /* visibility, in babeltrace2's order: event scopes first, then the stream's */
    for (size_t i = 0; i < m->n_streams; i++) {
        ctf_stream_decl *s = m->streams[i];
        for (size_t j = 0; j < s->n_events; j++) {
            update_in_ir(s->events[j]->fields);
            update_in_ir(s->events[j]->context);
        }
        update_in_ir(s->packet_context);
        update_in_ir(s->event_header);
        update_in_ir(s->event_context);
        if (!s->clock) /* CTF 2 names its default clock; CTF 1.8 maps it */
            s->clock = first_clock(s->packet_context);
        if (!s->clock)
            s->clock = first_clock(s->event_header);
        if (!s->clock)
            s->clock = first_clock(s->event_context);
    }
    update_in_ir(m->packet_header);
    return 0;
}
