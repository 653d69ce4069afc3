/* runstat.c - one whole run of a command, measured by the kernel (bench/pairs.py builds it).
 *
 *   runstat OUT CMD...   runs CMD with stdout to OUT (a file, or /dev/null), stdin and stderr
 *                        on /dev/null, and prints "WALL_NS USER_US SYS_US MINFLT MAXRSS_KB
 *                        STATUS" for it.
 *
 * A separate small process because peak RSS is only the command's own when the process that
 * forks it is small: a child forked (or vforked) by Python carries Python's resident size into
 * its ru_maxrss from before its exec.  Forked from this one, the baseline is about 1 MB, as
 * with /usr/bin/time, and the times come in microseconds (time(1) prints hundredths). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: runstat OUT CMD...\n", stderr);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0)
        return perror("runstat: fork"), 2;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || out < 0)
            _exit(126);
        dup2(null, 0);
        dup2(out, 1);
        dup2(null, 2);
        execvp(argv[2], argv + 2);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return perror("runstat: wait4"), 2;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%lld %lld %lld %ld %ld %d\n", ns, ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
           ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec, ru.ru_minflt, ru.ru_maxrss, code);
    return 0;
}
