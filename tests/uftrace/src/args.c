/* args.c - fixture for `uftrace record -a`: integers, strings, pointers, chars, doubles,
 * negative values and return values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static long add(long a, long b) { return a + b; }
__attribute__((noinline)) static int neg(int x) { return -x; }
__attribute__((noinline)) static size_t name_len(const char *s) { return strlen(s); }
__attribute__((noinline)) static double scale(double v, int k) { return v * k; }
__attribute__((noinline)) static char upper(char c) { return (char)(c - 32); }
__attribute__((noinline)) static void *pick(void *a, void *b, int first) { return first ? a : b; }

int main(int argc, char **argv)
{
    char buf[32];
    long s = add(40, 2) + add(-5, 100000) + add(123456789, 1);
    s += neg(7) + (long)name_len("hello\n") + (long)name_len(argv[0]);
    double d = scale(1.5, 3);
    char c = upper('q');
    void *p = pick(buf, NULL, argc > 5);
    snprintf(buf, sizeof buf, "%ld %c", s, c);
    puts(buf);
    free(malloc(64));
    return p == NULL && d > 0 ? 0 : 1;
}
