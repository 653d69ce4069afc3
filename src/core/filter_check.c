/* filter_check.c - a filter held against what the traces hold, before a run, so that an
 * empty answer is never silent: event globs none of which names an event class of the
 * traces are a usage error naming the nearest class names (trace-cmd refuses an unknown -F
 * event so); one glob of several naming none, a CPU or a thread that no stream of the
 * traces has, is a warning.
 *
 * What a trace knows at open is checked here: classes where every trace names its classes
 * at open (a Perfetto trace names them as its packets are read), CPUs where every stream
 * says its CPU, threads where every stream is one thread (uftrace, XRay) or the trace lists
 * its tasks.  The other CPUs and threads (perf.data's samples, LTTng 0.x's and CTF's
 * events, formats that record no CPU) are kept on the set as unsure: the first pass over
 * every event says those it did not meet (tg_set_run_warnings). */
#include "core/error_internal.h"
#include "core/filter_internal.h"
#include "core/format_api.h"
#include "core/grow.h"
#include "core/set_internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* Does glob match the class, by name or "system:name"? */
static bool class_matches(const char *glob, const tg_event_class *c)
{
    if (fnmatch(glob, c->name, 0) == 0)
        return true;
    if (!c->system)
        return false;
    char full[512];
    snprintf(full, sizeof full, "%s:%s", c->system, c->name);
    return fnmatch(glob, full, 0) == 0;
}

/* 1 when glob names a class of the set (or the set's classes are not all known), else 0
 * with the message in *why. */
static int glob_names_a_class(const char *glob, const tg_set *set, tg_error **why)
{
    tg_nearest near;
    tg_nearest_init(&near, glob);
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        if (t->classes_grow)
            return 1;
        for (size_t k = 0; k < t->n_classes; k++) {
            if (class_matches(glob, t->classes[k]))
                return 1;
            tg_nearest_offer(&near, t->classes[k]->name);
        }
    }
    char names[400];
    if (tg_nearest_say(&near, "", names, sizeof names))
        tg_err(why, TG_ERR_USAGE, "no event of the trace is named '%s' (did you mean %s?)", glob,
               names);
    else
        tg_err(why, TG_ERR_USAGE,
               "no event of the trace is named '%s' ('traceglot stats' lists the events)", glob);
    return 0;
}

static int check_globs(const tg_filter *f, const tg_set *set, tg_error **warnings, tg_error **err)
{
    tg_error *unnamed = NULL;
    size_t named = 0;
    for (size_t i = 0; i < f->n_globs; i++) {
        tg_error *why = NULL;
        if (glob_names_a_class(f->globs[i], set, &why))
            named++;
        else
            tg_err_append(&unnamed, why);
    }
    if (!unnamed)
        return 0;
    if (named) { /* the others select events: each glob that selects none is said */
        tg_err_append(warnings, unnamed);
        return 0;
    }
    int status = tg_error_status(unnamed);
    if (err)
        *err = unnamed;
    else
        tg_error_free(unnamed);
    return status;
}

static bool has_cpu(const tg_set *set, int cpu, bool *known)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        for (size_t k = 0; k < t->n_streams; k++) {
            int c = tg_stream_cpu(t->streams[k]);
            if (c < 0)
                *known = false;
            if (c == cpu)
                return true;
        }
    }
    return false;
}

static bool has_tid(const tg_set *set, int tid, bool *known)
{
    for (size_t i = 0; i < tg_set_trace_count(set); i++) {
        const tg_trace *t = tg_set_trace(set, i);
        if (tg_trace_task_find(t, tid))
            return true;
        for (size_t k = 0; k < t->n_streams; k++) {
            int s = tg_stream_tid(t->streams[k]);
            if (s < 0 && t->n_tasks == 0)
                *known = false;
            if (s == tid)
                return true;
        }
    }
    return false;
}

static void say_missing(tg_error **warnings, int value, bool is_cpu)
{
    tg_error *w = NULL;
    if (is_cpu)
        tg_err(&w, TG_ERR_USAGE, "the trace has no CPU %d: --cpu %d selects nothing", value, value);
    else
        tg_err(&w, TG_ERR_USAGE, "the trace has no thread %d: --tid %d selects nothing", value,
               value);
    tg_err_append(warnings, w);
}

/* A value the traces know only from their events, watched by the next full pass. */
static void keep_unsure(tg_set *set, int value, bool is_cpu)
{
    if (tg_grow(&set->unsure, &set->cap_unsure, set->n_unsure + 1, sizeof *set->unsure) < 0)
        return; /* out of memory: left unsaid, as before */
    set->unsure[set->n_unsure++] = (struct tg_unsure_value){value, is_cpu, false};
}

int tg_filter_check(const tg_filter *f, tg_set *set, tg_error **warnings, tg_error **err)
{
    if (!f)
        return 0;
    TG_TRY(check_globs(f, set, warnings, err));
    set->n_unsure = 0;
    set->unsure_filter = f;
    for (size_t i = 0; i < f->n_cpus; i++) {
        bool known = true;
        if (has_cpu(set, f->cpus[i], &known))
            continue;
        if (known)
            say_missing(warnings, f->cpus[i], true);
        else
            keep_unsure(set, f->cpus[i], true);
    }
    for (size_t i = 0; i < f->n_tids; i++) {
        bool known = true;
        if (has_tid(set, f->tids[i], &known))
            continue;
        if (known)
            say_missing(warnings, f->tids[i], false);
        else
            keep_unsure(set, f->tids[i], false);
    }
    return 0;
}

/* After the pass, what was known only from the events is said so: no event on the CPU or
 * of the thread (a kernel trace may name a thread, in a wakeup, that never ran). */
void tg_set_unsure_done(tg_set *set)
{
    for (size_t i = 0; i < set->n_unsure; i++) {
        const struct tg_unsure_value *u = &set->unsure[i];
        if (u->seen)
            continue;
        tg_error *w = NULL;
        if (u->is_cpu)
            tg_err(&w, TG_ERR_USAGE, "the trace has no event on CPU %d: --cpu %d selects nothing",
                   u->value, u->value);
        else
            tg_err(&w, TG_ERR_USAGE,
                   "the trace has no event of thread %d: --tid %d selects nothing", u->value,
                   u->value);
        tg_err_append(&set->run_warnings, w);
    }
    set->n_unsure = 0;
}

const tg_error *tg_set_run_warnings(const tg_set *set) { return set ? set->run_warnings : NULL; }
