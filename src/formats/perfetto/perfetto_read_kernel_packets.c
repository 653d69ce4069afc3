/* perfetto_read_kernel_packets.c - the packets about the kernel that perfetto_read.proto leaves
 * out of TracePacket (protobuf-c keeps them as unknown fields), read from their bytes.
 *
 *   - trace_config (33): whether traced streamed its buffers into the file periodically
 *     (write_into_file, Perfetto's long trace mode), which makes a buffer's overwritten bytes
 *     a loss of the file (perfetto_read_stats.c).  A period of a week or more (Traceur's way
 *     of asking for a plain ring buffer written once at the end) is no streaming; an unset
 *     one is traced's default of 5 s.  The rest of the config is not read.
 *   - generic_kernel_cpu_freq_event (118): a CPU's frequency in Hz, as a kernel without
 *     ftrace reports it.  It is the ftrace event cpu_frequency in another dress: it becomes
 *     one (state in kHz, cpu_id), so the kernel model draws it as it draws every tracer's.
 *   - generic_gpu_frequency_event (129): a GPU's frequency in kHz, likewise the ftrace event
 *     gpu_frequency (gpu_id, state). */
#include "formats/perfetto/perfetto_read_internal.h"

enum {
    PF_PACKET_TRACE_CONFIG = 33,
    PF_PACKET_CPU_FREQ = 118,
    PF_PACKET_GPU_FREQ = 129,
    PF_CONFIG_WRITE_INTO_FILE = 8,
    PF_CONFIG_FILE_WRITE_PERIOD_MS = 9,
    PF_ONE_WEEK_MS = 604800000,
    PF_CPU_FREQ_CPU = 1,
    PF_CPU_FREQ_HZ = 2,
    PF_GPU_FREQ_GPU = 1,
    PF_GPU_FREQ_KHZ = 2,
};

static void read_trace_config(pf_trace *p, const uint8_t *data, size_t len)
{
    const uint8_t *cur = data, *end = data + len;
    pf_wire w;
    bool write_into_file = false;
    uint64_t period_ms = 0;
    while (pf_wire_next(&cur, end, &w) > 0)
        if (w.field == PF_CONFIG_WRITE_INTO_FILE && w.type == 0)
            write_into_file = w.value != 0;
        else if (w.field == PF_CONFIG_FILE_WRITE_PERIOD_MS && w.type == 0)
            period_ms = w.value;
    p->streams_into_file = write_into_file && period_ms < PF_ONE_WEEK_MS;
}

/* The varints of fields a and b of a message (0 when absent). */
static void two_varints(const uint8_t *data, size_t len, uint32_t a, uint32_t b, uint64_t *va,
                        uint64_t *vb)
{
    const uint8_t *cur = data, *end = data + len;
    pf_wire w;
    *va = *vb = 0;
    while (pf_wire_next(&cur, end, &w) > 0)
        if (w.type == 0 && w.field == a)
            *va = w.value;
        else if (w.type == 0 && w.field == b)
            *vb = w.value;
}

static uint32_t clamp_u32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static int read_cpu_freq(tg_trace *t, const uint8_t *data, size_t len, int64_t ts, uint64_t offset)
{
    uint64_t cpu, hz;
    two_varints(data, len, PF_CPU_FREQ_CPU, PF_CPU_FREQ_HZ, &cpu, &hz);
    if ((int64_t)cpu < 0 || (int64_t)hz < 0)
        return 0; /* int32 / int64 fields: a negative CPU or frequency is no event */
    PerfettoRead__CpuFrequencyFtraceEvent e = PERFETTO_READ__CPU_FREQUENCY_FTRACE_EVENT__INIT;
    e.has_cpu_id = e.has_state = 1;
    e.cpu_id = clamp_u32(cpu);
    e.state = clamp_u32(hz / 1000);
    return pf_packed_record(t, &e.base, "cpu_frequency", ts, -1, -1, offset);
}

static int read_gpu_freq(tg_trace *t, const uint8_t *data, size_t len, int64_t ts, uint64_t offset)
{
    uint64_t gpu, khz;
    two_varints(data, len, PF_GPU_FREQ_GPU, PF_GPU_FREQ_KHZ, &gpu, &khz);
    PerfettoRead__GpuFrequencyFtraceEvent e = PERFETTO_READ__GPU_FREQUENCY_FTRACE_EVENT__INIT;
    e.has_gpu_id = e.has_state = 1;
    e.gpu_id = clamp_u32(gpu);
    e.state = clamp_u32(khz);
    return pf_packed_record(t, &e.base, "gpu_frequency", ts, -1, -1, offset);
}

int pf_read_kernel_packet(tg_trace *t, const PerfettoRead__TracePacket *pk, int64_t ts,
                          uint64_t offset)
{
    for (unsigned i = 0; i < pk->base.n_unknown_fields; i++) {
        const ProtobufCMessageUnknownField *u = &pk->base.unknown_fields[i];
        size_t len;
        const uint8_t *data = pf_unknown_bytes(u, &len);
        if (!data)
            continue;
        int rc = 0;
        if (u->tag == PF_PACKET_TRACE_CONFIG)
            read_trace_config(t->priv, data, len);
        else if (u->tag == PF_PACKET_CPU_FREQ && pk->has_timestamp)
            rc = read_cpu_freq(t, data, len, ts, offset);
        else if (u->tag == PF_PACKET_GPU_FREQ && pk->has_timestamp)
            rc = read_gpu_freq(t, data, len, ts, offset);
        if (rc < 0)
            return rc;
    }
    return 0;
}
