/* cli_live.c - net:// paths on the command line: live LTTng sessions read through
 * lttng-relayd (tg_live_record), and a relay's session list (tg_live_list).
 *
 * Before the traces are opened, each net://RELAY/host/TARGET/SESSION path is read into a
 * scratch folder until the session is destroyed, or the user presses Ctrl-C (the first
 * interrupt ends the reading, not the command: stats and sql then answer for what arrived;
 * a second one ends the command as usual); the path is then replaced by that folder and the
 * command runs on it like on any CTF trace.  A failure after some packets (the relay gone)
 * is printed after the command's output, with a non-zero exit.  net://RELAY alone lists the
 * relay's sessions and ends. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "cli.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_live {
    char **dirs; /* the scratch folders made (removed at the end) */
    size_t n_dirs;
    tg_error **late; /* per path, what went wrong after some packets came: printed at the
                        end */
    size_t n_late;
    bool done; /* nothing left to run: exit with exit_code */
    int exit_code;
};

/* --params: babeltrace2's form, KEY=VALUE[,KEY=VALUE...], values optionally quoted. */
static int read_params(const char *params, tg_live_params *p, char *action, size_t cap)
{
    if (!params)
        return 0;
    const char *s = params;
    while (*s) {
        size_t n = strcspn(s, ",");
        const char *eq = memchr(s, '=', n);
        static const char key[] = "session-not-found-action";
        if (!eq || (size_t)(eq - s) != sizeof key - 1 || strncmp(s, key, sizeof key - 1)) {
            fprintf(stderr,
                    "traceglot: --params: '%.*s' is not a parameter of live sessions (they take "
                    "session-not-found-action=continue|fail|end)\n",
                    (int)n, s);
            return 2;
        }
        const char *v = eq + 1;
        size_t vn = n - (size_t)(v - s);
        if (vn >= 2 && (v[0] == '"' || v[0] == '\'') && v[vn - 1] == v[0]) {
            v++;
            vn -= 2;
        }
        if (vn >= cap ||
            !((vn == 8 && !strncmp(v, "continue", 8)) || (vn == 4 && !strncmp(v, "fail", 4)) ||
              (vn == 3 && !strncmp(v, "end", 3)))) {
            fprintf(stderr,
                    "traceglot: --params: session-not-found-action takes continue, fail or end, "
                    "not '%.*s'\n",
                    (int)vn, v);
            return 2;
        }
        memcpy(action, v, vn);
        action[vn] = 0;
        p->not_found = action;
        s += n + (s[n] == ',');
    }
    return 0;
}

/* Whether the scratch folder holds a trace (tg_live_record leaves none when the session
 * ended before its metadata came). */
static bool has_trace(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d)))
        found = e->d_name[0] != '.';
    if (d)
        closedir(d);
    return found;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void forget(struct cli_live *L)
{
    for (size_t i = 0; i < L->n_dirs; i++) {
        nftw(L->dirs[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(L->dirs[i]);
    }
    free(L->dirs);
    for (size_t i = 0; i < L->n_late; i++)
        tg_error_free(L->late[i]);
    free(L->late);
    free(L);
}

/* The line on a terminal while a session is read: the command's output comes at its end. */
static void draw(void *ctx, const tg_live_result *res)
{
    fprintf(stderr,
            "\rtraceglot: %s: %llu packets, %llu KiB (output at the session's end or Ctrl-C) ",
            (const char *)ctx, (unsigned long long)res->packets,
            (unsigned long long)(res->bytes >> 10));
}

/* Whether a's live path is a cat whose events are printed as they come (cli_live_show.c). */
static bool shown_as_it_comes(const struct cli_args *a)
{
    return a->live_show && cli_live_show_fits(a);
}

/* Reads one live path into a new scratch folder: 0 (the folder in *dir), or an exit code.
 * A cat shown as it comes is printed here, whole: L->done then says the command ran. */
static int record(struct cli_live *L, struct cli_args *a, const char *url, const tg_live_params *p,
                  bool show, char **dir)
{
    const char *tmp = getenv("TMPDIR");
    char tmpl[4200];
    snprintf(tmpl, sizeof tmpl, "%s/traceglot-live.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char **grown = realloc(L->dirs, (L->n_dirs + 1) * sizeof *grown);
    if (!grown || !mkdtemp(tmpl)) {
        if (grown)
            L->dirs = grown;
        fprintf(stderr, "traceglot: error: cannot make a scratch folder for %s\n", url);
        return 1;
    }
    L->dirs = grown;
    if (!(L->dirs[L->n_dirs] = strdup(tmpl)))
        return 1;
    *dir = L->dirs[L->n_dirs++];
    tg_live_result res;
    tg_error *err = NULL;
    tg_live_params q = *p;
    struct cli_live_show *as_it_comes = shown_as_it_comes(a) ? cli_live_show_new(a, *dir) : NULL;
    if (as_it_comes) {
        q.complete = cli_live_show_pass;
        q.complete_ctx = as_it_comes;
    } else if (show) {
        q.progress = draw;
        q.progress_ctx = (void *)url;
    }
    int rc = tg_live_record(url, *dir, &q, &res, &err);
    if (show && !as_it_comes)
        fprintf(stderr, "\r\033[K");
    if (rc < 0 && res.packets == 0) {
        cli_live_show_free(as_it_comes);
        return cli_finish(rc, err); /* nothing to show: the error alone */
    }
    if (rc < 0)
        L->late[L->n_late++] = err;
    else if (!has_trace(*dir) && res.found)
        fprintf(stderr, "traceglot: note: %s ended before its trace metadata came: no events\n",
                url);
    if (as_it_comes) {
        L->done = true;
        L->exit_code = has_trace(*dir) ? cli_live_show_end(as_it_comes) : 0;
        cli_live_show_free(as_it_comes);
    }
    return 0;
}

int cli_live_prepare(struct cli_args *a)
{
    bool any = false;
    for (size_t i = 0; i < a->n_paths; i++)
        any |= tg_live_is_url(a->paths[i]);
    if (!any)
        return 0;
    struct cli_live *L = calloc(1, sizeof *L);
    if (!L || !(L->late = calloc(a->n_paths, sizeof *L->late))) {
        free(L);
        return 1;
    }
    a->live = L;
    char action[16];
    volatile sig_atomic_t stop = 0;
    tg_live_params p = {.stop = &stop};
    int rc = read_params(tg_options_get(a->opts, "params"), &p, action, sizeof action);
    for (size_t i = 0; !rc && i < a->n_paths; i++) {
        if (!tg_live_is_url(a->paths[i]))
            continue;
        if (!tg_live_names_session(a->paths[i])) { /* a relay: its sessions */
            tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
            tg_error *err = NULL;
            int st = out ? tg_live_list(a->paths[i], out, &p, &err) : TG_ERR_NOMEM;
            tg_buf_free(out);
            rc = st < 0 ? cli_finish(st, err) : 0;
            L->done = true;
            continue;
        }
        char *dir = NULL;
        cli_signals_soft(&stop); /* Ctrl-C ends the reading, not the command */
        bool show = a->progress > 0 || (a->progress == 0 && isatty(STDERR_FILENO));
        rc = record(L, a, a->paths[i], &p, show, &dir);
        cli_signals_install();
        if (!rc)
            a->paths[i] = dir;
    }
    if (!rc && L->done) /* shown as it came: the command ran */
        return 1;
    if (rc || L->done) {
        L->done = true;
        L->exit_code = rc;
        return 1;
    }
    /* a session that ended before any metadata came, or was not found with "end": nothing
     * to read, and nothing wrong */
    bool traces = false;
    for (size_t i = 0; i < L->n_dirs; i++)
        traces |= has_trace(L->dirs[i]);
    if (!traces && a->n_paths == L->n_dirs) {
        L->done = true;
        L->exit_code = L->n_late ? 1 : 0;
        return 1;
    }
    return 0;
}

int cli_live_finish(struct cli_args *a, int rc)
{
    struct cli_live *L = a->live;
    if (!L)
        return rc;
    if (L->done && !L->n_late)
        rc = L->exit_code;
    for (size_t i = 0; i < L->n_late; i++) {
        for (const tg_error *e = L->late[i]; e; e = tg_error_next(e))
            fprintf(stderr, "traceglot: error: %s\n", tg_error_message(e));
        if (rc == 0)
            rc = 1;
    }
    forget(L);
    a->live = NULL;
    return rc;
}
