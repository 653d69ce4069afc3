/* fuzz_tracedat.h - a trace-cmd trace.dat (file version 6) cut into the units the ftrace
 * fuzz targets replace, and put together again around a replaced one.
 *
 * Version 6 is a fixed sequence of sized pieces (the file header with header_page and
 * header_event, the ftrace formats, the event formats, kallsyms, printk formats, cmdlines,
 * the cpu count and options, then the flyrecord table and the ring-buffer pages); only the
 * flyrecord table holds file offsets.  So any piece can be replaced by bytes of another
 * length: the pieces before and after are copied and the table is rewritten to point at the
 * pages where they now start (page aligned, as trace-cmd writes them).  The templates are
 * the hand-built and recorded fixtures of tests/data/ftrace without instances (whose BUFFER
 * options hold file offsets too). */
#ifndef TG_FUZZ_TRACEDAT_H
#define TG_FUZZ_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TG_FUZZ_DAT_MAX_FORMATS = 512 };

typedef struct tg_fuzz_dat {
    const uint8_t *file;
    size_t size;
    bool big_endian;
    uint32_t page_size, cpus;
    /* offsets of the pieces, each ending where the next begins */
    size_t header_end;   /* [0, header_end): magic .. header_event's text */
    size_t ftrace_end;   /* the ftrace formats */
    size_t events_end;   /* the event systems and their formats */
    size_t kallsyms_end; /* u32 size + text */
    size_t printk_end;   /* u32 size + text */
    size_t cmdlines_end; /* u64 size + text */
    size_t options_end;  /* u32 cpu count, "options  " blocks: up to "flyrecord" */
    size_t data_start;   /* the first cpu's pages (the table follows options_end) */
    /* every format text (ftrace and event formats): its u64 size is 8 bytes before at */
    size_t fmt_at[TG_FUZZ_DAT_MAX_FORMATS], fmt_len[TG_FUZZ_DAT_MAX_FORMATS];
    size_t n_fmts;
} tg_fuzz_dat;

/* Cuts file (kept by the caller) into its pieces; 0, or -1 when it is no v6 flyrecord file
 * this harness can take apart. */
int tg_fuzz_dat_parse(tg_fuzz_dat *d, const uint8_t *file, size_t size);
/* One replacement: bytes [from, to) of the template become p[0..n). */
typedef struct tg_fuzz_dat_edit {
    size_t from, to;
    const void *p;
    size_t n;
} tg_fuzz_dat_edit;
/* Writes to path the file with the edits made (in file order, not overlapping, all before
 * options_end) and the flyrecord table rewritten for the new layout; 0, or -1. */
int tg_fuzz_dat_write_edits(const tg_fuzz_dat *d, const tg_fuzz_dat_edit *e, size_t n_edits,
                            const char *path);
/* The same with one edit. */
int tg_fuzz_dat_write(const tg_fuzz_dat *d, size_t from, size_t to, const void *p, size_t n,
                      const char *path);
/* The edit that empties kallsyms, printk formats and cmdlines (the targets that fuzz event
 * formats keep their template's open cheap with it; addresses then print as numbers). */
tg_fuzz_dat_edit tg_fuzz_dat_no_symbols(const tg_fuzz_dat *d);
/* The format whose text says "ID: id" (its index), or -1. */
int tg_fuzz_dat_format_by_id(const tg_fuzz_dat *d, long id);
/* The template TG_FUZZ_DATA/ftrace/name read (*file, malloc'ed) and cut; aborts when it is
 * missing or cannot be cut, since a target that fuzzes nothing must not pass. */
void tg_fuzz_dat_load(const char *name, tg_fuzz_dat *d, uint8_t **file);
/* tg_fuzz_dat_write(_edits) to this process's scratch trace.dat, which is then exercised. */
void tg_fuzz_dat_run(const tg_fuzz_dat *d, size_t from, size_t to, const void *p, size_t n);
void tg_fuzz_dat_run_edits(const tg_fuzz_dat *d, const tg_fuzz_dat_edit *e, size_t n_edits);
/* A u64 in the file's byte order at p. */
void tg_fuzz_dat_put64(const tg_fuzz_dat *d, uint8_t *p, uint64_t v);

#endif
