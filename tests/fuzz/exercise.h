/* exercise.h - run everything the library can do on one path, output thrown away: every
 * print style, every report style, replay, stats, info and the chrome conversion.  Used by
 * the fuzz target and by the damaged-fixture replay, which only ask that nothing crashes,
 * hangs or leaks (the sanitizers and ctest's timeout judge). */
#ifndef TG_EXERCISE_H
#define TG_EXERCISE_H

#include "traceglot.h"

/* Returns 1 when the path opened, 0 when tg_open refused it. */
int tg_exercise_path(const char *path, const tg_options *opts);

#endif
