/* ctf_tsdl.c - field types written as TSDL (CTF 1.8's metadata language).
 *
 * Every type is written inline at its use, with all its attributes spelled out (size,
 * alignment, signedness, byte order, base, encoding), so the metadata needs no typealias
 * and says exactly what the encoder wrote.  Arrays and sequences use C declarators after
 * the member name: "integer {...} name[4][_name_length]" (outer dimension first).
 *
 * Variant tags and sequence lengths are written relative ("tag", not "event.fields.tag"):
 * babeltrace2's TSDL parser takes one identifier as a variant's tag, and a scope keyword
 * ("event", "stream") cannot start it.  A relative name is looked up from the field
 * outwards, and the readers' absolute paths (CTF 2 field locations) name fields of the same
 * scope. */
#include "writers/ctf/ctf_writer.h"

#include <inttypes.h>
#include <string.h>

static void indent_to(tg_buf *b, int n) { tg_buf_pad(b, ' ', 4 * n); }

static int is_keyword(const char *s)
{
    static const char *const kw[] = {
        "align",   "callsite", "const",          "char",   "clock",   "double",   "enum",
        "env",     "event",    "floating_point", "float",  "integer", "int",      "long",
        "short",   "signed",   "stream",         "string", "struct",  "trace",    "typealias",
        "typedef", "unsigned", "variant",        "void",   "_Bool",   "_Complex", "_Imaginary"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strcmp(s, kw[i]) == 0)
            return 1;
    return 0;
}

void cw_tsdl_identifier(char *out, size_t size, const char *name)
{
    size_t k = 0;
    if (!name)
        name = "";
    if ((name[0] >= '0' && name[0] <= '9') || !name[0])
        out[k++] = '_';
    for (; *name && k + 2 < size; name++) {
        char c = *name;
        int ok =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        out[k++] = ok ? c : '_';
    }
    out[k] = 0;
    if (is_keyword(out) && k + 1 < size) {
        out[k++] = '_';
        out[k] = 0;
    }
}

void cw_tsdl_quoted(tg_buf *b, const char *s)
{
    tg_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            tg_buf_putc(b, '\\');
        if (*s == '\n') {
            tg_buf_puts(b, "\\n");
            continue;
        }
        tg_buf_putc(b, *s);
    }
    tg_buf_putc(b, '"');
}

static void put_int(tg_buf *b, const tg_field_type *t)
{
    tg_buf_printf(b, "integer { size = %u; align = %u; signed = %s; byte_order = %s; base = %u;",
                  t->bits, t->align ? t->align : 1, t->is_signed ? "true" : "false",
                  t->byte_order == 2 ? "be" : "le", t->base ? t->base : 10);
    if (t->encoding)
        tg_buf_puts(b, t->encoding == 2 ? " encoding = ASCII;" : " encoding = UTF8;");
    tg_buf_puts(b, " }");
}

static void put_type(tg_buf *b, const tg_field_type *t, int indent);

/* ref without its scope prefix ("event.fields.x.len" -> "x.len") */
static const char *relative_ref(const char *ref)
{
    static const char *const scopes[] = {"trace.packet.header.", "stream.packet.context.",
                                         "stream.event.header.", "stream.event.context.",
                                         "event.context.",       "event.fields."};
    if (!ref)
        return "";
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++) {
        size_t n = strlen(scopes[i]);
        if (strncmp(ref, scopes[i], n) == 0)
            return ref + n;
    }
    return ref;
}

static void put_enum(tg_buf *b, const tg_field_type *t, int indent)
{
    tg_buf_puts(b, "enum : ");
    put_int(b, t);
    tg_buf_puts(b, " {\n");
    for (size_t i = 0; i < t->n_mappings; i++) {
        const tg_enum_mapping *m = &t->mappings[i];
        indent_to(b, indent + 1);
        cw_tsdl_quoted(b, m->label);
        if (t->is_signed)
            tg_buf_printf(b, " = %" PRId64, m->lo);
        else
            tg_buf_printf(b, " = %" PRIu64, (uint64_t)m->lo);
        if (m->hi != m->lo) {
            if (t->is_signed)
                tg_buf_printf(b, " ... %" PRId64, m->hi);
            else
                tg_buf_printf(b, " ... %" PRIu64, (uint64_t)m->hi);
        }
        tg_buf_puts(b, i + 1 < t->n_mappings ? ",\n" : "\n");
    }
    indent_to(b, indent);
    tg_buf_putc(b, '}');
}

static void put_members(tg_buf *b, const tg_field_type *t, int indent)
{
    tg_buf_puts(b, "{\n");
    for (size_t i = 0; i < t->n_members; i++) {
        indent_to(b, indent + 1);
        cw_tsdl_member(b, t->members[i].type, t->members[i].decl_name, indent + 1);
        tg_buf_puts(b, ";\n");
    }
    indent_to(b, indent);
    tg_buf_putc(b, '}');
}

void cw_tsdl_struct(tg_buf *b, const tg_field_type *st, int indent)
{
    tg_buf_puts(b, "struct ");
    put_members(b, st, indent);
    if (st->align > 1)
        tg_buf_printf(b, " align(%u)", st->align);
}

static void put_type(tg_buf *b, const tg_field_type *t, int indent)
{
    switch (t->kind) {
    case TG_FT_INT: put_int(b, t); break;
    case TG_FT_ENUM:
        if (t->n_mappings)
            put_enum(b, t, indent);
        else
            put_int(b, t);
        break;
    case TG_FT_FLOAT:
        tg_buf_printf(b,
                      "floating_point { exp_dig = %u; mant_dig = %u; align = %u; "
                      "byte_order = %s; }",
                      t->exp_dig, t->mant_dig, t->align ? t->align : 1,
                      t->byte_order == 2 ? "be" : "le");
        break;
    case TG_FT_STRING:
        tg_buf_puts(b, t->encoding == 2 ? "string { encoding = ASCII; }" : "string");
        break;
    case TG_FT_STRUCT: cw_tsdl_struct(b, t, indent); break;
    case TG_FT_VARIANT:
        tg_buf_printf(b, "variant <%s> ", relative_ref(t->ref));
        put_members(b, t, indent);
        break;
    case TG_FT_ARRAY:
    case TG_FT_SEQUENCE:
        put_type(b, t->element, indent); /* not reached for the outer level */
        break;
    }
}

void cw_tsdl_member(tg_buf *b, const tg_field_type *t, const char *decl_name, int indent)
{
    const tg_field_type *base = t;
    while (base->kind == TG_FT_ARRAY || base->kind == TG_FT_SEQUENCE)
        base = base->element;
    put_type(b, base, indent);
    tg_buf_putc(b, ' ');
    tg_buf_puts(b, decl_name);
    for (const tg_field_type *d = t; d->kind == TG_FT_ARRAY || d->kind == TG_FT_SEQUENCE;
         d = d->element) {
        if (d->kind == TG_FT_ARRAY)
            tg_buf_printf(b, "[%" PRIu64 "]", d->length);
        else
            tg_buf_printf(b, "[%s]", relative_ref(d->ref));
    }
}
