/* uftrace_info.c - the `info` file of a uftrace data directory and `uftrace info`'s text.
 *
 * The file starts with a 40-byte binary header (magic "Ftrace!\0", version, header size,
 * byte order and address size as ELF's EI_DATA/EI_CLASS, feature and info masks, max stack
 * depth) followed by "key:value" lines.  The header is checked field by field the way the
 * format documents it; the text is kept as is and looked up by key, because every key is
 * read once (at open or by describe), never per event. */
#include "formats/uftrace/uftrace_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UFT_INFO_MAX (16u << 20)

int uft_info_read(tg_trace *t, struct uft_data *d, tg_error **err)
{
    char *path = tg_path_join(d->dir, "info");
    if (!path)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    char *text = NULL;
    size_t len = 0;
    int rc = tg_read_text_file(path, UFT_INFO_MAX, &text, &len, err);
    if (rc < 0) {
        free(path);
        return rc;
    }
    const uint8_t *p = (const uint8_t *)text;
    if (len < 40 || memcmp(p, "Ftrace!\0", 8) != 0) {
        if (len < 40)
            rc = tg_err_at(err, TG_ERR_FORMAT, path, 0,
                           "file too short for the 40-byte uftrace header (%zu bytes)", len);
        else
            rc = tg_err_at(err, TG_ERR_FORMAT, path, 0, "bad magic: expected \"Ftrace!\\0\"");
        goto fail;
    }
    d->endian = p[14];
    d->elf_class = p[15];
    if (d->endian != 1 && d->endian != 2) {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, 14,
                       "byte order %u: expected 1 (little) or 2 (big endian)", d->endian);
        goto fail;
    }
    if (d->elf_class != 1 && d->elf_class != 2) {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, 15,
                       "address size class %u: expected 1 (32-bit) or 2 (64-bit)", d->elf_class);
        goto fail;
    }
    d->big_endian = d->endian == 2;
    tg_reader r;
    tg_reader_init(&r, p, len, 0, d->big_endian);
    tg_reader_skip(&r, 8);
    uint32_t version = 0;
    uint16_t hsize = 0;
    tg_read_u32(&r, &version);
    tg_read_u16(&r, &hsize);
    tg_reader_skip(&r, 2);
    tg_read_u64(&r, &d->feat_mask);
    tg_read_u64(&r, &d->info_mask);
    tg_read_u16(&r, &d->max_stack);
    d->version = version;
    d->header_size = hsize;
    if (version < 3 || version > 4) {
        rc = tg_err_at(err, TG_ERR_UNSUPPORTED, path, 8, "file version %u: expected 3 or 4",
                       version);
        goto fail;
    }
    if (hsize < 40 || hsize > len) {
        rc = tg_err_at(err, TG_ERR_FORMAT, path, 12,
                       "header size %u: expected 40 up to the file size %zu", hsize, len);
        goto fail;
    }
    if (d->max_stack == 0)
        d->max_stack = 1024;
    d->info_text = text;
    d->info_len = len;
    char vbuf[16];
    snprintf(vbuf, sizeof vbuf, "%u", version);
    tg_trace_set_version(t, vbuf);
    free(path);
    return 0;
fail:
    free(text);
    free(path);
    return rc;
}

/* The value of "key:value" (first match) after the binary header; NULL when absent. */
const char *uft_info_get(const struct uft_data *d, const char *key, size_t *len)
{
    if (!d->info_text)
        return NULL;
    size_t klen = strlen(key);
    const char *p = d->info_text + d->header_size, *end = d->info_text + d->info_len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if ((size_t)(le - p) > klen && memcmp(p, key, klen) == 0 &&
            (p[klen] == ':' || p[klen] == '=') &&
            !((size_t)(le - p) >= klen + 7 && memcmp(p + klen + 1, "lines=", 6) == 0)) {
            if (len)
                *len = (size_t)(le - p - (ptrdiff_t)klen - 1);
            return p + klen + 1;
        }
        p = le + 1;
    }
    return NULL;
}

/* ---- describe: `uftrace info` ------------------------------------------------------------ */

static void put_line(tg_buf *out, const char *label, const char *v, size_t n)
{
    tg_buf_printf(out, "# %-20s: ", label);
    tg_buf_put(out, v, n);
    tg_buf_putc(out, '\n');
}

static bool get(const struct uft_data *d, const char *key, const char **v, size_t *n)
{
    *v = uft_info_get(d, key, n);
    return *v != NULL;
}

/* "2 / 2 (online/possible)" -> "2 / 2 (online / possible)" */
static void put_cpus(tg_buf *out, const char *v, size_t n)
{
    char tmp[128];
    if (n >= sizeof tmp)
        n = sizeof tmp - 1;
    memcpy(tmp, v, n);
    tmp[n] = 0;
    int online = 0, possible = 0;
    if (sscanf(tmp, "%d / %d", &online, &possible) == 2) {
        tg_buf_printf(out, "# %-20s: %d / %d (online / possible)\n", "number of cpus", online,
                      possible);
        return;
    }
    put_line(out, "number of cpus", v, n);
}

static double num(const char *v, size_t n)
{
    char tmp[64];
    if (n >= sizeof tmp)
        n = sizeof tmp - 1;
    memcpy(tmp, v, n);
    tmp[n] = 0;
    return strtod(tmp, NULL);
}

int uft_describe(const tg_trace *t, tg_buf *out, tg_error **err)
{
    const struct uft_data *d = t->priv;
    const char *v, *v2;
    size_t n, n2;
    tg_buf_puts(out, "# system information\n# ==================\n");
    if (get(d, "uftrace_version", &v, &n))
        put_line(out, "program version", v, n);
    if (get(d, "record_date", &v, &n))
        put_line(out, "recorded on", v, n);
    if (get(d, "cmdline", &v, &n))
        put_line(out, "cmdline", v, n);
    if (get(d, "cpuinfo:desc", &v, &n))
        put_line(out, "cpu info", v, n);
    if (get(d, "cpuinfo:nr_cpus", &v, &n))
        put_cpus(out, v, n);
    if (get(d, "meminfo", &v, &n))
        put_line(out, "memory info", v, n);
    if (get(d, "loadinfo", &v, &n)) {
        tg_buf_printf(out, "# %-20s: ", "system load");
        tg_buf_put(out, v, n);
        tg_buf_puts(out, " (1 / 5 / 15 min)\n");
    }
    if (get(d, "osinfo:kernel", &v, &n))
        put_line(out, "kernel version", v, n);
    if (get(d, "osinfo:hostname", &v, &n))
        put_line(out, "hostname", v, n);
    if (get(d, "osinfo:distro", &v, &n))
        put_line(out, "distro", v, n);
    tg_buf_puts(out, "#\n# process information\n# ===================\n");
    if (get(d, "taskinfo:nr_tid", &v, &n))
        put_line(out, "number of tasks", v, n);
    if (d->n_tasks) {
        tg_buf_printf(out, "# %-20s: ", "task list");
        for (size_t i = 0; i < d->n_tasks; i++)
            tg_buf_printf(out, "%s%d(%s)", i ? ", " : "", d->tasks[i].tid, d->tasks[i].comm);
        tg_buf_putc(out, '\n');
    }
    if (get(d, "exename", &v, &n))
        put_line(out, "exe image", v, n);
    if (get(d, "build_id", &v, &n))
        put_line(out, "build id", v, n);
    if (get(d, "argspec", &v, &n))
        put_line(out, "arguments", v, n);
    if (get(d, "retspec", &v, &n))
        put_line(out, "return values", v, n);
    if (get(d, "auto-args", &v, &n) && n && v[0] == '1')
        put_line(out, "auto-args", "true", 4);
    if (get(d, "pattern_type", &v, &n))
        put_line(out, "pattern", v, n);
    if (get(d, "exit_status", &v, &n)) {
        int st = (int)num(v, n);
        tg_buf_printf(out, "# %-20s: ", "exit status");
        if ((st & 0x7f) == 0)
            tg_buf_printf(out, "exited with code: %d\n", (st >> 8) & 0xff);
        else if ((st & 0x7f) != 0x7f)
            tg_buf_printf(out, "terminated by signal: %d (%s)\n", st & 0x7f, strsignal(st & 0x7f));
        else
            tg_buf_printf(out, "unknown exit status: %d\n", st);
    }
    if (get(d, "elapsed_time", &v, &n))
        put_line(out, "elapsed time", v, n);
    if (get(d, "usageinfo:systime", &v, &n) && get(d, "usageinfo:usrtime", &v2, &n2))
        tg_buf_printf(out, "# %-20s: %.3f / %.3f sec (sys / user)\n", "cpu time", num(v, n),
                      num(v2, n2));
    if (get(d, "usageinfo:ctxsw", &v, &n))
        put_line(out, "context switch", v, n);
    if (get(d, "usageinfo:maxrss", &v, &n)) {
        tg_buf_printf(out, "# %-20s: ", "max rss");
        tg_buf_put(out, v, n);
        tg_buf_puts(out, " KB\n");
    }
    if (get(d, "usageinfo:pagefault", &v, &n))
        put_line(out, "page fault", v, n);
    if (get(d, "usageinfo:iops", &v, &n))
        put_line(out, "disk iops", v, n);
    tg_buf_putc(out, '\n');
    (void)err;
    return 0;
}
