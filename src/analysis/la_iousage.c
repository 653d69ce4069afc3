/* la_iousage.c - the I/O analyses' usage view (la_io.h): --usage, lttng-iousagetop's tables,
 * text and LAMI: per thread the bytes read and written (by descriptor type: disk, network,
 * unknown) and its block bytes, per file the bytes read and written, per disk the sectors,
 * requests and average request time, per network interface the bytes received and sent.
 *
 * Their definitions: a thread's bytes are those its read and write calls returned on
 * descriptors the period knew; a file is a descriptor's name (with the process' name after
 * the generic ones: pipe, socket, anon_inode, unknown), its bytes those of every descriptor
 * of that name; rows are sorted by bytes, ties in first-seen order, --limit of them (the
 * thread tables list threads with no bytes too; the others leave out the zeros). */
#include "analysis/la_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One table's rows, built before printing. */
struct usage {
    size_t rows;   /* rows so far (LAMI or text) */
    size_t n, cap; /* the text rows */
    double *values;
    char **texts, **labels;
    json_object *table;
};

static int usage_add(struct usage *u, double value, const char *text, const char *label)
{
    size_t cap = u->cap;
    if (tg_grow(&u->values, &cap, u->n + 1, sizeof *u->values) < 0)
        return TG_ERR_NOMEM;
    cap = u->cap;
    if (tg_grow(&u->texts, &cap, u->n + 1, sizeof *u->texts) < 0)
        return TG_ERR_NOMEM;
    if (tg_grow(&u->labels, &u->cap, u->n + 1, sizeof *u->labels) < 0)
        return TG_ERR_NOMEM;
    u->values[u->n] = value;
    u->texts[u->n] = strdup(text);
    u->labels[u->n] = strdup(label);
    if (!u->texts[u->n] || !u->labels[u->n]) {
        free(u->texts[u->n]);
        free(u->labels[u->n]);
        return TG_ERR_NOMEM;
    }
    u->n++;
    u->rows++;
    return 0;
}

/* prints (or adds to the results) and empties the table */
static void usage_end(la_run *r, tg_buf *out, struct usage *u, const char *title,
                      const char *label_header)
{
    if (r->conf.json)
        la_lami_add(r, u->table);
    else
        la_bar_graph_str(out, title, label_header, u->values, (const char *const *)u->texts,
                         (const char *const *)u->labels, u->n);
    for (size_t i = 0; i < u->n; i++) {
        free(u->texts[i]);
        free(u->labels[i]);
    }
    free(u->values);
    free(u->texts);
    free(u->labels);
    memset(u, 0, sizeof *u);
}

static bool rows_full(const la_run *r, size_t rows)
{
    return rows >= (size_t)(r->conf.limit > 0 ? r->conf.limit : 1);
}

static json_object *size_cell(int64_t v) { return la_lami_int("size", v); }

static json_object *named(const char *cls, const char *value)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "class", json_object_new_string(cls));
    json_object_object_add(o, "name", json_object_new_string(value));
    return o;
}

struct key_arg {
    const int64_t *keys;
};

static bool by_key(size_t a, size_t b, const void *arg)
{
    const int64_t *keys = arg;
    return keys[a] > keys[b];
}

/* idx: 0..n sorted by keys, descending (NULL when out of memory) */
static size_t *sorted(const int64_t *keys, size_t n)
{
    size_t *idx = malloc((n + 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    if (la_sort(idx, n, by_key, keys) < 0) {
        free(idx);
        return NULL;
    }
    return idx;
}

static int proc_tables(la_run *r, la_io *io, tg_buf *out)
{
    int64_t *keys = malloc((io->n_ps + 1) * sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (int w = 0; w < 2 && rc == 0; w++) {
        for (size_t i = 0; i < io->n_ps; i++) {
            const la_io_pstats *p = &io->ps[i];
            keys[i] = w ? p->disk_write + p->net_write + p->unk_write
                        : p->disk_read + p->net_read + p->unk_read;
        }
        size_t *idx = sorted(keys, io->n_ps);
        if (!idx) {
            rc = TG_ERR_NOMEM;
            break;
        }
        struct usage u = {0};
        char title[64];
        snprintf(title, sizeof title, "Per-process top I/O operations [%s]",
                 w ? "written" : "read");
        if (r->conf.json)
            u.table = la_lami_table_sub(r, "per-process-top", title, r->period_begin, r->last_ts);
        for (size_t k = 0; k < io->n_ps && rc == 0; k++) {
            const la_io_pstats *p = &io->ps[idx[k]];
            int64_t disk = w ? p->disk_write : p->disk_read, net = w ? p->net_write : p->net_read;
            int64_t unk = w ? p->unk_write : p->unk_read;
            if (u.table) {
                json_object *row = la_lami_row(u.table);
                json_object_array_add(row, la_lami_process(p->comm, p->pid, p->tid));
                json_object_array_add(row, size_cell(keys[idx[k]]));
                json_object_array_add(row, size_cell(disk));
                json_object_array_add(row, size_cell(net));
                json_object_array_add(row, size_cell(unk));
                u.rows++;
            } else {
                char pid[48], name[LA_COMM_MAX + 64], s[4][32], label[256];
                if (p->pid == LA_NONE)
                    snprintf(pid, sizeof pid, "unknown (tid=%lld)", (long long)p->tid);
                else
                    snprintf(pid, sizeof pid, "%lld", (long long)p->pid);
                snprintf(name, sizeof name, "%s (%s)", p->comm, pid);
                la_io_size(s[0], sizeof s[0], keys[idx[k]]);
                la_io_size(s[1], sizeof s[1], disk);
                la_io_size(s[2], sizeof s[2], net);
                la_io_size(s[3], sizeof s[3], unk);
                tg_buf *lb = tg_buf_new();
                if (!lb) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                la_pad(lb, name, 25, '<');
                for (int c = 1; c < 4; c++) {
                    tg_buf_putc(lb, ' ');
                    la_pad(lb, s[c], 10, '>');
                }
                snprintf(label, sizeof label, "%.*s", (int)tg_buf_len(lb), tg_buf_data(lb));
                tg_buf_free(lb);
                rc = usage_add(&u, (double)keys[idx[k]], s[0], label);
            }
            if (rows_full(r, u.rows))
                break;
        }
        usage_end(r, out, &u, w ? "Per-process I/O Write" : "Per-process I/O Read",
                  "Process                   Disk       Net        Unknown   ");
        free(idx);
    }
    free(keys);
    return rc;
}

static bool starts_with(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strlen(s) >= n && memcmp(s, prefix, n) == 0;
}

/* get_files_stats: the files of the period, first seen first */
struct file {
    char *name;
    int64_t read, write;
    int64_t *pids, *fds; /* fd_by_pid, in insertion order */
    size_t n_pids, cap_pids;
};

struct file_key {
    const struct file *files;
    const char *name;
};

static int same_file(const void *ctx, uint64_t i)
{
    const struct file_key *k = ctx;
    return strcmp(k->files[i].name, k->name) == 0;
}

static int files_of(la_io *io, struct file **out, size_t *n)
{
    size_t cap = 0;
    tg_hash by_name = {0};
    int rc = 0;
    *out = NULL;
    *n = 0;
    static const char *const generic[] = {"pipe", "socket", "anon_inode", "unknown"};
    for (size_t i = 0; i < io->n_ps; i++) {
        const la_io_pstats *p = &io->ps[i];
        for (size_t l = 0; l < p->n_fds; l++)
            for (size_t k = 0; k < p->fds[l].n; k++) {
                const la_io_fdstats *f = &io->fdstats[p->fds[l].items[k]];
                const char *fname = la_io_text(io, f->filename);
                char name[4200];
                bool gen = false;
                for (size_t g = 0; g < 4; g++)
                    gen |= starts_with(fname, generic[g]);
                if (gen)
                    snprintf(name, sizeof name, "%s (%s)", fname, p->comm);
                else
                    snprintf(name, sizeof name, "%s", fname);
                uint64_t hash = tg_hash_str(name), *slot;
                struct file_key key = {*out, name};
                struct file *file = NULL;
                if ((slot = tg_hash_find_by(&by_name, hash, same_file, &key)))
                    file = &(*out)[*slot];
                if (!file) {
                    if ((rc = tg_grow(out, &cap, *n + 1, sizeof **out)) < 0 ||
                        (rc = tg_hash_add(&by_name, hash, &slot)) < 0)
                        goto done;
                    *slot = *n;
                    file = &(*out)[(*n)++];
                    memset(file, 0, sizeof *file);
                    if (!(file->name = strdup(name))) {
                        rc = TG_ERR_NOMEM;
                        goto done;
                    }
                }
                file->read += f->read;
                file->write += f->write;
                int64_t pid = p->pid != LA_NONE ? p->pid : p->tid;
                bool seen = false;
                for (size_t x = 0; x < file->n_pids && !seen; x++)
                    seen = file->pids[x] == pid;
                if (!seen) {
                    size_t c2 = file->cap_pids;
                    if ((rc = tg_grow(&file->pids, &c2, file->n_pids + 1, sizeof *file->pids)) <
                            0 ||
                        (rc = tg_grow(&file->fds, &file->cap_pids, file->n_pids + 1,
                                      sizeof *file->fds)) < 0)
                        goto done;
                    file->pids[file->n_pids] = pid;
                    file->fds[file->n_pids++] = f->fd;
                }
            }
    }
done:
    tg_hash_free(&by_name);
    return rc;
}

static int file_tables(la_run *r, la_io *io, tg_buf *out)
{
    struct file *files;
    size_t n;
    int rc = files_of(io, &files, &n);
    int64_t *keys = rc == 0 ? malloc((n + 1) * sizeof *keys) : NULL;
    if (!keys && rc == 0)
        rc = TG_ERR_NOMEM;
    for (int w = 0; w < 2 && rc == 0; w++) {
        for (size_t i = 0; i < n; i++)
            keys[i] = w ? files[i].write : files[i].read;
        size_t *idx = sorted(keys, n);
        if (!idx) {
            rc = TG_ERR_NOMEM;
            break;
        }
        struct usage u = {0};
        char title[64];
        snprintf(title, sizeof title, "Per-file top I/O operations [%s]", w ? "written" : "read");
        if (r->conf.json)
            u.table = la_lami_table_sub(r, "per-file-top", title, r->period_begin, r->last_ts);
        for (size_t k = 0; k < n && rc == 0; k++) {
            const struct file *f = &files[idx[k]];
            if (!keys[idx[k]])
                continue;
            if (u.table) {
                tg_buf *owners = tg_buf_new();
                if (!owners) {
                    rc = TG_ERR_NOMEM;
                    break;
                }
                for (size_t x = 0; x < f->n_pids; x++) {
                    const la_io_pstats *p = la_io_pstats_of(io, f->pids[x]);
                    tg_buf_printf(owners, "fd %lld in %s (%lld) ", (long long)f->fds[x],
                                  p ? p->comm : "", (long long)f->pids[x]);
                }
                json_object *row = la_lami_row(u.table);
                json_object *path = json_object_new_object();
                json_object_object_add(path, "class", json_object_new_string("path"));
                json_object_object_add(path, "path", json_object_new_string(f->name));
                json_object_array_add(row, path);
                json_object_array_add(row, size_cell(keys[idx[k]]));
                json_object_array_add(row, la_lami_string(tg_buf_data(owners)));
                tg_buf_free(owners);
                u.rows++;
            } else {
                char s[32];
                la_io_size(s, sizeof s, keys[idx[k]]);
                rc = usage_add(&u, (double)keys[idx[k]], s, f->name);
            }
            if (rows_full(r, u.rows))
                break;
        }
        usage_end(r, out, &u, w ? "Per-file I/O Write" : "Per-file I/O Read", "Path");
        free(idx);
    }
    for (size_t i = 0; i < n; i++) {
        free(files[i].name);
        free(files[i].pids);
        free(files[i].fds);
    }
    free(files);
    free(keys);
    return rc;
}

static int block_tables(la_run *r, la_io *io, tg_buf *out)
{
    int64_t *keys = malloc((io->n_ps + 1) * sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (int w = 0; w < 2 && rc == 0; w++) {
        for (size_t i = 0; i < io->n_ps; i++)
            keys[i] = w ? io->ps[i].block_write : io->ps[i].block_read;
        size_t *idx = sorted(keys, io->n_ps);
        if (!idx) {
            rc = TG_ERR_NOMEM;
            break;
        }
        struct usage u = {0};
        char title[64];
        snprintf(title, sizeof title, "Per-process top block I/O operations [%s]",
                 w ? "written" : "read");
        if (r->conf.json)
            u.table =
                la_lami_table_sub(r, "per-process-top-block", title, r->period_begin, r->last_ts);
        for (size_t k = 0; k < io->n_ps && rc == 0; k++) {
            const la_io_pstats *p = &io->ps[idx[k]];
            if (!keys[idx[k]])
                continue;
            if (u.table) {
                json_object *row = la_lami_row(u.table);
                json_object_array_add(row,
                                      la_lami_process(p->comm[0] ? p->comm : NULL, p->pid, p->tid));
                json_object_array_add(row, size_cell(keys[idx[k]]));
                u.rows++;
            } else {
                char pid[48], label[LA_COMM_MAX + 64], s[32];
                if (p->pid == LA_NONE)
                    snprintf(pid, sizeof pid, "unknown (tid=%lld)", (long long)p->tid);
                else
                    snprintf(pid, sizeof pid, "%lld", (long long)p->pid);
                snprintf(label, sizeof label, "%s (pid=%s)", p->comm[0] ? p->comm : "unknown", pid);
                la_io_size(s, sizeof s, keys[idx[k]]);
                rc = usage_add(&u, (double)keys[idx[k]], s, label);
            }
            if (rows_full(r, u.rows))
                break;
        }
        usage_end(r, out, &u, w ? "Block I/O Write" : "Block I/O Read", "Process");
        free(idx);
    }
    free(keys);
    return rc;
}

static int disk_tables(la_run *r, la_io *io, tg_buf *out)
{
    static const char *const cls[3] = {"per-disk-top-sector", "per-disk-top-request",
                                       "per-disk-top-rps"};
    static const char *const titles[3] = {"Disk Requests Sector Count", "Disk Request Count",
                                          "Disk Request Average Latency"};
    static const char *const units[3] = {"sectors", "requests", "ms"};
    int64_t *keys = malloc((io->n_pdisks + 1) * sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (int t = 0; t < 3 && rc == 0; t++) {
        for (size_t i = 0; i < io->n_pdisks; i++)
            keys[i] = t == 0 ? io->pdisks[i].sectors : (int64_t)io->pdisks[i].n_rqs;
        size_t *idx = sorted(keys, io->n_pdisks);
        if (!idx) {
            rc = TG_ERR_NOMEM;
            break;
        }
        if (t == 2) /* in the disks' order */
            for (size_t i = 0; i < io->n_pdisks; i++)
                idx[i] = i;
        struct usage u = {0};
        if (r->conf.json)
            u.table = la_lami_table(r, cls[t], r->period_begin, r->last_ts);
        for (size_t k = 0; k < io->n_pdisks && rc == 0; k++) {
            const la_io_pdisk *d = &io->pdisks[idx[k]];
            if (!keys[idx[k]])
                continue;
            const char *name = la_io_text(io, d->name);
            double rtps = (double)d->duration / (double)d->n_rqs;
            if (u.table) {
                json_object *row = la_lami_row(u.table);
                json_object_array_add(row, named("disk", name));
                json_object_array_add(row, t == 2 ? la_lami_value("duration", rtps)
                                                  : la_lami_int("number", keys[idx[k]]));
                u.rows++;
            } else {
                char s[64];
                double v = t == 2 ? rtps / 1000000 : (double)keys[idx[k]];
                if (t == 2)
                    snprintf(s, sizeof s, "%.2f %s", v, units[t]);
                else
                    snprintf(s, sizeof s, "%lld %s", (long long)keys[idx[k]], units[t]);
                rc = usage_add(&u, v, s, name);
            }
            if (rows_full(r, u.rows))
                break;
        }
        usage_end(r, out, &u, titles[t], "Disk");
        free(idx);
    }
    free(keys);
    return rc;
}

static int net_tables(la_run *r, la_io *io, tg_buf *out)
{
    int64_t *keys = malloc((io->n_ifaces + 1) * sizeof *keys);
    if (!keys)
        return TG_ERR_NOMEM;
    int rc = 0;
    for (int w = 0; w < 2 && rc == 0; w++) {
        for (size_t i = 0; i < io->n_ifaces; i++)
            keys[i] = w ? io->ifaces[i].sent : io->ifaces[i].recv;
        size_t *idx = sorted(keys, io->n_ifaces);
        if (!idx) {
            rc = TG_ERR_NOMEM;
            break;
        }
        struct usage u = {0};
        char title[96];
        snprintf(title, sizeof title, "Per-network interface top I/O operations [%s]",
                 w ? "sent" : "received");
        if (r->conf.json)
            u.table = la_lami_table_sub(r, "per-netif-top", title, r->period_begin, r->last_ts);
        for (size_t k = 0; k < io->n_ifaces && rc == 0; k++) {
            const char *name = la_io_text(io, io->ifaces[idx[k]].name);
            if (u.table) {
                json_object *row = la_lami_row(u.table);
                json_object_array_add(row, named("netif", name));
                json_object_array_add(row, size_cell(keys[idx[k]]));
                u.rows++;
            } else {
                char s[32];
                la_io_size(s, sizeof s, keys[idx[k]]);
                rc = usage_add(&u, (double)keys[idx[k]], s, name);
            }
            if (rows_full(r, u.rows))
                break;
        }
        usage_end(r, out, &u, w ? "Network Sent Bytes" : "Network Received Bytes", "Interface");
        free(idx);
    }
    free(keys);
    return rc;
}

int la_io_usage_view(la_run *r, la_io *io, tg_buf *out)
{
    TG_TRY(proc_tables(r, io, out));
    TG_TRY(file_tables(r, io, out));
    TG_TRY(block_tables(r, io, out));
    TG_TRY(disk_tables(r, io, out));
    return net_tables(r, io, out);
}
