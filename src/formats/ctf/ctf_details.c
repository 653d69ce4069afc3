/* ctf_details.c - a CTF trace's classes as babeltrace2 2.0.4's details sink describes them
 * (`babeltrace2 -c sink.text.details`, the "Trace class:" block it writes before a trace's
 * first message): each stream class with the properties babeltrace2's CTF source gives it
 * (packets, their clock snapshots, discarded events and packets: from the packet context's
 * special fields), its default clock class, its packet and event common context, and its
 * event classes by id with their log level, EMF URI, contexts and payload.
 *
 * It is the format's text (tg_trace_render part "babeltrace-details") because it describes
 * the TSDL types as babeltrace2's trace IR has them, which only the reader knows: special
 * fields left out, text arrays and sequences as strings, a sequence's length field as a
 * path of member indexes in its scope.  The messages around it are written by the babeltrace
 * style (compat/babeltrace2/babeltrace_details.c). */
#include "formats/ctf/ctf_stream.h"
#include "core/digits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void num(tg_buf *out, int64_t v, bool is_signed)
{
    char b[48];
    bool neg = is_signed && v < 0;
    uint64_t a = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    tg_buf_put(out, b, tg_digits_grouped(b, a, neg, 10));
}

static void indent(tg_buf *out, int n) { tg_buf_pad(out, ' ', n); }

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* The members babeltrace2's IR has of a struct (variants keep every option). */
static bool member_shown(const ctf_type *t, size_t i)
{
    return t->kind == CTF_T_VARIANT || t->fields[i].type->in_ir;
}

/* The path of member indexes from scope root to target into path[0..*n); false when target
 * is not inside root. */
static bool find_path(const ctf_type *root, const ctf_type *target, size_t *path, size_t *n,
                      int depth)
{
    if (!root || depth >= CTF_MAX_NESTING)
        return false;
    if (root->kind != CTF_T_STRUCT && root->kind != CTF_T_VARIANT)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < root->n_fields; i++) {
        if (!member_shown(root, i))
            continue;
        const ctf_type *ft = root->fields[i].type;
        path[depth] = k++;
        *n = (size_t)depth + 1;
        if (ft == target || find_path(ft, target, path, n, depth + 1))
            return true;
    }
    return false;
}

typedef struct details_scopes {
    const ctf_type *root[4]; /* packet context, event common context, specific, payload */
} details_scopes;

static void length_path(tg_buf *out, const details_scopes *sc, const ctf_type *target)
{
    static const char *const names[4] = {"Packet context", "Event common context",
                                         "Event specific context", "Event payload"};
    size_t path[CTF_MAX_NESTING], n = 0;
    for (int s = 3; s >= 0; s--) {
        if (find_path(sc->root[s], target, path, &n, 0)) {
            tg_buf_printf(out, "[%s: ", names[s]);
            for (size_t i = 0; i < n; i++)
                tg_buf_printf(out, "%s%zu", i ? ", " : "", path[i]);
            tg_buf_putc(out, ']');
            return;
        }
    }
}

static void field_class(tg_buf *out, const ctf_type *t, int ind, const details_scopes *sc,
                        int depth);

static int cmp_label(const void *a, const void *b)
{
    return strcmp((*(const ctf_enum_map *const *)a)->label,
                  (*(const ctf_enum_map *const *)b)->label);
}

static void enum_mappings(tg_buf *out, const ctf_type *t, int ind)
{
    /* one mapping per label (a label may be given several ranges), by label, its ranges
     * in order */
    const ctf_enum_map **m = calloc(t->n_maps ? t->n_maps : 1, sizeof *m);
    if (!m)
        return;
    for (size_t i = 0; i < t->n_maps; i++)
        m[i] = &t->maps[i];
    qsort(m, t->n_maps, sizeof *m, cmp_label);
    for (size_t i = 0; i < t->n_maps;) {
        size_t j = i;
        while (j < t->n_maps && !strcmp(m[j]->label, m[i]->label))
            j++;
        /* sort the label's ranges (few: insertion) */
        for (size_t a = i + 1; a < j; a++)
            for (size_t b = a; b > i; b--) {
                const ctf_enum_map *x = m[b - 1], *y = m[b];
                bool gt = t->is_signed ? (x->lo > y->lo || (x->lo == y->lo && x->hi > y->hi))
                                       : ((uint64_t)x->lo > (uint64_t)y->lo ||
                                          (x->lo == y->lo && (uint64_t)x->hi > (uint64_t)y->hi));
                if (!gt)
                    break;
                m[b - 1] = y;
                m[b] = x;
            }
        tg_buf_putc(out, '\n');
        indent(out, ind);
        tg_buf_printf(out, "%s:", m[i]->label);
        for (size_t k = i; k < j; k++) {
            tg_buf_puts(out, " [");
            num(out, m[k]->lo, true);
            if (m[k]->lo != m[k]->hi) {
                tg_buf_puts(out, ", ");
                num(out, m[k]->hi, true);
            }
            tg_buf_putc(out, ']');
        }
        i = j;
    }
    free(m);
}

static size_t label_count(const ctf_type *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n_maps; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = !strcmp(t->maps[k].label, t->maps[i].label);
        n += !seen;
    }
    return n;
}

/* A variant option's selector ranges, " [0], [2, 3]:" (the tag's mappings of the option's
 * label, in order). */
static void option_ranges(tg_buf *out, const ctf_type *t, size_t i)
{
    const ctf_type *tag = t->ref_target;
    const char *label = t->fields[i].orig_name ? t->fields[i].orig_name : t->fields[i].name;
    if (!tag || tag->kind != CTF_T_ENUM)
        return;
    /* the label's ranges, sorted as enum_mappings sorts them */
    size_t n = 0;
    for (size_t k = 0; k < tag->n_maps; k++)
        n += !strcmp(tag->maps[k].label, label);
    if (!n)
        return;
    ctf_enum_map *m = calloc(n, sizeof *m);
    if (!m)
        return;
    n = 0;
    for (size_t k = 0; k < tag->n_maps; k++)
        if (!strcmp(tag->maps[k].label, label))
            m[n++] = tag->maps[k];
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && (tag->is_signed ? m[b - 1].lo > m[b].lo
                                                    : (uint64_t)m[b - 1].lo > (uint64_t)m[b].lo);
             b--) {
            ctf_enum_map x = m[b - 1];
            m[b - 1] = m[b];
            m[b] = x;
        }
    for (size_t k = 0; k < n; k++) {
        tg_buf_puts(out, " [");
        num(out, m[k].lo, true);
        if (m[k].lo != m[k].hi) {
            tg_buf_puts(out, ", ");
            num(out, m[k].hi, true);
        }
        tg_buf_putc(out, ']');
    }
    tg_buf_putc(out, ':');
    free(m);
}

static void field_class(tg_buf *out, const ctf_type *t, int ind, const details_scopes *sc,
                        int depth)
{
    if (depth > CTF_MAX_NESTING)
        return;
    switch (t->kind) {
    case CTF_T_INT:
        tg_buf_printf(out, "%s integer (%u-bit, Base %u)", t->is_signed ? "Signed" : "Unsigned",
                      t->size, t->base ? t->base : 10);
        return;
    case CTF_T_ENUM: {
        size_t n = label_count(t);
        tg_buf_printf(out, "%s enumeration (%u-bit, Base %u, %zu mapping%s)",
                      t->is_signed ? "Signed" : "Unsigned", t->size, t->base ? t->base : 10, n,
                      plural(n));
        if (n) {
            tg_buf_putc(out, ':');
            enum_mappings(out, t, ind + 2);
        }
        return;
    }
    case CTF_T_FLOAT:
        tg_buf_puts(out, t->mant_dig == 24 && t->exp_dig == 8 ? "Single-precision real"
                                                              : "Double-precision real");
        return;
    case CTF_T_STRING: tg_buf_puts(out, "String"); return;
    case CTF_T_ARRAY:
    case CTF_T_SEQUENCE:
        if (t->is_text) {
            tg_buf_puts(out, "String");
            return;
        }
        if (t->kind == CTF_T_ARRAY) {
            tg_buf_puts(out, "Static array (Length ");
            num(out, (int64_t)t->length, false);
            tg_buf_puts(out, "):\n");
        } else {
            tg_buf_puts(out, "Dynamic array (with length field) (Length field path ");
            length_path(out, sc, t->ref_target);
            tg_buf_puts(out, "):\n");
        }
        indent(out, ind + 2);
        tg_buf_puts(out, "Element: ");
        field_class(out, t->elem, ind + 2, sc, depth + 1);
        return;
    case CTF_T_STRUCT:
    case CTF_T_VARIANT: {
        size_t n = 0;
        for (size_t i = 0; i < t->n_fields; i++)
            n += member_shown(t, i);
        if (t->kind == CTF_T_STRUCT) {
            tg_buf_printf(out, "Structure (%zu member%s)", n, plural(n));
        } else {
            const ctf_type *tag = t->ref_target;
            tg_buf_printf(out, "Variant (%s integer selector) (%zu option%s, Selector field path ",
                          tag && tag->is_signed ? "signed" : "unsigned", n, plural(n));
            length_path(out, sc, tag);
            tg_buf_putc(out, ')');
        }
        if (!n)
            return;
        tg_buf_putc(out, ':');
        for (size_t i = 0; i < t->n_fields; i++) {
            if (!member_shown(t, i))
                continue;
            tg_buf_putc(out, '\n');
            indent(out, ind + 2);
            tg_buf_printf(out, "%s:", t->fields[i].name);
            if (t->kind == CTF_T_VARIANT)
                option_ranges(out, t, i);
            tg_buf_putc(out, ' ');
            field_class(out, t->fields[i].type, ind + 2, sc, depth + 1);
        }
        return;
    }
    }
}

static void root_class(tg_buf *out, const char *what, const ctf_type *t, int ind,
                       const details_scopes *sc)
{
    if (!t || !t->in_ir)
        return;
    indent(out, ind);
    tg_buf_printf(out, "%s field class: ", what);
    field_class(out, t, ind, sc, 0);
    tg_buf_putc(out, '\n');
}

static bool has_meaning(const ctf_type *t, ctf_meaning m)
{
    if (!t || t->kind != CTF_T_STRUCT)
        return false;
    for (size_t i = 0; i < t->n_fields; i++)
        if (t->fields[i].type->meaning == m)
            return true;
    return false;
}

static const char *const log_levels[15] = {
    "Emergency",      "Alert",        "Critical",         "Error",           "Warning",
    "Notice",         "Info",         "Debug (system)",   "Debug (program)", "Debug (process)",
    "Debug (module)", "Debug (unit)", "Debug (function)", "Debug (line)",    "Debug"};

static void yes_no(tg_buf *out, const char *what, bool v)
{
    tg_buf_printf(out, "    %s: %s\n", what, v ? "Yes" : "No");
}

static int cmp_event(const void *a, const void *b)
{
    const ctf_event_decl *x = *(const ctf_event_decl *const *)a,
                         *y = *(const ctf_event_decl *const *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* babeltrace2 takes an LTTng trace's clocks to count from the Unix epoch, whatever their
 * `absolute` says. */
static bool from_lttng(const ctf_meta *m)
{
    for (size_t i = 0; i < m->n_env; i++)
        if (!strcmp(m->env[i].key, "tracer_name") && !m->env[i].is_int && m->env[i].s &&
            !strncmp(m->env[i].s, "lttng", 5))
            return true;
    return false;
}

static void stream_class(tg_buf *out, const ctf_stream_decl *s, bool lttng)
{
    const ctf_type *pc = s->packet_context;
    const ctf_clock *ck = s->clock;
    bool tb = ck && has_meaning(pc, CTF_M_TS_BEGIN), te = ck && has_meaning(pc, CTF_M_TS_END);
    bool de = has_meaning(pc, CTF_M_DISCARDED), dp = has_meaning(pc, CTF_M_SEQ_NUM);
    tg_buf_printf(out, "  Stream class (ID %llu):\n", (unsigned long long)s->id);
    yes_no(out, "Supports packets", true);
    yes_no(out, "Packets have beginning default clock snapshot", tb);
    yes_no(out, "Packets have end default clock snapshot", te);
    yes_no(out, "Supports discarded events", de);
    if (de)
        yes_no(out, "Discarded events have default clock snapshots", tb && te);
    yes_no(out, "Supports discarded packets", dp);
    if (dp)
        yes_no(out, "Discarded packets have default clock snapshots", tb && te);
    if (ck) {
        tg_buf_puts(out, "    Default clock class:\n");
        tg_buf_printf(out, "      Name: %s\n", ck->name);
        if (ck->description)
            tg_buf_printf(out, "      Description: %s\n", ck->description);
        tg_buf_puts(out, "      Frequency (Hz): ");
        num(out, (int64_t)ck->freq, false);
        tg_buf_puts(out, "\n      Precision (cycles): ");
        num(out, (int64_t)ck->precision, false);
        tg_buf_puts(out, "\n      Offset (s): ");
        num(out, ck->offset_s, true);
        tg_buf_puts(out, "\n      Offset (cycles): ");
        num(out, (int64_t)ck->offset, false);
        tg_buf_printf(out, "\n      Origin is Unix epoch: %s\n",
                      ck->absolute || lttng ? "Yes" : "No");
        if (ck->has_uuid) {
            const uint8_t *u = ck->uuid;
            tg_buf_printf(out,
                          "      UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x"
                          "%02x%02x\n",
                          u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
                          u[12], u[13], u[14], u[15]);
        }
    }
    details_scopes sc = {{pc, s->event_context, NULL, NULL}};
    root_class(out, "Packet context", pc, 4, &sc);
    root_class(out, "Event common context", s->event_context, 4, &sc);
    const ctf_event_decl **ev = calloc(s->n_events ? s->n_events : 1, sizeof *ev);
    if (!ev)
        return;
    if (s->n_events)
        memcpy(ev, s->events, s->n_events * sizeof *ev);
    qsort(ev, s->n_events, sizeof *ev, cmp_event);
    for (size_t i = 0; i < s->n_events; i++) {
        const ctf_event_decl *e = ev[i];
        tg_buf_printf(out, "    Event class `%s` (ID %llu):\n", e->name, (unsigned long long)e->id);
        if (e->has_loglevel && e->loglevel >= 0 && e->loglevel < 15)
            tg_buf_printf(out, "      Log level: %s\n", log_levels[e->loglevel]);
        if (e->emf_uri)
            tg_buf_printf(out, "      EMF URI: %s\n", e->emf_uri);
        sc.root[2] = e->context;
        sc.root[3] = e->fields;
        root_class(out, "Specific context", e->context, 6, &sc);
        root_class(out, "Payload", e->fields, 6, &sc);
    }
    free(ev);
}

static int cmp_stream(const void *a, const void *b)
{
    const ctf_stream_decl *x = *(const ctf_stream_decl *const *)a,
                          *y = *(const ctf_stream_decl *const *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

int ctf_details_render(const tg_trace *t, tg_buf *out)
{
    const ctf_trace *tr = t->priv;
    const ctf_meta *m = &tr->meta;
    tg_buf_puts(out, "Trace class:\n");
    const ctf_stream_decl **s = calloc(m->n_streams ? m->n_streams : 1, sizeof *s);
    if (!s)
        return TG_ERR_NOMEM;
    if (m->n_streams)
        memcpy(s, m->streams, m->n_streams * sizeof *s);
    qsort(s, m->n_streams, sizeof *s, cmp_stream);
    for (size_t i = 0; i < m->n_streams; i++)
        stream_class(out, s[i], from_lttng(m));
    free(s);
    return 1;
}

/* ---- an event's fields ------------------------------------------------------------------ */

static void value(tg_buf *out, const tg_value *v, int ind, int depth, ctf_dstream *ds);

static void members(tg_buf *out, const tg_value *v, int ind, int depth, bool elements,
                    ctf_dstream *ds)
{
    for (size_t i = 0; i < v->count; i++) {
        tg_value c;
        if (tg_value_child(v, i, &c) != 0)
            continue;
        tg_buf_putc(out, '\n');
        indent(out, ind);
        if (elements) {
            tg_buf_putc(out, '[');
            num(out, (int64_t)i, false);
            tg_buf_puts(out, "]:");
        } else {
            tg_buf_printf(out, "%s:", c.name ? c.name : "");
        }
        value(out, &c, ind, depth + 1, ds);
    }
}

static void integer(tg_buf *out, uint64_t abs, bool neg, unsigned base)
{
    char b[48];
    tg_buf_putc(out, ' ');
    tg_buf_put(out, b, tg_digits_grouped(b, abs, neg, base ? base : 10));
}

/* A value after its "name:" (at indentation ind), without the line's end. */
static void value(tg_buf *out, const tg_value *v, int ind, int depth, ctf_dstream *ds)
{
    if (depth > CTF_MAX_NESTING)
        return;
    switch (v->type) {
    case TG_VAL_SINT:
        integer(out, v->v.s < 0 ? (uint64_t)0 - (uint64_t)v->v.s : (uint64_t)v->v.s, v->v.s < 0,
                v->base);
        return;
    case TG_VAL_UINT: integer(out, v->v.u, false, v->base); return;
    case TG_VAL_FLOAT: tg_buf_printf(out, " %f", v->v.f); return;
    case TG_VAL_STRING:
    case TG_VAL_BYTES: {
        size_t n = strnlen(v->v.str.ptr, v->v.str.len);
        tg_buf_putc(out, ' ');
        if (n) {
            tg_buf_put(out, v->v.str.ptr, n);
            return;
        }
        /* a text that decodes empty: what babeltrace2's recycled field still holds */
        const ctf_step *st = ctf_value_step(v);
        const ctf_quirk *q = st ? ctf_quirk_find(ds, st) : NULL;
        if (q)
            tg_buf_put(out, q->s, strnlen(q->s, q->len));
        return;
    }
    case TG_VAL_ARRAY:
    case TG_VAL_SEQUENCE:
        if (!v->count) {
            tg_buf_puts(out, " Empty");
            return;
        }
        tg_buf_puts(out, " Length ");
        num(out, (int64_t)v->count, false);
        tg_buf_putc(out, ':');
        members(out, v, ind + 2, depth, true, ds);
        return;
    case TG_VAL_STRUCT:
        if (!v->count) {
            tg_buf_puts(out, " Empty");
            return;
        }
        members(out, v, ind + 2, depth, false, ds);
        return;
    case TG_VAL_VARIANT: {
        tg_value c;
        if (v->count && tg_value_child(v, 0, &c) == 0)
            value(out, &c, ind, depth + 1, ds);
        return;
    }
    case TG_VAL_NONE: return;
    }
}

/* "  What:" and the scope's fields, or "  What: Empty"; nothing when the scope is absent. */
static void scope(tg_buf *out, const tg_event *ev, tg_scope sc, const char *what,
                  const ctf_type *decl, ctf_dstream *ds)
{
    if (!decl || !decl->in_ir)
        return;
    size_t n = ctf_field_count(ev, sc);
    tg_buf_printf(out, "  %s:", what);
    if (!n) {
        tg_buf_puts(out, " Empty\n");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        tg_value v;
        if (ctf_field_get(ev, sc, i, &v) != 0)
            continue;
        tg_buf_puts(out, "\n    ");
        tg_buf_printf(out, "%s:", v.name ? v.name : "");
        value(out, &v, 4, 0, ds);
    }
    tg_buf_putc(out, '\n');
}

int ctf_details_event(const tg_event *ev, tg_buf *out)
{
    if (!ev->stream || ev->stream->ops != &ctf_stream_ops)
        return 0;
    ctf_dstream *ds = ev->stream->priv;
    if (ev->cls && ev->cls->kind == TG_KIND_PACKET_BEGIN) {
        if (ctf_field_count(ev, TG_SCOPE_PACKET_CONTEXT))
            scope(out, ev, TG_SCOPE_PACKET_CONTEXT, "Context", ds->sc->packet_context, ds);
        return 1;
    }
    const ctf_event_decl *e = ev->auxp;
    if (!e)
        return 0;
    scope(out, ev, TG_SCOPE_STREAM_CONTEXT, "Common context", ds->sc->event_context, ds);
    scope(out, ev, TG_SCOPE_EVENT_CONTEXT, "Specific context", e->context, ds);
    scope(out, ev, TG_SCOPE_PAYLOAD, "Payload", e->fields, ds);
    return 1;
}
