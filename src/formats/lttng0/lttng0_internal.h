/* lttng0_internal.h - the legacy LTTng 0.x reader's shared types (trace format 2.3 to 2.6).
 *
 * A trace is a folder of tracefiles named <channel>_<cpu>.  A tracefile is a run of blocks
 * (sub-buffers), each starting with a 68-byte header (cycle counts at its begin and end, the
 * trace magic 0x00D6B7ED that fixes the byte order, version, pointer size, alignment, start
 * time and frequency, data and block sizes, lost-event and corrupt-block counters), then
 * events.  Event payloads follow the printf-like format strings of kernel markers, which the
 * metadata channel declares (core_marker_id: channel, name, id, type sizes, alignment;
 * core_marker_format: the format).  Open reads the block headers of every tracefile and the
 * whole metadata channel; each tracefile is then one stream decoded in place. */
#ifndef TG_LTTNG0_INTERNAL_H
#define TG_LTTNG0_INTERNAL_H

#include "core/format_api.h"
#include "io/byte_reader.h"
#include "core/file_input.h"
#include "io/read_window.h"

#include <stdbool.h>
#include <stdint.h>

#define LT0_MAGIC 0x00D6B7EDu
#define LT0_BLOCK_HEADER_SIZE 68u
#define LT0_TSC_BITS 27u /* low TSC bits in the compact event header word */
#define LT0_TSC_MASK ((1u << LT0_TSC_BITS) - 1u)
#define LT0_ID_SIZE_TSC 29u /* header word ids with extended fields after them */
#define LT0_ID_SIZE 30u
#define LT0_ID_ONLY 31u
#define LT0_MAX_FIELDS 64u     /* fields of one marker format (real ones have < 20) */
#define LT0_MAX_MARKERS 65536u /* event ids are 16-bit */

/* ---- marker formats ------------------------------------------------------------------- */

typedef enum lt0_type { LT0_SINT = 1, LT0_UINT, LT0_PTR, LT0_STRING } lt0_type;

typedef struct lt0_field {
    const char *name;
    const char *conv; /* the C conversion as the marker wrote it: "%lu", "0x%lX", "%p" */
    uint8_t type;     /* lt0_type */
    uint8_t size;     /* bytes (1, 2, 4, 8); 0 for strings */
    uint8_t align;    /* bytes the field is aligned to (1: packed) */
    bool net_order;   /* "#n": network byte order */
} lt0_field;

typedef struct lt0_sizes {
    uint8_t int_size, long_size, ptr_size, size_t_size, alignment;
} lt0_sizes;

typedef struct lt0_marker {
    const char *channel, *name, *format;
    uint16_t id;
    bool have_id;
    lt0_sizes sizes;
    lt0_field *fields;
    size_t n_fields;
    size_t largest_align;
    size_t fixed_size; /* payload bytes without alignment, when no strings */
    bool has_string;
    tg_event_class *cls;
} lt0_marker;

/* An integer field of 1, 2, 4 or 8 bytes. */
static inline uint64_t lt0_read_uint(const uint8_t *p, unsigned size, bool big_endian)
{
    switch (size) {
    case 1: return p[0];
    case 2: return big_endian ? tg_be16(p) : tg_le16(p);
    case 4: return big_endian ? tg_be32(p) : tg_le32(p);
    default: return big_endian ? tg_be64(p) : tg_le64(p);
    }
}

/* Parses a marker format into fields (arena allocations).  0, or TG_ERR_FORMAT with *why. */
int lt0_format_parse(tg_arena *a, const char *format, const lt0_sizes *sz, lt0_field **fields,
                     size_t *n_fields, const char **why);
/* Fills largest_align, fixed_size, has_string from the fields. */
void lt0_marker_layout(lt0_marker *m);
/* Size of the payload at data[0..avail) that starts at block offset base_off (alignment is
 * relative to the block), or -1 when it runs past avail. */
long lt0_payload_size(const lt0_marker *m, const uint8_t *data, size_t avail, size_t base_off);
/* Offset of field i inside the payload (-1 past avail); *end gets the field's end. */
long lt0_field_offset(const lt0_marker *m, size_t i, const uint8_t *data, size_t avail,
                      size_t base_off, size_t *end);

/* ---- blocks ----------------------------------------------------------------------------- */

typedef struct lt0_block {
    size_t off; /* in the file */
    uint32_t sb_size, data_size;
    uint64_t begin_tsc, end_tsc;
    uint32_t events_lost, subbuf_corrupt;
    bool cut; /* the file ends inside it: its partial last event is not damage */
} lt0_block;

typedef struct lt0_header {
    bool big_endian;
    uint8_t major, minor, arch_size, alignment;
    uint64_t start_sec, start_usec, start_freq;
    uint32_t freq_scale;
} lt0_header;

typedef struct lt0_channel lt0_channel;

typedef struct lt0_tracefile {
    const char *name; /* "kernel_0" */
    const char *path;
    int cpu;
    lt0_channel *chan;
    tg_map map;
    lt0_header hdr;
    lt0_block *blocks; /* sorted by begin cycle count */
    size_t n_blocks;
    tg_error *damage; /* damage found at open (a list), delivered after the events */
} lt0_tracefile;

struct lt0_channel {
    const char *name;
    lt0_marker **by_id; /* event id -> marker (NULL: none) */
    size_t n_ids;
};

typedef struct lt0_trace {
    lt0_tracefile *files;
    size_t n_files;
    lt0_channel **chans;
    size_t n_chans, cap_chans;
    lt0_marker **markers; /* every marker, in declaration order */
    size_t n_markers, cap_markers;
    lt0_header hdr; /* of the metadata's first block: the trace's clock */
    uint64_t start_tsc;
    int64_t start_ns;        /* start_tsc on the trace clock, as LTTV computes it */
    double ns_per_cycle_num; /* 1e9 * freq_scale */
    tg_event_class *lost_cls;
} lt0_trace;

/* Reads the block index of a tracefile (tf->map mapped).  Damage after the first block is
 * kept in tf->damage; a first block that is not LTTng 0.x fails. */
int lt0_blocks_index(lt0_tracefile *tf, tg_error **err);
int lt0_header_parse(const uint8_t *p, size_t n, lt0_header *h, const char **why);

/* ---- decoding ------------------------------------------------------------------------- */

/* A cursor over one tracefile's events; also used for the metadata channel at open. */
typedef struct lt0_cursor {
    const lt0_trace *lt;
    const lt0_tracefile *tf;
    size_t block;                /* index in tf->blocks */
    size_t pos, end;             /* offsets in the block: next event, end of data */
    uint64_t tsc;                /* full cycle count of the last event */
    uint32_t lost_seen;          /* events_lost of the previous block */
    const tg_error *damage_next; /* the next open-time error to deliver at the end */
    bool in_block, damage_started;
    tg_window *win; /* over tf->map, or NULL: blocks are read in ring order, which is file
                       order but for the wrap-around.  A pointer: a batch copies the cursor
                       per event */
} lt0_cursor;

typedef struct lt0_raw {
    const lt0_marker *m;
    uint64_t tsc;
    size_t off;      /* of the event header, in the file */
    size_t data_off; /* of the payload, in the block */
    const uint8_t *data;
    size_t size;
    uint16_t id;
    uint64_t lost; /* for lost-event records (m == NULL) */
} lt0_raw;

void lt0_cursor_init(lt0_cursor *c, const lt0_trace *lt, const lt0_tracefile *tf, tg_window *win);
/* 1 event, 2 lost-event record, 0 end, <0 damage (the cursor skips to the next block). */
int lt0_cursor_next(lt0_cursor *c, lt0_raw *r, tg_error **err);
int64_t lt0_tsc_to_ns(const lt0_trace *lt, uint64_t tsc);

int lt0_stream_add(tg_trace *t, lt0_trace *lt, lt0_tracefile *tf);
int lt0_metadata_read(tg_trace *t, lt0_trace *lt, tg_error **err);
lt0_channel *lt0_channel_get(lt0_trace *lt, const char *name, size_t len);

#endif
