/* perfetto_bundle.h - one CPU's FtraceEventBundle while the Perfetto writer fills it.
 *
 * Perfetto's recorder writes a CPU's ftrace events in bundles: FtraceEventBundle{cpu,
 * event = FtraceEvent{timestamp, pid, common_flags, <typed message>}..., lost_events,
 * compact_sched}.  This is that container and nothing else: what goes in it (which message,
 * whether a switch may be compact) is perfetto_ftrace.c's business.  Events are framed by
 * hand as they come (a few varints around the message protobuf-c packed); the compact sched
 * arrays are kept as records and packed by protobuf-c when the bundle is written, with the
 * bundle's own intern table of comms.  Memory: one bundle's bytes. */
#ifndef TG_PERFETTO_BUNDLE_H
#define TG_PERFETTO_BUNDLE_H

#include "writers/viewers/frame_names.h"
#include "writers/viewers/perfetto_packets.h"

#include <stdbool.h>
#include <stdint.h>

enum {
    TG_PF_BUNDLE_BYTES = 60000, /* a CPU's bundle is written once it holds about this much */
    TG_PF_COMM_MAX = 64,
};

typedef struct pf_switch {
    uint64_t ts;
    int64_t state;
    int32_t pid, prio;
    uint32_t comm;
} pf_switch;

typedef struct pf_waking {
    uint64_t ts;
    int32_t pid, target, prio;
    uint32_t comm, flags;
} pf_waking;

/* One CPU's bundle being filled, and what the writer infers compact switches from. */
typedef struct pf_cpu {
    int cpu;
    uint8_t *ev; /* FtraceEventBundle.event entries, framed */
    size_t ev_len, ev_cap;
    bool lost; /* records were lost before this bundle's events */
    pf_switch *sw;
    size_t n_sw, sw_cap;
    pf_waking *wk;
    size_t n_wk, wk_cap;
    bool wk_flags;        /* a waking of the bundle has common_flags */
    tg_frame_names comms; /* the bundle's intern table */
    bool have_last;       /* the last switch's next_*: the next switch's prev_* */
    int32_t last_pid, last_prio;
    char last_comm[TG_PF_COMM_MAX];
} pf_cpu;

/* The bundle of cpu in *cpus (grown, made when new); NULL when out of memory. */
pf_cpu *tg_pf_bundle_of(pf_cpu ***cpus, size_t *cap, int cpu);
/* Appends FtraceEvent{timestamp, pid (when >= 0), common_flags (when >= 0), <id> = msg}. */
int tg_pf_bundle_event(pf_cpu *c, uint64_t ts, int64_t pid, int64_t flags, uint32_t id,
                       const uint8_t *msg, size_t len);
/* Appends a compact switch (next_* of the switch) or waking; comm is interned. */
int tg_pf_bundle_switch(pf_cpu *c, uint64_t ts, int64_t state, int32_t pid, int32_t prio,
                        const char *comm, size_t comm_len);
int tg_pf_bundle_waking(pf_cpu *c, uint64_t ts, int32_t pid, int32_t target, int32_t prio,
                        int64_t flags, const char *comm, size_t comm_len);
/* Whether the bundle holds about TG_PF_BUNDLE_BYTES. */
bool tg_pf_bundle_full(const pf_cpu *c);
/* Writes the bundle, when it holds anything, as TracePacket{ftrace_events}, and empties it;
 * *pack is scratch space. */
int tg_pf_bundle_flush(pf_cpu *c, tg_pf_packets *pk, uint8_t **pack, size_t *pack_cap);
void tg_pf_bundle_free(pf_cpu *c);

#endif
