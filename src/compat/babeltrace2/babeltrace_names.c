/* babeltrace_names.c - the names babeltrace2's CTF source gives a trace and a stream: the
 * details sink prints them in its stream beginnings, the text sink in its warnings about
 * discarded events and packets.  babeltrace2 names a trace by its hostname and folder, a
 * stream by its file's absolute path, normalized but not resolved through symbolic links. */
#define _XOPEN_SOURCE 700 /* getcwd */
#include "compat/babeltrace2/babeltrace_style.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The working folder as GLib's g_get_current_dir gives it: $PWD when it names the folder "."
 * is (a path through symbolic links stays one), else getcwd's. */
static const char *working_dir(char *buf, size_t size)
{
    const char *pwd = getenv("PWD");
    struct stat a, b;
    if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return pwd;
    return getcwd(buf, size) ? buf : "";
}

/* Appends path's components to out[0..*len) (which holds "/" and components joined by "/"),
 * as babeltrace2's path normalization does: empty and "." components dropped, ".." removing
 * the component before it; symbolic links are not resolved.  out has room for path's bytes
 * and one more. */
static void append_components(char *out, size_t *len, const char *path)
{
    while (*path) {
        const char *end = strchr(path, '/');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        if (n == 2 && path[0] == '.' && path[1] == '.') {
            while (*len > 1 && out[*len - 1] != '/')
                (*len)--;
            if (*len > 1)
                (*len)--; /* the separator before the removed component */
        } else if (n && !(n == 1 && path[0] == '.')) {
            if (*len > 1)
                out[(*len)++] = '/';
            memcpy(out + *len, path, n);
            *len += n;
        }
        path += n + (end != NULL);
    }
}

/* "  Name: " of a stream beginning: its file's absolute path as babeltrace2's CTF source
 * names it (the trace's path made absolute against the working folder and normalized, not
 * resolved). */
int bt_stream_file_path(tg_buf *out, const tg_stream *s)
{
    char cwd_buf[PATH_MAX];
    const char *trace_dir = tg_trace_path(tg_stream_trace(s)), *name = tg_stream_name(s);
    const char *cwd = trace_dir[0] == '/' ? "" : working_dir(cwd_buf, sizeof cwd_buf);
    char *path = malloc(strlen(cwd) + strlen(trace_dir) + strlen(name) + 4);
    if (!path)
        return TG_ERR_NOMEM;
    size_t len = 1;
    path[0] = '/';
    append_components(path, &len, cwd);
    append_components(path, &len, trace_dir);
    append_components(path, &len, name);
    tg_buf_put(out, path, len);
    free(path);
    return 0;
}

/* The trace's name as babeltrace2's CTF source gives it: the hostname, then the trace's
 * folder below the path it was opened from. */
void bt_trace_name(tg_buf *out, const tg_trace *t)
{
    const tg_env_entry *h = tg_trace_env_find(t, "hostname");
    const char *in = tg_trace_input_path(t), *p = tg_trace_path(t);
    size_t n = strlen(in);
    while (n > 1 && in[n - 1] == '/')
        n--;
    const char *rel = strncmp(p, in, n) == 0 && p[n] == '/' ? p + n + 1 : "";
    if (h && h->value)
        tg_buf_puts(out, h->value);
    if (*rel)
        tg_buf_printf(out, "%s%s", h && h->value ? "/" : "", rel);
}
