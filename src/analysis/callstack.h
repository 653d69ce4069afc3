/* callstack.h - the one entrance to the call-stack builder's in-line rules, for the consumers
 * that run them in their own loop: uftrace replay and report apply uftrace's stack rules
 * record by record (callstack_uftrace.h) under uftrace's filters (callstack_filter.h),
 * llvm-xray account steps the top-only rules with
 * the ended frame handed back in place (callstack_inline.h).
 *
 * Every other consumer uses the public tg_callstack_* calls.  The build gives this header,
 * and the two it includes, only to the layers TG_CALLSTACK_USERS names in CMakeLists.txt, so
 * a new consumer that wants the builder's insides says so where a reviewer sees it. */
#ifndef TG_CALLSTACK_H
#define TG_CALLSTACK_H

#include "analysis/callstack_filter.h"
#include "analysis/callstack_inline.h"
#include "analysis/callstack_uftrace.h"

#endif
