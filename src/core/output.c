/* output.c - the public tg_output: the io layer's output under a temporary name
 * (io/output_file.h) with errors a user reads ("out.json: cannot create the output file:
 * Permission denied").
 *
 * The object is one allocation holding the paths, so that tg_output_remove_now, called from
 * a signal handler, touches no allocator. */
#include "core/error_internal.h"
#include "io/output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tg_output {
    tg_outfile f;
    char given[PATH_MAX]; /* the path as given, for messages and tg_output_path */
};

static int fault_error(tg_error **err, const tg_output *o, const tg_io_fault *why)
{
    if (why->sys_errno && why->sys_errno != EEXIST && why->sys_errno != EISDIR)
        return tg_err_at(err, why->status, o->given, TG_NO_OFFSET, "%s: %s", why->what,
                         strerror(why->sys_errno));
    return tg_err_at(err, why->status, o->given, TG_NO_OFFSET, "%s", why->what);
}

tg_output *tg_output_new(const char *path, unsigned flags, tg_error **err)
{
    tg_output *o = calloc(1, sizeof *o);
    if (!o) {
        tg_err(err, TG_ERR_NOMEM, "out of memory");
        return NULL;
    }
    tg_io_fault why;
    if (tg_io_out_init(&o->f, path, (flags & TG_OUTPUT_FORCE) != 0, &why) < 0) {
        snprintf(o->given, sizeof o->given, "%s", path ? path : "");
        fault_error(err, o, &why);
        free(o);
        return NULL;
    }
    snprintf(o->given, sizeof o->given, "%s", path);
    return o;
}

void tg_output_free(tg_output *o)
{
    if (!o)
        return;
    tg_io_out_remove(&o->f);
    free(o);
}

const char *tg_output_path(const tg_output *o) { return o->given; }

const char *tg_output_writing(const tg_output *o)
{
    switch ((tg_out_state)o->f.state) {
    case TG_OUT_FILE:
    case TG_OUT_DIR:
    case TG_OUT_PARTS: return o->f.temp;
    case TG_OUT_INPLACE: return o->f.path;
    default: return NULL;
    }
}

int tg_output_open_file(tg_output *o, tg_error **err)
{
    tg_io_fault why;
    int fd = tg_io_out_file(&o->f, &why);
    return fd < 0 ? fault_error(err, o, &why) : fd;
}

int tg_output_open_dir(tg_output *o, const char **dir, tg_error **err)
{
    tg_io_fault why;
    if (tg_io_out_dir(&o->f, &why) < 0)
        return fault_error(err, o, &why);
    *dir = o->f.temp;
    return 0;
}

int tg_output_open_part(tg_output *o, const char *name, tg_error **err)
{
    tg_io_fault why;
    int fd = tg_io_out_part(&o->f, name, &why);
    if (fd >= 0)
        return fd;
    /* the part's own name, where the message is about it */
    char part[PATH_MAX + 256];
    snprintf(part, sizeof part, "%s/%.255s", o->f.dir, name);
    if (why.sys_errno && why.sys_errno != EEXIST)
        return tg_err_at(err, why.status, part, TG_NO_OFFSET, "%s: %s", why.what,
                         strerror(why.sys_errno));
    return tg_err_at(err, why.status, part, TG_NO_OFFSET, "%s", why.what);
}

int tg_output_commit(tg_output *o, tg_error **err)
{
    tg_io_fault why;
    return tg_io_out_commit(&o->f, &why) < 0 ? fault_error(err, o, &why) : 0;
}

void tg_output_discard(tg_output *o) { tg_io_out_remove(&o->f); }

void tg_output_remove_now(tg_output *o) { tg_io_out_remove(&o->f); }
