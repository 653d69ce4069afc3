/* libcalls.c - fixture for `uftrace record -a` on library calls: the automatic argument
 * specs of libc functions (strings, enum flags such as O_CREAT|O_TRUNC and PROT_READ,
 * pointers naming data symbols, return values) and an enum of the program's own (DWARF). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum color { RED, GREEN = 5, BLUE };

__attribute__((noinline)) static enum color pick(enum color c) { return c == RED ? BLUE : RED; }

int main(void)
{
    int fd = open("libcalls.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (write(fd, "x", 1) != 1)
        return 1;
    close(fd);
    fd = open("libcalls.tmp", O_RDONLY);
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(p, 0, 16);
    munmap(p, 4096);
    close(fd);
    unlink("libcalls.tmp");
    char *s = strdup("abc");
    free(s);
    return pick(GREEN) == RED && pick(RED) == BLUE ? 0 : 1;
}
