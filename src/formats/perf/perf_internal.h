/* perf_internal.h - the shared state of the perf.data reader.
 *
 * A perf.data file (tools/perf/Documentation/perf.data-file-format.txt in the Linux tree) is
 * a header, the event attributes (perf_event_attr with the sample ids of each), a data
 * section of records (perf_event_header: type, misc, size) and feature sections after the
 * data (hostname, OS release, event names, the tracepoints' formats, ...).  In pipe mode
 * (`perf record -o -`) the header is 16 bytes and everything comes as records: attributes,
 * tracing data and features are user records (type >= 64) among the kernel's.
 *
 * The pieces: perf_file.c checks the header and reads the attributes (probe, open, close),
 * perf_features.c the feature sections and user records that describe the session,
 * perf_scan.c walks the records once at open (user records, compressed records inflated,
 * damage found), perf_order.c yields the events in the order perf's ordered_events
 * delivers them (sorted per FINISHED_ROUND), perf_sample.c decodes a sample's fields by its
 * attribute's sample_type and the other records' fields. */
#ifndef TG_PERF_INTERNAL_H
#define TG_PERF_INTERNAL_H

#include "core/format_api.h"
#include "core/file_input.h"
#include "core/grow.h"
#include "core/hash.h"
#include "common/linux/event_format.h"
#include "common/linux/print_fmt.h"
#include "io/byte_reader.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- constants of include/uapi/linux/perf_event.h and tools/perf/util/event.h -------- */

enum {
    PERF_REC_MMAP = 1,
    PERF_REC_LOST = 2,
    PERF_REC_COMM = 3,
    PERF_REC_EXIT = 4,
    PERF_REC_THROTTLE = 5,
    PERF_REC_UNTHROTTLE = 6,
    PERF_REC_FORK = 7,
    PERF_REC_READ = 8,
    PERF_REC_SAMPLE = 9,
    PERF_REC_MMAP2 = 10,
    PERF_REC_AUX = 11,
    PERF_REC_ITRACE_START = 12,
    PERF_REC_LOST_SAMPLES = 13,
    PERF_REC_SWITCH = 14,
    PERF_REC_SWITCH_CPU_WIDE = 15,
    PERF_REC_NAMESPACES = 16,
    PERF_REC_KSYMBOL = 17,
    PERF_REC_BPF_EVENT = 18,
    PERF_REC_CGROUP = 19,
    PERF_REC_TEXT_POKE = 20,
    PERF_REC_AUX_OUTPUT_HW_ID = 21,
    PERF_REC_KERNEL_MAX = 22,
    /* perf's own records */
    PERF_REC_HEADER_ATTR = 64,
    PERF_REC_HEADER_EVENT_TYPE = 65,
    PERF_REC_HEADER_TRACING_DATA = 66,
    PERF_REC_HEADER_BUILD_ID = 67,
    PERF_REC_FINISHED_ROUND = 68,
    PERF_REC_ID_INDEX = 69,
    PERF_REC_AUXTRACE_INFO = 70,
    PERF_REC_AUXTRACE = 71,
    PERF_REC_AUXTRACE_ERROR = 72,
    PERF_REC_THREAD_MAP = 73,
    PERF_REC_CPU_MAP = 74,
    PERF_REC_STAT_CONFIG = 75,
    PERF_REC_STAT = 76,
    PERF_REC_STAT_ROUND = 77,
    PERF_REC_EVENT_UPDATE = 78,
    PERF_REC_TIME_CONV = 79,
    PERF_REC_HEADER_FEATURE = 80,
    PERF_REC_COMPRESSED = 81,
    PERF_REC_FINISHED_INIT = 82,
    PERF_REC_USER_MAX = 83,
};

enum {
    PERF_ST_IP = 1u << 0,
    PERF_ST_TID = 1u << 1,
    PERF_ST_TIME = 1u << 2,
    PERF_ST_ADDR = 1u << 3,
    PERF_ST_READ = 1u << 4,
    PERF_ST_CALLCHAIN = 1u << 5,
    PERF_ST_ID = 1u << 6,
    PERF_ST_CPU = 1u << 7,
    PERF_ST_PERIOD = 1u << 8,
    PERF_ST_STREAM_ID = 1u << 9,
    PERF_ST_RAW = 1u << 10,
    PERF_ST_BRANCH_STACK = 1u << 11,
    PERF_ST_REGS_USER = 1u << 12,
    PERF_ST_STACK_USER = 1u << 13,
    PERF_ST_WEIGHT = 1u << 14,
    PERF_ST_DATA_SRC = 1u << 15,
    PERF_ST_IDENTIFIER = 1u << 16,
    PERF_ST_TRANSACTION = 1u << 17,
    PERF_ST_REGS_INTR = 1u << 18,
    PERF_ST_PHYS_ADDR = 1u << 19,
    PERF_ST_AUX = 1u << 20,
    PERF_ST_CGROUP = 1u << 21,
    PERF_ST_DATA_PAGE_SIZE = 1u << 22,
    PERF_ST_CODE_PAGE_SIZE = 1u << 23,
    PERF_ST_WEIGHT_STRUCT = 1u << 24,
};

enum {
    PERF_RF_TOTAL_TIME_ENABLED = 1,
    PERF_RF_TOTAL_TIME_RUNNING = 2,
    PERF_RF_ID = 4,
    PERF_RF_GROUP = 8,
    PERF_RF_LOST = 16,
};

#define PERF_BRANCH_HW_INDEX (1u << 17) /* branch_sample_type: the stack starts with hw_idx */
#define PERF_MISC_MMAP_BUILD_ID (1u << 14)
#define PERF_MISC_CPUMODE_MASK 7u
#define PERF_MISC_BUILD_ID_SIZE (1u << 15) /* a build_id_event's size byte is set */

/* The feature bits of the header (HEADER_* in tools/perf/util/header.h). */
enum {
    PERF_FEAT_TRACING_DATA = 1,
    PERF_FEAT_BUILD_ID = 2,
    PERF_FEAT_HOSTNAME = 3,
    PERF_FEAT_OSRELEASE = 4,
    PERF_FEAT_VERSION = 5,
    PERF_FEAT_ARCH = 6,
    PERF_FEAT_NRCPUS = 7,
    PERF_FEAT_CPUDESC = 8,
    PERF_FEAT_CPUID = 9,
    PERF_FEAT_TOTAL_MEM = 10,
    PERF_FEAT_CMDLINE = 11,
    PERF_FEAT_EVENT_DESC = 12,
    PERF_FEAT_SAMPLE_TIME = 21,
    PERF_FEAT_CLOCKID = 23,
    PERF_FEAT_COMPRESSED = 27,
    PERF_FEAT_CLOCK_DATA = 29,
    PERF_FEAT_BITS = 256,
};

/* ---- the session --------------------------------------------------------------------- */

typedef struct perf_attr {
    uint32_t type, size;
    uint64_t config, sample_period, sample_type, read_format, flags;
    uint64_t branch_sample_type, sample_regs_user, sample_regs_intr;
    uint32_t sample_stack_user;
    int32_t clockid;
    bool sample_id_all, use_clockid;
    const char *name;         /* event name ("cpu-clock", "sched:sched_switch") */
    const struct perf_tp *tp; /* a tracepoint's format (NULL: not a tracepoint, or none stored) */
    tg_event_class *cls;
    uint64_t first_id; /* the first sample id listed for it (the order of EVENT_DESC) */
} perf_attr;

/* A run of records to walk: the data section, or a compressed record's inflated records. */
typedef struct perf_segment {
    uint64_t start, end; /* in the map (file) or in the inflated buffer (inflated) */
    bool inflated;
    uint64_t file_offset; /* inflated: the COMPRESSED record's offset in the file */
} perf_segment;

/* A tracepoint's format from the tracing data: its id and "system:name". */
typedef struct perf_tp {
    uint32_t id;
    const char *name;   /* "system:event", as perf names it */
    const char *system; /* "system" */
    const char *event;  /* "event" */
    tg_evf fmt;         /* its fields (common/linux/event_format.h) */
    tg_pf_event pfe;    /* its print fmt, as perf script prints the sample's payload */
} perf_tp;

typedef struct perf_file {
    tg_trace *trace;
    const char *path;
    tg_map map;
    bool big_endian;
    bool pipe;
    uint64_t data_off, data_size; /* the records (pipe: from 16 to the end) */
    uint64_t attr_size;
    uint64_t features[4];
    perf_attr *attrs;
    size_t n_attrs, cap_attrs;
    tg_hash id_to_attr; /* sample id -> index into attrs */
    /* the first attribute's layout of ids in non-sample records (perf's id_pos/is_pos) */
    int sample_id_len;
    /* features */
    const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid, *cmdline;
    uint32_t nr_cpus_avail, nr_cpus_online;
    uint64_t total_mem;
    uint64_t first_sample_time, last_sample_time;
    bool have_sample_time;
    uint32_t comp_type, comp_level, comp_ratio, comp_mmap_len;
    bool have_compressed;
    uint64_t clockid_res_ns;
    uint32_t clock_data_id;
    uint64_t clock_wall_ns, clock_ref_ns;
    bool have_clock_data;
    const char *tracing_version;
    bool tracing_big_endian; /* the raw data's byte order, as the tracing data says */
    tg_pf_env pf_env;        /* what the tracepoints' print fmts read beside the raw data */
    perf_tp *tps;
    size_t n_tps, cap_tps;
    /* records */
    tg_event_class *rec_cls[PERF_REC_KERNEL_MAX];
    uint64_t rec_count[PERF_REC_USER_MAX]; /* records of each type, at open */
    perf_segment *segs;
    size_t n_segs, cap_segs;
    uint8_t *inflated; /* every compressed record's records, one after another */
    size_t inflated_len, inflated_cap;
    size_t inflated_walked; /* the inflated records walked (a record may go on in the next) */
    tg_error *open_errors;  /* damage found at open: reported after the events before it */
} perf_file;

/* Readers in the file's byte order. */
static inline uint16_t perf_u16(const perf_file *pf, const uint8_t *p)
{
    return pf->big_endian ? tg_be16(p) : tg_le16(p);
}
static inline uint32_t perf_u32(const perf_file *pf, const uint8_t *p)
{
    return pf->big_endian ? tg_be32(p) : tg_le32(p);
}
static inline uint64_t perf_u64(const perf_file *pf, const uint8_t *p)
{
    return pf->big_endian ? tg_be64(p) : tg_le64(p);
}

/* perf_file.c */
/* An attribute as the file stores it (n bytes at p, at file offset off): appended to attrs
 * with its ids; 0, or an error. */
int perf_attr_add(perf_file *pf, const uint8_t *p, size_t n, uint64_t off, tg_error **err);
int perf_attr_add_ids(perf_file *pf, size_t attr, const uint8_t *ids, size_t n_ids);
/* The attribute of a sample id (the first when the file has one, or the id is unknown). */
const perf_attr *perf_attr_of_id(const perf_file *pf, uint64_t id);
/* Names the attributes that EVENT_DESC did not name, and makes their classes. */
int perf_attrs_finish(perf_file *pf, tg_error **err);

/* perf_features.c */
int perf_read_features(perf_file *pf, tg_error **err);
/* One feature's data (a feature section, or a HEADER_FEATURE record's body). */
int perf_feature_parse(perf_file *pf, int feat, const uint8_t *p, size_t n, uint64_t off,
                       tg_error **err);
/* build_id_event records (the BUILD_ID feature, a pipe's HEADER_BUILD_ID record): each
 * added to the trace's build ids; 0, -1 when damaged, or TG_ERR_NOMEM. */
int perf_build_ids_parse(perf_file *pf, const uint8_t *p, size_t n);
/* The tracing data (the tracepoints' formats): their ids and names. */
int perf_tracing_data_parse(perf_file *pf, const uint8_t *p, size_t n, uint64_t off,
                            tg_error **err);
const perf_tp *perf_tp_by_id(const perf_file *pf, uint64_t id);
/* The trace's attributes (host, clock, tracer, env) from the features. */
int perf_attrs_fill_trace(perf_file *pf);

/* perf_scan.c: the records walked once at open */
int perf_scan(perf_file *pf, tg_error **err);
const uint8_t *perf_segment_base(const perf_file *pf, const perf_segment *s);
const char *perf_record_name(uint32_t type);

/* perf_order.c */
int perf_add_stream(perf_file *pf, tg_error **err);

/* perf_sample.c: a sample's fields by its attribute's sample_type */
typedef struct perf_sample {
    uint64_t present; /* PERF_ST_* bits found */
    uint64_t ip, time, addr, id, stream_id, period, weight, data_src, transaction, phys_addr,
        cgroup, data_page_size, code_page_size;
    uint32_t pid, tid, cpu;
    const uint8_t *callchain; /* nr u64 */
    uint64_t callchain_nr;
    const uint8_t *raw;
    uint32_t raw_size;
    const uint8_t *read, *branch, *regs_user, *stack_user, *regs_intr, *aux;
    size_t read_len, branch_len, regs_user_len, stack_user_len, regs_intr_len, aux_len;
} perf_sample;

/* Decodes the sample record body (after the 8-byte header): 0, or -1 when it runs past n. */
int perf_sample_parse(const perf_file *pf, const perf_attr *a, const uint8_t *p, size_t n,
                      perf_sample *s);
/* The sample_id trailer of a non-sample record (the first attribute's layout): the time
 * (UINT64_MAX: none), id, cpu, pid/tid; false when the record carries none. */
bool perf_sample_id(const perf_file *pf, const uint8_t *rec, size_t size, uint64_t *time,
                    uint64_t *id, int32_t *cpu, int32_t *pid, int32_t *tid);
/* The attribute a sample record belongs to. */
const perf_attr *perf_sample_attr(const perf_file *pf, const uint8_t *rec, size_t size);
size_t perf_field_count(const tg_event *ev, tg_scope scope);
int perf_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out);
/* A tracepoint sample's payload as its print fmt prints it (perf script's trace field): 1,
 * or 0 for other events. */
int perf_render(const tg_event *ev, tg_buf *out);

/* tg_event.aux slots */
enum {
    PERF_AUX_TYPE = 0, /* record type */
    PERF_AUX_ATTR = 1, /* samples: the attribute's index */
    PERF_AUX_MISC = 2, /* the header's misc */
};

#endif
