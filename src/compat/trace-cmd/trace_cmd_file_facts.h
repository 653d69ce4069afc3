/* trace_cmd_file_facts.h - what `trace-cmd report` prints about a trace.dat instead of its
 * events: --cpus, --first-event, --last-event, -e, --uname (trace_cmd_file_facts.c). */
#ifndef TG_TRACE_CMD_FILE_FACTS_H
#define TG_TRACE_CMD_FILE_FACTS_H

#include "core/consumer.h"

/* 1: opts asked for one of them and it was printed into out (or failed: *rc <0 with err);
 * 0: none was asked, the events are printed.  cpus is the file's CPU count ("cpus=N"). */
int tc_file_facts(tg_set *set, tg_iter *it, const tg_options *opts, int cpus, tg_buf *out, int *rc,
                  tg_error **err);

#endif
