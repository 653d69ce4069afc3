/* input_spool.h - standard input, pipes and other non-seekable inputs copied into an
 * unlinked temporary file that the readers open as a file (input_spool.c). */
#ifndef TG_INPUT_SPOOL_H
#define TG_INPUT_SPOOL_H

#include "traceglot.h"

#include <stddef.h>

/* When path is "-" or names neither a regular file nor a folder: copies it into an unlinked
 * file under TMPDIR, *fd its descriptor (the caller closes it when done) and buf the path
 * to open it by; returns 1.  0: path is read in place (*fd -1).  <0: the error in *err. */
int tg_spool_input(const char *path, int *fd, char *buf, size_t size, tg_error **err);

#endif
