/* xray_internal.h - what the pieces of the LLVM XRay reader share.
 *
 * An XRay log is a 32-byte file header followed either by fixed 32-byte records (basic,
 * "naive" mode, versions 1-3) or by per-thread buffers of 16-byte metadata records and 8-byte
 * function records (flight data recorder, FDR, versions 1-5).  The reader maps the file,
 * indexes it once at open (basic: runs of one thread's records; FDR: one block per thread
 * buffer) and creates its streams in the order llvm-xray loads the records, so that the
 * merge's tie-break (stream order) and an analysis walking the streams one after the other
 * both see llvm-xray's own record order.  Events are decoded in place from the mapping.
 *
 * Per event the reader fills: ts (ns from the TSC and the header's cycle frequency), addr
 * (the XRay function id), cpu/pid/tid, offset, and in aux[]: the raw TSC, llvm's record
 * kind (XRAY_REC_*), the record's "type" word and the number of call arguments; data/size
 * point at the call-argument records or the custom event payload. */
#ifndef TG_XRAY_INTERNAL_H
#define TG_XRAY_INTERNAL_H

#include "core/format_api.h"
#include "core/grow.h"
#include "core/hash.h"
#include "core/file_input.h"
#include "io/read_window.h"

#include <stdbool.h>
#include <stdint.h>

/* llvm::xray::RecordTypes, the "kind" of a record. */
enum xray_rec_kind {
    XRAY_REC_ENTER = 0,
    XRAY_REC_EXIT = 1,
    XRAY_REC_TAIL_EXIT = 2,
    XRAY_REC_ENTER_ARG = 3,
    XRAY_REC_CUSTOM = 4,
    XRAY_REC_TYPED = 5,
    XRAY_REC_KINDS
};

/* aux[] slots of an event. */
enum { XRAY_AUX_TSC = 0, XRAY_AUX_KIND = 1, XRAY_AUX_TYPE = 2, XRAY_AUX_NARGS = 3 };

/* The 32-byte file header. */
typedef struct xray_header {
    uint16_t version;
    uint16_t type; /* 0 basic ("naive"), 1 FDR */
    bool constant_tsc, nonstop_tsc;
    uint64_t cycle_frequency;
    uint64_t fdr_buffer_size; /* FDR v1: the fixed size of a thread buffer */
} xray_header;

#define XRAY_HEADER_SIZE 32u
#define XRAY_BASIC_RECORD 32u
#define XRAY_FDR_META 16u
#define XRAY_FDR_FUNC 8u

/* The instrumentation map: function id -> address -> symbol. */
typedef struct xray_func {
    uint64_t addr;
    const char *name;           /* llvm-xray's SymbolOrNumber text */
    const char *symbol;         /* the symbol as the ELF file names it (mangled), or NULL */
    const char *location;       /* llvm-xray's FileLineAndColumn text */
    const char *dwarf_location; /* from the line table, when there is one */
} xray_func;

/* One sled of the xray_instr_map section, as `llvm-xray extract` lists it. */
typedef struct xray_sled {
    uint64_t address, function; /* as the binary's file addresses */
    int32_t id;                 /* its function's id */
    uint8_t kind, version;      /* 0 enter, 1 exit, 2 tail exit, 3 log-args enter, 4 custom */
    bool always;                /* always-instrument */
} xray_sled;

typedef struct xray_instr_map {
    xray_func *funcs; /* index = function id; funcs[0] unused */
    size_t n_funcs;   /* highest id + 1 */
    xray_sled *sleds; /* in section order (malloc'ed, as funcs) */
    size_t n_sleds;
} xray_instr_map;

/* Loads BIN's xray_instr_map section and names from its symbol table into map (memory
 * from arena).  0, or a negative status with *err ("BIN: no xray_instr_map section"). */
int xray_instr_map_load(xray_instr_map *map, const char *bin, tg_arena *arena, tg_error **err);
/* Frees what xray_instr_map_load allocated (not the arena's). */
void xray_instr_map_free(xray_instr_map *map);
/* `llvm-xray extract BIN` (symbolize: -s; demangle: the default, --no-demangle off): the
 * map's sleds as llvm-xray's YAML, appended to out (xray_extract.c).  0 or a negative status. */
int xray_extract_yaml(const char *bin, bool symbolize, bool demangle, tg_buf *out, tg_error **err);
/* `llvm-xray fdr-dump LOG`: every record of the log in file order (xray_fdr_dump.c). */
int xray_fdr_dump(const char *path, tg_buf *out, tg_error **err);
/* The "file:line:column" text llvm-xray shows for a function id ("(unknown)" when the id
 * is not in the map or there is no map).  Names: xray_event_func_name. */
const char *xray_func_location(const xray_instr_map *map, int64_t id);
/* Demangles an Itanium C++ name the way llvm-symbolizer prints it; NULL when name is not a
 * mangled name.  The result is malloc'ed. */
char *xray_demangle(const char *name);

/* One FDR block: a thread buffer (NewBuffer .. end of its extents). */
typedef struct xray_block {
    uint64_t start, end; /* file offsets: first record after BufferExtents, end */
    uint64_t pid;        /* from its PID record (v3+), the tid (v2), 0 (v1) */
    int32_t tid;
    bool has_wall;
    uint64_t wall_sec;
    uint32_t wall_nsec;
    int64_t sticky_func;  /* function id llvm-xray's expander carries into the block */
    uint16_t sticky_type; /* record "type" word carried likewise (from typed events) */
    int64_t last_func;    /* the block's last function id, -1 when none */
    int32_t last_type;    /* the block's last typed-event type, -1 when none */
    uint32_t thread;      /* index of its (pid, tid) thread, in first-appearance order */
} xray_block;

/* One run of a basic log: consecutive records of the same thread. */
typedef struct xray_run {
    uint64_t start, end;
} xray_run;

/* The trace's private state. */
typedef struct xray_file {
    tg_map map;
    xray_header hdr;
    xray_instr_map imap;
    bool have_imap;
    const char *imap_path; /* the instrumented binary (--instr-map): its functions' module */
    tg_event_class *cls[XRAY_REC_KINDS];
    uint64_t data_end;     /* end of the records that can be read (truncation) */
    tg_error *open_errors; /* damage found while indexing, reported by stream 0 */
    tg_hash unknown;       /* "#ID" names of ids outside the map: id -> name pointer */
} xray_file;

static inline int64_t xray_tsc_to_ns(const xray_file *xf, uint64_t tsc)
{
    uint64_t f = xf->hdr.cycle_frequency;
    if (f == 0 || f == 1000000000u)
        return (int64_t)tsc;
    unsigned __int128 v = (unsigned __int128)tsc * 1000000000u / f;
    return (int64_t)(uint64_t)v;
}

/* The header check shared by probe and open: 0 and *h filled, or a message in why. */
int xray_header_parse(const uint8_t *p, size_t n, xray_header *h, const char **why);

/* Stream builders: index the records after the header and add the streams. */
int xray_basic_open(tg_trace *t, xray_file *xf, tg_error **err);
int xray_fdr_open(tg_trace *t, xray_file *xf, tg_error **err);

/* Orders FDR blocks the way llvm-xray's loader visits them: threads in the iteration order
 * of its hash map keyed by (pid, tid), then each thread's blocks sorted by its wall-clock
 * comparison with libstdc++'s std::sort.  order receives block indices. */
int xray_llvm_block_order(const xray_block *blocks, size_t n, size_t *order);

/* xray_attrs.c: the trace's clock (cycle counter, frequency, wall-time marker), host,
 * tracer and env (the header).  0 or TG_ERR_NOMEM. */
int xray_attrs_fill(tg_trace *t, const xray_file *xf);

/* Shared stream ops helpers (xray_format.c). */
size_t xray_field_count(const tg_event *ev, tg_scope scope);
int xray_field(const tg_event *ev, tg_scope scope, size_t i, tg_value *out);
const char *xray_event_func_name(const tg_event *ev);
const char *xray_event_func_module(const tg_event *ev);

#endif
