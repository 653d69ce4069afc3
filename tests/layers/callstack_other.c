/* callstack_other.c - a consumer not named in TG_CALLSTACK_USERS does not see the call-stack
 * builder's insides: it uses the public tg_callstack_* calls (tests/layers). */
#include "core/consumer.h"
#include "analysis/callstack.h"
