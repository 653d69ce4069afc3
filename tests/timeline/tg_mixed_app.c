/* tg_mixed_app.c - one program for three tracers at once (record-mixed.sh): built with -pg
 * for uftrace, it fires an LTTng-UST tracepoint and makes a write(2) that ftrace sees, in
 * that order, inside each call of work(). */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "tg_mixed_tp.h"

#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void work(int fd, int k)
{
    tracepoint(tg_mixed, round, k);
    if (write(fd, "r", 1) != 1)
        exit(1);
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0)
        return 1;
    for (int k = 0; k < rounds; k++)
        work(fd, k);
    close(fd);
    return 0;
}
