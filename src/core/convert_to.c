/* convert_to.c - converting into an output: tg_convert (a stream into a buffer),
 * tg_convert_to (into a tg_output, whatever the converter writes), and tg_convert_dir and
 * tg_convert_file, which are tg_convert_to on an output made from a path.
 *
 * Every converted file or folder is written under a temporary name and renamed when whole
 * (core/output.c): one path for streams given -o, the parts of a split conversion, the
 * directory writers and the SQLite export, so each of them leaves nothing on failure and
 * refuses to replace what is there in the same words.  What input damage means differs by
 * kind, as before: a stream keeps the events read before the damage (like `cat`), while a
 * folder or a database that would look whole but lack events is refused. */
#include "core/consumer.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

/* Where a converted trace goes: every converter takes it (a directory writer is given it
 * as its dir; the split writers name their parts after it). */
TG_OPTIONS(convert) = {
    "convert",
    TG_OWNER_COMMAND,
    (const tg_option_decl[]){
        {"output", TG_OPT_TEXT, NULL,
         "write to FILE instead of standard output (a directory for ctf, uftrace)", "FILE", NULL, 0,
         0, 'o'},
        {"force", TG_OPT_FLAG, NULL,
         "replace an existing output file (an existing folder is never replaced)"},
        {0},
    },
};

static const struct tg_converter *find_converter(const char *to)
{
    for (size_t i = 0; to && tg_converter_list[i]; i++)
        if (strcmp(tg_converter_list[i]->name, to) == 0)
            return tg_converter_list[i];
    return NULL;
}

const char *tg_converter_name(size_t i)
{
    for (size_t k = 0; tg_converter_list[k]; k++)
        if (k == i)
            return tg_converter_list[k]->name;
    return NULL;
}

int tg_convert_writes_dir(const char *to)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return TG_ERR_USAGE;
    return c->convert_file ? 2 : c->convert_dir != NULL;
}

int tg_convert_is_binary(const char *to)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return TG_ERR_USAGE;
    return c->binary;
}

static int unknown_target(const char *to, tg_error **err)
{
    char known[256];
    tg_names_join(tg_converter_name, known, sizeof known);
    return tg_err(err, TG_ERR_USAGE, "unknown conversion target '%s' (known: %s)",
                  to ? to : "(none)", known);
}

static int run_convert(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                       tg_buf *out, tg_error **err)
{
    return ((const struct tg_converter *)impl)->convert(set, it, opts, out, err);
}

static int split_asked(const tg_options *opts)
{
    return tg_options_get(opts, "split-size") || tg_options_get(opts, "split-time");
}

/* The stream into out; its parts (split options) into an output made from "output" when out
 * is not already bound to one. */
static int convert_stream(const struct tg_converter *c, tg_set *set, const tg_filter *f,
                          const tg_options *opts, tg_buf *out, tg_error **err)
{
    if (!split_asked(opts) || tg_buf_output(out))
        return tg_sink_run(set, f, opts, out, err, run_convert, c);
    const char *path = tg_options_get(opts, "output");
    if (!path || strcmp(path, "-") == 0)
        return tg_err(err, TG_ERR_USAGE, "a split output needs -o FILE to name its parts");
    tg_output *o = tg_output_new(path, tg_options_flag(opts, "force") ? TG_OUTPUT_FORCE : 0, err);
    if (!o)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    out->output = o;
    int rc = tg_sink_run(set, f, opts, out, err, run_convert, c);
    out->output = NULL;
    if (rc >= 0 || rc == TG_ERR_FORMAT) {
        int crc = tg_output_commit(o, err);
        rc = crc < 0 ? crc : rc;
    }
    tg_output_free(o); /* what was not committed is removed */
    return rc;
}

int tg_convert(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts, tg_buf *out,
               tg_error **err)
{
    const struct tg_converter *c = find_converter(to);
    if (c && !c->convert)
        return tg_err(err, TG_ERR_USAGE, "'%s' is written to a %s (tg_convert_to)", to,
                      c->convert_dir ? "folder" : "file at a path");
    if (!c)
        return unknown_target(to, err);
    TG_TRY(tg_options_check(opts, TG_OWNER_CONVERTER, to, "filter", "convert", err));
    return convert_stream(c, set, f, opts, out, err);
}

/* The directory converter into dir; damage in the input refuses the output. */
static int convert_dir(const struct tg_converter *c, tg_set *set, const tg_filter *f,
                       const tg_options *opts, const char *dir, tg_error **err)
{
    tg_iter *it = tg_iter_new(set, f, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    int rc = c->convert_dir(set, it, opts, dir, err);
    /* damage in the input: the output would look whole but lack events; refuse it */
    const tg_error *e = tg_iter_errors(it);
    if (rc >= 0 && e) {
        for (; e; e = tg_error_next(e))
            tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
        rc = TG_ERR_FORMAT;
    }
    tg_iter_free(it);
    return rc;
}

int tg_convert_to(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                  tg_output *o, tg_error **err)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return unknown_target(to, err);
    TG_TRY(tg_options_check(opts, TG_OWNER_CONVERTER, to, "filter", "convert", err));
    int rc, keep_damaged = 0;
    if (c->convert_dir) {
        const char *dir;
        rc = tg_output_open_dir(o, &dir, err);
        if (rc >= 0)
            rc = convert_dir(c, set, f, opts, dir, err);
    } else if (c->convert_file) {
        rc = tg_output_open_file(o, err);
        if (rc >= 0)
            rc = c->convert_file(set, f, opts, tg_output_writing(o), err);
    } else {
        /* a stream: into the file, or (split) into parts the writer asks o for */
        int split = split_asked(opts);
        int fd = split ? 0 : tg_output_open_file(o, err);
        tg_buf *out = fd < 0 ? NULL : split ? tg_buf_new() : tg_buf_new_fd(fd);
        if (!out)
            rc = fd < 0 ? fd : tg_err(err, TG_ERR_NOMEM, "out of memory");
        else {
            out->output = o;
            rc = tg_sink_run(set, f, opts, out, err, run_convert, c);
            out->fd = -1; /* o owns the descriptor */
            tg_buf_free(out);
            keep_damaged = 1; /* the events before the damage, as cat prints them */
        }
    }
    /* a failure inside a temporary output names files that are gone: say what that means */
    const char *writing = tg_output_writing(o);
    int temporary = writing && strcmp(writing, tg_output_path(o)) != 0;
    if (rc >= 0 || (rc == TG_ERR_FORMAT && keep_damaged)) {
        int crc = tg_output_commit(o, err);
        rc = crc < 0 ? crc : rc;
    } else {
        tg_output_discard(o);
        if (temporary)
            tg_err_wrap(err, "%s: nothing written", tg_output_path(o));
    }
    return rc < 0 ? rc : 0;
}

/* tg_convert_to on an output of path (the option "force" replaces a file). */
static int convert_at(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                      const char *path, tg_error **err)
{
    tg_output *o = tg_output_new(path, tg_options_flag(opts, "force") ? TG_OUTPUT_FORCE : 0, err);
    if (!o)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    int rc = tg_convert_to(set, f, to, opts, o, err);
    tg_output_free(o);
    return rc;
}

int tg_convert_dir(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                   const char *dir, tg_error **err)
{
    const struct tg_converter *c = find_converter(to);
    if (!c)
        return unknown_target(to, err);
    if (!c->convert_dir)
        return tg_err(err, TG_ERR_USAGE, "'%s' is written to a file, not a directory", to);
    return convert_at(set, f, to, opts, dir, err);
}

int tg_convert_file(tg_set *set, const tg_filter *f, const char *to, const tg_options *opts,
                    const char *path, tg_error **err)
{
    const struct tg_converter *c = find_converter(to);
    if (!c || !c->convert_file)
        return tg_err(err, TG_ERR_USAGE, "'%s' is not written to a file at a path",
                      to ? to : "(none)");
    return convert_at(set, f, to, opts, path, err);
}
