/* perf_features.c - what a perf.data file says about its session: the feature sections.
 *
 * In file mode, after the data section comes one {offset, size} section per bit set in the
 * header's feature bitmap, in bit order; in pipe mode each feature is a HEADER_FEATURE
 * record (its id, then the same data).  Strings are {u32 len; char[len]} padded with NULs,
 * lists of them a u32 count first (tools/perf/util/header.c writes and reads them).  The
 * tracing data (feature 1, or a HEADER_TRACING_DATA record) is the tracefs metadata that
 * trace-cmd also stores: the event format files, of which the reader keeps each
 * tracepoint's id, name and format text.  A feature it cannot read is skipped with a warning,
 * as perf does: the events do not depend on it. */
#include "formats/perf/perf_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A {u32 len; char[len]} string at *p (n left): the text (NUL-ended within len), or NULL. */
static const char *header_string(perf_file *pf, const uint8_t **p, size_t *n)
{
    if (*n < 4)
        return NULL;
    uint32_t len = perf_u32(pf, *p);
    if (len > *n - 4)
        return NULL;
    const char *s = (const char *)*p + 4;
    size_t sl = strnlen(s, len);
    *p += 4 + (size_t)len;
    *n -= 4 + (size_t)len;
    return tg_arena_strndup(&pf->trace->arena, s, sl);
}

static int event_desc(perf_file *pf, const uint8_t *p, size_t n)
{
    if (n < 8)
        return -1;
    uint32_t nr = perf_u32(pf, p), asz = perf_u32(pf, p + 4);
    p += 8;
    n -= 8;
    for (uint32_t i = 0; i < nr; i++) {
        if (asz > n || n - asz < 4)
            return -1;
        p += asz;
        n -= asz;
        uint32_t nr_ids = perf_u32(pf, p);
        p += 4;
        n -= 4;
        const char *name = header_string(pf, &p, &n);
        if (!name || nr_ids > n / 8)
            return -1;
        if (i < pf->n_attrs)
            pf->attrs[i].name = name;
        p += 8 * (size_t)nr_ids;
        n -= 8 * (size_t)nr_ids;
    }
    return 0;
}

static int cmdline(perf_file *pf, const uint8_t *p, size_t n)
{
    if (n < 4)
        return -1;
    uint32_t nr = perf_u32(pf, p);
    p += 4;
    n -= 4;
    char *joined = NULL;
    size_t len = 0, cap = 0;
    for (uint32_t i = 0; i < nr; i++) {
        const char *s = header_string(pf, &p, &n);
        if (!s)
            break;
        size_t sl = strlen(s);
        if (tg_grow(&joined, &cap, len + sl + 2, 1) < 0)
            break;
        if (len)
            joined[len++] = ' ';
        memcpy(joined + len, s, sl);
        len += sl;
        joined[len] = 0;
    }
    if (joined)
        pf->cmdline = tg_arena_strdup(&pf->trace->arena, joined);
    free(joined);
    return 0;
}

/* One build_id_event (tools/perf/util/header.h): header, pid, the id (20 bytes, then its
 * size when misc says so), the object's path, NUL-padded to the record's size. */
static int build_id_record(perf_file *pf, const uint8_t *p, size_t size)
{
    if (size < 36)
        return -1;
    uint16_t misc = perf_u16(pf, p + 4);
    tg_build_id_info b = {0};
    b.pid = (int32_t)perf_u32(pf, p + 8);
    b.size = misc & PERF_MISC_BUILD_ID_SIZE ? p[32] : 20;
    if (b.size > 20)
        b.size = 20;
    memcpy(b.id, p + 12, b.size);
    uint16_t mode = misc & PERF_MISC_CPUMODE_MASK;
    b.kernel = mode == 1 || mode == 4; /* kernel, guest kernel */
    char path[4096];
    size_t pl = strnlen((const char *)p + 36, size - 36);
    if (pl >= sizeof path)
        pl = sizeof path - 1;
    memcpy(path, p + 36, pl);
    path[pl] = 0;
    b.path = path;
    return tg_trace_add_build_id(pf->trace, &b) < 0 ? TG_ERR_NOMEM : 0;
}

int perf_build_ids_parse(perf_file *pf, const uint8_t *p, size_t n)
{
    while (n >= 8) {
        size_t size = perf_u16(pf, p + 6);
        if (size < 8 || size > n)
            return -1;
        int rc = build_id_record(pf, p, size);
        if (rc < 0)
            return rc;
        p += size;
        n -= size;
    }
    return 0;
}

int perf_feature_parse(perf_file *pf, int feat, const uint8_t *p, size_t n, uint64_t off,
                       tg_error **err)
{
    const uint8_t *q = p;
    size_t left = n;
    int rc = 0;
    switch (feat) {
    case PERF_FEAT_TRACING_DATA: return perf_tracing_data_parse(pf, p, n, off, err);
    case PERF_FEAT_HOSTNAME: pf->hostname = header_string(pf, &q, &left); break;
    case PERF_FEAT_OSRELEASE: pf->osrelease = header_string(pf, &q, &left); break;
    case PERF_FEAT_VERSION: pf->version = header_string(pf, &q, &left); break;
    case PERF_FEAT_ARCH: pf->arch = header_string(pf, &q, &left); break;
    case PERF_FEAT_CPUDESC: pf->cpudesc = header_string(pf, &q, &left); break;
    case PERF_FEAT_CPUID: pf->cpuid = header_string(pf, &q, &left); break;
    case PERF_FEAT_NRCPUS:
        if (n >= 8) {
            pf->nr_cpus_avail = perf_u32(pf, p);
            pf->nr_cpus_online = perf_u32(pf, p + 4);
        }
        break;
    case PERF_FEAT_TOTAL_MEM:
        if (n >= 8)
            pf->total_mem = perf_u64(pf, p);
        break;
    case PERF_FEAT_CMDLINE: rc = cmdline(pf, p, n); break;
    case PERF_FEAT_BUILD_ID: rc = perf_build_ids_parse(pf, p, n); break;
    case PERF_FEAT_EVENT_DESC: rc = event_desc(pf, p, n); break;
    case PERF_FEAT_SAMPLE_TIME:
        if (n >= 16) {
            pf->first_sample_time = perf_u64(pf, p);
            pf->last_sample_time = perf_u64(pf, p + 8);
            pf->have_sample_time = true;
        }
        break;
    case PERF_FEAT_CLOCKID:
        if (n >= 8)
            pf->clockid_res_ns = perf_u64(pf, p);
        break;
    case PERF_FEAT_COMPRESSED:
        if (n >= 20) {
            pf->comp_type = perf_u32(pf, p + 4);
            pf->comp_level = perf_u32(pf, p + 8);
            pf->comp_ratio = perf_u32(pf, p + 12);
            pf->comp_mmap_len = perf_u32(pf, p + 16);
            pf->have_compressed = true;
        }
        break;
    case PERF_FEAT_CLOCK_DATA:
        if (n >= 24) {
            pf->clock_data_id = perf_u32(pf, p + 4);
            pf->clock_wall_ns = perf_u64(pf, p + 8);
            pf->clock_ref_ns = perf_u64(pf, p + 16);
            pf->have_clock_data = true;
        }
        break;
    default: break;
    }
    if (rc == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (rc < 0)
        tg_trace_warn(pf->trace, "%s: offset 0x%" PRIx64 ": feature %d is damaged: skipped",
                      pf->path, off, feat);
    return 0;
}

int perf_read_features(perf_file *pf, tg_error **err)
{
    uint64_t at = pf->data_off + pf->data_size;
    for (int bit = 1; bit < PERF_FEAT_BITS; bit++) {
        if (!((pf->features[bit / 64] >> (bit % 64)) & 1u))
            continue;
        if (at > pf->map.size || pf->map.size - at < 16) {
            tg_trace_warn(pf->trace, "%s: offset 0x%" PRIx64 ": the feature sections are cut short",
                          pf->path, at);
            return 0;
        }
        uint64_t off = perf_u64(pf, pf->map.data + at), size = perf_u64(pf, pf->map.data + at + 8);
        at += 16;
        if (off > pf->map.size || size > pf->map.size - off) {
            tg_trace_warn(pf->trace, "%s: offset 0x%" PRIx64 ": feature %d runs past the file end",
                          pf->path, at - 16, bit);
            continue;
        }
        TG_TRY(perf_feature_parse(pf, bit, pf->map.data + off, (size_t)size, off, err));
    }
    return 0;
}

/* ---- tracing data ---------------------------------------------------------------------- */

int perf_tracing_data_parse(perf_file *pf, const uint8_t *p, size_t n, uint64_t off, tg_error **err)
{
    (void)err;
    tg_reader r;
    tg_reader_init(&r, p, n, off, false);
    const uint8_t *magic;
    const char *ver;
    size_t vlen;
    uint8_t be, long_size;
    uint32_t page_size;
    if (!tg_read_bytes(&r, &magic, 10) || memcmp(magic, "\027\010Dtracing", 10) != 0 ||
        !tg_read_cstr(&r, &ver, &vlen) || !tg_read_u8(&r, &be) || !tg_read_u8(&r, &long_size))
        goto bad;
    r.big_endian = be != 0;
    pf->tracing_big_endian = be != 0;
    /* perf writes no kallsyms into the tracing data (a zero size, since perf 5.x) and
     * resolves no function of a print fmt without the kernel's symbols: none here */
    pf->pf_env = (tg_pf_env){.big_endian = be != 0, .long_size = long_size};
    if (!tg_read_u32(&r, &page_size))
        goto bad;
    pf->tracing_version = tg_arena_strndup(&pf->trace->arena, ver, vlen);
    static const char *const heads[] = {"header_page", "header_event"};
    for (int k = 0; k < 2; k++) {
        const char *name;
        size_t nl;
        const uint8_t *text;
        uint64_t len;
        if (!tg_read_cstr(&r, &name, &nl) || strcmp(name, heads[k]) != 0 ||
            !tg_read_sized64(&r, &text, &len))
            goto bad;
    }
    uint32_t count;
    if (!tg_read_u32(&r, &count))
        goto bad;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *text;
        uint64_t len;
        if (!tg_read_sized64(&r, &text, &len))
            goto bad;
    }
    uint32_t systems;
    if (!tg_read_u32(&r, &systems))
        goto bad;
    for (uint32_t s = 0; s < systems; s++) {
        const char *sys;
        size_t sl;
        if (!tg_read_cstr(&r, &sys, &sl) || !tg_read_u32(&r, &count))
            goto bad;
        for (uint32_t i = 0; i < count; i++) {
            const uint8_t *text;
            uint64_t len;
            if (!tg_read_sized64(&r, &text, &len))
                goto bad;
            tg_evf fmt;
            int rc =
                tg_evf_parse(&pf->trace->arena, long_size, (const char *)text, (size_t)len, &fmt);
            if (rc == TG_ERR_NOMEM)
                return rc;
            if (rc < 0)
                continue; /* perf skips a format it cannot parse too */
            TG_TRY(tg_grow(&pf->tps, &pf->cap_tps, pf->n_tps + 1, sizeof *pf->tps));
            perf_tp *tp = &pf->tps[pf->n_tps++];
            tp->id = (uint32_t)fmt.id;
            tp->fmt = fmt;
            tp->system = tg_arena_strndup(&pf->trace->arena, sys, sl);
            tp->event = tg_arena_strndup(&pf->trace->arena, fmt.name, fmt.name_len);
            size_t full = sl + 2 + fmt.name_len;
            char *both = tg_arena_alloc(&pf->trace->arena, full);
            if (!both || !tp->system || !tp->event)
                return TG_ERR_NOMEM;
            snprintf(both, full, "%s:%s", tp->system, tp->event);
            tp->name = both;
            const char *print_fmt =
                fmt.print_fmt
                    ? tg_arena_strndup(&pf->trace->arena, fmt.print_fmt, fmt.print_fmt_len)
                    : NULL;
            if (fmt.print_fmt && !print_fmt)
                return TG_ERR_NOMEM;
            tp->pfe = (tg_pf_event){.common = fmt.common,
                                    .fields = fmt.fields,
                                    .n_common = fmt.n_common,
                                    .n_fields = fmt.n_fields,
                                    .print_fmt = print_fmt,
                                    .env = &pf->pf_env};
        }
    }
    return 0;
bad:
    tg_trace_warn(pf->trace,
                  "%s: offset 0x%" PRIx64
                  ": the tracing data is damaged: %zu tracepoint formats read",
                  pf->path, tg_reader_offset(&r), pf->n_tps);
    return 0;
}

const perf_tp *perf_tp_by_id(const perf_file *pf, uint64_t id)
{
    for (size_t i = 0; i < pf->n_tps; i++)
        if (pf->tps[i].id == id)
            return &pf->tps[i];
    return NULL;
}

/* ---- the trace's attributes --------------------------------------------------------------- */

/* The clock of the first attribute: perf's own (local_clock) unless -k/--clockid chose one. */
static const char *clock_name(const perf_file *pf)
{
    if (!pf->n_attrs || !pf->attrs[0].use_clockid)
        return "perf";
    switch (pf->attrs[0].clockid) {
    case 0: return "realtime";
    case 1: return "monotonic";
    case 4: return "mono_raw";
    case 7: return "boot";
    case 11: return "tai";
    default: return "unknown";
    }
}

int perf_attrs_fill_trace(perf_file *pf)
{
    tg_trace *t = pf->trace;
    tg_host_info h = {0};
    h.hostname = pf->hostname;
    char kernel[160];
    if (pf->osrelease) {
        snprintf(kernel, sizeof kernel, "Linux %s", pf->osrelease);
        h.kernel = kernel;
    }
    h.arch = pf->arch;
    h.byte_order = pf->big_endian ? 2 : 1;
    TG_TRY(tg_trace_set_host(t, &h));
    const char *v = pf->version;
    TG_TRY(tg_trace_set_tracer(t, "perf", v));
    tg_trace_set_clock(t, clock_name(pf), 0);
    if (pf->cmdline)
        TG_TRY(tg_trace_add_env(t, "cmdline", pf->cmdline, false, 0));
    if (pf->nr_cpus_avail) {
        TG_TRY(tg_trace_add_env_int(t, "nrcpus_avail", pf->nr_cpus_avail));
        TG_TRY(tg_trace_add_env_int(t, "nrcpus_online", pf->nr_cpus_online));
    }
    if (pf->have_sample_time) {
        TG_TRY(tg_trace_add_env_int(t, "first_sample_time", (int64_t)pf->first_sample_time));
        TG_TRY(tg_trace_add_env_int(t, "last_sample_time", (int64_t)pf->last_sample_time));
    }
    if (pf->have_compressed) {
        TG_TRY(
            tg_trace_add_env(t, "compression", pf->comp_type == 1 ? "zstd" : "unknown", false, 0));
        TG_TRY(tg_trace_add_env_int(t, "compression_level", pf->comp_level));
    }
    return 0;
}
