/* perf_bench.c - the workload bench/perf.sh records with `perf record -g`.
 *
 * A few mutually recursive functions walk a pseudo-random call tree a few dozen frames
 * deep, so that the sampled call chains are long and many-branched: perf script resolves
 * every frame and perf report builds a large call graph, which is what the bench measures.
 * The argument is the CPU time to run, in seconds: the process's own CPU clock, so that a
 * cpu-clock recording gets the same number of samples however loaded the machine is. */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static unsigned long step_a(unsigned long seed, int depth);
static unsigned long step_b(unsigned long seed, int depth);
static unsigned long step_c(unsigned long seed, int depth);

__attribute__((noinline)) static unsigned long leaf_spin(unsigned long seed)
{
    unsigned long x = seed;
    for (int i = 0; i < 2000; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x;
}

__attribute__((noinline)) static unsigned long leaf_mix(unsigned long seed)
{
    unsigned long x = seed;
    for (int i = 0; i < 3000; i++)
        x ^= (x << 13) ^ (x >> 7) ^ (x << 17);
    return x;
}

__attribute__((noinline)) static unsigned long next_step(unsigned long seed, int depth)
{
    if (depth <= 0)
        return (seed & 1) ? leaf_spin(seed) : leaf_mix(seed);
    switch (seed % 3) {
    case 0: return step_a(seed / 3, depth - 1);
    case 1: return step_b(seed / 3, depth - 1);
    default: return step_c(seed / 3, depth - 1);
    }
}

__attribute__((noinline)) static unsigned long step_a(unsigned long seed, int depth)
{
    return next_step(seed * 7 + 1, depth) + 1;
}

__attribute__((noinline)) static unsigned long step_b(unsigned long seed, int depth)
{
    return next_step(seed * 11 + 3, depth) ^ 2;
}

__attribute__((noinline)) static unsigned long step_c(unsigned long seed, int depth)
{
    unsigned long x = next_step(seed * 13 + 5, depth);
    return x + leaf_spin(x) % 3;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 10;
    struct timespec start, now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    unsigned long seed = 12345;
    do {
        for (int k = 0; k < 100; k++) {
            seed = seed * 2862933555777941757ul + 3037000493ul;
            sink += next_step(seed >> 20, 12 + (int)(seed >> 60));
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    } while ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 <
             seconds);
    return 0;
}
