/* xray_account_diff.c - the "xray" report style's --diff: two runs' llvm-xray accounts side
 * by side (the rows as xray_account.c makes and prints them). */
#include "compat/llvm-xray/xray_account.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- --diff: two runs' accounts side by side ----------------------------------------------
 * Each row of PATH as llvm-xray account prints it, followed by a line of the change of each
 * column against OTHER's row of the same function (matched by name; by function id when the
 * logs have no names): "(change)", or "(only in PATH)" with the whole row as the change.
 * Then OTHER's rows PATH lacks, as llvm-xray prints them for OTHER, each followed by
 * "(only in OTHER)" and the row negated. */

static const row *find_row(const account *ac, const row *r)
{
    for (size_t i = 0; i < ac->n; i++) {
        const row *o = &ac->rows[i];
        if (r->name[0] ? strcmp(o->name, r->name) == 0 : !o->name[0] && o->id == r->id)
            return o;
    }
    return NULL;
}

static void put_change(tg_buf *out, const row *r, const row *o, const char *what)
{
    static const row zero;
    if (!o)
        o = &zero;
    char tmp[256];
    int n =
        snprintf(tmp, sizeof tmp, "%9s %+10lld [%+9.6f, %+9.6f, %+9.6f, %+9.6f, %+9.6f] %+9.6f  ",
                 "", (long long)r->count - (long long)o->count, r->min - o->min, r->med - o->med,
                 r->p90 - o->p90, r->p99 - o->p99, r->max - o->max, r->sum - o->sum);
    if (n > 0)
        tg_buf_put(out, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    tg_buf_puts(out, what);
    tg_buf_putc(out, '\n');
}

/* The row with no call: what PATH has of a function only OTHER ran. */
static void negate(row *r)
{
    r->count = 0;
    r->min = r->med = r->p90 = r->p99 = r->max = r->sum = 0;
}

int xray_account_diff(tg_set *set, tg_iter *it, tg_set *other, tg_iter *other_it,
                      const tg_options *opts, tg_buf *out, tg_error **err)
{
    enum sort_key key;
    int asc;
    if (xray_account_parse_sort(opts, &key, &asc) < 0)
        return xray_account_bad_sort(err);
    const char *format = tg_options_get(opts, "format");
    bool json = format && strcmp(format, "json") == 0;
    if (format && strcmp(format, "csv") == 0)
        return tg_err(err, TG_ERR_USAGE, "report --diff --style=xray prints text or json, not csv");
    account ac, ao = {0};
    int rc = xray_account_run_set(&ac, set, it, key, asc, opts, NULL, err);
    int rc2 = rc == TG_ERR_NOMEM || ac.a.stopped
                  ? 0
                  : xray_account_run_set(&ao, other, other_it, key, asc, opts, NULL, err);
    if (rc != TG_ERR_NOMEM && rc2 != TG_ERR_NOMEM && !ac.a.stopped && !ao.a.stopped && json) {
        struct json_object *doc = xray_diff_json_new();
        for (size_t i = 0, limit = xray_account_top_of(opts, ac.n); i < limit; i++) {
            const row *r = &ac.rows[ac.idx[i]];
            xray_diff_json_add(doc, r, find_row(&ao, r));
        }
        for (size_t i = 0; i < ao.n; i++)
            if (!find_row(&ac, &ao.rows[ao.idx[i]]))
                xray_diff_json_add(doc, NULL, &ao.rows[ao.idx[i]]);
        int jrc = tg_json_doc_put(out, doc, err);
        rc = jrc < 0 ? jrc : rc;
    } else if (rc != TG_ERR_NOMEM && rc2 != TG_ERR_NOMEM && !ac.a.stopped && !ao.a.stopped) {
        size_t gone = 0;
        for (size_t i = 0; i < ao.n; i++)
            gone += !find_row(&ac, &ao.rows[i]);
        tg_buf_puts(out, "Functions with latencies: ");
        tg_buf_u64(out, ac.n);
        tg_buf_puts(out, " (OTHER: ");
        tg_buf_u64(out, ao.n);
        tg_buf_puts(out, ", ");
        tg_buf_u64(out, gone);
        tg_buf_puts(out, " of them only in OTHER)\n");
        xray_account_put_header(out);
        for (size_t i = 0, limit = xray_account_top_of(opts, ac.n); i < limit; i++) {
            const row *r = &ac.rows[ac.idx[i]], *o = find_row(&ao, r);
            xray_account_put_row(out, r);
            put_change(out, r, o, o ? "(change)" : "(only in PATH)");
        }
        for (size_t i = 0; i < ao.n; i++) {
            const row *o = &ao.rows[ao.idx[i]];
            if (find_row(&ac, o))
                continue;
            row z = *o;
            negate(&z);
            xray_account_put_row(out, o);
            put_change(out, &z, o, "(only in OTHER)");
        }
    }
    xray_account_free(&ao);
    xray_account_free(&ac);
    if ((rc == TG_ERR_NOMEM || rc2 == TG_ERR_NOMEM) && err && !*err)
        return TG_ERR_NOMEM;
    return rc < 0 ? rc : rc2 < 0 ? rc2 : 0;
}
