/* report_task.h - `uftrace report --task`: one row per thread instead of per function. */
#ifndef TG_REPORT_TASK_H
#define TG_REPORT_TASK_H

#include "core/consumer.h"

/* The task table: total (the self times of every call the thread made: its run time),
 * self (that less the time it was scheduled out), TID, number of calls, task name; -s takes
 * total, self, tid, func, name; -f total, self, tid, func (report_task.c). */
int uf_report_task(tg_set *set, tg_iter *it, const tg_options *opts, tg_buf *out, tg_error **err);

#endif
