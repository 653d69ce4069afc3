/* value_text.h - plain renderings of times and typed values shared by traceglot's own
 * printers (native text, JSON), info and stats.  Peer-compatible printers have their own
 * exact rules.  It lives in core beside the value model so that every consumer reaches it
 * through core/consumer.h. */
#ifndef TG_VALUE_TEXT_H
#define TG_VALUE_TEXT_H

#include "traceglot.h"

/* "S.NNNNNNNNN" (negative times get a leading '-'). */
void tg_text_time(tg_buf *b, int64_t ns);
/* A value as name-less text: 12, 0x1f, "str", [1, 2], { a = 1, b = "x" }; quote strings. */
void tg_text_value(tg_buf *b, const tg_value *v);
/* A string with JSON escapes, without the quotes. */
void tg_text_json_escaped(tg_buf *b, const char *s, size_t n);

#endif
