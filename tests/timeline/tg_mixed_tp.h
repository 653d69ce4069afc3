/* tg_mixed_tp.h - the LTTng-UST tracepoint of the timeline test program: tg_mixed:round(k). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER tg_mixed

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tg_mixed_tp.h"

#if !defined(TG_MIXED_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TG_MIXED_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(tg_mixed, round, TP_ARGS(int, k), TP_FIELDS(ctf_integer(int, k, k)))

#endif

#include <lttng/tracepoint-event.h>
