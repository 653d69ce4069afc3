/* ctf_attrs.c - a CTF trace's typed trace attributes, from its metadata.
 *
 * The clock is the default clock of the first stream class that has one: its name,
 * description, frequency, uuid and offset (CTF 1.8 counts a clock's offset from the Unix
 * epoch, so a non-zero offset also places the trace on the wall clock: LTTng measures it as
 * realtime minus monotonic when the session starts).  The env block is the environment;
 * LTTng's keys in it give the host (hostname, kernel, bit width), the tracer (name and
 * version) and, in per-process buffers, the process (vpid, procname).  LTTng uses the host's
 * boot id as the uuid of its clocks, so for LTTng traces the clock uuid is the boot id. */
#include "formats/ctf/ctf_internal.h"

#include <stdio.h>
#include <string.h>

static const ctf_env *env_find(const ctf_meta *m, const char *key)
{
    for (size_t i = 0; i < m->n_env; i++)
        if (strcmp(m->env[i].key, key) == 0)
            return &m->env[i];
    return NULL;
}

static int64_t env_int(const ctf_meta *m, const char *key, int64_t dflt)
{
    const ctf_env *e = env_find(m, key);
    return e && e->is_int ? e->i : dflt;
}

static void uuid_text(const uint8_t *u, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[n++] = '-';
        out[n++] = hex[u[i] >> 4];
        out[n++] = hex[u[i] & 15];
    }
    out[n] = 0;
}

int ctf_attrs_fill(tg_trace *t, const ctf_meta *m)
{
    for (size_t i = 0; i < m->n_env; i++) {
        const ctf_env *e = &m->env[i];
        if (e->is_int)
            TG_TRY(tg_trace_add_env_int(t, e->key, e->i));
        else
            TG_TRY(tg_trace_add_env(t, e->key, e->s ? e->s : "", false, 0));
    }
    const char *tracer = ctf_env_string(m, "tracer_name");
    bool lttng = tracer && strncmp(tracer, "lttng", 5) == 0;

    const ctf_clock *ck = NULL;
    for (size_t i = 0; i < m->n_streams && !ck; i++)
        ck = m->streams[i]->clock;
    char boot_id[40] = "";
    if (ck) {
        tg_clock_info c = {
            .name = ck->name,
            .description = ck->description,
            .origin = tg_clock_origin_of_name(ck->name),
            .frequency_hz = ck->freq ? ck->freq : 1000000000u,
            .offset_ns = ctf_clock_ns(ck, 0),
            .has_uuid = ck->has_uuid,
            .offset_seconds = ck->from_offset ? 0 : ck->offset_s,
            .offset_cycles = ck->from_offset ? 0 : ck->offset,
            .precision = ck->precision,
        };
        memcpy(c.uuid, ck->uuid, sizeof c.uuid);
        if (c.offset_ns != 0 && c.origin != TG_CLOCK_REALTIME) {
            c.sync_origin = TG_CLOCK_REALTIME;
            c.sync_offset_ns = c.offset_ns;
        }
        TG_TRY(tg_trace_set_clock_info(t, &c));
        if (lttng && ck->has_uuid)
            uuid_text(ck->uuid, boot_id);
    }

    char kernel[256] = "";
    const char *sysname = ctf_env_string(m, "sysname");
    const char *release = ctf_env_string(m, "kernel_release");
    if (release)
        snprintf(kernel, sizeof kernel, "%s %s", sysname ? sysname : "Linux", release);
    int64_t bits = env_int(m, "architecture_bit_width", 0);
    tg_host_info h = {
        .hostname = ctf_env_string(m, "hostname"),
        .kernel = kernel[0] ? kernel : NULL,
        .word_bits = bits == 32 || bits == 64 ? (int)bits : 0,
        .byte_order = m->has_byte_order ? (m->big_endian ? 2 : 1) : 0,
        .boot_id = boot_id[0] ? boot_id : NULL,
    };
    TG_TRY(tg_trace_set_host(t, &h));

    tg_process_info p = {
        .pid = env_int(m, "vpid", -1),
        .name = ctf_env_string(m, "procname"),
    };
    TG_TRY(tg_trace_set_process(t, &p));

    char version[64] = "";
    int64_t major = env_int(m, "tracer_major", -1), minor = env_int(m, "tracer_minor", -1);
    int64_t patch = env_int(m, "tracer_patchlevel", -1);
    if (major >= 0 && minor >= 0 && patch >= 0)
        snprintf(version, sizeof version, "%lld.%lld.%lld", (long long)major, (long long)minor,
                 (long long)patch);
    else if (major >= 0 && minor >= 0)
        snprintf(version, sizeof version, "%lld.%lld", (long long)major, (long long)minor);
    return tg_trace_set_tracer(t, tracer, version[0] ? version : NULL);
}
