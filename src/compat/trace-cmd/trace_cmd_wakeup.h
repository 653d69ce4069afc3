/* trace_cmd_wakeup.h - `trace-cmd report -w`: wakeup latencies (trace_cmd_wakeup.c). */
#ifndef TG_TRACE_CMD_WAKEUP_H
#define TG_TRACE_CMD_WAKEUP_H

#include "core/consumer.h"

typedef struct tc_wakeup tc_wakeup;

/* NULL when out of memory.  Without sched_wakeup and sched_switch formats it does nothing. */
tc_wakeup *tc_wakeup_new(const tg_trace *t);
/* For each event printed, after its text and before its newline: a wakeup starts a wait, a
 * sched_switch to the woken task ends it and prints " Latency: N.NNN usecs". */
int tc_wakeup_event(tc_wakeup *w, const tg_event *ev, tg_buf *out);
/* The closing summary (average, maximum, minimum; again for real-time tasks). */
void tc_wakeup_finish(const tc_wakeup *w, tg_buf *out);
void tc_wakeup_free(tc_wakeup *w);

#endif
