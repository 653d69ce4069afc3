/* uftrace_bench.c - the workload bench/uftrace.sh records: recursion deep and wide enough
 * for about ten million uftrace records (fib(31) calls fib 4.3 million times, entry and
 * exit each), in two threads so the merge and the thread interleaving are exercised. */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void *worker(void *arg) { return (void *)fib((int)(long)arg); }

int main(void)
{
    pthread_t t[2];
    void *r[2];
    pthread_create(&t[0], NULL, worker, (void *)30L);
    pthread_create(&t[1], NULL, worker, (void *)29L);
    pthread_join(t[0], &r[0]);
    pthread_join(t[1], &r[1]);
    printf("%ld %ld %ld\n", (long)r[0], (long)r[1], fib(28));
    return 0;
}
