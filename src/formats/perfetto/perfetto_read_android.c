/* perfetto_read_android.c - Android's probes that give counters, as trace_processor reads
 * them: CPU time per UID (CpuPerUidData), system properties (AndroidSystemProperty), the
 * display state at the start (InitialDisplayState), and atrace's counters and named instants
 * written through ftrace print events ("C|pid|name|value", "N|pid|track|name").
 *
 * CPU time per UID comes as the time each UID spent on each CPU cluster since the last
 * packet of its sequence: the counters are the running sums, one track per UID and cluster,
 * and two more per cluster sum the growth of the system's UIDs (below 10000 in each user)
 * and of the apps'.  These tracks are sparse as trace_processor keeps them: a value equal
 * to the one before is left out, except the last of such a run when the value then
 * changes (so the growth shows where it happened).
 *
 * The screen state has one track ("ScreenState") whoever sets it: the initial display
 * state, the debug.tracing.screen_state property, atrace's ScreenState counter; the device
 * state has one track of instants ("DeviceStateChanged"). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pf_counter_how global(const char *type, const char *name, const tg_value *dims, size_t n)
{
    return (pf_counter_how){
        .type = type, .name = name, .dims = dims, .n_dims = n, .pid = -1, .tid = -1};
}

static int push(tg_trace *t, const pf_counter_how *how, int64_t ts, double value, uint64_t offset)
{
    int64_t k = pf_counter_track(t, how);
    return k < 0 ? (int)k : pf_counter_record(t, ts, k, value, NULL, 0, offset);
}

static int screen_state(tg_trace *t, int64_t ts, double value, uint64_t offset)
{
    pf_counter_how how = global("screen_state", "ScreenState", NULL, 0);
    return push(t, &how, ts, value, offset);
}

/* An instant named name (text, n bytes) on the track of how. */
static int instant(tg_trace *t, const pf_counter_how *how, int64_t ts, const char *name, size_t n,
                   uint64_t offset)
{
    int64_t k = pf_counter_track(t, how);
    if (k < 0)
        return (int)k;
    char *copy = tg_arena_strndup(&t->arena, name, n);
    uint64_t number = copy ? pf_name_number(t, copy) : UINT64_MAX;
    if (number == UINT64_MAX)
        return TG_ERR_NOMEM;
    pf_trace *p = t->priv;
    TG_TRY(pf_slice_record(t, true, ts, &p->tracks[k], number, offset));
    return pf_slice_record(t, false, ts, &p->tracks[k], number, offset);
}

static int device_state(tg_trace *t, int64_t ts, const char *name, size_t n, uint64_t offset)
{
    pf_counter_how how = global("android_device_state", "DeviceStateChanged", NULL, 0);
    how.slices = true;
    return instant(t, &how, ts, name, n, offset);
}

/* ---- system properties ---- */

static bool int32_of(const char *s, int32_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

static int system_property(tg_trace *t, const PerfettoRead__AndroidSystemProperty *sp, int64_t ts,
                           uint64_t offset)
{
    static const char prefix[] = "debug.tracing.";
    for (size_t i = 0; i < sp->n_values; i++) {
        const char *name = sp->values[i]->name ? sp->values[i]->name : "";
        const char *value = sp->values[i]->value;
        if (strcmp(name, "debug.tracing.device_state") == 0) {
            TG_TRY(device_state(t, ts, value ? value : "", value ? strlen(value) : 0, offset));
            continue;
        }
        int32_t state;
        if (!int32_of(value, &state))
            continue;
        if (strcmp(name, "debug.tracing.screen_state") == 0) {
            TG_TRY(screen_state(t, ts, state, offset));
            continue;
        }
        const char *track = NULL;
        if (strncmp(name, "debug.tracing.battery_stats.", 28) == 0 ||
            strcmp(name, "debug.tracing.mcc") == 0 || strcmp(name, "debug.tracing.mnc") == 0 ||
            strcmp(name, "debug.tracing.desktop_mode_visible_tasks") == 0)
            track = name + sizeof prefix - 1;
        else if (strcmp(name, "debug.tracing.battery_status") == 0)
            track = "BatteryStatus";
        else if (strcmp(name, "debug.tracing.plug_type") == 0)
            track = "PlugType";
        if (!track)
            continue; /* a property trace_processor keeps as metadata, or none it reads */
        tg_value dim;
        if (!pf_value_text(t, &dim, "sysprop_name", name, strlen(name)))
            return TG_ERR_NOMEM;
        pf_counter_how how = global("sysprop_counter", track, &dim, 1);
        TG_TRY(push(t, &how, ts, state, offset));
    }
    return 0;
}

/* ---- CPU time per UID ---- */

enum { SPARSE_SEEN, SPARSE_TS, SPARSE_VALUE, SPARSE_WRITTEN, SPARSE_SLOTS };

/* A value of the sparse track k: left out when it repeats the last one, whose last repeat is
 * written before a change. */
static int sparse_push(tg_trace *t, int64_t k, int64_t ts, double value, uint64_t offset)
{
    bool fresh;
    int64_t *st =
        pf_probe_previous(t->priv, pf_counter_key(0x73706172, &k, sizeof k), SPARSE_SLOTS, &fresh);
    if (!st)
        return TG_ERR_NOMEM;
    double last;
    memcpy(&last, &st[SPARSE_VALUE], sizeof last);
    if (st[SPARSE_SEEN] && last == value) {
        st[SPARSE_TS] = ts;
        st[SPARSE_WRITTEN] = 0;
        return 0;
    }
    if (st[SPARSE_SEEN] && !st[SPARSE_WRITTEN])
        TG_TRY(pf_counter_record(t, st[SPARSE_TS], k, last, NULL, 0, offset));
    st[SPARSE_SEEN] = 1;
    st[SPARSE_TS] = ts;
    memcpy(&st[SPARSE_VALUE], &value, sizeof value);
    st[SPARSE_WRITTEN] = 1;
    return pf_counter_record(t, ts, k, value, NULL, 0, offset);
}

static int uid_counter(tg_trace *t, int64_t ts, uint32_t uid, uint32_t cluster, uint64_t ms,
                       uint64_t offset)
{
    tg_value dims[2] = {pf_value_uint("uid", uid), pf_value_uint("cluster", cluster)};
    char name[64];
    snprintf(name, sizeof name, "CPU for UID %u CL%u", uid, cluster);
    pf_counter_how how = global("android_cpu_per_uid", name, dims, 2);
    how.unit = "ms";
    int64_t k = pf_counter_track(t, &how);
    return k < 0 ? (int)k : sparse_push(t, k, ts, (double)ms, offset);
}

static int uid_totals(tg_trace *t, int64_t ts, const char *type, uint32_t cluster, uint64_t ms,
                      uint64_t offset)
{
    tg_value dims[2] = {{.name = "type", .type = TG_VAL_STRING, .v.str = {type, strlen(type)}},
                        pf_value_uint("cluster", cluster)};
    char name[64];
    snprintf(name, sizeof name, "CPU for %s CL%u", type, cluster);
    pf_counter_how how = global("android_cpu_per_uid_totals", name, dims, 2);
    how.unit = "ms";
    int64_t k = pf_counter_track(t, &how);
    return k < 0 ? (int)k : sparse_push(t, k, ts, (double)ms, offset);
}

/* The keys of a sequence's state: its cluster count and UID list, a UID's running sums. */
static uint64_t seq_key(uint32_t seq, uint64_t generation, uint32_t what, uint64_t n)
{
    uint64_t parts[4] = {seq, generation, what, n};
    return pf_counter_key(0x63707575, parts, sizeof parts);
}

enum { CPU_UID_CLUSTERS, CPU_UID_COUNT, CPU_UID_AT, CPU_UID_SUM, CPU_UID_GLOBAL, CPU_UID_TOTAL };

/* The value a source keeps under key (0 at first: *fresh), written back with store. */
static bool load(pf_trace *p, uint64_t key, int64_t *v, bool *fresh)
{
    const int64_t *at = pf_probe_previous(p, key, 1, fresh);
    if (at)
        *v = *at;
    return at != NULL;
}

static bool store(pf_trace *p, uint64_t key, int64_t v)
{
    bool fresh;
    int64_t *at = pf_probe_previous(p, key, 1, &fresh);
    if (at)
        *at = v;
    return at != NULL;
}

/* The keys of what cpu_per_uid keeps: its running sums per UID and cluster (of the sequence;
 * which packet last gave them), and trace-wide the last sums and the totals per cluster. */
static uint64_t sum_key(const pf_sequence *s, uint64_t pair, bool mark)
{
    return seq_key(s->id, s->generation, mark ? CPU_UID_SUM + 16 : CPU_UID_SUM, pair);
}

static int cpu_per_uid(tg_trace *t, const PerfettoRead__CpuPerUidData *d, const pf_sequence *s,
                       int64_t ts, uint64_t offset)
{
    pf_trace *p = t->priv;
    bool fresh;
    const uint64_t clusters_key = seq_key(s->id, s->generation, CPU_UID_CLUSTERS, 0);
    const uint64_t known_key = seq_key(s->id, s->generation, CPU_UID_COUNT, 0);
    const uint64_t max_key = seq_key(0, 0, CPU_UID_TOTAL, UINT64_MAX);
    int64_t clusters, n_known, max_cluster, mark;
    if (!load(p, clusters_key, &clusters, &fresh) || !load(p, known_key, &n_known, &fresh) ||
        !load(p, max_key, &max_cluster, &fresh) ||
        !load(p, seq_key(s->id, s->generation, CPU_UID_AT + 16, 0), &mark, &fresh))
        return TG_ERR_NOMEM;
    mark++; /* this packet's number on its sequence */
    if (d->has_cluster_count)
        clusters = d->cluster_count;
    size_t cluster = 0, u = 0;
    for (size_t i = 0; i < d->n_total_time_ms && u < d->n_uid && clusters > 0; i++) {
        uint32_t uid = d->uid[u];
        uint64_t pair = (uint64_t)uid << 32 | cluster;
        int64_t sum;
        if (!load(p, sum_key(s, pair, false), &sum, &fresh))
            return TG_ERR_NOMEM;
        if (fresh) { /* a UID and cluster new to the sequence: listed */
            if (!store(p, seq_key(s->id, s->generation, CPU_UID_AT, (uint64_t)n_known),
                       (int64_t)pair))
                return TG_ERR_NOMEM;
            n_known++;
        }
        uint64_t ms = (uint64_t)sum + d->total_time_ms[i];
        if (!store(p, sum_key(s, pair, false), (int64_t)ms) ||
            !store(p, sum_key(s, pair, true), mark))
            return TG_ERR_NOMEM;
        /* the growth since this UID's last value anywhere, summed per cluster */
        const uint64_t last_key = seq_key(0, 0, CPU_UID_GLOBAL, pair);
        const uint64_t total_key =
            seq_key(0, 0, CPU_UID_TOTAL, (uid % 100000 < 10000 ? 0 : 1ull << 32) | cluster);
        int64_t last, total;
        bool last_fresh;
        if (!load(p, last_key, &last, &last_fresh) || !load(p, total_key, &total, &fresh))
            return TG_ERR_NOMEM;
        total = total ? total - 1 : 0; /* kept plus one: 0 is no UID of this kind yet */
        if (!last_fresh && ms > (uint64_t)last)
            total += (int64_t)(ms - (uint64_t)last);
        if (!store(p, last_key, (int64_t)ms) || !store(p, total_key, total + 1))
            return TG_ERR_NOMEM;
        if ((int64_t)cluster + 1 > max_cluster)
            max_cluster = (int64_t)cluster + 1;
        TG_TRY(uid_counter(t, ts, uid, (uint32_t)cluster, ms, offset));
        if ((int64_t)++cluster >= clusters) {
            cluster = 0;
            u++;
        }
    }
    if (!store(p, clusters_key, clusters) || !store(p, known_key, n_known) ||
        !store(p, max_key, max_cluster) ||
        !store(p, seq_key(s->id, s->generation, CPU_UID_AT + 16, 0), mark))
        return TG_ERR_NOMEM;
    for (int app = 0; app < 2; app++)
        for (int64_t c = 0; c < max_cluster; c++) {
            uint64_t part = (app ? 1ull << 32 : 0) | (uint64_t)c;
            int64_t total;
            if (!load(p, seq_key(0, 0, CPU_UID_TOTAL, part), &total, &fresh))
                return TG_ERR_NOMEM;
            if (total) /* else no UID of this kind and cluster yet: no track */
                TG_TRY(uid_totals(t, ts, app ? "Apps" : "System", (uint32_t)c, (uint64_t)total - 1,
                                  offset));
        }
    /* a UID this packet did not give did not grow */
    for (int64_t i = 0; i < n_known; i++) {
        int64_t pair, sum, seen;
        if (!load(p, seq_key(s->id, s->generation, CPU_UID_AT, (uint64_t)i), &pair, &fresh) ||
            !load(p, sum_key(s, (uint64_t)pair, false), &sum, &fresh) ||
            !load(p, sum_key(s, (uint64_t)pair, true), &seen, &fresh))
            return TG_ERR_NOMEM;
        if (seen != mark)
            TG_TRY(uid_counter(t, ts, (uint32_t)((uint64_t)pair >> 32), (uint32_t)pair,
                               (uint64_t)sum, offset));
    }
    return 0;
}

/* ---- atrace ---- */

/* The next '|'-separated field of [*at, end): its start and length; *at moves past it. */
static const char *field(const char **at, const char *end, size_t *n)
{
    const char *s = *at;
    while (*at < end && **at != '|')
        (*at)++;
    *n = (size_t)(*at - s);
    if (*at < end)
        (*at)++;
    return s;
}

int pf_atrace_counter(tg_trace *t, int64_t ts, const char *buf, size_t len, uint64_t offset)
{
    const char *at = buf + 2, *end = buf + len;
    if (len < 3)
        return 0;
    size_t n_pid, n_name, n_value;
    const char *pid_text = field(&at, end, &n_pid);
    const char *name = field(&at, end, &n_name);
    const char *value = field(&at, end, &n_value);
    char number[32];
    if (!n_pid || n_pid >= sizeof number || !n_name || !n_value || n_value >= sizeof number)
        return 0;
    memcpy(number, pid_text, n_pid);
    number[n_pid] = 0;
    char *stop;
    long pid = strtol(number, &stop, 10);
    if (*stop || pid < 0 || pid > INT32_MAX)
        return 0;
    if (buf[0] == 'N') { /* N|pid|track|name */
        if (n_name == 18 && memcmp(name, "DeviceStateChanged", 18) == 0)
            return device_state(t, ts, value, n_value, offset);
        char track[256];
        snprintf(track, sizeof track, "%.*s", (int)(n_name < 255 ? n_name : 255), name);
        tg_value dim;
        if (!pf_value_text(t, &dim, "name", name, n_name))
            return TG_ERR_NOMEM;
        pf_counter_how how = global("atrace_async_slice_for_track", track, &dim, 1);
        how.pid = how.tid = -1;
        how.pid = (int32_t)pid;
        how.slices = true;
        return instant(t, &how, ts, value, n_value, offset);
    }
    memcpy(number, value, n_value);
    number[n_value] = 0;
    long long v = strtoll(number, &stop, 10);
    if (*stop)
        return 0;
    char counter[256];
    snprintf(counter, sizeof counter, "%.*s", (int)(n_name < 255 ? n_name : 255), name);
    if (strcmp(counter, "ScreenState") == 0)
        return screen_state(t, ts, (double)v, offset);
    tg_value dim;
    if (!pf_value_text(t, &dim, "name", name, n_name))
        return TG_ERR_NOMEM;
    pf_counter_how how = global("atrace_counter", counter, &dim, 1);
    how.pid = (int32_t)pid;
    return push(t, &how, ts, (double)v, offset);
}

int pf_read_android(tg_trace *t, const PerfettoRead__TracePacket *pk, pf_sequence *s, int64_t ts,
                    uint64_t offset)
{
    switch (pk->data_case) {
    case PERFETTO_READ__TRACE_PACKET__DATA_CPU_PER_UID_DATA:
        return s ? cpu_per_uid(t, pk->cpu_per_uid_data, s, ts, offset) : 0;
    case PERFETTO_READ__TRACE_PACKET__DATA_ANDROID_SYSTEM_PROPERTY:
        return system_property(t, pk->android_system_property, ts, offset);
    case PERFETTO_READ__TRACE_PACKET__DATA_INITIAL_DISPLAY_STATE:
        return screen_state(t, ts, pk->initial_display_state->display_state, offset);
    default: return 0;
    }
}
