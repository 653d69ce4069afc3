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

/* 0, or TG_ERR_IO with "path: <strerror>" in *err. */
int tg_map_open(tg_map *m, const char *path, tg_error **err);
void tg_map_close(tg_map *m);

/* Reads the file into a malloc'ed NUL-terminated buffer (*len excludes the NUL).  Refuses
 * files larger than max_size with TG_ERR_LIMIT. */
int tg_read_text_file(const char *path, size_t max_size, char **out, size_t *len, tg_error **err);

/* path joined with name, into the arena-free malloc'ed string the caller frees. */
char *tg_path_join(const char *dir, const char *name);

#endif
