/* recursion.c - fixture: recursion (fib) and mutual recursion (even/odd). */
#include <stdio.h>

__attribute__((noinline)) static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static int is_odd(int n);
__attribute__((noinline)) static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void)
{
    printf("%d %d\n", fib(7), is_even(6));
    return 0;
}
