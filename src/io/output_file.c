/* output_file.c - outputs under a temporary name, renamed when whole (see output_file.h).
 *
 * The removal is written for a signal handler as much as for an error return: it walks the
 * temporary folder with getdents64 and unlinkat on a stack buffer, so it neither allocates
 * nor takes a lock that the interrupted code may hold. */
#define _GNU_SOURCE
#include "io/output_file.h"
#include "traceglot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* The signals that end the command (and remove its outputs) are held while an output is
 * created or committed, so that a handler never meets one half made or half moved. */
static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static int fault(tg_io_fault *why, int status, int sys_errno, const char *what)
{
    *why = (tg_io_fault){.status = status, .sys_errno = sys_errno, .what = what};
    return status;
}

int tg_io_out_init(tg_outfile *o, const char *path, bool force, tg_io_fault *why)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->force = force;
    size_t n = path ? strlen(path) : 0;
    if (!n)
        return fault(why, TG_ERR_USAGE, 0, "no output path");
    if (n + 16 >= sizeof o->path) /* room for ".tmp-XXXXXX" */
        return fault(why, TG_ERR_USAGE, ENAMETOOLONG, "the output path is too long");
    memcpy(o->path, path, n + 1);
    /* the folder: what is before the last '/' ("/" for "/x", "." for "x") */
    const char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(o->dir, ".");
    else if (slash == path)
        strcpy(o->dir, "/");
    else
        snprintf(o->dir, sizeof o->dir, "%.*s", (int)(slash - path), path);
    return 0;
}

/* base + ".tmp-" + 6 random letters into out. */
static void temp_name(char *out, size_t size, const char *base)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^
                     (uint64_t)(uintptr_t)out;
        for (size_t i = 0; i < sizeof r; i++, x >>= 6)
            r[i] = (unsigned char)x;
    }
    char suffix[7];
    for (size_t i = 0; i < sizeof r; i++)
        suffix[i] = letters[r[i] % (sizeof letters - 1)];
    suffix[6] = 0;
    snprintf(out, size, "%s.tmp-%s", base, suffix);
}

/* The descriptor a name of the process's own descriptors stands for, or -1. */
static int own_descriptor(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *n = strncmp(path, "/dev/fd/", 8) == 0          ? path + 8
                    : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                               : NULL;
    if (!n || !*n)
        return -1;
    char *end;
    long fd = strtol(n, &end, 10);
    return *end || fd < 0 || fd > 1 << 20 ? -1 : (int)fd;
}

/* Opens path itself when it is not a regular file (1, fd set), says there is nothing there
 * (0), or fails (<0). */
static int open_in_place(tg_outfile *o, tg_io_fault *why)
{
    int own = own_descriptor(o->path);
    if (own >= 0) {
        o->fd = fcntl(own, F_DUPFD_CLOEXEC, 3);
        if (o->fd < 0)
            return fault(why, TG_ERR_IO, errno, "cannot write the output");
        o->state = TG_OUT_INPLACE;
        return 1;
    }
    struct stat st, lst;
    if (lstat(o->path, &lst) < 0)
        return errno == ENOENT ? 0 : fault(why, TG_ERR_IO, errno, "cannot create the output file");
    if (stat(o->path, &st) < 0) /* a link to nothing: it is there, and replaced with force */
        st = lst;
    if (S_ISDIR(st.st_mode))
        return fault(why, TG_ERR_USAGE, EISDIR, "is a folder, not a file");
    if (!S_ISREG(st.st_mode)) { /* a device, a pipe, a socket: written in place */
        o->fd = open(o->path, O_WRONLY | O_CLOEXEC | (S_ISFIFO(st.st_mode) ? 0 : O_TRUNC));
        if (o->fd < 0)
            return fault(why, TG_ERR_IO, errno, "cannot write the output");
        o->state = TG_OUT_INPLACE;
        return 1;
    }
    if (!o->force)
        return fault(why, TG_ERR_USAGE, EEXIST, "already exists (--force replaces it)");
    if (S_ISLNK(lst.st_mode)) { /* replace the file the link names, not the link */
        char *real = realpath(o->path, NULL);
        if (real && strlen(real) + 16 < sizeof o->path) {
            tg_io_fault ignored;
            tg_io_out_init(o, real, o->force, &ignored);
        }
        free(real);
    }
    return 0;
}

int tg_io_out_file(tg_outfile *o, tg_io_fault *why)
{
    if (o->state != TG_OUT_NEW)
        return fault(why, TG_ERR_USAGE, 0, "the output is already open");
    int rc = open_in_place(o, why);
    if (rc != 0)
        return rc < 0 ? rc : o->fd;
    sigset_t old;
    block_signals(&old); /* a handler sees the temporary file only with its state */
    for (int tries = 0; tries < 100; tries++) {
        temp_name(o->temp, sizeof o->temp, o->path);
        o->fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (o->fd >= 0 || errno != EEXIST)
            break;
    }
    int saved = errno;
    if (o->fd >= 0)
        o->state = TG_OUT_FILE;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (o->fd < 0)
        return fault(why, TG_ERR_IO, saved, "cannot create the output file");
    return o->fd;
}

/* A fresh temporary folder beside path in o->temp: 0 or a negative status. */
static int make_temp_dir(tg_outfile *o, tg_io_fault *why)
{
    for (int tries = 0; tries < 100; tries++) {
        temp_name(o->temp, sizeof o->temp, o->path);
        if (mkdir(o->temp, 0777) == 0)
            return 0;
        if (errno != EEXIST)
            break;
    }
    return fault(why, TG_ERR_IO, errno, "cannot create the output folder");
}

int tg_io_out_dir(tg_outfile *o, tg_io_fault *why)
{
    if (o->state != TG_OUT_NEW)
        return fault(why, TG_ERR_USAGE, 0, "the output is already open");
    struct stat st;
    if (lstat(o->path, &st) == 0)
        return fault(why, TG_ERR_USAGE, EEXIST,
                     S_ISDIR(st.st_mode) ? "already exists (a folder is never replaced)"
                                         : "already exists, and is not a folder");
    if (errno != ENOENT)
        return fault(why, TG_ERR_IO, errno, "cannot create the output folder");
    sigset_t old;
    block_signals(&old);
    int rc = make_temp_dir(o, why);
    if (rc == 0)
        o->state = TG_OUT_DIR;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int tg_io_out_part(tg_outfile *o, const char *name, tg_io_fault *why)
{
    if (o->state == TG_OUT_NEW) {
        sigset_t old;
        block_signals(&old);
        int rc = make_temp_dir(o, why);
        if (rc == 0)
            o->state = TG_OUT_PARTS;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (rc < 0)
            return rc;
    } else if (o->state != TG_OUT_PARTS) {
        return fault(why, TG_ERR_USAGE, 0, "the output is not written in parts");
    }
    char final[PATH_MAX], in_temp[PATH_MAX];
    if (strchr(name, '/') ||
        (size_t)snprintf(final, sizeof final, "%s/%s", o->dir, name) >= sizeof final ||
        (size_t)snprintf(in_temp, sizeof in_temp, "%s/%s", o->temp, name) >= sizeof in_temp)
        return fault(why, TG_ERR_USAGE, ENAMETOOLONG, "bad output part name");
    struct stat st;
    if (lstat(final, &st) == 0 && (!o->force || S_ISDIR(st.st_mode)))
        return fault(why, TG_ERR_USAGE, EEXIST,
                     S_ISDIR(st.st_mode) ? "a part's name is a folder"
                                         : "a part already exists (--force replaces it)");
    int fd = open(in_temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        return fault(why, TG_ERR_IO, errno, "cannot create the output part");
    return fd;
}

/* rename, refusing to replace unless force (RENAME_NOREPLACE, or a link where the file
 * system has no such rename). */
static int move(const char *from, const char *to, bool force)
{
    if (force)
        return rename(from, to);
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    struct stat st;
    if (lstat(to, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

/* ---- removal: system calls only, for signal handlers too ---- */

struct dirent64_rec {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Removes the entries of the folder open as fd, folders inside it to depth 8. */
static void empty_dir(int fd, int depth)
{
    char buf[2048] __attribute__((aligned(8)));
    for (int pass = 0; pass < 1000; pass++) {
        if (lseek(fd, 0, SEEK_SET) < 0)
            return;
        ssize_t n = getdents64(fd, buf, sizeof buf);
        if (n <= 0)
            return;
        int removed = 0;
        for (ssize_t at = 0; at < n;) {
            const struct dirent64_rec *e = (const void *)(buf + at);
            at += e->reclen;
            if (e->name[0] == '.' && (!e->name[1] || (e->name[1] == '.' && !e->name[2])))
                continue;
            if (unlinkat(fd, e->name, 0) == 0) {
                removed = 1;
                continue;
            }
            if ((errno == EISDIR || errno == EPERM) && depth < 8) {
                int sub = openat(fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0) {
                    empty_dir(sub, depth + 1);
                    close(sub);
                }
                if (unlinkat(fd, e->name, AT_REMOVEDIR) == 0)
                    removed = 1;
            }
        }
        if (!removed)
            return;
    }
}

static void remove_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        empty_dir(fd, 0);
        close(fd);
    }
    rmdir(dir);
}

void tg_io_out_remove(tg_outfile *o)
{
    tg_out_state state = (tg_out_state)o->state;
    o->state = TG_OUT_DONE;
    if (o->fd >= 0) {
        close(o->fd);
        o->fd = -1;
    }
    if (state == TG_OUT_FILE)
        unlink(o->temp);
    else if (state == TG_OUT_DIR || state == TG_OUT_PARTS)
        remove_tree(o->temp);
}

/* Moves every part out of the temporary folder; 0, or -1 with errno after the parts moved
 * before the failure were removed again (they are whole, but the set is not). */
static int move_parts(tg_outfile *o)
{
    DIR *d = opendir(o->temp);
    if (!d)
        return -1;
    struct dirent *e;
    char from[PATH_MAX], to[PATH_MAX];
    char **moved = NULL;
    size_t n_moved = 0;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        if ((size_t)snprintf(from, sizeof from, "%s/%s", o->temp, e->d_name) >= sizeof from ||
            (size_t)snprintf(to, sizeof to, "%s/%s", o->dir, e->d_name) >= sizeof to) {
            errno = ENAMETOOLONG;
            rc = -1;
            break;
        }
        char **grown = realloc(moved, (n_moved + 1) * sizeof *moved);
        char *kept = grown ? strdup(to) : NULL;
        if (grown)
            moved = grown;
        if (!kept) {
            errno = ENOMEM;
            rc = -1;
        } else if ((rc = move(from, to, o->force)) == 0) {
            moved[n_moved++] = kept;
        } else {
            free(kept);
        }
    }
    int saved = errno;
    closedir(d);
    for (size_t i = 0; i < n_moved; i++) {
        if (rc < 0)
            unlink(moved[i]);
        free(moved[i]);
    }
    free(moved);
    errno = saved;
    return rc;
}

int tg_io_out_commit(tg_outfile *o, tg_io_fault *why)
{
    int rc = 0;
    if (o->fd >= 0) {
        /* what a file system refuses only at the end (NFS, quotas) is said by close */
        if (close(o->fd) < 0)
            rc = fault(why, TG_ERR_IO, errno, "cannot write the output");
        o->fd = -1;
    }
    sigset_t old;
    block_signals(&old);
    const char *what = "cannot rename the output to its name";
    switch ((tg_out_state)o->state) {
    case TG_OUT_FILE:
    case TG_OUT_DIR:
        if (rc == 0 && move(o->temp, o->path, o->force && o->state == TG_OUT_FILE) < 0)
            rc = fault(why, errno == EEXIST ? TG_ERR_USAGE : TG_ERR_IO, errno, what);
        break;
    case TG_OUT_PARTS:
        if (rc == 0 && move_parts(o) < 0)
            rc = fault(why, errno == EEXIST ? TG_ERR_USAGE : TG_ERR_IO, errno, what);
        if (rc == 0)
            rmdir(o->temp);
        break;
    default: break;
    }
    if (rc < 0)
        tg_io_out_remove(o);
    else
        o->state = TG_OUT_DONE;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
