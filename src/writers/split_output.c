/* split_output.c - the parts of a split conversion (see split_output.h). */
#include "writers/split_output.h"

#include "core/error_internal.h"

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
    case 'k': case 'K': mult = 1024.0; end++; break;
    case 'm': case 'M': mult = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
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
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        int rc = tg_err_at(err, TG_ERR_IO, name, TG_NO_OFFSET, "cannot create the output part: %s",
                           strerror(errno));
        free(name);
        return rc;
    }
    free(name);
    split->out = tg_buf_new_fd(fd);
    if (!split->out) {
        close(fd);
        return TG_ERR_NOMEM;
    }
    split->fd = fd;
    split->part++;
    split->part_bytes = 0;
    split->part_start_ns = ns;
    return 0;
}

int tg_split_open(tg_split *split, const tg_options *opts, tg_error **err)
{
    *split = (tg_split){.fd = -1, .part_start_ns = INT64_MIN};
    const char *size = tg_options_get(opts, "split-size");
    const char *time = tg_options_get(opts, "split-time");
    if (!size && !time)
        return 0;
    if (size && parse_size(size, &split->max_bytes) < 0)
        return tg_err(err, TG_ERR_USAGE, "--split-size %s: expected a size such as 100M, 1G or 65536",
                      size);
    if (time && parse_duration(time, &split->max_ns) < 0)
        return tg_err(err, TG_ERR_USAGE, "--split-time %s: expected a duration such as 1s, 250ms or 20us",
                      time);
    split->path = tg_options_get(opts, "output");
    if (!split->path || strcmp(split->path, "-") == 0)
        return tg_err(err, TG_ERR_USAGE, "a split output needs -o FILE to name its parts");
    split->active = 1;
    return open_part(split, INT64_MIN, err);
}

int tg_split_due(tg_split *split, int64_t ns)
{
    if (!split->active)
        return 0;
    if (split->part_start_ns == INT64_MIN)
        split->part_start_ns = ns;
    if (!split->part_bytes)
        return 0;
    if (split->max_bytes && split->part_bytes >= split->max_bytes)
        return 1;
    return split->max_ns && split->part_start_ns != INT64_MIN &&
           ns - split->part_start_ns >= split->max_ns;
}

static int close_part(tg_split *split, tg_error **err)
{
    if (!split->out)
        return 0;
    int rc = tg_buf_flush(split->out);
    tg_buf_free(split->out);
    split->out = NULL;
    if (close(split->fd) < 0)
        rc = TG_ERR_IO;
    split->fd = -1;
    if (rc < 0) {
        char *name = part_name(split->path, split->part);
        rc = tg_err_at(err, TG_ERR_IO, name ? name : split->path, TG_NO_OFFSET,
                       "cannot write the output part");
        free(name);
    }
    return rc;
}

int tg_split_next(tg_split *split, int64_t ns, tg_error **err)
{
    int rc = close_part(split, err);
    return rc < 0 ? rc : open_part(split, ns, err);
}

int tg_split_close(tg_split *split, tg_error **err)
{
    return split->active ? close_part(split, err) : 0;
}
