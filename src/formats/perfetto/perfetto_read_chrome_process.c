/* perfetto_read_chrome_process.c - what a process TrackDescriptor's ChromeProcessDescriptor
 * (field 6, unknown to protobuf-c here) says of the process, as trace_processor keeps it:
 * the process's args (process.arg_set_id) "chrome.process_type" (the type's name, NULL for
 * a type it has no name for, and when the descriptor gives none), "chrome.host_app_package_name"
 * and "chrome.crash_trace_id" when given; the type's name also names a process no descriptor
 * named. */
#include "formats/perfetto/perfetto_read_internal.h"

#include <string.h>

#define PF_TD_CHROME_PROCESS 6

/* Chrome's names of its process types (content::ProcessType), as trace_processor has them;
 * NULL for a type it has no name for. */
static const char *process_type_name(uint64_t type)
{
    switch (type) {
    case 1: return "Browser";
    case 2: return "Renderer";
    case 3: return "Utility";
    case 4: return "SandboxHelper"; /* the zygote's, as trace_processor names it */
    case 6: return "Gpu";
    case 7: return "PpapiPlugin";
    case 8: return "PpapiBroker";
    default: return NULL;
    }
}

/* The ChromeProcessDescriptor's fields (data, len) as args[0...]: their count, or -1 when
 * malformed, TG_ERR_NOMEM. */
static int chrome_process_args(tg_trace *t, const uint8_t *data, size_t len, tg_value *args,
                               const char **type_name)
{
    const uint8_t *at = data, *end = data + len;
    pf_wire w;
    uint64_t type = 0, crash = 0;
    bool has_crash = false;
    const uint8_t *app = NULL;
    size_t app_len = 0;
    int rc;
    while ((rc = pf_wire_next(&at, end, &w)) > 0) {
        if (w.field == 1 && w.type == 0)
            type = w.value;
        else if (w.field == 4 && w.type == 2) {
            app = w.bytes;
            app_len = w.len;
        } else if (w.field == 5 && w.type == 0) {
            crash = w.value;
            has_crash = true;
        }
    }
    if (rc < 0)
        return -1;
    int n = 0;
    *type_name = process_type_name(type);
    args[n] = (tg_value){.name = "chrome.process_type", .type = TG_VAL_STRING};
    if (*type_name)
        args[n] = pf_value_string("chrome.process_type", *type_name);
    n++;
    if (app &&
        !pf_value_text(t, &args[n++], "chrome.host_app_package_name", (const char *)app, app_len))
        return TG_ERR_NOMEM;
    if (has_crash)
        args[n++] = pf_value_uint("chrome.crash_trace_id", crash);
    return n;
}

int pf_read_chrome_process(tg_trace *t, const pf_track *k, const PerfettoRead__TrackDescriptor *d)
{
    if (k->task < 0)
        return 0;
    for (unsigned i = 0; i < d->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &d->base.unknown_fields[i];
        size_t len;
        const uint8_t *data = pf_unknown_bytes(u, &len);
        if (!data || u->tag != PF_TD_CHROME_PROCESS)
            continue;
        tg_value *args = tg_arena_alloc(&t->arena, 3 * sizeof *args);
        if (!args)
            return TG_ERR_NOMEM;
        const char *type_name = NULL;
        int n = chrome_process_args(t, data, len, args, &type_name);
        if (n == TG_ERR_NOMEM)
            return n;
        if (n < 0)
            continue; /* malformed: trace_processor's decoder stops there too */
        tg_task_info *task = &t->tasks[k->task];
        task->process_args = args;
        task->n_process_args = (size_t)n;
        if (type_name && !task->process_name && !task->name)
            task->process_name = type_name; /* names a process nothing else named */
    }
    return 0;
}
