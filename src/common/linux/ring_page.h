/* ring_page.h - the Linux kernel ring-buffer page format, decoded in place.
 *
 * ftrace's per-CPU ring buffer is what trace-cmd stores in trace.dat and what uftrace stores
 * in kernel-cpuN.dat: pages that start with a header (timestamp, commit = bytes used plus
 * the missed-events flags) laid out as the kernel's events/header_page file says, followed by
 * 4-byte aligned records whose 32-bit header holds type_len (5 bits) and a time delta
 * (27 bits): type_len 1..28 gives the data length in words, 0 puts the length in the next
 * word, 29 is padding, 30 extends the time delta, 31 sets an absolute timestamp.  Both
 * readers use this one decoder (the ftrace format, and the uftrace format for its kernel
 * data), so it lives in core.  No allocation; every read is checked against the page. */
#ifndef TG_RING_PAGE_H
#define TG_RING_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tg_rb_layout {
    uint32_t page_size;
    uint32_t ts_off, commit_off, commit_size, data_off;
    int long_size; /* of the traced kernel: the size of a stored missed-events count */
    bool big_endian;
} tg_rb_layout;

/* Fills the offsets from the text of events/header_page (the fields timestamp, commit and
 * data); page_size, long_size and big_endian are the caller's.  0, or -1 when the text does
 * not describe a usable page header. */
int tg_rb_layout_parse(tg_rb_layout *l, const char *text, size_t len);

/* In the text of a tracefs event format file (events/SYSTEM/EVENT/format): the offset and
 * size of the field called name (0), or -1 when there is none; and the event's "ID:" line
 * (0, or -1 when missing). */
int tg_rb_format_field(const char *text, size_t len, const char *name, uint32_t *off,
                       uint32_t *size);
int tg_rb_format_id(const char *text, size_t len, uint32_t *id);

typedef struct tg_rb_page {
    const tg_rb_layout *l;
    const uint8_t *data; /* the page's record area */
    size_t commit;       /* bytes of records */
    size_t next;         /* offset of the next record header in data */
    uint64_t ts;         /* the running timestamp */
    int64_t lost;        /* events lost before this page: 0 none, -1 some (count unknown) */
} tg_rb_page;

/* Starts decoding a page of l->page_size bytes: 1 when it holds records, 0 when it is
 * empty, -1 when its commit runs past the page (*commit gets the bad value). */
int tg_rb_page_load(tg_rb_page *p, const tg_rb_layout *l, const uint8_t *page, size_t *commit);

typedef struct tg_rb_record {
    uint64_t ts;
    const uint8_t *data;
    size_t len;
    size_t pos; /* offset of the record header in the record area */
} tg_rb_record;

enum {
    TG_RB_END = 0, /* no more records in the page */
    TG_RB_RECORD = 1,
    TG_RB_BAD_HEADER = -1, /* a record header runs past the commit */
    TG_RB_BAD_EXTEND = -2, /* a time extend runs past the commit */
    TG_RB_BAD_LENGTH = -3, /* a record runs past the commit (r->len: its length) */
};

/* The next data record (time extends, absolute stamps and padding are applied and skipped).
 * After an error the rest of the page is skipped; r->pos tells where the damage is. */
int tg_rb_page_next(tg_rb_page *p, tg_rb_record *r);

#endif
