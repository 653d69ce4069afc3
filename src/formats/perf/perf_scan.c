/* perf_scan.c - the records of a perf.data file, walked once at open.
 *
 * Every record starts with perf_event_header {u32 type; u16 misc; u16 size}.  The walk at
 * open reads perf's own records that describe the session (HEADER_ATTR, HEADER_FEATURE,
 * HEADER_TRACING_DATA, EVENT_UPDATE in pipe mode), counts the records of each type, inflates
 * the COMPRESSED records (zstd frames holding ordinary records: `perf record -z`) and cuts
 * the data into segments the stream then walks in order: the file's records between two
 * compressed records, and each compressed record's inflated records.  The first damaged
 * record header (shorter than 8 bytes, or running past the end) ends the data: the records
 * before it are read, the damage is reported after them.  A HEADER_TRACING_DATA record is
 * followed by its data, outside its size (perf reads it from the file after the record). */
#include "formats/perf/perf_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static const char *const rec_names[PERF_REC_USER_MAX] = {
    [PERF_REC_MMAP] = "MMAP",
    [PERF_REC_LOST] = "LOST",
    [PERF_REC_COMM] = "COMM",
    [PERF_REC_EXIT] = "EXIT",
    [PERF_REC_THROTTLE] = "THROTTLE",
    [PERF_REC_UNTHROTTLE] = "UNTHROTTLE",
    [PERF_REC_FORK] = "FORK",
    [PERF_REC_READ] = "READ",
    [PERF_REC_SAMPLE] = "SAMPLE",
    [PERF_REC_MMAP2] = "MMAP2",
    [PERF_REC_AUX] = "AUX",
    [PERF_REC_ITRACE_START] = "ITRACE_START",
    [PERF_REC_LOST_SAMPLES] = "LOST_SAMPLES",
    [PERF_REC_SWITCH] = "SWITCH",
    [PERF_REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
    [PERF_REC_NAMESPACES] = "NAMESPACES",
    [PERF_REC_KSYMBOL] = "KSYMBOL",
    [PERF_REC_BPF_EVENT] = "BPF_EVENT",
    [PERF_REC_CGROUP] = "CGROUP",
    [PERF_REC_TEXT_POKE] = "TEXT_POKE",
    [PERF_REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
    [PERF_REC_HEADER_ATTR] = "ATTR",
    [PERF_REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
    [PERF_REC_HEADER_TRACING_DATA] = "TRACING_DATA",
    [PERF_REC_HEADER_BUILD_ID] = "BUILD_ID",
    [PERF_REC_FINISHED_ROUND] = "FINISHED_ROUND",
    [PERF_REC_ID_INDEX] = "ID_INDEX",
    [PERF_REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
    [PERF_REC_AUXTRACE] = "AUXTRACE",
    [PERF_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
    [PERF_REC_THREAD_MAP] = "THREAD_MAP",
    [PERF_REC_CPU_MAP] = "CPU_MAP",
    [PERF_REC_STAT_CONFIG] = "STAT_CONFIG",
    [PERF_REC_STAT] = "STAT",
    [PERF_REC_STAT_ROUND] = "STAT_ROUND",
    [PERF_REC_EVENT_UPDATE] = "EVENT_UPDATE",
    [PERF_REC_TIME_CONV] = "TIME_CONV",
    [PERF_REC_HEADER_FEATURE] = "FEATURE",
    [PERF_REC_COMPRESSED] = "COMPRESSED",
    [PERF_REC_FINISHED_INIT] = "FINISHED_INIT",
};

/* perf's names: "PERF_RECORD_MMAP", ... */
const char *perf_record_name(uint32_t type)
{
    static const char *const full[PERF_REC_KERNEL_MAX] = {
        [PERF_REC_MMAP] = "PERF_RECORD_MMAP",
        [PERF_REC_LOST] = "PERF_RECORD_LOST",
        [PERF_REC_COMM] = "PERF_RECORD_COMM",
        [PERF_REC_EXIT] = "PERF_RECORD_EXIT",
        [PERF_REC_THROTTLE] = "PERF_RECORD_THROTTLE",
        [PERF_REC_UNTHROTTLE] = "PERF_RECORD_UNTHROTTLE",
        [PERF_REC_FORK] = "PERF_RECORD_FORK",
        [PERF_REC_READ] = "PERF_RECORD_READ",
        [PERF_REC_SAMPLE] = "PERF_RECORD_SAMPLE",
        [PERF_REC_MMAP2] = "PERF_RECORD_MMAP2",
        [PERF_REC_AUX] = "PERF_RECORD_AUX",
        [PERF_REC_ITRACE_START] = "PERF_RECORD_ITRACE_START",
        [PERF_REC_LOST_SAMPLES] = "PERF_RECORD_LOST_SAMPLES",
        [PERF_REC_SWITCH] = "PERF_RECORD_SWITCH",
        [PERF_REC_SWITCH_CPU_WIDE] = "PERF_RECORD_SWITCH_CPU_WIDE",
        [PERF_REC_NAMESPACES] = "PERF_RECORD_NAMESPACES",
        [PERF_REC_KSYMBOL] = "PERF_RECORD_KSYMBOL",
        [PERF_REC_BPF_EVENT] = "PERF_RECORD_BPF_EVENT",
        [PERF_REC_CGROUP] = "PERF_RECORD_CGROUP",
        [PERF_REC_TEXT_POKE] = "PERF_RECORD_TEXT_POKE",
        [PERF_REC_AUX_OUTPUT_HW_ID] = "PERF_RECORD_AUX_OUTPUT_HW_ID",
    };
    if (type < PERF_REC_KERNEL_MAX && full[type])
        return full[type];
    return type < PERF_REC_USER_MAX && rec_names[type] ? rec_names[type] : "UNKNOWN";
}

const uint8_t *perf_segment_base(const perf_file *pf, const perf_segment *s)
{
    return s->inflated ? pf->inflated : pf->map.data;
}

static int add_segment(perf_file *pf, uint64_t start, uint64_t end, bool inflated,
                       uint64_t file_off)
{
    if (start >= end)
        return 0;
    TG_TRY(tg_grow(&pf->segs, &pf->cap_segs, pf->n_segs + 1, sizeof *pf->segs));
    pf->segs[pf->n_segs++] = (perf_segment){start, end, inflated, file_off};
    return 0;
}

/* The records of a COMPRESSED record, appended to pf->inflated: 0, or -1 (with *why) when
 * they do not decompress.  The records hold one zstd stream cut into pieces (a frame may
 * go on in the next record), so one decompression context z reads them all in order. */
static int inflate(perf_file *pf, ZSTD_DStream *z, const uint8_t *src, size_t n, size_t limit,
                   const char **why)
{
    ZSTD_inBuffer in = {src, n, 0};
    size_t start = pf->inflated_len;
    while (in.pos < in.size) {
        if (pf->inflated_len - start >= limit) {
            *why = "inflates past the size of perf's buffers";
            return -1;
        }
        if (tg_grow(&pf->inflated, &pf->inflated_cap, pf->inflated_len + 65536, 1) < 0)
            return TG_ERR_NOMEM;
        ZSTD_outBuffer out = {pf->inflated, pf->inflated_cap, pf->inflated_len};
        size_t r = ZSTD_decompressStream(z, &out, &in);
        if (ZSTD_isError(r)) {
            *why = ZSTD_getErrorName(r);
            return -1;
        }
        pf->inflated_len = out.pos;
    }
    return 0;
}

/* An attribute of pipe mode: {header; perf_event_attr; u64 ids[]}. */
static int header_attr(perf_file *pf, const uint8_t *p, size_t size, uint64_t off, tg_error **err)
{
    if (size < 16)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, off, "HEADER_ATTR record of %zu bytes",
                         size);
    uint32_t asz = perf_u32(pf, p + 12);
    if (asz < 64 || asz > size - 8)
        return tg_err_at(err, TG_ERR_FORMAT, pf->path, off + 12,
                         "attribute size %" PRIu32 " in a HEADER_ATTR record of %zu bytes", asz,
                         size);
    TG_TRY(perf_attr_add(pf, p + 8, asz, off + 8, err));
    return perf_attr_add_ids(pf, pf->n_attrs - 1, p + 8 + asz, (size - 8 - asz) / 8);
}

/* EVENT_UPDATE {header; u64 type; u64 id; ...}: type 2 (NAME) names the id's attribute. */
static void event_update(perf_file *pf, const uint8_t *p, size_t size)
{
    if (size < 25 || perf_u64(pf, p + 8) != 2)
        return;
    uint64_t id = perf_u64(pf, p + 16);
    const uint64_t *v = tg_hash_find(&pf->id_to_attr, id);
    if (v && *v < pf->n_attrs)
        pf->attrs[*v].name = tg_arena_strndup(&pf->trace->arena, (const char *)p + 24,
                                              strnlen((const char *)p + 24, size - 24));
}

/* Walks the records of [start, end) of base (the file, or the inflated records of the
 * COMPRESSED record at file_off): reads perf's records, adds the segments. */
static int walk(perf_file *pf, const uint8_t *base, uint64_t start, uint64_t end, bool inflated,
                uint64_t file_off, ZSTD_DStream **z, uint64_t *stop, tg_error **err)
{
    uint64_t pos = start, seg_start = start;
    while (pos < end) {
        uint64_t at = inflated ? file_off : pos;
        /* a record the next compressed record completes: perf carries it over too */
        if (inflated && (end - pos < 8 || perf_u16(pf, base + pos + 6) > end - pos))
            break;
        if (end - pos < 8) {
            tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, at,
                      "%s%" PRIu64 " bytes left, a record header is 8",
                      inflated ? "compressed records: " : "", end - pos);
            break;
        }
        const uint8_t *p = base + pos;
        uint32_t type = perf_u32(pf, p);
        size_t size = perf_u16(pf, p + 6);
        if (size < 8) {
            tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, at,
                      "%srecord of type %" PRIu32 " has size %zu (a record is at least 8 bytes)",
                      inflated ? "compressed records: " : "", type, size);
            break;
        }
        if (size > end - pos) {
            tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, at,
                      "%srecord of type %" PRIu32 " and size %zu runs past the data end (%" PRIu64
                      " bytes left)",
                      inflated ? "compressed records: " : "", type, size, end - pos);
            break;
        }
        uint64_t span = size;
        if (type < PERF_REC_USER_MAX)
            pf->rec_count[type]++;
        switch (type) {
        case PERF_REC_HEADER_ATTR: TG_TRY(header_attr(pf, p, size, at, err)); break;
        case PERF_REC_HEADER_FEATURE:
            if (size >= 16)
                TG_TRY(perf_feature_parse(pf, (int)perf_u64(pf, p + 8), p + 16, size - 16, at + 16,
                                          err));
            break;
        case PERF_REC_EVENT_UPDATE: event_update(pf, p, size); break;
        case PERF_REC_HEADER_BUILD_ID:
            if (perf_build_ids_parse(pf, p, size) == TG_ERR_NOMEM)
                return tg_err(err, TG_ERR_NOMEM, "out of memory");
            break;
        case PERF_REC_HEADER_TRACING_DATA: {
            uint64_t tsize = size >= 12 ? perf_u32(pf, p + 8) : 0;
            uint64_t padded = (tsize + 7) & ~(uint64_t)7;
            if (padded > end - pos - size) {
                tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, at,
                          "tracing data of %" PRIu64 " bytes runs past the data end", tsize);
                *stop = pos;
                return inflated ? 0 : add_segment(pf, seg_start, pos, false, 0);
            }
            TG_TRY(perf_tracing_data_parse(pf, p + size, (size_t)tsize, at + size, err));
            span += padded;
            break;
        }
        case PERF_REC_COMPRESSED:
            if (!inflated) {
                TG_TRY(add_segment(pf, seg_start, pos, false, 0));
                size_t from = pf->inflated_walked;
                const char *why = NULL;
                size_t limit = pf->comp_mmap_len ? (size_t)pf->comp_mmap_len * 4 : (size_t)1 << 26;
                if (!*z && !(*z = ZSTD_createDStream()))
                    return tg_err(err, TG_ERR_NOMEM, "out of memory");
                int rc = inflate(pf, *z, p + 8, size - 8, limit, &why);
                if (rc == TG_ERR_NOMEM)
                    return tg_err(err, rc, "out of memory");
                if (rc < 0) {
                    tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, pos,
                              "compressed records do not decompress: %s", why);
                    *stop = pos;
                    return 0;
                }
                uint64_t to;
                TG_TRY(walk(pf, pf->inflated, from, pf->inflated_len, true, pos, z, &to, err));
                TG_TRY(add_segment(pf, from, to, true, pos));
                pf->inflated_walked = to;
                seg_start = pos + size;
                if (pf->open_errors) {
                    *stop = pos + size;
                    return 0;
                }
            }
            break;
        default: break;
        }
        pos += span;
    }
    *stop = pos;
    if (inflated)
        return 0; /* the caller adds the inflated run as one segment */
    return add_segment(pf, seg_start, pos, false, 0);
}

int perf_scan(perf_file *pf, tg_error **err)
{
    uint64_t stop;
    ZSTD_DStream *z = NULL;
    /* the inflated buffer has its final place after this walk: segments hold offsets */
    int rc = walk(pf, pf->map.data, pf->data_off, pf->data_off + pf->data_size, false, 0, &z, &stop,
                  err);
    ZSTD_freeDStream(z);
    if (rc == 0 && !pf->open_errors && pf->inflated_walked < pf->inflated_len)
        tg_err_at(&pf->open_errors, TG_ERR_FORMAT, pf->path, pf->data_off + pf->data_size,
                  "the compressed records end inside a record (%zu bytes left)",
                  pf->inflated_len - pf->inflated_walked);
    return rc;
}
