/* sql_metadata.c - Perfetto's metadata table: what the traces say about themselves, one row per
 * key, with trace_processor's key names and key_type ("single"), an integer in int_value or a
 * string in str_value.
 *
 * The rows are those trace_processor fills for a trace, where the trace knows them:
 * system_name, system_release, system_version and system_machine (the uname of the machine
 * that recorded it: CTF's env sysname, kernel_release and kernel_version, trace.dat's uname
 * option, uftrace's osinfo, perf.data's osrelease and arch, i.e. the traces' host attribute),
 * then trace_size_bytes (the bytes of the traces' files: a directory's files summed, each
 * trace's path once) and trace_type (trace_processor's name of the format where it reads that
 * format: "proto", "json", "perf", "gecko"; traceglot's format name otherwise: "uftrace",
 * "ctf", "ftrace", "xray", "lttng0").  Of several traces, a key takes the first trace's value
 * that has one.  The rows are made when a scan starts; nothing is read from the events. */
#include "sql/sql_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { M_ID, M_NAME, M_KEY_TYPE, M_INT, M_STR, M_COUNT };

enum { META_MAX = 8, DIR_DEPTH_MAX = 8 };

struct meta_row {
    const char *name, *str;
    int64_t i;
};

struct meta_cursor {
    struct meta_row rows[META_MAX];
    size_t n, at;
};

/* The bytes of the regular files at path (a file, or a directory's files, depth bounded). */
static int64_t path_bytes(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (S_ISREG(st.st_mode))
        return (int64_t)st.st_size;
    if (!S_ISDIR(st.st_mode) || depth >= DIR_DEPTH_MAX)
        return 0;
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    int64_t sum = 0;
    const struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *child = sqlite3_mprintf("%s/%s", path, e->d_name);
        if (child)
            sum += path_bytes(child, depth + 1);
        sqlite3_free(child);
    }
    closedir(dir);
    return sum;
}

/* trace_processor's trace_type of a format it reads, else traceglot's format name. */
static const char *trace_type(const char *format)
{
    static const struct {
        const char *ours, *perfetto;
    } names[] = {{"perfetto", "proto"}, {"json", "json"}, {"perf", "perf"}, {"gecko", "gecko"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(format, names[i].ours) == 0)
            return names[i].perfetto;
    return format;
}

static void add_str(struct meta_cursor *m, const char *name, const char *value)
{
    if (!value || !*value || m->n >= META_MAX)
        return;
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->rows[i].name, name) == 0)
            return; /* the first trace's value */
    m->rows[m->n++] = (struct meta_row){.name = name, .str = value};
}

/* The uname fields trace t knows: its environment's (CTF), else its host's kernel ("Linux
 * 6.1.0-13-amd64": the system's name, then its release) and arch. */
static void add_system(sql_db *db, struct meta_cursor *m, const tg_trace *t)
{
    const tg_env_entry *sysname = tg_trace_env_find(t, "sysname");
    const tg_env_entry *release = tg_trace_env_find(t, "kernel_release");
    const tg_env_entry *version = tg_trace_env_find(t, "kernel_version");
    const tg_host_info *host = tg_trace_host(t);
    const char *kernel = host ? host->kernel : NULL;
    const char *space = kernel ? strchr(kernel, ' ') : NULL;
    const char *name = sysname && !sysname->is_integer ? sysname->value : NULL;
    if (!name && space)
        name = sql_intern(db, kernel, (size_t)(space - kernel));
    add_str(m, "system_name", name);
    add_str(m, "system_release",
            release && !release->is_integer ? release->value
            : space                         ? space + 1
                                            : NULL);
    add_str(m, "system_version", version && !version->is_integer ? version->value : NULL);
    add_str(m, "system_machine", host ? host->arch : NULL);
}

static int metadata_filter(sql_cursor *c)
{
    struct meta_cursor *m = c->priv;
    if (!m && !(m = c->priv = calloc(1, sizeof *m)))
        return sql_fail(c->db, TG_ERR_NOMEM, NULL);
    m->n = m->at = 0;
    tg_set *set = c->db->set;
    size_t n = tg_set_trace_count(set);
    for (size_t i = 0; i < n; i++)
        add_system(c->db, m, tg_set_trace(set, i));
    int64_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        const char *path = tg_trace_path(tg_set_trace(set, i));
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(tg_trace_path(tg_set_trace(set, k)), path) == 0;
        if (!seen)
            bytes += path_bytes(path, 0);
    }
    if (bytes > 0 && m->n < META_MAX)
        m->rows[m->n++] = (struct meta_row){.name = "trace_size_bytes", .i = bytes};
    if (n > 0)
        add_str(m, "trace_type", trace_type(tg_trace_format(tg_set_trace(set, 0))));
    if (c->q.empty || (c->q.id != SQL_ANY && (c->q.id < 0 || (uint64_t)c->q.id >= m->n))) {
        c->eof = true;
        return 0;
    }
    if (c->q.id != SQL_ANY)
        m->at = (size_t)c->q.id;
    return 0;
}

static int metadata_next(sql_cursor *c)
{
    struct meta_cursor *m = c->priv;
    if (m->at >= m->n || (c->q.id != SQL_ANY && (int64_t)m->at != c->q.id)) {
        c->eof = true;
        return 0;
    }
    const struct meta_row *r = &m->rows[m->at];
    sql_val *v = c->row;
    sql_int(&v[M_ID], (int64_t)m->at);
    sql_text(&v[M_NAME], r->name);
    sql_text(&v[M_KEY_TYPE], "single");
    if (r->str) {
        sql_null(&v[M_INT]);
        sql_text(&v[M_STR], r->str);
    } else {
        sql_int(&v[M_INT], r->i);
        sql_null(&v[M_STR]);
    }
    m->at++;
    return 0;
}

static void metadata_close(sql_cursor *c)
{
    free(c->priv);
    c->priv = NULL;
}

const sql_table sql_table_metadata = {
    .name = "metadata",
    .columns = "id INTEGER, name TEXT, key_type TEXT, int_value INTEGER, str_value TEXT",
    .n_cols = M_COUNT,
    .col_ts = -1,
    .col_name = -1,
    .col_cpu = -1,
    .col_utid = -1,
    .col_id = M_ID,
    .col_track = -1,
    .col_argset = -1,
    .filter = metadata_filter,
    .next = metadata_next,
    .close = metadata_close,
};
