/* split_output.c - the parts of a split conversion (see split_output.h). */
#include "writers/viewers/split_output.h"

#include "core/consumer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v <= 0)
        return -1;
    double mult = 1;
    switch (*end) {
    case 'k':
    case 'K':
        mult = 1024.0;
        end++;
        break;
    case 'm':
    case 'M':
        mult = 1024.0 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        mult = 1024.0 * 1024 * 1024;
        end++;
        break;
    }
    if (*end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || v * mult < 1 || v * mult > 1e18)
        return -1;
    *out = (uint64_t)(v * mult);
    return 0;
}

static int parse_duration(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v <= 0)
        return -1;
    double mult = 1e9;
    if (strcmp(end, "ns") == 0)
        mult = 1;
    else if (strcmp(end, "us") == 0)
        mult = 1e3;
    else if (strcmp(end, "ms") == 0)
        mult = 1e6;
    else if (strcmp(end, "s") != 0 && *end)
        return -1;
    if (v * mult < 1 || v * mult > 9e18)
        return -1;
    *out = (int64_t)(v * mult);
    return 0;
}

/* path with "-NNNN" before its extension (the last '.' after the last '/'). */
static char *part_name(const char *path, unsigned part)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot || dot == (slash ? slash + 1 : path))
        dot = path + strlen(path);
    size_t stem = (size_t)(dot - path), n = strlen(path) + 16;
    char *name = malloc(n);
    if (name)
        snprintf(name, n, "%.*s-%04u%s", (int)stem, path, part, dot);
    return name;
}

static int open_part(tg_split *split, int64_t ns, tg_error **err)
{
    char *name = part_name(split->path, split->part + 1);
    if (!name)
        return TG_ERR_NOMEM;
    const char *slash = strrchr(name, '/');
    int fd = tg_output_open_part(split->output, slash ? slash + 1 : name, err);
    free(name);
    if (fd < 0)
        return fd;
    split->out = tg_buf_new_fd(fd);
    if (!split->out) {
        close(fd);
        return TG_ERR_NOMEM;
    }
    split->fd = fd;
    split->part++;
    split->part_start_ns = ns;
    return 0;
}

int tg_split_open(tg_split *split, tg_buf *out, const tg_options *opts, const tg_split_ops *ops,
                  void *ctx, tg_error **err)
{
    *split = (tg_split){.fd = -1, .part_start_ns = INT64_MIN, .ops = ops, .ctx = ctx};
    const char *size = tg_options_get(opts, "split-size");
    const char *time = tg_options_get(opts, "split-time");
    if (!size && !time)
        return 0;
    if (size && parse_size(size, &split->max_bytes) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "--split-size %s: expected a size such as 100M, 1G or 65536", size);
    if (time && parse_duration(time, &split->max_ns) < 0)
        return tg_err(err, TG_ERR_USAGE,
                      "--split-time %s: expected a duration such as 1s, 250ms or 20us", time);
    split->output = tg_buf_output(out); /* tg_convert and tg_convert_to bind one */
    if (!split->output)
        return tg_err(err, TG_ERR_USAGE, "a split output needs -o FILE to name its parts");
    split->path = tg_output_path(split->output);
    split->active = 1;
    return open_part(split, INT64_MIN, err);
}

/* 1 when the current part holds something and a record at time ns goes to a new part.
 * The first record of a part starts its time span. */
static int due(tg_split *split, int64_t ns)
{
    if (split->part_start_ns == INT64_MIN)
        split->part_start_ns = ns;
    uint64_t bytes = tg_buf_total(split->out);
    if (!bytes)
        return 0;
    if (split->max_bytes && bytes >= split->max_bytes)
        return 1;
    return split->max_ns && ns - split->part_start_ns >= split->max_ns;
}

static int close_part(tg_split *split, tg_error **err)
{
    if (!split->out)
        return 0;
    int rc = tg_buf_flush(split->out);
    int why = tg_buf_error(split->out);
    tg_buf_free(split->out);
    split->out = NULL;
    if (close(split->fd) < 0) {
        rc = TG_ERR_IO;
        why = why ? why : errno;
    }
    split->fd = -1;
    if (rc < 0) {
        char *name = part_name(split->path, split->part);
        rc = tg_err_at(err, TG_ERR_IO, name ? name : split->path, TG_NO_OFFSET,
                       "cannot write the output part: %s", strerror(why));
        free(name);
    }
    return rc;
}

/* Ends the open frames, the part; opens the next part and begins the frames again. */
static int cut(tg_split *split, const tg_frame_walk *w, int64_t ns, tg_error **err)
{
    const tg_split_ops *ops = split->ops;
    size_t n = w->n_threads < split->open_cap ? w->n_threads : split->open_cap;
    int rc = 0;
    split->cutting = 1;
    for (size_t i = 0; i < n && rc == 0; i++)
        for (size_t k = split->open[i]; k-- > 0 && rc == 0;)
            rc = ops->end_frame(split->ctx, &w->threads[i], w->threads[i].path[k], ns);
    if (rc == 0 && ops->part_end)
        rc = ops->part_end(split->ctx);
    if (rc == 0)
        rc = close_part(split, err);
    if (rc == 0)
        rc = open_part(split, ns, err);
    if (rc == 0 && ops->part_start)
        rc = ops->part_start(split->ctx);
    for (size_t i = 0; i < n && rc == 0; i++)
        for (size_t k = 0; k < split->open[i] && rc == 0; k++)
            rc = ops->begin_frame(split->ctx, &w->threads[i], w->threads[i].path[k], ns);
    split->cutting = 0;
    return rc;
}

int tg_split_cut_if_due(tg_split *split, const tg_frame_walk *w, int64_t ns, tg_error **err)
{
    return due(split, ns) ? cut(split, w, ns, err) : 0;
}

int tg_split_begun(tg_split *split, size_t thread)
{
    if (!split->active)
        return 0;
    if (thread >= split->open_cap) {
        size_t old = split->open_cap;
        if (tg_grow(&split->open, &split->open_cap, thread + 1, sizeof *split->open) < 0)
            return TG_ERR_NOMEM;
        memset(split->open + old, 0, (split->open_cap - old) * sizeof *split->open);
    }
    split->open[thread]++;
    return 0;
}

int tg_split_close(tg_split *split, tg_error **err)
{
    int rc = split->active ? close_part(split, err) : 0;
    free(split->open);
    split->open = NULL;
    split->open_cap = 0;
    return rc;
}
