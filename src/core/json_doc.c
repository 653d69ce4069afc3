/* json_doc.c - one writer for the JSON documents of info, stats, report, graph and their
 * --diff, so that every command's `--format json` looks the same to a reader and a script
 * (the LTTng analyses print LAMI's own compact form instead: la_run.c). */
#include "core/json_doc.h"
#include "core/error_internal.h"

#include <json-c/json.h>

int tg_json_doc_put(tg_buf *out, struct json_object *doc, tg_error **err)
{
    if (!doc)
        return tg_err(err, TG_ERR_NOMEM, "out of memory");
    const char *text = json_object_to_json_string_ext(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text ? 0 : tg_err(err, TG_ERR_NOMEM, "out of memory");
    if (text) {
        tg_buf_puts(out, text);
        tg_buf_putc(out, '\n');
    }
    json_object_put(doc);
    return rc;
}
