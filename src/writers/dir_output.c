/* dir_output.c - the files of a converter whose output is a directory (CTF, uftrace data).
 *
 * The converter is handed a fresh temporary directory (core/convert_to.c makes it through
 * tg_output: it is renamed to its name when everything was written and removed on any
 * failure), and creates its files in it with these calls, whose errors name the file and
 * the system's reason.  Files are created 0666 and folders 0777: the umask decides. */
#include "writers/dir_output.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int tg_dir_file_create(const char *dir, const char *name, tg_error **err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return tg_err(err, TG_ERR_USAGE, "%s/%s: path too long", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666); /* the umask decides */
    if (fd < 0)
        return tg_err(err, TG_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    return fd;
}

int tg_dir_file_write(int fd, const char *name, const void *p, size_t n, tg_error **err)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return tg_err(err, TG_ERR_IO, "%s: write failed: %s", name,
                          w < 0 ? strerror(errno) : "no progress");
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int tg_dir_file_put(const char *dir, const char *name, const void *p, size_t n, tg_error **err)
{
    int fd = tg_dir_file_create(dir, name, err);
    if (fd < 0)
        return fd;
    int rc = tg_dir_file_write(fd, name, p, n, err);
    if (close(fd) < 0 && rc >= 0)
        rc = tg_err(err, TG_ERR_IO, "%s: close failed: %s", name, strerror(errno));
    return rc;
}
