/* fib.c - the example program of examples/fib.uftrace.data: a recursive Fibonacci run in
 * two threads, recorded with `uftrace record` (see tests/uftrace/record-fixtures.sh). */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void *worker(void *arg)
{
    return (void *)fib((int)(long)arg);
}

int main(void)
{
    pthread_t t[2];
    void *r[2];
    pthread_create(&t[0], NULL, worker, (void *)5L);
    pthread_create(&t[1], NULL, worker, (void *)6L);
    pthread_join(t[0], &r[0]);
    pthread_join(t[1], &r[1]);
    printf("fib(5) = %ld, fib(6) = %ld, fib(7) = %ld\n", (long)r[0], (long)r[1], fib(7));
    return 0;
}
