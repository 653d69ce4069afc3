/* thread_start.c - tg_thread_start: a helper thread that takes no ending signal (see
 * thread_start.h for why), and tg_thread_count: how many such threads are worth running. */
#define _GNU_SOURCE
#include "core/thread_start.h"
#include "core/cursor.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>

#define TG_MAX_THREADS 64

bool tg_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    sigset_t ending, old;
    sigemptyset(&ending);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGHUP);
    sigaddset(&ending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &ending, &old);
    bool started = pthread_create(th, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return started;
}

unsigned tg_thread_count(void)
{
    const char *env = getenv("TG_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 1)
            return v > TG_MAX_THREADS ? TG_MAX_THREADS : (unsigned)v;
    }
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
        return 1;
    int n = CPU_COUNT(&cpus);
    return n < 1 ? 1 : n > TG_MAX_THREADS ? TG_MAX_THREADS : (unsigned)n;
}
