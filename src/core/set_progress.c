/* set_progress.c - what a progress line needs to know of a set (tg_set_progress): the
 * callback its iterators call, and the size of its input files as the total.
 *
 * The total is measured once, when progress is asked for: the regular files of each trace
 * the set opened (a trace file, or a trace's folder walked a few levels down, as LTTng
 * sessions nest their traces), so files beside the traces in a folder given as a path (notes,
 * scripts, other data) are not counted: only what the readers read.  The iterator (merge.c) measures what it has read from its streams' records'
 * file offsets, so no format reader takes part and a set without progress pays nothing. */
#include "core/set_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define TG_PROGRESS_DEPTH 6

/* The bytes of the regular files at path (a file, or a folder's files depth levels down);
 * path itself is followed when a link (standard input's copy is /proc/self/fd/N), those in
 * the folders are not. */
static uint64_t input_bytes(const char *path, int depth, bool top)
{
    struct stat st;
    if ((top ? stat(path, &st) : lstat(path, &st)) != 0)
        return 0;
    if (S_ISREG(st.st_mode))
        return (uint64_t)st.st_size;
    if (!S_ISDIR(st.st_mode) || depth <= 0)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return 0;
    uint64_t sum = 0;
    char sub[4096];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < sizeof sub)
            sum += input_bytes(sub, depth - 1, false);
    }
    closedir(d);
    return sum;
}

void tg_set_progress(tg_set *set, uint64_t every, tg_progress_fn fn, void *ctx)
{
    set->progress = fn;
    set->progress_ctx = ctx;
    set->progress_every = every ? every : 1;
    set->bytes_total = 0;
    for (size_t i = 0; fn && i < set->n_traces; i++) {
        const char *path = set->traces[i]->path;
        bool seen = false; /* traces of one folder (CTF's several in one) count it once */
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(set->traces[k]->path, path) == 0;
        if (!seen)
            set->bytes_total += input_bytes(path, TG_PROGRESS_DEPTH, true);
    }
}
