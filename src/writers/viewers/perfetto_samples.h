/* perfetto_samples.h - a perf.data file's samples as Perfetto's perf samples (PerfSample
 * packets with interned call stacks), so that Perfetto's UI shows the CPU profile. */
#ifndef TG_PERFETTO_SAMPLES_H
#define TG_PERFETTO_SAMPLES_H

#include "writers/viewers/perfetto_packets.h"
#include "writers/viewers/sample_stacks.h"

typedef struct tg_pf_samples tg_pf_samples;

/* NULL into *out when the set holds no perf.data file; 0 or TG_ERR_NOMEM. */
int tg_pf_samples_open(tg_pf_samples **out, tg_set *set, const tg_options *opts);
/* Feeds one event in delivery order: 1 when it was a sample and its packet is written, 0
 * when it is not one (the writer writes it as usual), or a negative status. */
int tg_pf_samples_event(tg_pf_samples *s, tg_pf_packets *pk, const tg_event *ev);
void tg_pf_samples_free(tg_pf_samples *s);

#endif
