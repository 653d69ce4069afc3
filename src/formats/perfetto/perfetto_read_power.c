/* perfetto_read_power.c - power data sources as counter values: power rails (the energy each
 * rail of the power monitor counted) and the energy estimation breakdown (a consumer's
 * estimated energy, in total and per UID).
 *
 * A PowerRails packet describes its rails (an index per rail name, per session) and gives
 * energy readings by index; each reading is at its own time (timestamp_ms) when it has one,
 * else at the packet's, and keeps the packet's time as its "packet_ts" arg, as
 * trace_processor splits them.  A rail's track is named "power.<rail>_uws", or
 * "power.rails.<part>" for the rails trace_processor knows by a friendlier name.  An energy
 * breakdown names its consumer by the id its descriptor gave (type, ordinal, name).
 * Descriptors are read in file order: a reading before its descriptor is counted as
 * unknown (trace_processor reads descriptors before it sorts the readings). */
#include "formats/perfetto/perfetto_read_internal.h"

#include <stdio.h>
#include <string.h>

/* The rails trace_processor names by the part they power. */
static const char *friendly_rail(const char *raw)
{
    static const char *const names[][2] = {
        {"S4M_VDD_CPUCL0", "cpu.little"},
        {"S3M_VDD_CPUCL1", "cpu.mid"},
        {"S2M_VDD_CPUCL2", "cpu.big"},
        {"S5M_VDD_INT", "system.fabric"},
        {"PPVAR_VSYS_PWR_DISP", "display"},
        {"VSYS_PWR_MODEM", "modem"},
        {"S1M_VDD_MIF", "memory.interface"},
        {"VSYS_PWR_WLAN_BT", "wifi.bt"},
        {"L2S_VDD_AOC_RET", "aoc.memory"},
        {"S9S_VDD_AOC", "aoc.logic"},
        {"S5S_VDDQ_MEM", "ddr.a"},
        {"S10S_VDD2L", "ddr.b"},
        {"S4S_VDD2H_MEM", "ddr.c"},
        {"S2S_VDD_G3D", "gpu"},
        {"L9S_GNSS_CORE", "gps"},
        {"VSYS_PWR_RFFE", "radio.frontend"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(raw, names[i][0]) == 0)
            return names[i][1];
    return NULL;
}

/* The slot keeping the track (its index + 1, 0 none) of a rail of session by index. */
static int64_t *rail_slot(pf_trace *p, uint64_t session, uint32_t index)
{
    uint64_t parts[2] = {session, index};
    bool fresh;
    return pf_probe_previous(p, pf_counter_key(0x7261696c, parts, sizeof parts), 1, &fresh);
}

static int rail_descriptor(tg_trace *t, const PerfettoRead__PowerRails *pr,
                           const PerfettoRead__PowerRails__RailDescriptor *d)
{
    if (d->index > 256)
        return 0; /* trace_processor skips such an index */
    const char *raw = d->rail_name ? d->rail_name : "";
    const char *subsys = d->subsys_name ? d->subsys_name : "";
    const char *friendly = friendly_rail(raw);
    char name[300];
    if (friendly)
        snprintf(name, sizeof name, "power.rails.%s", friendly);
    else
        snprintf(name, sizeof name, "power.%.250s_uws", raw);
    tg_value dims[2], source[2];
    size_t n_dims = 1;
    if (!pf_value_text(t, &dims[0], "name", raw, strlen(raw)) ||
        !pf_value_text(t, &source[0], "raw_name", raw, strlen(raw)) ||
        !pf_value_text(t, &source[1], "subsystem_name", subsys, strlen(subsys)))
        return TG_ERR_NOMEM;
    if (pr->has_session_uuid)
        dims[n_dims++] = pf_value_uint("session_uuid", pr->session_uuid);
    pf_counter_how how = {.type = "power_rails",
                          .name = name,
                          .dims = dims,
                          .n_dims = n_dims,
                          .source_args = source,
                          .n_source_args = 2,
                          .pid = -1,
                          .tid = -1};
    int64_t k = pf_counter_track(t, &how);
    if (k < 0)
        return (int)k;
    int64_t *slot = rail_slot(t->priv, pr->session_uuid, d->index);
    if (!slot)
        return TG_ERR_NOMEM;
    *slot = k + 1;
    return 0;
}

static int power_rails(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts,
                       uint64_t offset)
{
    const PerfettoRead__PowerRails *pr = pk->power_rails;
    for (size_t i = 0; i < pr->n_rail_descriptor; i++)
        TG_TRY(rail_descriptor(t, pr, pr->rail_descriptor[i]));
    for (size_t i = 0; i < pr->n_energy_data; i++) {
        const PerfettoRead__PowerRails__EnergyData *e = pr->energy_data[i];
        int64_t *slot = rail_slot(t->priv, pr->session_uuid, e->index);
        if (!slot)
            return TG_ERR_NOMEM;
        if (!*slot) {
            TG_TRY(tg_trace_count(t, "power_rail_unknown_index", "error", 1));
            continue;
        }
        int64_t at = e->has_timestamp_ms && e->timestamp_ms <= INT64_MAX / 1000000
                         ? (int64_t)e->timestamp_ms * 1000000
                         : ts;
        tg_value packet_ts = pf_value_uint("packet_ts", pk->timestamp);
        TG_TRY(pf_counter_record(t, at, *slot - 1, (double)e->energy, &packet_ts, 1, offset));
    }
    return 0;
}

/* ---- energy estimation breakdown ---- */

typedef struct pf_energy_consumer {
    const char *name, *type;
    int32_t ordinal;
} pf_energy_consumer;

static int64_t *consumer_slot(pf_trace *p, int32_t id)
{
    bool fresh;
    return pf_probe_previous(p, pf_counter_key(0x656e6572, &id, sizeof id), 1, &fresh);
}

static int energy_descriptor(tg_trace *t, const PerfettoRead__AndroidEnergyConsumerDescriptor *d)
{
    for (size_t i = 0; i < d->n_energy_consumers; i++) {
        const PerfettoRead__AndroidEnergyConsumer *c = d->energy_consumers[i];
        if (!c->has_energy_consumer_id) {
            TG_TRY(tg_trace_count(t, "energy_descriptor_invalid", "error", 1));
            continue;
        }
        int64_t *slot = consumer_slot(t->priv, c->energy_consumer_id);
        if (!slot)
            return TG_ERR_NOMEM;
        if (*slot)
            continue; /* the first description stands */
        pf_energy_consumer *e = tg_arena_alloc(&t->arena, sizeof *e);
        if (!e)
            return TG_ERR_NOMEM;
        e->name = tg_arena_strdup(&t->arena, c->name ? c->name : "");
        e->type = tg_arena_strdup(&t->arena, c->type ? c->type : "");
        e->ordinal = c->ordinal;
        if (!e->name || !e->type)
            return TG_ERR_NOMEM;
        *slot = (int64_t)(intptr_t)e;
    }
    return 0;
}

static int energy_breakdown(tg_trace *t, const PerfettoRead__AndroidEnergyEstimationBreakdown *b,
                            int64_t ts, uint64_t offset)
{
    if (b->energy_consumer_descriptor)
        TG_TRY(energy_descriptor(t, b->energy_consumer_descriptor));
    if (!b->has_energy_consumer_id && !b->has_energy_uws && b->energy_consumer_descriptor)
        return 0; /* a descriptor alone */
    int64_t *slot =
        b->has_energy_consumer_id ? consumer_slot(t->priv, b->energy_consumer_id) : NULL;
    if (b->has_energy_consumer_id && !slot)
        return TG_ERR_NOMEM;
    if (!b->has_energy_consumer_id || !b->has_energy_uws || !*slot)
        return tg_trace_count(t, "energy_breakdown_missing_values", "error", 1);
    const pf_energy_consumer *e = (const pf_energy_consumer *)(intptr_t)*slot;
    tg_value dims[2] = {pf_value_uint("energy_consumer_id", (uint32_t)b->energy_consumer_id)};
    tg_value source[2] = {
        {.name = "consumer_type", .type = TG_VAL_STRING, .v.str = {e->type, strlen(e->type)}},
        pf_value_int("ordinal", e->ordinal)};
    pf_counter_how how = {.type = "android_energy_estimation_breakdown",
                          .name = e->name,
                          .dims = dims,
                          .n_dims = 1,
                          .source_args = source,
                          .n_source_args = 2,
                          .pid = -1,
                          .tid = -1};
    int64_t k = pf_counter_track(t, &how);
    if (k < 0)
        return (int)k;
    TG_TRY(pf_counter_record(t, ts, k, (double)b->energy_uws, NULL, 0, offset));
    for (size_t i = 0; i < b->n_per_uid_breakdown; i++) {
        const PerfettoRead__AndroidEnergyEstimationBreakdown__EnergyUidBreakdown *u =
            b->per_uid_breakdown[i];
        if (!u->has_uid || !u->has_energy_uws) {
            TG_TRY(tg_trace_count(t, "energy_uid_breakdown_missing_values", "error", 1));
            continue;
        }
        dims[1] = pf_value_uint("uid", (uint32_t)u->uid);
        how = (pf_counter_how){.type = "android_energy_estimation_breakdown_per_uid",
                               .name = e->name,
                               .dims = dims,
                               .n_dims = 2,
                               .pid = -1,
                               .tid = -1};
        if ((k = pf_counter_track(t, &how)) < 0)
            return (int)k;
        TG_TRY(pf_counter_record(t, ts, k, (double)u->energy_uws, NULL, 0, offset));
    }
    return 0;
}

int pf_read_power(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts, uint64_t offset)
{
    if (pk->data_case == PERFETTO_READ__TRACE_PACKET__DATA_POWER_RAILS)
        return power_rails(t, pk, ts, offset);
    return energy_breakdown(t, pk->android_energy_estimation_breakdown, ts, offset);
}
