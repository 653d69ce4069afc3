/* mapped_file.c - read-only mappings and small whole-file reads (see mapped_file.h). */
#include "io/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int fault(tg_io_fault *why, int status, int sys_errno, const char *what)
{
    why->status = status;
    why->sys_errno = sys_errno;
    why->what = what;
    why->size = 0;
    return status;
}

int tg_io_map(tg_map *m, const char *path, tg_io_fault *why)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return fault(why, TG_ERR_IO, errno, "cannot open");
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fault(why, TG_ERR_IO, 0, "not a regular file");
    }
    m->size = (size_t)st.st_size;
    m->data = (const uint8_t *)"";
    if (m->size) {
        void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return fault(why, TG_ERR_IO, e, "cannot map");
        }
        m->base_ = p;
        m->maplen_ = m->size;
        m->data = p;
    }
    close(fd);
    return 0;
}

void tg_map_close(tg_map *m)
{
    if (m->base_)
        munmap(m->base_, m->maplen_);
    memset(m, 0, sizeof *m);
}

int tg_io_read_text(const char *path, size_t max_size, char **out, size_t *len, tg_io_fault *why)
{
    *out = NULL;
    *len = 0;
    tg_map m;
    int rc = tg_io_map(&m, path, why);
    if (rc < 0)
        return rc;
    if (m.size > max_size) {
        tg_map_close(&m);
        fault(why, TG_ERR_LIMIT, 0, "too large");
        why->size = m.size;
        return TG_ERR_LIMIT;
    }
    char *s = malloc(m.size + 1);
    if (!s) {
        tg_map_close(&m);
        return fault(why, TG_ERR_NOMEM, 0, "out of memory");
    }
    memcpy(s, m.data, m.size);
    s[m.size] = 0;
    *out = s;
    *len = m.size;
    tg_map_close(&m);
    return 0;
}

char *tg_path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    size_t n = a;
    if (a && dir[a - 1] != '/')
        p[n++] = '/';
    memcpy(p + n, name, b + 1);
    return p;
}
