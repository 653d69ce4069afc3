/* cli_bt_query.c - `traceglot query src.ctf.fs metadata-info -p 'path="DIR"'` and
 * `traceglot query src.ctf.fs babeltrace.trace-infos -p 'inputs=["DIR"]'`: babeltrace2's
 * query command, as a babeltrace2 user types it, for the queries traceglot answers.
 *
 * babeltrace2 asks a component class (src.ctf.fs) an object with parameters in its own
 * syntax (-p/--params, before or after the two names); traceglot answers with the trace's
 * own text (tg_trace_render parts "babeltrace2-metadata-info", "babeltrace2-trace-infos").
 * trace-infos takes one input folder, named as babeltrace2 names it (made absolute, without
 * "." or ".." parts); several inputs (which babeltrace2 merges by UUID) and its other
 * parameters are refused by name, as is another component class or object
 * (babeltrace.support-info): exit 2, never an answer to something else. */
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
                          "-p 'path=\"DIR\"' (or babeltrace.trace-infos -p "
                          "'inputs=[\"DIR\"]')");
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

/* The answer to query object part (a tg_trace_render part) for the CTF trace in dir. */
static int answer_query(const char *dir, const char *part)
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
        rc = tg_trace_render(t, part, out, &err);
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

/* path made absolute, with its ".", ".." and repeated or trailing slashes taken out, as
 * babeltrace2 normalizes an input path (malloc'ed; NULL without memory). */
static char *normal_path(const char *path)
{
    char cwd[4096] = "";
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        return NULL;
    size_t cap = strlen(cwd) + strlen(path) + 3, n = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    char *joined = malloc(cap);
    if (!joined) {
        free(out);
        return NULL;
    }
    snprintf(joined, cap, "%s/%s", cwd, path);
    char *save = NULL;
    for (char *tok = strtok_r(joined, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        if (!strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..")) {
            while (n > 0 && out[n - 1] != '/')
                n--;
            if (n > 0)
                n--; /* the slash before the part taken out */
            continue;
        }
        out[n++] = '/';
        size_t len = strlen(tok);
        memcpy(out + n, tok, len);
        n += len;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = 0;
    free(joined);
    return out;
}

/* babeltrace.trace-infos with parameters params: inputs=["DIR"], one folder. */
static int trace_infos(const char *params)
{
    struct cli_bt_params ps = {0};
    if (!params || cli_bt_params_parse(params, &ps) < 0) {
        cli_bt_params_free(&ps);
        return usage("trace-infos takes -p 'inputs=[\"DIR\"]', not", params ? params : "nothing");
    }
    int rc = 0;
    for (size_t i = 0; i < ps.n && !rc; i++)
        if (strcmp(ps.items[i].key, "inputs") != 0)
            rc = usage("trace-infos takes inputs= only, not", ps.items[i].key);
    const struct cli_bt_param *in = rc ? NULL : cli_bt_params_find(&ps, "inputs");
    if (!rc && (!in || !in->array || in->n_values == 0))
        rc = usage("trace-infos takes -p 'inputs=[\"DIR\"]', not", params);
    else if (!rc && in->n_values > 1)
        rc = usage("trace-infos answers for one input folder, not also", in->values[1]);
    char *dir = rc ? NULL : normal_path(in->values[0]);
    cli_bt_params_free(&ps);
    if (rc)
        return rc;
    if (!dir)
        return cli_finish(TG_ERR_NOMEM, NULL);
    rc = answer_query(dir, "babeltrace2-trace-infos");
    free(dir);
    return rc;
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
            printf("usage: traceglot query src.ctf.fs metadata-info -p 'path=\"DIR\"'\n"
                   "       traceglot query src.ctf.fs babeltrace.trace-infos -p "
                   "'inputs=[\"DIR\"]'\n\nthe metadata, or the streams and their time ranges, of "
                   "the CTF trace in DIR, as babeltrace2 query answers them\n");
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
    if (strcmp(names[1], "babeltrace.trace-infos") == 0)
        return trace_infos(params);
    if (strcmp(names[1], "metadata-info") != 0)
        return usage("traceglot answers src.ctf.fs's metadata-info and babeltrace.trace-infos "
                     "only, not",
                     names[1]);
    char *dir = params ? path_param(params) : NULL;
    if (!dir)
        return usage("metadata-info takes -p 'path=\"DIR\"', not", params ? params : "nothing");
    int rc = answer_query(dir, "babeltrace2-metadata-info");
    free(dir);
    return rc;
}
