/* trace_cmd_filter.h - `trace-cmd report -F` and `-v`: libtraceevent's event filters, as
 * trace-cmd 3.1 applies them (trace_cmd_filter.c). */
#ifndef TG_TRACE_CMD_FILTER_H
#define TG_TRACE_CMD_FILTER_H

#include "core/consumer.h"

#include <stdbool.h>

typedef struct tc_filters tc_filters;

/* An empty set of filters over the event classes of set. */
tc_filters *tc_filters_new(tg_set *set);
void tc_filters_free(tc_filters *fs);
/* Adds one filter string "EVENTS[:EXPRESSION]" (neg: given after -v, it hides what it
 * matches).  0, or TG_ERR_USAGE with trace-cmd's reason (no such event, a syntax error). */
int tc_filters_add(tc_filters *fs, const char *str, bool neg, tg_error **err);
/* Whether trace-cmd shows the event: 1 yes, 0 no, or TG_ERR_USAGE when the filter cannot
 * be applied to its class (a string compared with < to a string field, a bad regex: what
 * trace-cmd refuses before printing, found here at the first event of the class). */
int tc_filters_show(tc_filters *fs, const tg_event *ev, tg_error **err);

#endif
