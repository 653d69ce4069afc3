/* trace_attrs.c - a trace's typed attributes: its clock, host, process, tracer, the tasks
 * it lists, the build ids of the objects it maps and the format's environment.
 *
 * A format fills them once, in open(), from what its metadata says (uftrace's info file, a
 * CTF clock and env block, trace.dat options, the XRay header); consumers read them through
 * the public accessors and never parse the format's own description.  Strings are copied
 * into the trace's arena, so a format may pass pointers into buffers it frees later. */
#include "core/format_api.h"
#include "core/grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *dup_or_null(tg_trace *t, const char *s, bool *ok)
{
    if (!s)
        return NULL;
    const char *d = tg_arena_strdup(&t->arena, s);
    if (!d)
        *ok = false;
    return d;
}

void tg_trace_set_clock(tg_trace *t, const char *name, int64_t offset_ns)
{
    t->clock.name = name ? tg_arena_strdup(&t->arena, name) : NULL;
    t->clock.offset_ns = offset_ns;
}

int tg_trace_set_clock_info(tg_trace *t, const tg_clock_info *clock)
{
    bool ok = true;
    tg_clock_info c = *clock;
    c.name = dup_or_null(t, clock->name, &ok);
    c.description = dup_or_null(t, clock->description, &ok);
    t->clock = c;
    return ok ? 0 : TG_ERR_NOMEM;
}

int tg_trace_set_host(tg_trace *t, const tg_host_info *host)
{
    bool ok = true;
    tg_host_info h = *host;
    h.hostname = dup_or_null(t, host->hostname, &ok);
    h.kernel = dup_or_null(t, host->kernel, &ok);
    h.arch = dup_or_null(t, host->arch, &ok);
    h.boot_id = dup_or_null(t, host->boot_id, &ok);
    t->host = h;
    return ok ? 0 : TG_ERR_NOMEM;
}

int tg_trace_set_process(tg_trace *t, const tg_process_info *process)
{
    bool ok = true;
    tg_process_info p = *process;
    p.name = dup_or_null(t, process->name, &ok);
    p.executable = dup_or_null(t, process->executable, &ok);
    p.cmdline = dup_or_null(t, process->cmdline, &ok);
    t->process = p;
    return ok ? 0 : TG_ERR_NOMEM;
}

int tg_trace_set_tracer(tg_trace *t, const char *name, const char *version)
{
    bool ok = true;
    t->tracer.name = dup_or_null(t, name, &ok);
    t->tracer.version = dup_or_null(t, version, &ok);
    return ok ? 0 : TG_ERR_NOMEM;
}

int tg_trace_add_env(tg_trace *t, const char *key, const char *value, bool is_integer,
                     int64_t integer)
{
    TG_TRY(tg_grow(&t->env, &t->cap_env, t->n_env + 1, sizeof *t->env));
    bool ok = true;
    tg_env_entry e = {dup_or_null(t, key ? key : "", &ok), dup_or_null(t, value ? value : "", &ok),
                      is_integer, integer};
    if (!ok)
        return TG_ERR_NOMEM;
    t->env[t->n_env++] = e;
    return 0;
}

int tg_trace_add_env_int(tg_trace *t, const char *key, int64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRId64, value);
    return tg_trace_add_env(t, key, text, true, value);
}

int tg_trace_add_build_id(tg_trace *t, const tg_build_id_info *b)
{
    TG_TRY(tg_grow(&t->build_ids, &t->cap_build_ids, t->n_build_ids + 1, sizeof *t->build_ids));
    bool ok = true;
    tg_build_id_info k = *b;
    k.path = dup_or_null(t, b->path, &ok);
    if (!ok)
        return TG_ERR_NOMEM;
    t->build_ids[t->n_build_ids++] = k;
    return 0;
}

int tg_trace_add_task(tg_trace *t, const tg_task_info *task)
{
    TG_TRY(tg_grow(&t->tasks, &t->cap_tasks, t->n_tasks + 1, sizeof *t->tasks));
    bool ok = true;
    tg_task_info k = *task;
    k.name = dup_or_null(t, task->name, &ok);
    k.process_name = dup_or_null(t, task->process_name, &ok);
    k.cmdline = dup_or_null(t, task->cmdline, &ok);
    if (!ok)
        return TG_ERR_NOMEM;
    t->tasks[t->n_tasks++] = k;
    return 0;
}

int64_t tg_trace_add_track(tg_trace *t, const tg_track_decl *track)
{
    TG_TRY(tg_grow(&t->tracks, &t->cap_tracks, t->n_tracks + 1, sizeof *t->tracks));
    bool ok = true;
    tg_track_decl k = *track;
    k.name = dup_or_null(t, track->name, &ok);
    k.type = dup_or_null(t, track->type, &ok);
    k.unit = dup_or_null(t, track->unit, &ok);
    if (!ok)
        return TG_ERR_NOMEM;
    t->tracks[t->n_tracks] = k;
    return (int64_t)t->n_tracks++;
}

tg_clock_origin tg_clock_origin_of_name(const char *name)
{
    static const struct {
        const char *name;
        tg_clock_origin origin;
    } names[] = {
        {"mono", TG_CLOCK_MONOTONIC},
        {"monotonic", TG_CLOCK_MONOTONIC},
        {"mono_raw", TG_CLOCK_MONOTONIC_RAW},
        {"monotonic_raw", TG_CLOCK_MONOTONIC_RAW},
        {"boot", TG_CLOCK_BOOT},
        {"boottime", TG_CLOCK_BOOT},
        {"monotonic_boot", TG_CLOCK_BOOT},
        {"realtime", TG_CLOCK_REALTIME},
        {"tai", TG_CLOCK_TAI},
        {"x86-tsc", TG_CLOCK_CYCLES},
        {"tsc", TG_CLOCK_CYCLES},
        {"local", TG_CLOCK_LOCAL},
        {"global", TG_CLOCK_LOCAL},
        {"perf", TG_CLOCK_LOCAL},
    };
    if (!name)
        return TG_CLOCK_UNKNOWN;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            return names[i].origin;
    return TG_CLOCK_UNKNOWN;
}

const char *tg_clock_origin_name(tg_clock_origin origin)
{
    switch (origin) {
    case TG_CLOCK_MONOTONIC: return "monotonic";
    case TG_CLOCK_MONOTONIC_RAW: return "monotonic-raw";
    case TG_CLOCK_BOOT: return "boot";
    case TG_CLOCK_REALTIME: return "realtime";
    case TG_CLOCK_TAI: return "tai";
    case TG_CLOCK_CYCLES: return "cycles";
    case TG_CLOCK_LOCAL: return "local";
    case TG_CLOCK_UNKNOWN: break;
    }
    return "unknown";
}

const char *tg_trace_clock_name(const tg_trace *t)
{
    return t->clock.name ? t->clock.name : "unknown";
}
int64_t tg_trace_clock_offset_ns(const tg_trace *t) { return t->clock.offset_ns; }
const tg_clock_info *tg_trace_clock(const tg_trace *t) { return &t->clock; }
const tg_host_info *tg_trace_host(const tg_trace *t) { return &t->host; }
const tg_process_info *tg_trace_process(const tg_trace *t) { return &t->process; }
const tg_tracer_info *tg_trace_tracer(const tg_trace *t) { return &t->tracer; }
size_t tg_trace_env_count(const tg_trace *t) { return t->n_env; }
const tg_env_entry *tg_trace_env(const tg_trace *t, size_t i)
{
    return i < t->n_env ? &t->env[i] : NULL;
}

const tg_env_entry *tg_trace_env_find(const tg_trace *t, const char *key)
{
    for (size_t i = 0; i < t->n_env; i++)
        if (strcmp(t->env[i].key, key) == 0)
            return &t->env[i];
    return NULL;
}

size_t tg_trace_task_count(const tg_trace *t) { return t->n_tasks; }
const tg_task_info *tg_trace_task(const tg_trace *t, size_t i)
{
    return i < t->n_tasks ? &t->tasks[i] : NULL;
}

const tg_task_info *tg_trace_task_find(const tg_trace *t, int64_t tid)
{
    for (size_t i = 0; i < t->n_tasks; i++)
        if (t->tasks[i].tid == tid)
            return &t->tasks[i];
    return NULL;
}

size_t tg_trace_build_id_count(const tg_trace *t) { return t->n_build_ids; }
const tg_build_id_info *tg_trace_build_id(const tg_trace *t, size_t i)
{
    return i < t->n_build_ids ? &t->build_ids[i] : NULL;
}

const tg_build_id_info *tg_trace_build_id_find(const tg_trace *t, const char *path)
{
    for (size_t i = 0; i < t->n_build_ids; i++)
        if (t->build_ids[i].path && strcmp(t->build_ids[i].path, path) == 0)
            return &t->build_ids[i];
    return NULL;
}
