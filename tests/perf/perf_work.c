/* perf_work.c - the tiny deterministic workload the perf.data fixtures record.
 *
 * Two busy functions, one calling the other, so that sampled call chains have a few frames
 * in the program itself; a short sleep and a write so that the tracepoint recordings see
 * the task switch out and wake up.  The argument is the number of rounds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long inner_loop(unsigned long n)
{
    unsigned long x = 1;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x;
}

__attribute__((noinline)) static unsigned long outer_loop(unsigned long rounds)
{
    unsigned long x = 0;
    for (unsigned long r = 0; r < rounds; r++)
        x ^= inner_loop(200000 + r);
    return x;
}

int main(int argc, char **argv)
{
    unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
    struct timespec pause = {0, 2000000};
    for (int k = 0; k < 4; k++) {
        sink = outer_loop(rounds / 4);
        nanosleep(&pause, NULL);
    }
    printf("%lu\n", sink);
    return 0;
}
