/* threads.c - fixture: two worker threads calling a few small functions. */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static int leaf(int x) { return x * 2 + 1; }
__attribute__((noinline)) static int mid(int x) { return leaf(x) + leaf(x + 1); }

static void *worker(void *arg)
{
    long n = (long)arg, s = 0;
    for (long i = 0; i < n; i++)
        s += mid((int)i);
    return (void *)s;
}

int main(void)
{
    pthread_t t[2];
    void *r0, *r1;
    pthread_create(&t[0], NULL, worker, (void *)5L);
    pthread_create(&t[1], NULL, worker, (void *)7L);
    pthread_join(t[0], &r0);
    pthread_join(t[1], &r1);
    printf("%ld\n", (long)r0 + (long)r1);
    return 0;
}
