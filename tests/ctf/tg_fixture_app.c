/* tg_fixture_app.c - the workload of the CTF fixtures: two threads firing the tg_fixture
 * tracepoints (tg_fixture_tp.h) a few times each, and calling a few functions so that a
 * -finstrument-functions build traced with liblttng-ust-cyg-profile yields entry/exit
 * events.  An argument sets the number of iterations per thread (default 6; the benchmark
 * uses many more). */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "tg_fixture_tp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) static int mid(int x) { return leaf(x) + leaf(x + 1); }

static int iterations = 6;

static void *worker(void *arg)
{
    int base = *(int *)arg;
    static const char *const words[] = {"alpha", "tab\there", "quote\"d", "new\nline", "?!\\"};
    int acc = 0;
    for (int k = 0; k < iterations; k++) {
        int i = base + k;
        int arr[3] = {i, -i, i * i};
        lttng_ust_tracepoint(tg_fixture, ints, i, (int64_t)i << 33);
        lttng_ust_tracepoint(tg_fixture, floats_strings, i, words[k % 5]);
        lttng_ust_tracepoint(tg_fixture, compound, i, arr, "abc\001ef");
        acc += mid(i);
    }
    return (void *)(long)acc;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        iterations = atoi(argv[1]);
    pthread_t t[2];
    int base[2] = {1, 100};
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, worker, &base[k]);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    printf("done\n");
    return 0;
}
