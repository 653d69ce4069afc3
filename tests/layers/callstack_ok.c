/* callstack_ok.c - a consumer named in TG_CALLSTACK_USERS sees the call-stack builder's
 * in-line entrance (tests/layers; compiled with compat/uftrace's include path). */
#include "analysis/callstack.h"
#include "core/consumer.h"
