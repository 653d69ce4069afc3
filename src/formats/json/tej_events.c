/* tej_events.c - one Trace Event Format object into records.
 *
 * The phases read: B and E (a slice begins and ends on its thread: an E ends the latest
 * slice begun on that thread), X (a complete slice: ts and dur), i and I (an instant: a
 * slice of no duration), M (process_name and thread_name name the process and the thread).
 * Times are in microseconds, as numbers or as numeric strings, read from their decimal text
 * exactly to the nanosecond (rounded half up past it); an
 * event whose time is missing or not a number is skipped, as trace_processor skips it.
 * A slice's end sorts before what begins at the same time, except the end of a slice of no
 * duration, which comes right after its own begin; ends at one time come latest begun first;
 * complete events beginning at one time come longest first (trace_processor nests them so).
 * A B, E or X event's "tts" is its thread time (tg_event_thread_time), an X's "tts" +
 * "tdur" its end's.
 * A slice's "cat" is its category, its "bind_id" with "flow_in" / "flow_out" its flow (v2).
 * Async b, e and n are slices of their own tracks (tej_async.c); T a thread's state
 * (tej_thread_state.c).
 * The other phases (counters, v1 flows s/t/f, samples) are not read yet. */
#include "formats/json/tej_internal.h"

#include "core/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number, or a string holding one: 1 with *out, 0 when absent or not a number. */
static int number_of(struct json_object *o, double *out)
{
    if (!o)
        return 0;
    switch (json_object_get_type(o)) {
    case json_type_int: *out = (double)json_object_get_int64(o); return 1;
    case json_type_double: *out = json_object_get_double(o); return isfinite(*out);
    case json_type_string: {
        const char *s = json_object_get_string(o);
        char *end;
        *out = strtod(s, &end);
        return end != s && *end == 0 && isfinite(*out);
    }
    default: return 0;
    }
}

/* A decimal number of microseconds as exact nanoseconds ("1795324914579411.270": a double
 * would lose the last digits of such a time): 1 with *ns, 0 when the text is no such number. */
static int exact_ns(const char *s, int64_t *ns)
{
    bool neg = *s == '-';
    s += neg;
    if (*s < '0' || *s > '9')
        return 0;
    __int128 v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((v = v * 10 + (*s - '0')) > ((__int128)1 << 80))
            return 0;
    int digits = 0;
    bool round_up = false;
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (digits < 3)
                v = v * 10 + (*s - '0');
            else if (digits == 3)
                round_up = *s >= '5';
        }
    }
    if (*s)
        return 0; /* an exponent, or not a number: the double path reads it */
    for (; digits < 3; digits++)
        v *= 10;
    v += round_up;
    if (v > INT64_MAX)
        return 0;
    *ns = neg ? -(int64_t)v : (int64_t)v;
    return 1;
}

/* A time in microseconds as ns: 1 with *ns, 0 when absent or not a number. */
static int time_of(struct json_object *o, int64_t *ns)
{
    if (!o)
        return 0;
    enum json_type t = json_object_get_type(o);
    if ((t == json_type_double || t == json_type_string || t == json_type_int) &&
        exact_ns(json_object_get_string(o), ns))
        return 1;
    double us;
    if (!number_of(o, &us))
        return 0;
    double v = nearbyint(us * 1000.0);
    *ns = v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v;
    return 1;
}

static struct json_object *member(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int32_t id_of(struct json_object *o)
{
    double d;
    if (!number_of(o, &d) || d < INT32_MIN || d > INT32_MAX)
        return 0;
    return (int32_t)d;
}

static int name_eq(const void *ctx, uint64_t value)
{
    const void *const *c = ctx;
    const tej_trace *j = c[0];
    return strcmp(j->names[value], c[1]) == 0;
}

uint64_t tej_name_number(tg_trace *t, const char *name)
{
    tej_trace *j = t->priv;
    uint64_t h = tg_hash_str(name);
    const void *ctx[2] = {j, name};
    uint64_t *slot = tg_hash_find_by(&j->name_by_hash, h, name_eq, ctx);
    if (slot)
        return *slot;
    const char *copy = tg_arena_strdup(&t->arena, name);
    if (!copy || tg_grow(&j->names, &j->cap_names, j->n_names + 1, sizeof *j->names) < 0 ||
        tg_hash_add(&j->name_by_hash, h, &slot) < 0)
        return UINT64_MAX;
    j->names[j->n_names] = copy;
    *slot = j->n_names;
    return j->n_names++;
}

static int add_task(tg_trace *t, int64_t tid, int64_t pid, const char *name)
{
    for (size_t i = t->n_tasks; i-- > 0;) {
        tg_task_info *k = &t->tasks[i];
        if (k->tid != tid)
            continue;
        if (pid >= 0)
            k->pid = pid;
        if (name && *name)
            k->name = tg_arena_strdup(&t->arena, name);
        return 0;
    }
    tg_task_info k = {.tid = tid, .pid = pid, .ppid = -1, .name = name && *name ? name : NULL};
    return tg_trace_add_task(t, &k);
}

tej_record *tej_add(tg_trace *t, const tg_event_class *cls, int64_t ts, uint32_t rank,
                    int64_t longer, uint64_t order, int32_t pid, int32_t tid, uint64_t name,
                    struct json_object *args, uint64_t offset, int64_t thread_ns)
{
    tej_trace *j = t->priv;
    if (tg_grow(&j->recs, &j->cap_recs, j->n_recs + 1, sizeof *j->recs) < 0)
        return NULL;
    tej_record *r = &j->recs[j->n_recs++];
    *r = (tej_record){.ts = ts,
                      .rank = rank,
                      .longer = longer,
                      .order = order,
                      .cls = cls,
                      .pid = pid,
                      .tid = tid,
                      .name = name,
                      .args = args ? json_object_get(args) : NULL,
                      .offset = offset,
                      .track = -1,
                      .thread_ns = thread_ns};
    return r;
}

/* A flow id: a number, or a string of hex digits ("0x402"), as trace_processor reads
 * bind_id.  false when it is neither. */
static bool flow_id_of(struct json_object *o, uint64_t *id)
{
    if (!o)
        return false;
    if (json_object_is_type(o, json_type_int)) {
        *id = (uint64_t)json_object_get_int64(o);
        return true;
    }
    if (!json_object_is_type(o, json_type_string))
        return false;
    const char *s = json_object_get_string(o);
    char *end;
    *id = strtoull(s, &end, 16);
    return end != s && *end == 0;
}

/* The category and flow of a slice's begin, in the trace's arena; NULL when it has neither
 * (*nomem set when out of memory). */
static const tej_slice_info *slice_info(tg_trace *t, struct json_object *ev, bool *nomem)
{
    const char *cat = json_object_get_string(member(ev, "cat"));
    uint64_t id = 0;
    bool in = json_object_get_boolean(member(ev, "flow_in"));
    bool out = json_object_get_boolean(member(ev, "flow_out"));
    bool flow = (in || out) && flow_id_of(member(ev, "bind_id"), &id);
    if (!cat && !flow)
        return NULL;
    tej_slice_info *info = tg_arena_alloc(&t->arena, sizeof *info);
    if (!info || (cat && !(cat = tg_arena_strdup(&t->arena, cat)))) {
        *nomem = true;
        return NULL;
    }
    *info = (tej_slice_info){.category = cat};
    if (flow) /* in: the arrow from the flow's last source; out: this slice is its source */
        info->flow =
            (tg_flow){.id = id, .flags = (in ? TG_FLOW_IN : 0u) | (out ? TG_FLOW_OUT : 0u)};
    info->n_flows = flow;
    return info;
}

static int read_metadata(tg_trace *t, struct json_object *ev, int32_t pid, int32_t tid)
{
    const char *what = json_object_get_string(member(ev, "name"));
    struct json_object *args = member(ev, "args");
    const char *name = args ? json_object_get_string(member(args, "name")) : NULL;
    if (!what || !name)
        return 0;
    if (strcmp(what, "process_name") == 0)
        return add_task(t, pid, pid, name);
    if (strcmp(what, "thread_name") == 0)
        return add_task(t, tid, pid, name);
    return 0;
}

/* An async event (ph b, e, n): a slice on its async track (tej_async.c); no thread's. */
static int async_event(tg_trace *t, struct json_object *ev, char ph, int64_t ts, uint64_t order,
                       const char *name, int32_t pid, struct json_object *args, uint64_t offset)
{
    tej_trace *j = t->priv;
    bool nomem;
    tej_async_track *k = tej_async_track_of(t, ev, name, pid, &nomem);
    if (!k)
        return nomem ? TG_ERR_NOMEM : 0;
    tej_record *r;
    if (ph == 'e') {
        if (!k->open)
            return 0; /* an end without a begin */
        r = tej_add(t, j->end, ts, 1, 0, order, -1, -1, k->stack[--k->open], NULL, offset,
                    TEJ_NO_TIME);
        if (r)
            r->track = k->decl;
        return r ? 0 : TG_ERR_NOMEM;
    }
    uint64_t n = tej_name_number(t, name);
    const tej_slice_info *info = n == UINT64_MAX ? NULL : slice_info(t, ev, &nomem);
    r = n == UINT64_MAX || nomem
            ? NULL
            : tej_add(t, j->begin, ts, 1, 0, order, -1, -1, n, args, offset, TEJ_NO_TIME);
    if (!r)
        return TG_ERR_NOMEM;
    r->info = info;
    r->track = k->decl;
    if (ph == 'b')
        return tej_async_push(k, n);
    r = tej_add(t, j->end, ts, 1, 0, order + 1, -1, -1, n, NULL, offset, TEJ_NO_TIME);
    if (r)
        r->track = k->decl;
    return r ? 0 : TG_ERR_NOMEM;
}

/* The number of a pid or tid given as a string ("pid": "foo"): trace_processor takes such a
 * string for the process's (the thread's) name and an interned number for its id; here the
 * number is past every int31 id, by the string's place among the names.  -1: no string. */
static int64_t string_id(tg_trace *t, struct json_object *o, bool thread, int32_t pid)
{
    if (!o || !json_object_is_type(o, json_type_string))
        return -1;
    const char *text = json_object_get_string(o);
    uint64_t n = tej_name_number(t, text);
    if (n == UINT64_MAX || n >= 0x3fffffff)
        return n == UINT64_MAX ? TG_ERR_NOMEM : -1;
    int32_t id = (int32_t)(0x40000000 + n);
    tg_task_info k = {.tid = id, .pid = thread ? pid : id, .ppid = -1};
    if (thread)
        k.name = text;
    else
        k.process_name = text;
    for (size_t i = 0; i < t->n_tasks; i++)
        if (t->tasks[i].tid == id)
            return id;
    return tg_trace_add_task(t, &k) < 0 ? TG_ERR_NOMEM : id;
}

int tej_read_event(tg_trace *t, struct json_object *ev, uint64_t offset)
{
    tej_trace *j = t->priv;
    if (!json_object_is_type(ev, json_type_object))
        return 0;
    /* the phase is the first character, as trace_processor reads it */
    const char *ph = json_object_get_string(member(ev, "ph"));
    if (!ph || !*ph)
        return 0;
    int32_t pid = id_of(member(ev, "pid")), tid = id_of(member(ev, "tid"));
    int64_t named = string_id(t, member(ev, "pid"), false, 0);
    if (named < -1)
        return (int)named;
    if (named >= 0)
        pid = (int32_t)named;
    if ((named = string_id(t, member(ev, "tid"), true, pid)) < -1)
        return (int)named;
    if (named >= 0)
        tid = (int32_t)named;
    if (!member(ev, "tid"))
        tid = pid;
    if (*ph == 'M')
        return read_metadata(t, ev, pid, tid) < 0 ? TG_ERR_NOMEM : 0;
    int64_t ts;
    if (!time_of(member(ev, "ts"), &ts))
        return 0;
    const char *name = json_object_get_string(member(ev, "name"));
    struct json_object *args = member(ev, "args");
    uint64_t order = j->order;
    j->order += 2;
    int64_t tts = TEJ_NO_TIME, tdur = 0;
    if (!time_of(member(ev, "tts"), &tts))
        tts = TEJ_NO_TIME;
    switch (*ph) {
    case 'B': {
        uint64_t n = tej_name_number(t, name ? name : "");
        if (n == UINT64_MAX || tg_grow(&j->open, &j->cap_open, j->n_open + 1, sizeof *j->open) < 0)
            return TG_ERR_NOMEM;
        j->open[j->n_open++] = (tej_open_slice){.tid = tid, .name = n};
        bool nomem = false;
        const tej_slice_info *info = slice_info(t, ev, &nomem);
        tej_record *r =
            nomem ? NULL : tej_add(t, j->begin, ts, 1, 0, order, pid, tid, n, args, offset, tts);
        if (!r)
            return TG_ERR_NOMEM;
        r->info = info;
        return 0;
    }
    case 'E':
        for (size_t i = j->n_open; i-- > 0;) {
            if (j->open[i].tid != tid)
                continue;
            uint64_t n = j->open[i].name;
            memmove(&j->open[i], &j->open[i + 1], (j->n_open - i - 1) * sizeof *j->open);
            j->n_open--;
            return tej_add(t, j->end, ts, 1, 0, order, pid, tid, n, NULL, offset, tts)
                       ? 0
                       : TG_ERR_NOMEM;
        }
        return 0; /* an end without a begin */
    case 'X':
    case 'i':
    case 'I': {
        int64_t dur = 0;
        if (*ph == 'X' && !time_of(member(ev, "dur"), &dur))
            return 0;
        if (dur < 0)
            dur = 0;
        /* a complete event's thread time: tts, and tts + tdur at its end; an instant's none */
        int64_t thread_end = TEJ_NO_TIME;
        if (*ph != 'X')
            tts = TEJ_NO_TIME;
        else if (tts != TEJ_NO_TIME && time_of(member(ev, "tdur"), &tdur) && tdur >= 0 &&
                 tts <= INT64_MAX - tdur)
            thread_end = tts + tdur;
        uint64_t n = tej_name_number(t, name ? name : "");
        bool nomem = false;
        const tej_slice_info *info = slice_info(t, ev, &nomem);
        tej_record *r = n == UINT64_MAX || nomem ? NULL
                                                 : tej_add(t, j->begin, ts, 1, -dur, order, pid,
                                                           tid, n, args, offset, tts);
        if (!r)
            return TG_ERR_NOMEM;
        r->info = info;
        int64_t end = dur > 0 && ts <= INT64_MAX - dur ? ts + dur : ts;
        bool lasted = end > ts;
        return tej_add(t, j->end, end, lasted ? 0 : 1, lasted ? 0 : -dur,
                       lasted ? UINT64_MAX - order : order + 1, pid, tid, n, NULL, offset,
                       thread_end)
                   ? 0
                   : TG_ERR_NOMEM;
    }
    case 'T': {
        int64_t dur;
        if (!time_of(member(ev, "dur"), &dur))
            return 0;
        return tej_read_thread_state(t, ev, ts, dur, order, pid, tid, offset);
    }
    case 'b':
    case 'e':
    case 'n': return async_event(t, ev, *ph, ts, order, name ? name : "", pid, args, offset);
    default: return 0;
    }
}
