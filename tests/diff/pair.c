/* pair.c - the workload of the diff fixtures (record-pairs.sh): one program recorded twice
 * with two inputs, and in two builds (VARIANT_B: leaf() spins twice as long, added() is
 * called where removed() was), by uftrace (gcc -pg) and by XRay (clang-14
 * -fxray-instrument), so that `report --diff` has rows that grew, shrank, appeared and
 * vanished, recursion (fib) and calls counted exactly.  warm_up() (not traced, before main)
 * keeps the CPU busy for 20 ms first, so that the traced part runs at the machine's steady
 * speed.  spin(n) runs n iterations: compare_pairs.py counts them to measure each
 * recording's speed. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__clang__)
#define KEEP __attribute__((noinline))
#define UNTRACED __attribute__((noinline, xray_never_instrument))
#else
#define KEEP __attribute__((noinline, noclone))
#define UNTRACED __attribute__((noinline, no_instrument_function))
#endif

#ifdef VARIANT_B
#define LEAF_SPIN 20000
#else
#define LEAF_SPIN 10000
#endif

KEEP static long spin(long n)
{
    volatile long s = 0;
    for (long i = 0; i < n; i++)
        s += i;
    return s;
}

KEEP long leaf(long i) { return spin(LEAF_SPIN + i % 7); }

KEEP long step(long i) { return leaf(i) + leaf(i + 1); }

KEEP long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

KEEP long work(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += step(i);
    return s;
}

#ifdef VARIANT_B
KEEP long added(int n) { return spin(300000L * n); }
#else
KEEP long removed(int n) { return spin(100000L * n); }
#endif

UNTRACED __attribute__((constructor)) static void warm_up(void)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (volatile int i = 0; i < 10000; i++)
            ;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 20000000L);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    long s = work(n * 10);
    s += fib(n - 2);
#ifdef VARIANT_B
    s += added(n);
#else
    s += removed(n);
#endif
    printf("%ld\n", s & 1);
    return 0;
}
