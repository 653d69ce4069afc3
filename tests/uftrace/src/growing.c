/* growing.c - fixture for `cat --follow` on a uftrace recording in progress: argv[1] rounds
 * (default 25), each 200 calls of a small function and a sleep of 100 ms through the PLT
 * (usleep), so `uftrace record -b 4K` flushes a buffer of records several times a second
 * while the program runs for a few seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) static int leaf(int i) { return i + 1; }

__attribute__((noinline)) static int round_of_calls(int r)
{
    int sum = 0;
    for (int i = 0; i < 200; i++)
        sum += leaf(i);
    usleep(100000);
    return sum + r;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 25;
    int sum = 0;
    for (int r = 0; r < rounds; r++)
        sum += round_of_calls(r);
    printf("%d\n", sum);
    return 0;
}
