/* report_dispatch.c - tg_report and tg_report_diff: function accounting in the style asked
 * for ("uftrace" by default, "xray" for llvm-xray account), of one run or of two compared. */
#include "core/error_internal.h"
#include "core/consumer.h"

#include <string.h>

static int run_report(const void *impl, tg_set *set, tg_iter *it, const tg_options *opts,
                      tg_buf *out, tg_error **err)
{
    return ((const struct tg_report_style *)impl)->report(set, it, opts, out, err);
}

int tg_report(tg_set *set, const tg_filter *f, const char *style, const tg_options *opts,
              tg_buf *out, tg_error **err)
{
    if (!style)
        style = "uftrace";
    for (size_t i = 0; tg_report_style_list[i]; i++)
        if (strcmp(tg_report_style_list[i]->name, style) == 0) {
            TG_TRY(tg_options_check(opts, TG_OWNER_REPORT_STYLE, style, "filter", "report", err));
            return tg_sink_run(set, f, opts, out, err, run_report, tg_report_style_list[i]);
        }
    char known[128];
    tg_names_join(tg_report_style_name, known, sizeof known);
    return tg_err(err, TG_ERR_USAGE, "unknown report style '%s' (known: %s)", style, known);
}

const char *tg_report_style_name(size_t i)
{
    for (size_t k = 0; tg_report_style_list[k]; k++)
        if (k == i)
            return tg_report_style_list[k]->name;
    return NULL;
}

static int run_report_diff(const void *impl, tg_set *set, tg_iter *it, tg_set *other,
                           tg_iter *other_it, const tg_options *opts, tg_buf *out, tg_error **err)
{
    return ((const struct tg_report_style *)impl)->diff(set, it, other, other_it, opts, out, err);
}

int tg_report_diff(tg_set *set, tg_set *other, const tg_filter *f, const char *style,
                   const tg_options *opts, tg_buf *out, tg_error **err)
{
    if (!style)
        style = "uftrace";
    for (size_t i = 0; tg_report_style_list[i]; i++) {
        const struct tg_report_style *s = tg_report_style_list[i];
        if (strcmp(s->name, style) != 0)
            continue;
        if (!s->diff)
            return tg_err(err, TG_ERR_USAGE, "report style '%s' compares no runs", style);
        TG_TRY(tg_options_check(opts, TG_OWNER_REPORT_STYLE, style, "filter", "report", err));
        return tg_sink_run_diff(set, f, other, s->diff_other_whole ? NULL : f, opts, out, err,
                                run_report_diff, s);
    }
    return tg_err(err, TG_ERR_USAGE, "unknown report style '%s'", style);
}
