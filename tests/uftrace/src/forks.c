/* forks.c - fixture: a parent forks a child; both call functions, the parent waits. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int work(int n) { return n <= 0 ? 0 : n + work(n - 1); }

int main(void)
{
    int s = work(3);
    pid_t p = fork();
    if (p == 0) {
        s = work(4);
        exit(s & 1);
    }
    waitpid(p, NULL, 0);
    printf("%d\n", s + work(2));
    return 0;
}
