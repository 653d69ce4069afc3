/* perf_file.c - the perf.data format object: header check, probe, open, attributes.
 *
 * The header (struct perf_file_header of tools/perf/util/header.h) starts with the magic
 * "PERFILE2" as a little-endian u64; a big-endian writer's file shows it byte-swapped, which
 * is how the byte order of everything else is known.  A 104-byte header (file mode) then
 * gives attr_size and the attrs, data and event_types sections and the feature bitmap; a
 * 16-byte header means pipe mode, where attributes come as HEADER_ATTR records.  An
 * attribute is a perf_event_attr of its own declared size (the reader reads the fields it
 * knows and ignores a newer perf's tail), followed in file mode by the section of its ids. */
#include "formats/perf/perf_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERF_MAGIC2 0x32454c4946524550ull /* "PERFILE2" */
#define PERF_FILE_HEADER 104
#define PERF_PIPE_HEADER 16
#define PERF_ATTR_MIN 64 /* PERF_ATTR_SIZE_VER0 */

static int perf_probe(const tg_probe_input *in)
{
    if (in->is_dir || in->head_len < 16)
        return 0;
    uint64_t m = tg_le64(in->head);
    if (m != PERF_MAGIC2 && m != __builtin_bswap64(PERF_MAGIC2))
        return 0;
    uint64_t size = m == PERF_MAGIC2 ? tg_le64(in->head + 8) : tg_be64(in->head + 8);
    return size == PERF_FILE_HEADER || size == PERF_PIPE_HEADER ? 100 : 60;
}

/* A big-endian writer lays the attribute's bit fields out from the top bit of each byte:
 * perf reverses the bits of each byte (swap_bitfield) and reads them as its own. */
static uint64_t attr_flags(const perf_file *pf, const uint8_t *p)
{
    if (!pf->big_endian)
        return tg_le64(p);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t b = p[i], r = 0;
        for (int k = 0; k < 8; k++)
            r |= (uint8_t)(((b >> k) & 1u) << (7 - k));
        v |= (uint64_t)r << (8 * i);
    }
    return v;
}

int perf_attr_add(perf_file *pf, const uint8_t *p, size_t n, uint64_t off, tg_error **err)
{
    if (n < PERF_ATTR_MIN)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, off,
                         "event attribute of %zu bytes (at least %d expected)", n, PERF_ATTR_MIN);
    if (pf->n_attrs >= 4096)
        return tg_err_at(err, TG_ERR_LIMIT, pf->path, off, "more than 4096 event attributes");
    TG_TRY(tg_grow(&pf->attrs, &pf->cap_attrs, pf->n_attrs + 1, sizeof *pf->attrs));
    perf_attr *a = &pf->attrs[pf->n_attrs];
    memset(a, 0, sizeof *a);
    a->type = perf_u32(pf, p);
    a->size = perf_u32(pf, p + 4);
    a->config = perf_u64(pf, p + 8);
    a->sample_period = perf_u64(pf, p + 16);
    a->sample_type = perf_u64(pf, p + 24);
    a->read_format = perf_u64(pf, p + 32);
    a->flags = attr_flags(pf, p + 40);
    a->sample_id_all = (a->flags >> 18) & 1u;
    a->use_clockid = (a->flags >> 25) & 1u;
    if (n >= 80)
        a->branch_sample_type = perf_u64(pf, p + 72);
    if (n >= 96) {
        a->sample_regs_user = perf_u64(pf, p + 80);
        a->sample_stack_user = perf_u32(pf, p + 88);
        a->clockid = (int32_t)perf_u32(pf, p + 92);
    }
    if (n >= 104)
        a->sample_regs_intr = perf_u64(pf, p + 96);
    a->first_id = UINT64_MAX;
    pf->n_attrs++;
    return 0;
}

int perf_attr_add_ids(perf_file *pf, size_t attr, const uint8_t *ids, size_t n_ids)
{
    for (size_t i = 0; i < n_ids; i++) {
        uint64_t id = perf_u64(pf, ids + 8 * i);
        if (i == 0 && pf->attrs[attr].first_id == UINT64_MAX)
            pf->attrs[attr].first_id = id;
        uint64_t *v;
        int rc = tg_hash_insert(&pf->id_to_attr, id, &v);
        if (rc < 0)
            return rc;
        if (rc > 0)
            *v = attr; /* a new id; a repeated one keeps its first attribute, as perf does */
    }
    return 0;
}

const perf_attr *perf_attr_of_id(const perf_file *pf, uint64_t id)
{
    if (pf->n_attrs == 1)
        return &pf->attrs[0];
    const uint64_t *v = tg_hash_find(&pf->id_to_attr, id);
    return v && *v < pf->n_attrs ? &pf->attrs[*v] : pf->n_attrs ? &pf->attrs[0] : NULL;
}

static const char *const hw_names[] = {
    "cycles",
    "instructions",
    "cache-references",
    "cache-misses",
    "branches",
    "branch-misses",
    "bus-cycles",
    "stalled-cycles-frontend",
    "stalled-cycles-backend",
    "ref-cycles",
};
static const char *const sw_names[] = {
    "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
    "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches",
};

/* perf's name of an attribute EVENT_DESC did not name (evsel__name's fallbacks). */
static const char *default_name(perf_file *pf, const perf_attr *a, char *buf, size_t size)
{
    if (a->type == 0 && a->config < sizeof hw_names / sizeof *hw_names)
        return hw_names[a->config];
    if (a->type == 1 && a->config < sizeof sw_names / sizeof *sw_names)
        return sw_names[a->config];
    if (a->type == 2) {
        const perf_tp *tp = perf_tp_by_id(pf, a->config);
        if (tp)
            return tp->name;
    }
    snprintf(buf, size, "raw 0x%" PRIx64 " of type %" PRIu32, a->config, a->type);
    return buf;
}

int perf_attrs_finish(perf_file *pf, tg_error **err)
{
    for (size_t i = 0; i < pf->n_attrs; i++) {
        perf_attr *a = &pf->attrs[i];
        char buf[64];
        if (!a->name)
            a->name = tg_arena_strdup(&pf->trace->arena, default_name(pf, a, buf, sizeof buf));
        if (a->type == 2)
            a->tp = perf_tp_by_id(pf, a->config);
        /* a tracepoint's class is named as trace.dat's are: the event, and its system */
        const char *cname = a->tp ? a->tp->event : a->name;
        a->cls = cname ? tg_trace_add_class(pf->trace, cname, i, TG_KIND_GENERIC) : NULL;
        if (!a->cls)
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
        if (a->tp)
            a->cls->system = a->tp->system;
    }
    /* non-sample records carry the first attribute's sample id fields at their end */
    if (pf->n_attrs && pf->attrs[0].sample_id_all) {
        uint64_t st = pf->attrs[0].sample_type;
        pf->sample_id_len =
            8 * (!!(st & PERF_ST_TID) + !!(st & PERF_ST_TIME) + !!(st & PERF_ST_ID) +
                 !!(st & PERF_ST_STREAM_ID) + !!(st & PERF_ST_CPU) + !!(st & PERF_ST_IDENTIFIER));
    }
    return 0;
}

/* The attrs section of a file-mode header: attr_size bytes each, an attribute and the file
 * section of its ids. */
static int read_attrs(perf_file *pf, const uint8_t *h, tg_error **err)
{
    uint64_t off = perf_u64(pf, h + 24), size = perf_u64(pf, h + 32);
    uint64_t asz = pf->attr_size;
    if (asz < PERF_ATTR_MIN + 16 || asz > 4096)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 16,
                         "attr_size %" PRIu64 " (expected %d to 4096)", asz, PERF_ATTR_MIN + 16);
    if (off > pf->map.size || size > pf->map.size - off)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 24,
                         "attrs section (%" PRIu64 " bytes at %" PRIu64
                         ") runs past the file end (%zu)",
                         size, off, pf->map.size);
    for (uint64_t k = 0; k + asz <= size; k += asz) {
        const uint8_t *p = pf->map.data + off + k;
        TG_TRY(perf_attr_add(pf, p, (size_t)(asz - 16), off + k, err));
        uint64_t ids_off = perf_u64(pf, p + asz - 16), ids_size = perf_u64(pf, p + asz - 8);
        if (ids_off > pf->map.size || ids_size > pf->map.size - ids_off)
            return tg_err_at(err, TG_ERR_FORMAT, pf->path, off + k + asz - 16,
                             "ids of attribute %zu run past the file end", pf->n_attrs - 1);
        TG_TRY(
            perf_attr_add_ids(pf, pf->n_attrs - 1, pf->map.data + ids_off, (size_t)(ids_size / 8)));
    }
    return 0;
}

static int read_header(perf_file *pf, tg_error **err)
{
    const uint8_t *h = pf->map.data;
    if (pf->map.size < PERF_PIPE_HEADER)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 0, "file shorter than a perf.data header");
    uint64_t m = tg_le64(h);
    if (m == __builtin_bswap64(PERF_MAGIC2))
        pf->big_endian = true;
    else if (m != PERF_MAGIC2)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 0,
                         "not a perf.data file (magic \"PERFILE2\" expected)");
    uint64_t hsize = perf_u64(pf, h + 8);
    if (hsize == PERF_PIPE_HEADER) {
        pf->pipe = true;
        pf->data_off = PERF_PIPE_HEADER;
        pf->data_size = pf->map.size - PERF_PIPE_HEADER;
        return 0;
    }
    if (hsize < PERF_FILE_HEADER || pf->map.size < PERF_FILE_HEADER)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 8,
                         "header size %" PRIu64 " (16 in pipe mode, at least 104 expected)", hsize);
    pf->attr_size = perf_u64(pf, h + 16);
    pf->data_off = perf_u64(pf, h + 40);
    pf->data_size = perf_u64(pf, h + 48);
    for (int i = 0; i < 4; i++)
        pf->features[i] = perf_u64(pf, h + 72 + 8 * i);
    TG_TRY(read_attrs(pf, h, err));
    if (pf->data_off > pf->map.size)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, 40,
                         "data section at %" PRIu64 " starts past the file end (%zu)", pf->data_off,
                         pf->map.size);
    if (pf->data_size > pf->map.size - pf->data_off) {
        /* a truncated file: the records that are there are read, the rest reported */
        tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, pf->map.size,
                  "the data section (%" PRIu64 " bytes at %" PRIu64 ") runs past the file end",
                  pf->data_size, pf->data_off);
        pf->data_size = pf->map.size - pf->data_off;
        return 0;
    }
    return perf_read_features(pf, err);
}

static const tg_event_kind rec_kinds[PERF_REC_KERNEL_MAX] = {
    [PERF_REC_LOST] = TG_KIND_LOST,      [PERF_REC_LOST_SAMPLES] = TG_KIND_LOST,
    [PERF_REC_COMM] = TG_KIND_TASK_NAME, [PERF_REC_FORK] = TG_KIND_TASK_FORK,
    [PERF_REC_EXIT] = TG_KIND_TASK_EXIT,
};

static int perf_open(tg_trace *t, const char *path, const tg_options *opts, tg_error **err)
{
    (void)opts;
    perf_file *pf = calloc(1, sizeof *pf);
    if (!pf)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    t->priv = pf;
    pf->trace = t;
    pf->path = t->path;
    TG_TRY(tg_map_open(&pf->map, path, err));
    TG_TRY(read_header(pf, err));
    TG_TRY(perf_scan(pf, err));
    TG_TRY(perf_attrs_finish(pf, err));
    for (uint32_t k = 1; k < PERF_REC_KERNEL_MAX; k++) {
        if (k == PERF_REC_SAMPLE)
            continue;
        pf->rec_cls[k] = tg_trace_add_class(t, perf_record_name(k), 1000 + k, rec_kinds[k]);
        if (!pf->rec_cls[k])
            return tg_err(err, TG_ERR_NOMEM, "out of memory");
    }
    tg_trace_set_version(t, pf->pipe ? "2 (pipe)" : "2");
    if (perf_attrs_fill_trace(pf) < 0)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    return perf_add_stream(pf, err);
}

static void put_line(tg_buf *out, const char *key, const char *value)
{
    if (!value)
        return;
    tg_buf_puts(out, key);
    tg_buf_puts(out, value);
    tg_buf_putc(out, '\n');
}

/* What `perf report --header-only` shows first, in its words. */
static int perf_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    (void)err;
    const perf_file *pf = t->priv;
    put_line(out, "# hostname : ", pf->hostname);
    put_line(out, "# os release : ", pf->osrelease);
    put_line(out, "# perf version : ", pf->version);
    put_line(out, "# arch : ", pf->arch);
    if (pf->nr_cpus_avail) {
        char b[80];
        snprintf(b, sizeof b, "# nrcpus online : %" PRIu32 "\n# nrcpus avail : %" PRIu32 "\n",
                 pf->nr_cpus_online, pf->nr_cpus_avail);
        tg_buf_puts(out, b);
    }
    put_line(out, "# cpudesc : ", pf->cpudesc);
    put_line(out, "# cpuid : ", pf->cpuid);
    put_line(out, "# cmdline : ", pf->cmdline);
    for (size_t i = 0; i < pf->n_attrs; i++) {
        const perf_attr *a = &pf->attrs[i];
        char b[160];
        snprintf(b, sizeof b,
                 "# event : name = %s, type = %" PRIu32 ", config = 0x%" PRIx64
                 ", sample_type = 0x%" PRIx64 "\n",
                 a->name, a->type, a->config, a->sample_type);
        tg_buf_puts(out, b);
    }
    tg_buf_puts(out, pf->pipe ? "# data: pipe mode\n" : "# data: file mode\n");
    tg_buf_puts(out,
                pf->big_endian ? "# byte order: big endian\n" : "# byte order: little endian\n");
    return 0;
}

static void perf_close(tg_trace *t)
{
    perf_file *pf = t->priv;
    if (!pf)
        return;
    tg_map_close(&pf->map);
    tg_error_free(pf->open_errors);
    free(pf->attrs);
    tg_hash_free(&pf->id_to_attr);
    for (size_t i = 0; i < pf->n_tps; i++)
        tg_pf_free(pf->tps[i].pfe.pf);
    free(pf->tps);
    free(pf->segs);
    free(pf->inflated);
    free(pf);
    t->priv = NULL;
}

TG_FORMAT(perf) = {
    .name = "perf",
    .probe = perf_probe,
    .open = perf_open,
    .describe = perf_describe,
    .close = perf_close,
};
