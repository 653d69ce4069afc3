/* ftrace_internal.h - the shared state of the ftrace trace.dat reader.
 *
 * A trace.dat file (trace-cmd file versions 6 and 7) holds metadata (ring-buffer header
 * layouts, event format files, kallsyms, printk formats, saved cmdlines, options) and the raw
 * ring-buffer pages of every CPU of every trace instance.  The pieces of the reader share the
 * types below: ftrace_file.c reads the metadata (ftrace_options.c its options),
 * ftrace_eventfmt.c parses format files (print fmts are compiled and evaluated by the engine
 * perf.data's reader shares, common/linux/print_fmt.h), ftrace_plugins.c holds the renderings trace-cmd's plugins substitute for
 * some events, ftrace_ring.c decodes pages into events.
 * Everything lives as long as the trace and is allocated from the trace's arena or owned by
 * the ft_file; nothing is allocated per event. */
#ifndef TG_FTRACE_INTERNAL_H
#define TG_FTRACE_INTERNAL_H

#include "core/format_api.h"
#include "io/byte_reader.h"
#include "core/file_input.h"
#include "common/linux/event_format.h"
#include "common/linux/print_fmt.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- event formats --------------------------------------------------------------------- */

/* the fields of a format, as the shared parser gives them (common/linux/event_format.h) */
enum {
    FT_F_SIGNED = TG_EVF_SIGNED,
    FT_F_ARRAY = TG_EVF_ARRAY,
    FT_F_DYNAMIC = TG_EVF_DYNAMIC,
    FT_F_RELATIVE = TG_EVF_RELATIVE,
    FT_F_STRING = TG_EVF_STRING,
    FT_F_POINTER = TG_EVF_POINTER,
    FT_F_LONG = TG_EVF_LONG,
};

typedef tg_evf_field ft_field;

struct ft_file;

/* The fields the function tracers' printers read on every record, found once per format. */
enum {
    FT_KF_PID,
    FT_KF_FUNC,
    FT_KF_DEPTH,
    FT_KF_CALLTIME,
    FT_KF_RETTIME,
    FT_KF_IP,
    FT_KF_PARENT_IP,
    FT_KF_CALL_SITE,
    FT_KF_COUNT
};

typedef struct ft_event {
    uint32_t id;
    const char *system, *name;
    ft_field *common; /* common_* fields */
    size_t n_common;
    ft_field *fields; /* the event's own fields */
    size_t n_fields;
    const char *print_fmt; /* source text after "print fmt: " (NULL when absent) */
    tg_pf_event pfe;       /* the format as the print-fmt engine renders it */
    int plugin;            /* FT_PLUGIN_* */
    bool is_func;          /* funcgraph_entry/exit: events fill addr and depth */
    tg_event_class *cls;
    struct ft_file *file;
    const ft_field *kf[FT_KF_COUNT]; /* FT_KF_* fields (NULL: the format has none) */
} ft_event;

enum {
    FT_PLUGIN_NONE = 0,
    FT_PLUGIN_SCHED_SWITCH,
    FT_PLUGIN_SCHED_WAKEUP,
    FT_PLUGIN_HRTIMER_EXPIRE,
    FT_PLUGIN_HRTIMER_START,
    FT_PLUGIN_KMEM_CALLSITE,
    FT_PLUGIN_FUNCTION,
    FT_PLUGIN_FGRAPH_ENTRY,
    FT_PLUGIN_FGRAPH_EXIT,
    FT_PLUGIN_TLB_FLUSH,
    FT_PLUGIN_FUTEX,
    FT_PLUGIN_KERNEL_STACK,
};

/* ---- symbols as libtraceevent looks them up ------------------------------------------- */

typedef struct ft_printk {
    uint64_t addr;
    const char *fmt;
} ft_printk;

typedef struct ft_comm {
    int32_t pid;
    const char *comm;
    size_t len;
} ft_comm;

/* ---- trace data: one per CPU per instance ------------------------------------------------- */

typedef struct ft_cpu_data {
    int cpu;
    uint64_t offset, size; /* in the file (compressed size when compressed) */
    uint64_t usize;        /* uncompressed size (= size when not compressed) */
    bool truncated;        /* the file ends (or a chunk breaks) before size: error there */
    uint32_t n_chunks;     /* compressed: readable chunks */
    /* the data overlaps this cpu's (ftrace_ring.c): not read, reported; claimed its size */
    const struct ft_cpu_data *overlaps;
    uint64_t claimed;
} ft_cpu_data;

typedef struct ft_buffer {
    const char *name; /* "" for the top instance */
    const char *clock;
    uint32_t page_size;
    uint64_t section_offset;
    ft_cpu_data *cpus;
    size_t n_cpus;
    bool compressed;
    bool latency; /* BUFFER_TEXT: latency text, no pages */
} ft_buffer;

typedef struct ft_section {
    uint16_t id, flags;
    uint64_t offset, size;
    const char *desc;
} ft_section;

typedef struct ft_fn_chain {
    const char **names;
    size_t size, cap;
} ft_fn_chain;

enum { FT_FUNC_HITS = 512, FT_COMM_HITS = 64 };

typedef struct ft_file {
    tg_trace *trace;
    const char *path;
    tg_map map;
    int version;
    bool big_endian;
    int long_size;
    tg_pf_env pf_env; /* what the print fmts read beside the record: byte order, symbols */
    uint32_t page_size;
    char compression[32], compression_version[32];
    int comp_kind;   /* 0 none, 1 zstd, 2 zlib */
    bool raw;        /* render raw fields (trace-cmd report -R) */
    bool no_plugins; /* libtraceevent's plugins not loaded (trace-cmd report -N) */

    /* header_page / header_event */
    uint32_t hp_ts_off, hp_commit_off, hp_commit_size, hp_data_off;

    /* the event formats, and by id: common_type is the kernel's 16-bit event type, so a
     * record's format is one load from an array indexed by it (no lookup) */
    ft_event **events;
    size_t n_events, cap_events;
    ft_event **by_id; /* n_by_id entries, NULL where no format has the id */
    size_t n_by_id, cap_by_id;
    uint32_t type_off, type_size; /* common_type */
    uint32_t pid_off, pid_size;   /* common_pid */
    bool have_type;

    void *kallsyms_text; /* the decompressed kallsyms the names point into (v7), or NULL */
    ft_printk *printk;   /* sorted by addr */
    size_t n_printk;
    ft_comm *comms; /* sorted by pid; mutable (plugins register comms) */
    size_t n_comms, cap_comms;
    bool comms_looked_up; /* a non-zero pid was looked up (see ft_comm_register) */
    /* ft_comm_of's last answers by pid (events interleave a few tasks), dropped when a
     * comm is added */
    struct ft_comm_hit {
        bool valid;
        int pid;
        const char *comm;
        size_t len;
    } comm_hits[FT_COMM_HITS];

    /* ft_find_func's last answers by address (a kmem trace names the same few hundred call
     * sites over and over), valid while the symbol table is the one they were taken from;
     * mutable like the comm cache: the consumer's thread only */
    struct ft_func_hit {
        uint64_t addr;
        const tg_symbol *sym;
    } func_hits[FT_FUNC_HITS];
    const tg_symbol *func_hits_syms;
    size_t func_hits_n;

    int cpus; /* cpu count of the file */
    ft_buffer *buffers;
    size_t n_buffers, cap_buffers;
    ft_section *sections;
    size_t n_sections, cap_sections;
    /* option text kept for describe() */
    const char *uname, *tc_version, *trace_clock, *date, *offset_str;
    const char **cpustat;
    size_t n_cpustat;
    int64_t ts_offset; /* OFFSET option, added to every timestamp */
    uint32_t tsc_mult, tsc_shift;
    uint64_t tsc_offset;
    bool have_tsc2nsec;
    uint64_t traceid;
    bool have_traceid;
    const char *options_seen; /* comma list of option names, for describe */
    /* trace-cmd's function plugin (ftrace_function.c): options, per-cpu name chains */
    bool fn_parent, fn_indent, fn_offset;
    bool fg_tailprint, fg_depth; /* trace-cmd's fgraph options (ftrace_fgraph.c) */
    struct ft_fn_chain *fn_chains;
    size_t n_fn_chains, cap_fn_chains;
    struct ft_ahead *ahead; /* compressed cpu data inflated ahead (ftrace_ahead.c), or NULL */
    char *strings;          /* v7 STRINGS section contents (heap) */
    size_t strings_len, strings_cap;
} ft_file;

/* ftrace_attrs.c: the trace's clock (named clock), host, tracer and env from the header and
 * options.  0 or TG_ERR_NOMEM. */
int ft_attrs_fill(ft_file *f, const char *clock);

/* ftrace_file.c: an error at a file offset; a cpu's data clamped to the mapped file */
int ft_fail(ft_file *f, tg_error **err, uint64_t off, const char *what);
void ft_clamp_cpu(ft_file *f, ft_cpu_data *cd);

/* ftrace_options.c */
enum {
    OPT_DONE = 0,
    OPT_DATE = 1,
    OPT_CPUSTAT = 2,
    OPT_BUFFER = 3,
    OPT_TRACECLOCK = 4,
    OPT_UNAME = 5,
    OPT_HOOK = 6,
    OPT_OFFSET = 7,
    OPT_CPUCOUNT = 8,
    OPT_VERSION = 9,
    OPT_PROCMAPS = 10,
    OPT_TRACEID = 11,
    OPT_TIME_SHIFT = 12,
    OPT_GUEST = 13,
    OPT_TSC2NSEC = 14,
    OPT_STRINGS = 15,
    OPT_HEADER_INFO = 16,
    OPT_FTRACE_EVENTS = 17,
    OPT_EVENT_FORMATS = 18,
    OPT_KALLSYMS = 19,
    OPT_PRINTK = 20,
    OPT_CMDLINES = 21,
    OPT_BUFFER_TEXT = 22,
    OPT_MAX_KNOWN = 22,
};

/* Offsets of the v7 metadata sections, from options 16..21. */
typedef struct v7_refs {
    uint64_t off[OPT_MAX_KNOWN + 1];
} v7_refs;
ft_buffer *ft_add_buffer(ft_file *f);
int ft_append_strings(ft_file *f, const uint8_t *p, size_t n);
/* One option (refs: v7's section offsets, NULL in v6). */
int ft_parse_option(ft_file *f, uint16_t id, const uint8_t *p, uint32_t n, uint64_t at,
                    v7_refs *refs, tg_error **err);
int ft_read_options_v6(ft_file *f, tg_reader *r, tg_error **err);

/* ftrace_eventfmt.c */
int ft_parse_format(ft_file *f, const char *system, const char *text, size_t len, uint64_t file_off,
                    tg_error **err);
int ft_parse_header_page(ft_file *f, const char *text, size_t len);
const ft_field *ft_find_field(const ft_event *e, const char *name);
/* tep_get_field_val: a field of 1, 2, 4 or 8 bytes inside the record, zero-extended */
/* ftrace_fgraph.c: a funcgraph_exit's calltime and rettime on the trace's clock
 * (tg_event_call_times), when they count it. */
bool ft_fgraph_call_times(const ft_file *f, const ft_event *e, const uint8_t *data, size_t size,
                          int64_t *call_ns, int64_t *ret_ns);
bool ft_field_u64(const ft_event *e, const uint8_t *data, size_t size, const char *name,
                  uint64_t *v);
/* The event format of a record's common_type (NULL: none); inline, it runs per record. */
static inline ft_event *ft_event_by_id(const ft_file *f, uint32_t id)
{
    return id < f->n_by_id ? f->by_id[id] : NULL;
}
/* A number of 1, 2, 4 or 8 bytes in the file's byte order; inline, it runs per field. */
static inline uint64_t ft_read_num(const ft_file *f, const uint8_t *p, uint32_t size)
{
    return tg_evf_read_num(f->big_endian, p, size);
}
/* Field fl of the record (1, 2, 4 or 8 bytes): false when fl is NULL or does not fit.
 * Inline: the function and function_graph plugins read several per record. */
static inline bool ft_field_read_u64(const ft_event *e, const ft_field *fl, const uint8_t *data,
                                     size_t size, uint64_t *v)
{
    if (!fl || (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8) ||
        fl->offset + (size_t)fl->size > size)
        return false;
    *v = ft_read_num(e->file, data + fl->offset, fl->size);
    return true;
}
/* The FT_KF_* field of the record: false when the format has none or it does not fit. */
static inline bool ft_kf_u64(const ft_event *e, const uint8_t *data, size_t size, int kf,
                             uint64_t *v)
{
    return ft_field_read_u64(e, e->kf[kf], data, size, v);
}

/* The event's text as trace-cmd prints it: its plugin's, else the print fmt's (or the raw
 * fields with trace-cmd report -R).  1, or TG_RENDER_WITH_NEXT. */
int ft_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size, tg_buf *out);

/* ftrace_plugins.c */
int ft_plugin_for(const char *system, const char *name);
/* 1: caller continues with the print fmt; 0: done; TG_RENDER_WITH_NEXT: done, and the text
 * shows the stream's next record too (a function_graph leaf). */
int ft_plugin_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size,
                     tg_buf *out);

/* ftrace_function.c: trace-cmd's function plugin */
void ft_function_options(ft_file *f, const char *list); /* "function:parent=1,..." or NULL */
int ft_function_render(const ft_event *e, int cpu, const uint8_t *data, size_t size, tg_buf *out);
void ft_function_free(ft_file *f);

/* ftrace_fgraph.c: trace-cmd's function_graph output */
int ft_fgraph_entry_render(const ft_event *e, const tg_event *ev, const uint8_t *data, size_t size,
                           tg_buf *out);
int ft_fgraph_exit_render(const ft_event *e, const uint8_t *data, size_t size, tg_buf *out);
/* A funcgraph record's func and depth as the event's addr and depth (left at their defaults
 * when the record is too short for them). */
void ft_func_fields(const ft_event *e, const uint8_t *data, size_t size, tg_event *ev);

/* ftrace_symbols.c */
/* kallsyms live in the trace's symbol table, in libtraceevent's order (its func map) */
const tg_symbol *ft_find_func(const ft_file *f, uint64_t addr);
const char *ft_find_printk(const ft_file *f, uint64_t addr);
const char *ft_comm_of(const ft_file *f, int pid, size_t *len);
void ft_comm_register(ft_file *f, int pid, const char *comm, size_t len);
int ft_parse_kallsyms(ft_file *f, const char *text, size_t len);
/* the same on a writable text ending with '\n', cut in place (names point into it) */
int ft_parse_kallsyms_in_place(ft_file *f, char *text, size_t len);
int ft_parse_printk(ft_file *f, const char *text, size_t len);
int ft_parse_cmdlines(ft_file *f, const char *text, size_t len);

/* ftrace_ring.c */
int ft_add_streams(ft_file *f, tg_error **err);
/* The record that trace-cmd reads after ev (the next of ev's instance in time order) when it
 * is the next of ev's own cpu: 1 with its data, else 0.  Looks only: the printer that shows
 * it as part of ev drops it (tg_stream_drop_next). */
int ft_ring_peek_next(const tg_event *ev, const uint8_t **data, size_t *len);

/* ftrace_report.c: what trace-cmd report prints about the file (--stat, -E, -P) */
void ft_report_stat(const ft_file *f, tg_buf *out, bool all_buffers);
int ft_report_part(const tg_trace *t, const char *part, tg_buf *out, tg_error **err);
const char *ft_report_symbol(const tg_trace *t, uint64_t addr);
const char *ft_report_field_name(const tg_event_class *c, tg_scope scope, size_t i);

/* ftrace_decompress.c: one-shot decompression of a metadata section */
int ft_decompress(int kind, const uint8_t *src, size_t srclen, uint8_t *dst, size_t dstlen);
int ft_decompress_with(int kind, void *ctx, const uint8_t *src, size_t srclen, uint8_t *dst,
                       size_t dstlen);
/* Decompresses into *buf (capacity *cap, grown as tg_grow does, and only as far as the
 * output really goes): 0, -1 when it does not decompress to exactly dstlen bytes,
 * TG_ERR_NOMEM. */
int ft_decompress_into(int kind, void *ctx, const uint8_t *src, size_t srclen, uint8_t **buf,
                       size_t *cap, size_t dstlen);
void *ft_zstd_ctx_new(void);
void ft_zstd_ctx_free(void *ctx);

/* ftrace_ahead.c: the compressed chunks of each cpu (a lane) inflated ahead of the reader on
 * a second thread, a few per lane.  ft_ahead_take hands out a lane's next chunk (in order,
 * from 0) with ft_decompress_into's status, or TG_ERR_LIMIT for a chunk larger than
 * max_chunk (not inflated); its data stays valid until the lane's next take. */
typedef struct ft_ahead ft_ahead;
ft_ahead *ft_ahead_new(int kind, bool big_endian, size_t max_chunk);
/* base: the cpu's data in the map; n_chunks: its readable chunks.  The lane, or -1. */
int ft_ahead_add_lane(ft_ahead *a, const uint8_t *base, uint32_t n_chunks);
int ft_ahead_take(ft_ahead *a, int lane, const uint8_t **data);
void ft_ahead_free(ft_ahead *a);

#endif
