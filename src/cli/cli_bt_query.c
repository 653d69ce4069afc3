/* cli_bt_query.c - `traceglot query src.ctf.fs metadata-info -p 'path="DIR"'`: babeltrace2's
 * query command, as a babeltrace2 user types it, for the query traceglot answers.
 *
 * babeltrace2 asks a component class (src.ctf.fs) an object (metadata-info) with parameters
 * in its own syntax (-p/--params 'path="DIR"', before or after the two names); traceglot
 * answers metadata-info with the trace's own text (tg_trace_render part
 * "babeltrace2-metadata-info").  Another component class or object (babeltrace.trace-infos,
 * babeltrace.support-info) is refused by name (exit 2), never answered with something else. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int usage(const char *why, const char *arg)
{
    return cli_peer_usage("query", why, arg,
                          "babeltrace2's spelling: traceglot query src.ctf.fs metadata-info "
                          "-p 'path=\"DIR\"'");
}

/* The value of path= in babeltrace2's parameter text: "DIR" (\" and \\ escaped) or DIR;
 * malloc'ed, NULL when the text is not path=VALUE. */
static char *path_param(const char *params)
{
    while (*params == ' ')
        params++;
    if (strncmp(params, "path=", 5) != 0)
        return NULL;
    const char *v = params + 5;
    char *out = malloc(strlen(v) + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    if (*v != '"') {
        strcpy(out, v);
        return out;
    }
    for (v++; *v && *v != '"'; v++) {
        if (*v == '\\' && (v[1] == '"' || v[1] == '\\'))
            v++;
        out[n++] = *v;
    }
    out[n] = 0;
    if (*v != '"' || v[1]) {
        free(out);
        return NULL;
    }
    return out;
}

static int answer_metadata_info(const char *dir)
{
    char *meta = malloc(strlen(dir) + sizeof "/metadata");
    struct stat st;
    if (!meta)
        return 1;
    sprintf(meta, "%s/metadata", dir);
    int found = stat(meta, &st) == 0 && S_ISREG(st.st_mode);
    free(meta);
    if (!found) {
        fprintf(stderr, "traceglot: error: cannot open trace metadata: path=\"%s\"\n", dir);
        return 1;
    }
    tg_error *err = NULL;
    const char *paths[] = {dir};
    tg_set *set = tg_open(paths, 1, NULL, &err);
    if (!set)
        return cli_finish(err ? tg_error_status(err) : TG_ERR_FORMAT, err);
    tg_buf *out = tg_buf_new_fd(STDOUT_FILENO);
    int rc = out ? 0 : TG_ERR_NOMEM, not_ctf = 0;
    const tg_trace *t = tg_set_trace_count(set) == 1 ? tg_set_trace(set, 0) : NULL;
    if (rc == 0 && (!t || strcmp(tg_trace_format(t), "ctf") != 0))
        not_ctf = 1;
    else if (rc == 0)
        rc = tg_trace_render(t, "babeltrace2-metadata-info", out, &err);
    if (out && tg_buf_flush(out) < 0 && rc >= 0)
        rc = TG_ERR_IO;
    tg_buf_free(out);
    tg_close(set);
    if (not_ctf) {
        fprintf(stderr, "traceglot query: %s is not one CTF trace\n", dir);
        return 1;
    }
    return cli_finish(rc < 0 ? rc : 0, err);
}

int cli_run_bt_query(int argc, char **argv)
{
    const char *names[2] = {NULL, NULL}, *params = NULL;
    size_t n_names = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-p") || !strcmp(arg, "--params")) {
            if (i + 1 >= argc)
                return usage("PARAMS after", arg);
            params = argv[++i];
        } else if (!strncmp(arg, "--params=", 9)) {
            params = arg + 9;
        } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            printf("usage: traceglot query src.ctf.fs metadata-info -p 'path=\"DIR\"'\n\nthe "
                   "metadata of the CTF trace in DIR, as babeltrace2 query answers it\n");
            return 0;
        } else if (arg[0] == '-') {
            return usage("unknown option", arg);
        } else if (n_names < 2) {
            names[n_names++] = arg;
        } else {
            return usage("one COMPONENT-CLASS and one OBJECT, not also", arg);
        }
    }
    if (n_names < 2)
        return usage("give the COMPONENT-CLASS and the OBJECT", NULL);
    if (strcmp(names[0], "src.ctf.fs") != 0 && strcmp(names[0], "source.ctf.fs") != 0)
        return usage("traceglot answers the queries of src.ctf.fs only, not", names[0]);
    if (strcmp(names[1], "metadata-info") != 0)
        return usage("traceglot answers src.ctf.fs's metadata-info only, not", names[1]);
    char *dir = params ? path_param(params) : NULL;
    if (!dir)
        return usage("metadata-info takes -p 'path=\"DIR\"', not", params ? params : "nothing");
    int rc = answer_metadata_info(dir);
    free(dir);
    return rc;
}
