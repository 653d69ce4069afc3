/* file_input.c - the io layer's faults made into errors (see file_input.h). */
#include "core/file_input.h"
#include "core/error_internal.h"

#include <string.h>

static int fault_error(tg_error **err, const char *path, const tg_io_fault *why, size_t max_size)
{
    if (why->status == TG_ERR_NOMEM)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (why->status == TG_ERR_LIMIT)
        return tg_err_at(err, TG_ERR_LIMIT, path, TG_NO_OFFSET,
                         "file is %zu bytes, more than the %zu this reader accepts", why->size,
                         max_size);
    if (why->sys_errno)
        return tg_err_at(err, why->status, path, TG_NO_OFFSET, "%s: %s", why->what,
                         strerror(why->sys_errno));
    return tg_err_at(err, why->status, path, TG_NO_OFFSET, "%s", why->what);
}

int tg_map_open(tg_map *m, const char *path, tg_error **err)
{
    tg_io_fault why;
    int rc = tg_io_map(m, path, &why);
    return rc < 0 ? fault_error(err, path, &why, 0) : 0;
}

int tg_read_text_file(const char *path, size_t max_size, char **out, size_t *len, tg_error **err)
{
    tg_io_fault why;
    int rc = tg_io_read_text(path, max_size, out, len, &why);
    return rc < 0 ? fault_error(err, path, &why, max_size) : 0;
}
