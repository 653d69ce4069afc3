/* task_names.c - thread and process names for the viewer writers (see task_names.h). */
#include "writers/viewers/task_names.h"

#include "core/consumer.h"

#include <string.h>

int64_t tg_task_name_field(tg_frame_names *names, const tg_event *ev, tg_scope scope,
                           const char *field)
{
    tg_value v;
    if (tg_event_field_by_name(ev, scope, field, &v) < 0 || v.type != TG_VAL_STRING)
        return 0;
    size_t len = strnlen(v.v.str.ptr, v.v.str.len);
    int64_t id = len ? tg_frame_names_intern(names, v.v.str.ptr, len) : -1;
    return id < -1 ? id : id + 1;
}

/* The interned name (+1) of the task the trace lists with tid, 0 when none. */
static int64_t listed(tg_frame_names *names, const tg_event *ev, int64_t tid)
{
    const tg_task_info *task = tg_trace_task_find(tg_event_trace(ev), tid);
    if (!task || !task->name || !task->name[0])
        return 0;
    int64_t id = tg_frame_names_intern(names, task->name, strlen(task->name));
    return id < 0 ? id : id + 1;
}

int64_t tg_task_thread_name(tg_frame_names *names, const tg_event *ev, int tid)
{
    if (tg_event_tid(ev) != tid)
        return 0; /* an event of no thread (shown on its cpu's): its context names none */
    int64_t name = tg_task_name_field(names, ev, TG_SCOPE_STREAM_CONTEXT, "procname");
    if (name == 0)
        name = tg_task_name_field(names, ev, TG_SCOPE_EVENT_CONTEXT, "procname");
    return name == 0 ? listed(names, ev, tid) : name;
}

int64_t tg_task_process_name(tg_frame_names *names, const tg_event *ev, int pid, int64_t main)
{
    const tg_process_info *attr = tg_trace_process(tg_event_trace(ev));
    if (attr && attr->pid == pid && attr->name && attr->name[0]) {
        int64_t id = tg_frame_names_intern(names, attr->name, strlen(attr->name));
        return id < 0 ? id : id + 1;
    }
    return main ? main : listed(names, ev, pid);
}
