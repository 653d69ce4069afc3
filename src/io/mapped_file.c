/* mapped_file.c - read-only mappings and small whole-file reads (see mapped_file.h). */
#include "io/mapped_file.h"
#include "core/error_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int tg_map_open(tg_map *m, const char *path, tg_error **err)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "not a regular file");
    }
    m->size = (size_t)st.st_size;
    m->data = (const uint8_t *)"";
    if (m->size) {
        void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return tg_err_at(err, TG_ERR_IO, path, TG_NO_OFFSET, "cannot map: %s", strerror(e));
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

int tg_read_text_file(const char *path, size_t max_size, char **out, size_t *len, tg_error **err)
{
    *out = NULL;
    *len = 0;
    tg_map m;
    TG_TRY(tg_map_open(&m, path, err));
    if (m.size > max_size) {
        tg_map_close(&m);
        return tg_err_at(err, TG_ERR_LIMIT, path, TG_NO_OFFSET,
                         "file is %zu bytes, more than the %zu this reader accepts", m.size,
                         max_size);
    }
    char *s = malloc(m.size + 1);
    if (!s) {
        tg_map_close(&m);
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
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
