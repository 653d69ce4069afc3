/* folder_traces.c - a folder given as a path that is no trace itself but holds traces of
 * several formats (a trace.dat, a uftrace.data, a CTF trace, an XRay log side by side): each
 * trace found in it is opened as if it had been given as a path of its own, and all are
 * merged on one timeline.  A file that is no trace (notes, scripts) is passed over; a trace
 * that cannot be read is an error naming it.
 *
 * A folder that is a trace (a uftrace data directory, an LTTng 0.x trace, a CTF trace's own
 * folder) is opened as before, and so is a folder whose traces are all CTF (an LTTng
 * session's kernel/ and ust/ folders): the CTF reader finds those below it itself. */
#include "core/error_internal.h"
#include "core/set_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FOLDER_TRACES_MAX 256

struct found {
    char *path;
    const struct tg_format *fmt;
};

static int skip_hidden(const struct dirent *e) { return e->d_name[0] != '.'; }

int tg_open_folder_of_traces(tg_set *set, const char *path, const tg_options *opts, tg_error **err)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
        return 0;
    int score = 0;
    const struct tg_format *whole = tg_detect_format(path, &score, NULL);
    const struct tg_format *ctf = tg_format_find("ctf");
    if (whole && (whole != ctf || score >= 80)) /* the folder is a trace itself */
        return 0;
    struct dirent **names = NULL;
    int n = scandir(path, &names, skip_hidden, alphasort);
    if (n < 0)
        return 0; /* the opening says why */
    struct found found[FOLDER_TRACES_MAX];
    size_t n_found = 0;
    bool other = false;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
        char *sub = n_found < FOLDER_TRACES_MAX ? malloc(len) : NULL;
        if (sub) {
            snprintf(sub, len, "%s/%s", path, names[i]->d_name);
            const struct tg_format *fmt = tg_detect_format(sub, NULL, NULL);
            if (fmt) {
                found[n_found++] = (struct found){sub, fmt};
                other |= fmt != ctf;
                sub = NULL;
            }
        }
        free(sub);
        free(names[i]);
    }
    free(names);
    int rc = 0;
    if (n_found && (!whole || other)) {
        rc = 1;
        for (size_t i = 0; i < n_found && rc > 0; i++)
            if (!tg_set_open_child(set, found[i].fmt, found[i].path, opts, err))
                rc = err && *err ? tg_error_status(*err) : TG_ERR_FORMAT;
    }
    for (size_t i = 0; i < n_found; i++)
        free(found[i].path);
    return rc;
}
