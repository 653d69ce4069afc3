/* file_input.h - opening a reader's input files with errors the user reads: the io layer's
 * mapping and whole-file reads (io/mapped_file.h), their faults made into tg_errors
 * ("path: cannot open: No such file or directory").
 *
 * io sits below core and knows nothing of the error builder (the build refuses io -> core),
 * so it reports a status, errno and what it was doing; these two calls are what readers
 * use. */
#ifndef TG_FILE_INPUT_H
#define TG_FILE_INPUT_H

#include "io/mapped_file.h"
#include "traceglot.h"

#include <stddef.h>

/* 0, or TG_ERR_IO with "path: <what>: <strerror>" in *err. */
int tg_map_open(tg_map *m, const char *path, tg_error **err);

/* Reads the file into a malloc'ed NUL-terminated buffer (*len excludes the NUL).  Refuses
 * files larger than max_size with TG_ERR_LIMIT. */
int tg_read_text_file(const char *path, size_t max_size, char **out, size_t *len, tg_error **err);

#endif
