/* json_doc.h - how every `--format json` document of traceglot is written: see json_doc.c. */
#ifndef TG_CORE_JSON_DOC_H
#define TG_CORE_JSON_DOC_H

#include "traceglot.h"

struct json_object;

/* doc, pretty-printed (two-space indent, "key": value, slashes unescaped) and a newline,
 * into out, then released; 0 or TG_ERR_NOMEM (doc NULL: json-c was out of memory). */
int tg_json_doc_put(tg_buf *out, struct json_object *doc, tg_error **err);

#endif
