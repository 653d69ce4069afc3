/* cmd_fleet.c - `traceglot fleet`: one SQL question over many traces on Dask distributed.
 *
 * The fleet is the Python package's (traceglot.fleet: Dask's client, one task per trace on
 * the workers, each running the library's SQL through the binding), so this command checks
 * its options like every other command (the options of opening, the filters and sql's -q
 * and --format, refused with the nearest name when misspelt) and then becomes
 * `python3 -m traceglot.fleet` with them, for the package it was built with (build/python
 * beside the build's traceglot) or installed with (PREFIX/TG_PYTHON_DIR beside PREFIX/bin).
 * The rows come out in the formats of `traceglot sql`, made by the same library call. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The folder holding the traceglot package (with fleet.py) for this traceglot, into dir. */
static int find_package(char *dir, size_t size)
{
#ifdef TG_PYTHON_DIR
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    const char *const beside[] = {"%s/python", "%s/../" TG_PYTHON_DIR};
    for (size_t i = 0; i < sizeof beside / sizeof *beside; i++) {
        char probe[PATH_MAX + 64];
        snprintf(dir, size, beside[i], exe);
        snprintf(probe, sizeof probe, "%s/traceglot/fleet.py", dir);
        if (access(probe, R_OK) == 0)
            return 0;
    }
#else
    (void)dir;
    (void)size;
#endif
    return -1;
}

/* argv for python3 -m traceglot.fleet: the options as --option KEY=VALUE, the queries as -q,
 * then the paths.  NULL when out of memory. */
static char **fleet_argv(struct cli_args *a, const char *python)
{
    size_t n_opts = 0;
    const char *value;
    for (size_t i = 0; tg_options_key(a->opts, i, &value); i++)
        n_opts++;
    const char *q = tg_options_get(a->opts, "query");
    for (const char *p = q; p && *p; p++)
        n_opts += *p == CLI_APART;
    size_t cap = 10 + 2 * (n_opts + 1) + 2 + a->n_paths + 1;
    char **argv = calloc(cap, sizeof *argv);
    if (!argv)
        return NULL;
    size_t k = 0;
    argv[k++] = (char *)python;
    argv[k++] = "-m";
    argv[k++] = "traceglot.fleet";
    if (a->scheduler) {
        argv[k++] = "--scheduler";
        argv[k++] = (char *)a->scheduler;
    }
    if (a->workers) {
        argv[k++] = "--workers";
        argv[k++] = (char *)a->workers;
    }
    if (a->folders) {
        argv[k++] = "--folders";
        argv[k++] = (char *)a->folders;
    }
    const char *key;
    for (size_t i = 0; (key = tg_options_key(a->opts, i, &value)) != NULL; i++) {
        if (strcmp(key, "query") == 0) {
            char *all = strdup(value);
            if (!all)
                goto oom;
            for (char *t = all, *next; t; t = next) { /* the texts stay in all, never freed */
                next = strchr(t, CLI_APART);
                if (next)
                    *next++ = 0;
                argv[k++] = "-q";
                argv[k++] = t;
            }
        } else if (strcmp(key, "format") == 0) {
            argv[k++] = "--format";
            argv[k++] = (char *)value;
        } else {
            char *kv = malloc(strlen(key) + strlen(value) + 2);
            if (!kv)
                goto oom;
            sprintf(kv, "%s=%s", key, value);
            argv[k++] = "--option";
            argv[k++] = kv;
        }
    }
    argv[k++] = "--";
    for (size_t i = 0; i < a->n_paths; i++)
        argv[k++] = a->paths[i];
    return argv;
oom:
    free(argv);
    return NULL;
}

int cli_run_fleet(struct cli_args *a)
{
#ifdef TG_PYTHON_EXE
    const char *python = TG_PYTHON_EXE;
#else
    const char *python = NULL;
#endif
    char dir[PATH_MAX];
    if (!python || find_package(dir, sizeof dir) < 0) {
        fprintf(stderr, "traceglot fleet: the Python package traceglot is not beside this "
                        "traceglot (built without Python's development files, python3-dev?)\n");
        return 2;
    }
    if (a->folders && strcmp(a->folders, "one") != 0 && strcmp(a->folders, "each") != 0) {
        fprintf(stderr, "traceglot fleet: --folders takes one or each, not '%s'\n", a->folders);
        return 2;
    }
    if (!tg_options_get(a->opts, "query")) {
        fprintf(stderr, "traceglot fleet: no query: give -q SQL\n");
        return 2;
    }
    const char *old = getenv("PYTHONPATH");
    size_t len = strlen(dir) + (old ? strlen(old) + 1 : 0) + 1;
    char *path = malloc(len);
    char **argv = path ? fleet_argv(a, python) : NULL;
    if (!argv) {
        fprintf(stderr, "traceglot: error: out of memory\n");
        free(path);
        return 1;
    }
    snprintf(path, len, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("PYTHONPATH", path, 1);
    fflush(NULL);
    execv(python, argv);
    fprintf(stderr, "traceglot fleet: cannot run %s: %s\n", python, strerror(errno));
    free(argv);
    free(path);
    return 1;
}
