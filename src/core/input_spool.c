/* input_spool.c - a trace given as "-" (standard input), /dev/stdin, a pipe or a shell's
 * <(...) is read into an unlinked temporary file under TMPDIR first, so that every format
 * reads it as it reads a file: the readers map their input and seek in it (trace.dat's
 * sections, the CTF index, XRay's header), which a pipe cannot do.
 *
 * The copy is bounded by the disk (a full disk is an error naming TMPDIR and the bytes
 * copied), never by memory.  The file has no name from the start where the kernel allows it
 * (O_TMPFILE), else it is unlinked at once, so nothing is left whatever ends the command;
 * the readers open it through /proc/self/fd while the set holds the descriptor. */
#include "core/error_internal.h"
#include "core/input_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPOOL_CHUNK (1u << 20)

/* Does path need the copy: "-", or neither a regular file nor a folder? */
static bool needs_spool(const char *path)
{
    if (strcmp(path, "-") == 0)
        return true;
    struct stat st;
    if (stat(path, &st) < 0)
        return false; /* the opening says why */
    return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int temp_file(const char *dir, tg_error **err)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    char name[4096];
    snprintf(name, sizeof name, "%s/traceglot-input-XXXXXX", dir);
    int fd2 = mkstemp(name);
    if (fd2 < 0)
        return tg_err_at(err, TG_ERR_IO, dir, TG_NO_OFFSET,
                         "cannot create a temporary file to hold the input: %s", strerror(errno));
    unlink(name);
    return fd2;
}

int tg_spool_input(const char *path, int *fd_out, char *buf, size_t size, tg_error **err)
{
    *fd_out = -1;
    if (!needs_spool(path))
        return 0;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int in = strcmp(path, "-") == 0 ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot open for reading: %s",
                         strerror(errno));
    int fd = temp_file(dir, err);
    if (fd < 0) {
        close(in);
        return fd;
    }
    char *chunk = malloc(SPOOL_CHUNK);
    int rc = chunk ? 0 : tg_err(err, TG_ERR_NOMEM, "out of memory");
    uint64_t copied = 0;
    for (ssize_t n; rc == 0 && (n = read(in, chunk, SPOOL_CHUNK)) != 0;) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = tg_err_at(err, TG_ERR_IO, path, copied, "cannot read: %s", strerror(errno));
            break;
        }
        for (ssize_t off = 0; rc == 0 && off < n;) {
            ssize_t w = write(fd, chunk + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                rc = tg_err_at(err, TG_ERR_IO, dir, TG_NO_OFFSET,
                               "cannot hold the input of %s in a temporary file after %llu "
                               "bytes: %s",
                               path, (unsigned long long)copied, strerror(errno));
            else
                off += w;
        }
        copied += (uint64_t)n;
    }
    free(chunk);
    close(in);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    *fd_out = fd;
    snprintf(buf, size, "/proc/self/fd/%d", fd);
    return 1;
}
