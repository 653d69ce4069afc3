/* output_file.h - an output written under a temporary name in its folder and renamed when
 * it is whole, so that a reader never finds half of one.
 *
 * One of three shapes: a file (FILE.tmp-XXXXXX beside FILE, renamed to FILE), a folder
 * (DIR.tmp-XXXXXX renamed to DIR), or numbered parts named after a path (written in a
 * temporary folder beside them, each moved out at the end).  What is not committed is
 * removed, by the owner on failure or, from a signal handler, by tg_io_out_remove, which uses
 * only system calls (no allocation, no stdio) and reads a state published last.  An output
 * that is not a regular file (a device, a pipe, /dev/stdout) is written in place, never
 * renamed over; /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the process's
 * own descriptors, duplicated rather than opened again (so a file the shell opened for
 * appending is not truncated).  Files and folders are created with 0666 and 0777 and so
 * follow the umask.  io sits below core's errors: failures are tg_io_fault (core/output.c
 * makes the errors). */
#ifndef TG_OUTPUT_FILE_H
#define TG_OUTPUT_FILE_H

#include "io/mapped_file.h"

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

typedef enum tg_out_state {
    TG_OUT_NEW = 0, /* nothing created */
    TG_OUT_FILE,    /* temp is a temporary file, fd open on it */
    TG_OUT_INPLACE, /* fd open on path itself (not a regular file): nothing to rename */
    TG_OUT_DIR,     /* temp is a temporary folder */
    TG_OUT_PARTS,   /* temp is a temporary folder holding the parts under their own names */
    TG_OUT_DONE,    /* committed or removed */
} tg_out_state;

typedef struct tg_outfile {
    char path[PATH_MAX]; /* where it goes (a link's target when it replaces what one names) */
    char dir[PATH_MAX];  /* the folder of path */
    char temp[PATH_MAX]; /* what is written now */
    volatile sig_atomic_t state; /* tg_out_state; set after temp is whole */
    int fd;
    bool force; /* replace an existing file */
} tg_outfile;

/* 0, or TG_ERR_USAGE (path too long, empty). */
int tg_io_out_init(tg_outfile *o, const char *path, bool force, tg_io_fault *why);
/* The output as one file: an fd open for writing (owned by o), or a negative status. */
int tg_io_out_file(tg_outfile *o, tg_io_fault *why);
/* The output as a folder: a fresh temporary folder in o->temp, or a negative status. */
int tg_io_out_dir(tg_outfile *o, tg_io_fault *why);
/* One part named name (a file name, no '/') beside path: an fd the caller closes, or a
 * negative status (TG_ERR_USAGE when a file of that name exists and force is off). */
int tg_io_out_part(tg_outfile *o, const char *name, tg_io_fault *why);
/* Renames what was written to its place (never over a folder, over a file only with force)
 * and closes the file.  0 or a negative status; nothing is left on failure. */
int tg_io_out_commit(tg_outfile *o, tg_io_fault *why);
/* Closes and removes what is not committed.  Async-signal-safe. */
void tg_io_out_remove(tg_outfile *o);

#endif
