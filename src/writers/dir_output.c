/* dir_output.c - conversions whose output is a directory (CTF, uftrace data): tg_convert_dir.
 *
 * A reader must never find a half-written directory that looks whole, so the converter
 * writes into a fresh temporary directory beside the target ("DIR.tmp-XXXXXX", on the same
 * file system) and the whole directory is renamed to DIR only when everything was written
 * and the input had no damage.  On any failure the files written so far are removed and the
 * error says what went wrong; DIR is never touched.  The clean-up removes the temporary
 * directory's tree (CTF output of several traces has one subdirectory per trace). */
#include "writers/dir_output.h"
#include "core/error_internal.h"
#include "core/consumer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tg_dir_file_create(const char *dir, const char *name, tg_error **err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return tg_err(err, TG_ERR_USAGE, "%s/%s: path too long", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
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

/* Removes the temporary directory and everything in it, its subdirectories too (never
 * following links: a link is removed, not what it names). */
static void remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX];
        struct stat st;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
                continue;
            if (depth < 8 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(path, depth + 1);
            else
                unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static const struct tg_converter *find_converter(const char *to)
{
    for (size_t i = 0; to && tg_converter_list[i]; i++)
        if (strcmp(tg_converter_list[i]->name, to) == 0)
            return tg_converter_list[i];
    return NULL;
}

int tg_convert_writes_dir(const char *to)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return TG_ERR_USAGE;
    return c->convert_file ? 2 : c->convert_dir != NULL;
}

int tg_convert_dir(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                   const char *dir, tg_error **err)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return tg_err(err, TG_ERR_USAGE, "unknown output format '%s'", to ? to : "(none)");
    if (!c->convert_dir)
        return tg_err(err, TG_ERR_USAGE, "'%s' is written to a file, not a directory", to);
    TG_TRY(tg_options_check(opts, TG_OWNER_CONVERTER, to, "filter", "convert", err));
    struct stat st;
    if (lstat(dir, &st) == 0)
        return tg_err(err, TG_ERR_USAGE, "%s: already exists; not overwriting it", dir);
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", dir) >= sizeof tmp)
        return tg_err(err, TG_ERR_USAGE, "%s: path too long", dir);
    if (!mkdtemp(tmp))
        return tg_err(err, TG_ERR_IO, "%s: cannot create a temporary directory: %s", tmp,
                      strerror(errno));
    tg_iter *it = tg_iter_new(set, f, err);
    int rc = it ? c->convert_dir(set, it, opts, tmp, err)
                : (err && *err ? tg_error_status(*err) : TG_ERR_NOMEM);
    if (it) {
        /* damage in the input: the output would look whole but lack events; refuse it */
        const tg_error *e = tg_iter_errors(it);
        if (rc >= 0 && e) {
            for (; e; e = tg_error_next(e))
                tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
            rc = TG_ERR_FORMAT;
        }
        tg_iter_free(it);
    }
    if (rc >= 0 && rename(tmp, dir) < 0)
        rc = tg_err(err, TG_ERR_IO, "%s: cannot rename %s to it: %s", dir, tmp, strerror(errno));
    if (rc < 0) {
        remove_tree(tmp, 0);
        tg_err_wrap(err, "%s: nothing written", dir);
    }
    return rc < 0 ? rc : 0;
}
