/* ctf_metadata.c - the TSDL metadata of one output CTF trace.
 *
 * Written last, when every class and enumeration label has been seen: the trace block
 * (uuid, byte order, LTTng's packet header), the env block, the clock class, then the
 * stream classes and event classes of this trace.
 *
 * The env block carries the input's environment: every key/value of the input's env (CTF:
 * its env block, as it was; other formats: their own keys, made TSDL identifiers), then the
 * keys LTTng writes that babeltrace2 and Trace Compass read (hostname, domain, tracer name
 * and version, kernel, process), from the trace's typed attributes, where the input's env
 * does not already have them. */
#include "writers/ctf/ctf_writer.h"
#include "writers/dir_output.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_uuid(tg_buf *b, const uint8_t *u)
{
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            tg_buf_putc(b, '-');
        tg_buf_printf(b, "%02x", u[i]);
    }
}

/* ---- env ---------------------------------------------------------------------------------- */

typedef struct env_out {
    tg_buf *b;
    char (*keys)[64]; /* written so far */
    size_t n, cap;
} env_out;

static int env_has(const env_out *e, const char *key)
{
    for (size_t i = 0; i < e->n; i++)
        if (strcmp(e->keys[i], key) == 0)
            return 1;
    return 0;
}

/* Writes key = value (a string, or the integer when is_int); a key already written is
 * skipped (the first one stays). */
static void env_put(env_out *e, const char *key, const char *str, int is_int, int64_t i)
{
    char id[64];
    cw_tsdl_identifier(id, sizeof id, key);
    if (env_has(e, id))
        return;
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 32;
        char(*k)[64] = realloc(e->keys, cap * sizeof *k);
        if (!k)
            return; /* out of memory: the key is written, duplicates are no longer caught */
        e->keys = k;
        e->cap = cap;
    }
    if (e->n < e->cap)
        memcpy(e->keys[e->n++], id, sizeof id);
    tg_buf_printf(e->b, "    %s = ", id);
    if (is_int)
        tg_buf_printf(e->b, "%" PRId64, i);
    else
        cw_tsdl_quoted(e->b, str ? str : "");
    tg_buf_puts(e->b, ";\n");
}

/* "3.1.6" -> 3, 1, 6 (-1 for parts not there) */
static void version_parts(const char *v, int64_t part[3])
{
    part[0] = part[1] = part[2] = -1;
    for (int i = 0; i < 3 && v && *v >= '0' && *v <= '9'; i++) {
        char *end;
        part[i] = strtoll(v, &end, 10);
        v = *end == '.' ? end + 1 : NULL;
    }
}

void cw_tsdl_env(tg_buf *b, const tg_trace *t)
{
    env_out e = {.b = b};
    tg_buf_puts(b, "env {\n");
    for (size_t i = 0; i < tg_trace_env_count(t); i++) {
        const tg_env_entry *en = tg_trace_env(t, i);
        env_put(&e, en->key, en->value, en->is_integer, en->integer);
    }
    const tg_host_info *h = tg_trace_host(t);
    const tg_tracer_info *tr = tg_trace_tracer(t);
    const tg_process_info *p = tg_trace_process(t);
    if (h->hostname)
        env_put(&e, "hostname", h->hostname, 0, 0);
    /* LTTng's domain, by which Trace Compass tells kernel traces from user-space ones */
    const char *format = tg_trace_format(t);
    if (format && strcmp(format, "ctf") != 0)
        env_put(&e, "domain", strcmp(format, "ftrace") == 0 ? "kernel" : "ust", 0, 0);
    if (tr->name) {
        int64_t v[3];
        version_parts(tr->version, v);
        env_put(&e, "tracer_name", tr->name, 0, 0);
        const char *names[3] = {"tracer_major", "tracer_minor", "tracer_patchlevel"};
        for (int i = 0; i < 3; i++)
            if (v[i] >= 0)
                env_put(&e, names[i], NULL, 1, v[i]);
    }
    if (h->kernel) {
        const char *sp = strchr(h->kernel, ' ');
        if (sp) {
            char sys[64];
            size_t n =
                (size_t)(sp - h->kernel) < sizeof sys ? (size_t)(sp - h->kernel) : sizeof sys - 1;
            memcpy(sys, h->kernel, n);
            sys[n] = 0;
            env_put(&e, "sysname", sys, 0, 0);
            env_put(&e, "kernel_release", sp + 1, 0, 0);
        } else {
            env_put(&e, "kernel_release", h->kernel, 0, 0);
        }
    }
    if (h->word_bits)
        env_put(&e, "architecture_bit_width", NULL, 1, h->word_bits);
    if (p->name)
        env_put(&e, "procname", p->name, 0, 0);
    if (p->pid >= 0)
        env_put(&e, "vpid", NULL, 1, p->pid);
    tg_buf_puts(b, "};\n\n");
    free(e.keys);
}

/* ---- clock -------------------------------------------------------------------------------- */

static void put_clock(tg_buf *b, const cw_clock *c)
{
    tg_buf_printf(b, "clock {\n    name = %s;\n    uuid = \"", c->name);
    put_uuid(b, c->uuid);
    tg_buf_puts(b, "\";\n");
    if (c->description) {
        tg_buf_puts(b, "    description = ");
        cw_tsdl_quoted(b, c->description);
        tg_buf_puts(b, ";\n");
    }
    tg_buf_printf(b,
                  "    freq = %" PRIu64 ";\n    precision = %" PRIu64 ";\n"
                  "    offset_s = %" PRId64 ";\n    offset = %" PRIu64 ";\n};\n\n",
                  c->freq, c->precision, c->offset_s, c->offset_cycles);
}

/* ---- the file ----------------------------------------------------------------------------- */

static void put_struct_members(tg_buf *b, const tg_field_type *st)
{
    for (size_t i = 0; st && i < st->n_members; i++) {
        tg_buf_puts(b, "        ");
        cw_tsdl_member(b, st->members[i].type, st->members[i].decl_name, 2);
        tg_buf_puts(b, ";\n");
    }
}

static void put_stream_class(tg_buf *b, const cw_otrace *tr, const cw_sclass *sc)
{
    const char *u64 =
        "integer { size = 64; align = 8; signed = false; byte_order = le; base = 10; }";
    char clk[256] = "";
    if (tr->has_clock)
        snprintf(clk, sizeof clk,
                 "integer { size = 64; align = 8; signed = false; byte_order = le; base = 10; "
                 "map = clock.%s.value; }",
                 tr->clock.name);
    tg_buf_printf(b, "stream {\n    id = %u;\n    packet.context := struct {\n", sc->id);
    if (tr->has_clock)
        tg_buf_printf(b, "        %s timestamp_begin;\n        %s timestamp_end;\n", clk, clk);
    tg_buf_printf(b,
                  "        %s content_size;\n        %s packet_size;\n"
                  "        %s packet_seq_num;\n        %s events_discarded;\n",
                  u64, u64, u64, u64);
    put_struct_members(b, sc->pctx);
    tg_buf_puts(b, "    } align(8);\n    event.header := struct {\n"
                   "        integer { size = 32; align = 8; signed = false; byte_order = le; base "
                   "= 10; } id;\n");
    if (tr->has_clock)
        tg_buf_printf(b, "        %s timestamp;\n", clk);
    tg_buf_puts(b, "    } align(8);\n");
    if (sc->sctx) {
        tg_buf_puts(b, "    event.context := ");
        cw_tsdl_struct(b, sc->sctx, 1);
        tg_buf_puts(b, ";\n");
    }
    tg_buf_puts(b, "};\n\n");
}

static void put_event_class(tg_buf *b, const cw_class *c)
{
    tg_buf_puts(b, "event {\n    name = ");
    cw_tsdl_quoted(b, c->name ? c->name : tg_event_class_name(c->in));
    tg_buf_printf(b, ";\n    id = %u;\n    stream_id = %u;\n", c->id, c->sc->id);
    if (c->ectx) {
        tg_buf_puts(b, "    context := ");
        cw_tsdl_struct(b, c->ectx, 1);
        tg_buf_puts(b, ";\n");
    }
    if (c->payload) {
        tg_buf_puts(b, "    fields := ");
        cw_tsdl_struct(b, c->payload, 1);
        tg_buf_puts(b, ";\n");
    }
    tg_buf_puts(b, "};\n\n");
}

int cw_write_metadata(const cw_otrace *tr, cw_class *const *classes, size_t n_classes,
                      tg_error **err)
{
    tg_buf *b = tg_buf_new();
    if (!b)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    tg_buf_puts(b, "/* CTF 1.8 */\n\n"
                   "/* written by traceglot " TG_VERSION_STRING " */\n\n"
                   "trace {\n    major = 1;\n    minor = 8;\n    uuid = \"");
    put_uuid(b, tr->uuid);
    tg_buf_puts(b, "\";\n    byte_order = le;\n    packet.header := struct {\n"
                   "        integer { size = 32; align = 8; signed = false; byte_order = le; base "
                   "= 16; } magic;\n"
                   "        integer { size = 8; align = 8; signed = false; byte_order = le; base = "
                   "16; } uuid[16];\n"
                   "        integer { size = 32; align = 8; signed = false; byte_order = le; base "
                   "= 10; } stream_id;\n"
                   "        integer { size = 64; align = 8; signed = false; byte_order = le; base "
                   "= 10; } stream_instance_id;\n"
                   "    } align(8);\n};\n\n");
    if (tr->perf)
        cw_perf_env(b, tr->in);
    else
        cw_tsdl_env(b, tr->in);
    if (tr->has_clock)
        put_clock(b, &tr->clock);
    for (size_t i = 0; i < tr->n_sclasses; i++)
        put_stream_class(b, tr, tr->sclasses[i]);
    for (size_t i = 0; i < n_classes; i++)
        if (classes[i]->sc->tr == tr)
            put_event_class(b, classes[i]);
    int rc = tg_dir_file_put(tr->dir, "metadata", tg_buf_data(b), tg_buf_len(b), err);
    tg_buf_free(b);
    return rc;
}
