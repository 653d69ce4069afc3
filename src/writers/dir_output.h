/* dir_output.h - writing a converter's output directory: files created in the temporary
 * directory that tg_convert_dir made, whole writes with errors that name the file. */
#ifndef TG_DIR_OUTPUT_H
#define TG_DIR_OUTPUT_H

#include "traceglot.h"

/* Creates dir/name for writing (it must not exist); the fd, or a negative status. */
int tg_dir_file_create(const char *dir, const char *name, tg_error **err);
/* Writes all n bytes of p to fd; `name` is the file, for the message on failure. */
int tg_dir_file_write(int fd, const char *name, const void *p, size_t n, tg_error **err);
/* Creates dir/name holding the n bytes of p. */
int tg_dir_file_put(const char *dir, const char *name, const void *p, size_t n, tg_error **err);

#endif
