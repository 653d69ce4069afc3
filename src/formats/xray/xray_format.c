/* xray_format.c - the LLVM XRay log format object: header check, probe, open, describe.
 *
 * The 32-byte file header says which of the two log layouts follows (type 0: basic mode,
 * fixed 32-byte records; type 1: FDR mode, thread buffers of metadata and function records)
 * and the TSC frequency that turns cycle counts into nanoseconds.  Open maps the file, loads
 * the instrumentation map of the binary named by option "instr-map" (when given), and hands
 * the records to the basic or FDR indexer, which add the streams.  The event fields, the
 * function names and the shared classes live here because both layouts use them. */
#include "formats/xray/xray_internal.h"

#include "io/byte_reader.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

int xray_header_parse(const uint8_t *p, size_t n, xray_header *h, const char **why)
{
    if (n < XRAY_HEADER_SIZE) {
        *why = "file shorter than the 32-byte XRay header";
        return TG_ERR_FORMAT;
    }
    memset(h, 0, sizeof *h);
    h->version = tg_le16(p);
    h->type = tg_le16(p + 2);
    uint32_t bits = tg_le32(p + 4);
    h->constant_tsc = bits & 1u;
    h->nonstop_tsc = (bits >> 1) & 1u;
    h->cycle_frequency = tg_le64(p + 8);
    h->fdr_buffer_size = tg_le64(p + 16);
    if (h->type == 0 && (h->version < 1 || h->version > 3)) {
        *why = "unsupported basic-mode log version (1-3 are known)";
        return TG_ERR_UNSUPPORTED;
    }
    if (h->type == 1 && (h->version < 1 || h->version > 5)) {
        *why = "unsupported FDR log version (1-5 are known)";
        return TG_ERR_UNSUPPORTED;
    }
    if (h->type > 1) {
        *why = "unknown log type (0 basic, 1 FDR)";
        return TG_ERR_FORMAT;
    }
    return 0;
}

static int xray_probe(const tg_probe_input *in)
{
    if (in->is_dir || in->head_len < XRAY_HEADER_SIZE)
        return 0;
    xray_header h;
    const char *why;
    if (xray_header_parse(in->head, in->head_len, &h, &why) < 0)
        return 0;
    /* Four bytes of version/type are weak evidence; the rest of the header and the first
     * record make it strong. */
    int score = 30;
    if ((tg_le32(in->head + 4) & ~3u) == 0 || h.type == 0)
        score += 10;
    if (h.cycle_frequency >= 1000000u && h.cycle_frequency <= 100000000000ull)
        score += 30;
    if (h.type == 1 && in->head_len > XRAY_HEADER_SIZE) {
        uint8_t b = in->head[XRAY_HEADER_SIZE];
        if ((b & 1) && ((b >> 1) == 7 || (b >> 1) == 0))
            score += 20;
    } else if (h.type == 0 && in->head_len >= XRAY_HEADER_SIZE + 4) {
        if (tg_le16(in->head + XRAY_HEADER_SIZE) <= 1 && in->head[XRAY_HEADER_SIZE + 3] <= 3)
            score += 20;
    }
    const char *dot = strrchr(in->path, '.');
    if (dot && strcmp(dot, ".xray") == 0)
        score += 15;
    else if (strstr(in->path, "xray-log."))
        score += 15;
    return score > 100 ? 100 : score;
}

static const char *const xray_kind_names[XRAY_REC_KINDS] = {
    "function-enter",     "function-exit", "function-tail-exit",
    "function-enter-arg", "custom-event",  "typed-event",
};

static const tg_event_kind xray_kind_map[XRAY_REC_KINDS] = {
    TG_KIND_FUNC_ENTRY, TG_KIND_FUNC_EXIT, TG_KIND_FUNC_TAIL_EXIT,
    TG_KIND_FUNC_ENTRY, TG_KIND_GENERIC,   TG_KIND_GENERIC,
};

/* The traced program: the instrumented binary given, else the NAME compiler-rt's runtime puts
 * in the log's file name (xray-log.NAME.XXXXXX); unknown when the file was renamed. */
static int set_program(tg_trace *t, const char *path, const char *binary)
{
    tg_process_info p = {.pid = -1, .executable = binary};
    char name[256];
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *last = strrchr(base, '.');
    if (!strncmp(base, "xray-log.", 9) && last && last > base + 9 &&
        (size_t)(last - base - 9) < sizeof name) {
        memcpy(name, base + 9, (size_t)(last - base - 9));
        name[last - base - 9] = 0;
        p.name = name;
    }
    if (binary && !p.name) {
        const char *slash = strrchr(binary, '/');
        p.name = slash ? slash + 1 : binary;
    }
    return p.name || p.executable ? tg_trace_set_process(t, &p) : 0;
}

static int xray_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    xray_file *xf = calloc(1, sizeof *xf);
    if (!xf)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = xf;
    TG_TRY(tg_map_open(&xf->map, path, err));
    const char *why = NULL;
    int rc = xray_header_parse(xf->map.data, xf->map.size, &xf->hdr, &why);
    if (rc < 0)
        return tg_err_at(err, rc, path, 0, "%s", why);

    char ver[16];
    snprintf(ver, sizeof ver, "%u", (unsigned)xf->hdr.version);
    tg_trace_set_version(t, ver);
    if (xray_attrs_fill(t, xf) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    for (int k = 0; k < XRAY_REC_KINDS; k++) {
        xf->cls[k] = tg_trace_add_class(t, xray_kind_names[k], (uint64_t)k, xray_kind_map[k]);
        if (!xf->cls[k])
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }

    const char *bin = opts ? tg_options_get(opts, "instr-map") : NULL;
    if (bin && *bin) {
        TG_TRY(xray_instr_map_load(&xf->imap, bin, &t->arena, err));
        xf->have_imap = true;
        xf->imap_path = tg_arena_strdup(&t->arena, bin);
    }
    TG_TRY(set_program(t, path, xf->have_imap ? xf->imap_path : NULL));
    if (xf->hdr.type == 0) {
#ifdef MADV_POPULATE_READ
        /* a basic log's threads are read in runs all over the file: fault its pages in one
         * call, not 4 KB at a time (a hint only: older kernels refuse it).  An FDR log's
         * index walk and blocks go through read windows instead. */
        if (xf->map.size > (1u << 20)) {
            uintptr_t a = (uintptr_t)xf->map.data & ~(uintptr_t)4095;
            (void)madvise((void *)a, xf->map.size + ((uintptr_t)xf->map.data - a),
                          MADV_POPULATE_READ);
        }
#endif
        return xray_basic_open(t, xf, err);
    }
    return xray_fdr_open(t, xf, err);
}

/* The header in llvm-xray's YAML key order, so that printers of that style (and `traceglot
 * info`) can show it. */
static int xray_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    (void)err;
    const xray_file *xf = t->priv;
    tg_buf_puts(out, "version:         ");
    tg_buf_u64(out, xf->hdr.version);
    tg_buf_puts(out, "\ntype:            ");
    tg_buf_u64(out, xf->hdr.type);
    tg_buf_puts(out, xf->hdr.constant_tsc ? "\nconstant-tsc:    true" : "\nconstant-tsc:    false");
    tg_buf_puts(out, xf->hdr.nonstop_tsc ? "\nnonstop-tsc:     true" : "\nnonstop-tsc:     false");
    tg_buf_puts(out, "\ncycle-frequency: ");
    tg_buf_u64(out, xf->hdr.cycle_frequency);
    tg_buf_putc(out, '\n');
    return 0;
}

static void xray_close(tg_trace *t)
{
    xray_file *xf = t->priv;
    if (!xf)
        return;
    tg_map_close(&xf->map);
    tg_error_free(xf->open_errors);
    xray_instr_map_free(&xf->imap);
    tg_hash_free(&xf->unknown);
    free(xf);
    t->priv = NULL;
}

static const tg_option_decl xray_options[] = {
    {"instr-map", TG_OPT_TEXT, NULL, "XRay: the instrumented binary (its xray_instr_map)",
     "BINARY"},
    {0},
};

/* llvm-xray's texts of an instrumented binary: `llvm-xray extract [-s [--no-demangle]]`;
 * of a log's raw records: `llvm-xray fdr-dump`. */
static int xray_render_file(const char *path, const char *part, tg_buf *out, tg_error **err)
{
    static const char base[] = "llvm-xray-extract";
    if (strcmp(part, "llvm-xray-fdr-dump") == 0) {
        int rc = xray_fdr_dump(path, out, err);
        return rc < 0 ? rc : 1;
    }
    if (strncmp(part, base, sizeof base - 1) != 0)
        return 0;
    const char *rest = part + sizeof base - 1;
    bool symbolize = !strcmp(rest, "-symbolize"), mangled = !strcmp(rest, "-symbolize-mangled");
    if (*rest && !symbolize && !mangled)
        return 0;
    int rc = xray_extract_yaml(path, symbolize || mangled, !mangled, out, err);
    return rc < 0 ? rc : 1;
}

TG_FORMAT(xray) = {
    .name = "xray",
    .options = xray_options,
    .probe = xray_probe,
    .open = xray_open,
    .describe = xray_describe,
    .render_file = xray_render_file,
    .close = xray_close,
};

/* ---- function names ------------------------------------------------------------------- */

/* The instrumented binary the map came from, for the functions it lists. */
const char *xray_event_func_module(const tg_event *ev)
{
    const xray_file *xf = ev->stream->trace->priv;
    int64_t id = (int64_t)ev->addr;
    return id > 0 && (uint64_t)id < xf->imap.n_funcs && xf->imap.funcs[id].name ? xf->imap_path
                                                                                : NULL;
}

const char *xray_event_func_name(const tg_event *ev)
{
    tg_trace *t = ev->stream->trace;
    xray_file *xf = t->priv;
    int64_t id = (int64_t)ev->addr;
    if (id > 0 && (uint64_t)id < xf->imap.n_funcs && xf->imap.funcs[id].name)
        return xf->imap.funcs[id].name;
    /* "#ID" for ids outside the map, kept once per id in core's hash table */
    uint64_t *name;
    int added = tg_hash_insert(&xf->unknown, (uint64_t)id, &name);
    if (added < 0)
        return NULL;
    if (!added)
        return (const char *)(uintptr_t)*name;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "#%" PRId64, id);
    char *s = tg_arena_strdup(&t->arena, tmp);
    if (!s) {
        tg_hash_remove(&xf->unknown, (uint64_t)id);
        return NULL;
    }
    *name = (uintptr_t)s;
    return s;
}

/* ---- payload fields --------------------------------------------------------------------- */

enum { F_TSC, F_TYPE, F_FUNC_ID, F_ARGS, F_DATA, F_LOCATION, F_COUNT };
static const char *const xray_field_names[F_COUNT] = {
    "tsc", "type", "func-id", "args", "data", "location",
};

size_t xray_field_count(const tg_event *ev, tg_scope scope)
{
    (void)ev;
    return scope == TG_SCOPE_PAYLOAD ? F_COUNT : 0;
}

static int xray_arg_child(const tg_value *v, size_t i, tg_value *out)
{
    const uint8_t *base = v->ctx[0];
    size_t stride = (size_t)(uintptr_t)v->ctx[1];
    size_t off = (size_t)(uintptr_t)v->ctx[2];
    memset(out, 0, sizeof *out);
    out->type = TG_VAL_UINT;
    out->bits = 64;
    out->base = 10;
    out->v.u = tg_le64(base + i * stride + off);
    return 0;
}

static const struct tg_value_ops xray_arg_ops = {.child = xray_arg_child};

int xray_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out)
{
    if (scope != TG_SCOPE_PAYLOAD || i >= F_COUNT)
        return TG_ERR_USAGE;
    const xray_file *xf = ev->stream->trace->priv;
    memset(out, 0, sizeof *out);
    out->name = xray_field_names[i];
    out->base = 10;
    switch (i) {
    case F_TSC:
        out->type = TG_VAL_UINT;
        out->bits = 64;
        out->v.u = ev->aux[XRAY_AUX_TSC];
        break;
    case F_TYPE:
        out->type = TG_VAL_UINT;
        out->bits = 16;
        out->v.u = ev->aux[XRAY_AUX_TYPE];
        break;
    case F_FUNC_ID:
        out->type = TG_VAL_SINT;
        out->bits = 32;
        out->v.s = (int64_t)ev->addr;
        out->flags = TG_VALF_SYMBOLIC;
        out->label = xray_event_func_name(ev);
        break;
    case F_ARGS: {
        uint64_t k = ev->aux[XRAY_AUX_KIND];
        out->type = TG_VAL_ARRAY;
        out->count = (k == XRAY_REC_CUSTOM || k == XRAY_REC_TYPED) ? 0 : ev->aux[XRAY_AUX_NARGS];
        out->ops = &xray_arg_ops;
        out->ctx[0] = ev->data;
        /* basic logs: 32-byte argument records, value at +16; FDR: 16-byte CallArgument
         * metadata records, value at +1. */
        out->ctx[1] =
            (const void *)(uintptr_t)(xf->hdr.type == 0 ? XRAY_BASIC_RECORD : XRAY_FDR_META);
        out->ctx[2] = (const void *)(uintptr_t)(xf->hdr.type == 0 ? 16u : 1u);
        break;
    }
    case F_DATA: {
        uint64_t k = ev->aux[XRAY_AUX_KIND];
        out->type = TG_VAL_BYTES;
        if (k == XRAY_REC_CUSTOM || k == XRAY_REC_TYPED) {
            out->v.str.ptr = (const char *)ev->data;
            out->v.str.len = ev->size;
        } else {
            out->v.str.ptr = "";
            out->v.str.len = 0;
        }
        break;
    }
    case F_LOCATION: {
        const char *loc = xray_func_location(xf->have_imap ? &xf->imap : NULL, (int64_t)ev->addr);
        out->type = TG_VAL_STRING;
        out->v.str.ptr = loc;
        out->v.str.len = strlen(loc);
        break;
    }
    }
    return 0;
}
