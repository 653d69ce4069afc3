/* mapped_file.h - read-only memory-mapped input files.
 *
 * Trace files are mapped, never copied: readers decode in place.  An empty file maps to a
 * valid zero-length region.  Also reads a whole small text file (metadata, task.txt) into a
 * NUL-terminated heap buffer, for parsers that want a C string. */
#ifndef TG_MAPPED_FILE_H
#define TG_MAPPED_FILE_H

#include "traceglot.h"

#include <stddef.h>
#include <stdint.h>

typedef struct tg_map {
    const uint8_t *data;
    size_t size;
    void *base_; /* private: what munmap needs */
    size_t maplen_;
} tg_map;

/* What went wrong, for the layer above to make an error of (io sits below core's error
 * builder, so it reports a status, the system's errno and what it was doing). */
typedef struct tg_io_fault {
    int status;       /* TG_ERR_IO, TG_ERR_LIMIT or TG_ERR_NOMEM */
    int sys_errno;    /* 0: none */
    const char *what; /* "cannot open", "not a regular file", ... */
    size_t size;      /* TG_ERR_LIMIT: the file's size */
} tg_io_fault;

/* 0, or a negative status with *why filled.  core/file_input.h turns these into errors
 * ("path: cannot open: No such file or directory"): readers call tg_map_open there. */
int tg_io_map(tg_map *m, const char *path, tg_io_fault *why);
void tg_map_close(tg_map *m);

/* Reads the file into a malloc'ed NUL-terminated buffer (*len excludes the NUL).  Refuses
 * files larger than max_size with TG_ERR_LIMIT. */
int tg_io_read_text(const char *path, size_t max_size, char **out, size_t *len, tg_io_fault *why);

/* path joined with name, into the arena-free malloc'ed string the caller frees. */
char *tg_path_join(const char *dir, const char *name);

#endif
