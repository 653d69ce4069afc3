/* consumer_ok.c - a consumer may use the public header and the consumer header, and reads
 * the event header in place (tests/layers). */
#include "core/consumer.h"

int64_t probe_time(const tg_event *ev);
int64_t probe_time(const tg_event *ev) { return ev->ts + (int64_t)ev->cls->id; }
