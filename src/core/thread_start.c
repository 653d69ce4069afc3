/* thread_start.c - tg_thread_start: a helper thread that takes no ending signal (see
 * thread_start.h for why). */
#include "core/thread_start.h"

#include <signal.h>

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
