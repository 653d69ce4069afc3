/* print_dispatch.c - tg_print: find the style by name, run it over a filtered iterator,
 * then hand back the errors the iterator met in damaged streams and the output's.
 *
 * The same shape serves reports (analysis/report_dispatch.c): every printer sees a ready
 * iterator and only the public event model. */
#include "core/consumer.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

int tg_sink_run(tg_set *set, const tg_filter *f, const tg_options *opts, tg_buf *out,
                tg_error **err, tg_sink_fn fn, const void *impl)
{
    tg_iter *it = tg_iter_new(set, f, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    int rc = fn(impl, set, it, opts, out, err);
    int frc = tg_buf_flush(out);
    /* damage in the input: the readable events were printed; now the errors */
    const tg_error *e = tg_iter_errors(it);
    if (rc >= 0 && e) {
        for (; e; e = tg_error_next(e))
            tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
        rc = TG_ERR_FORMAT;
    }
    if (frc < 0) { /* said even after damage: what was printed may lack its end too */
        int why = tg_buf_error(out);
        tg_output *o = tg_buf_output(out);
        int wrc =
            tg_err_at(err, TG_ERR_IO, o ? tg_output_path(o) : NULL, TG_NO_OFFSET,
                      "cannot write the output%s%s", why ? ": " : "", why ? strerror(why) : "");
        if (rc >= 0 || rc == TG_ERR_FORMAT)
            rc = wrc;
    }
    tg_iter_free(it);
    return rc;
}

/* The iterator's damage as errors, after the output (rc: the sink's status). */
static int report_damage(const tg_iter *it, int rc, tg_error **err)
{
    const tg_error *e = tg_iter_errors(it);
    if (rc >= 0 && e) {
        for (; e; e = tg_error_next(e))
            tg_err(err, tg_error_status(e), "%s", tg_error_message(e));
        rc = TG_ERR_FORMAT;
    }
    return rc;
}

int tg_sink_run_diff(tg_set *set, const tg_filter *f, tg_set *other, const tg_filter *other_f,
                     const tg_options *opts, tg_buf *out, tg_error **err, tg_diff_fn fn,
                     const void *impl)
{
    tg_iter *it = tg_iter_new(set, f, err);
    if (!it)
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    tg_iter *other_it = tg_iter_new(other, other_f, err);
    if (!other_it) {
        tg_iter_free(it);
        return err && *err ? tg_error_status(*err) : TG_ERR_NOMEM;
    }
    int rc = fn(impl, set, it, other, other_it, opts, out, err);
    int frc = tg_buf_flush(out);
    int r1 = report_damage(it, rc, err), r2 = report_damage(other_it, rc, err);
    rc = r1 < 0 ? r1 : r2;
    if (rc >= 0 && frc < 0)
        rc = tg_err(err, TG_ERR_IO, "cannot write the output");
    tg_iter_free(it);
    tg_iter_free(other_it);
    return rc;
}

static int run_convert_diff(const void *impl, tg_set *set, tg_iter *it, tg_set *other,
                            tg_iter *other_it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    return ((const struct tg_converter *)impl)
        ->convert_diff(set, it, other, other_it, opts, out, err);
}

int tg_convert_diff(tg_set *set, tg_set *other, const tg_filter *f, const char *to,
                    const tg_options *opts, tg_buf *out, tg_error **err)
{
    for (size_t i = 0; tg_converter_list[i]; i++) {
        const struct tg_converter *c = tg_converter_list[i];
        if (strcmp(c->name, to) != 0)
            continue;
        if (!c->convert_diff)
            return tg_err(err, TG_ERR_USAGE, "--to %s compares no runs (--diff: svg or folded)",
                          to);
        TG_TRY(tg_options_check(opts, TG_OWNER_CONVERTER, to, "filter", "convert", err));
        return tg_sink_run_diff(set, f, other, f, opts, out, err, run_convert_diff, c);
    }
    return tg_err(err, TG_ERR_USAGE, "unknown conversion target '%s'", to);
}

static int run_print(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                     tg_buf *out, tg_error **err)
{
    return ((const struct tg_print_style *)impl)->print(set, it, opts, out, err);
}

int tg_print(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
             tg_buf *out, tg_error **err)
{
    if (!style)
        style = "native";
    for (size_t i = 0; tg_print_style_list[i]; i++)
        if (strcmp(tg_print_style_list[i]->name, style) == 0) {
            TG_TRY(tg_options_check(opts, TG_OWNER_PRINT_STYLE, style, "filter", "cat", err));
            return tg_sink_run(set, f, opts, out, err, run_print, tg_print_style_list[i]);
        }
    char known[256];
    tg_names_join(tg_print_style_name, known, sizeof known);
    return tg_err(err, TG_ERR_USAGE, "unknown style '%s' (known: %s)", style, known);
}

const char *tg_print_style_name(size_t i)
{
    for (size_t k = 0; tg_print_style_list[k]; k++)
        if (k == i)
            return tg_print_style_list[k]->name;
    return NULL;
}

void tg_names_join(const char *(*name)(size_t i), char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; name(i) && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", name(i));
}
