/* sched.c - fixture: threads that sleep (voluntary context switches) and spin on one CPU
 * (record-sched.sh pins the process, so the spinning threads pre-empt each other): uftrace
 * records them as linux:schedule and linux:schedule (pre-empted).  argv[1]: rounds; argv[2]
 * "x": a third thread is still asleep when the program ends (it never flushes its records:
 * the recording has no data file of it); "end": the main thread ends with a long sleep, in
 * which the recording is stopped (its last context switch has no sched-in). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* Spins for about ms milliseconds of wall time. */
__attribute__((noinline)) static void spin(int ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int i = 0; i < 1000; i++)
            sink += (unsigned long)i;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L < ms);
}

__attribute__((noinline)) static void nap(int us) { usleep((useconds_t)us); }

__attribute__((noinline)) static void step(int ms)
{
    spin(ms);
    nap(500);
}

static void *sleeper(void *arg)
{
    (void)arg;
    for (;;)
        nap(1000000);
    return NULL;
}

static void *worker(void *arg)
{
    long rounds = (long)arg;
    for (long i = 0; i < rounds; i++)
        step(6);
    return NULL;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 3;
    pthread_t t[3];
    if (argc > 2 && strcmp(argv[2], "x") == 0)
        pthread_create(&t[2], NULL, sleeper, NULL);
    pthread_create(&t[0], NULL, worker, (void *)rounds);
    pthread_create(&t[1], NULL, worker, (void *)rounds);
    nap(2000);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    if (argc > 2 && strcmp(argv[2], "end") == 0)
        nap(5000000);
    printf("%lu\n", sink);
    return 0;
}
