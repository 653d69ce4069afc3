/* thread_start.h - the library's one way to start a helper thread (tg_streams_run's workers,
 * the v7 trace.dat inflater, the babeltrace2 replay).
 *
 * A helper thread takes none of the signals that end a program (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE): the CLI's handler must run on the thread that called, the one that writes the
 * outputs; faults stay each thread's own. */
#ifndef TG_CORE_THREAD_START_H
#define TG_CORE_THREAD_START_H

#include <pthread.h>
#include <stdbool.h>

/* Starts fn(arg) on a new thread *th with the ending signals blocked; false when it could
 * not start (the caller then does the work in order itself). */
bool tg_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

/* tg_thread_count (how many threads to keep busy) is in cursor.h, for consumers too. */

#endif
