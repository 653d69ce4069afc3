/* kcalls.c - a program whose libc calls enter the kernel (open, read, write, close): the
 * user side of the hand-built `uftrace record -k` data (tests/ftrace/record-uftrace-kernel.sh). */
#include <fcntl.h>
#include <unistd.h>
static char buf[64];
int do_read(int fd) { return read(fd, buf, sizeof buf); }
int do_write(int fd, int n) { return write(fd, buf, n); }
int main(void)
{
    int fd = open("/dev/zero", O_RDONLY);
    int n = do_read(fd);
    int out = open("/dev/null", O_WRONLY);
    do_write(out, n);
    close(fd);
    close(out);
    return 0;
}
