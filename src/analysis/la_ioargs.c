/* la_ioargs.c - where an I/O system call's parameters are among a call's six arguments, for
 * the tracers that record a call by number with its raw arguments (perf's and ftrace's
 * raw_syscalls sys_enter: `args`), so that the I/O analyses read the descriptor, flags and
 * family that lttng-modules' syscall_entry_NAME events name.  The positions are the
 * system calls' own parameter order (the kernel's SYSCALL_DEFINEn), the same on every
 * architecture for these calls. */
#include "analysis/la_io.h"

#include <string.h>

int la_io_arg_position(const char *call, const char *field)
{
    static const struct {
        const char *call, *field;
        int position;
    } params[] = {
        {"open", "filename", 0}, {"open", "flags", 1},         {"openat", "filename", 1},
        {"openat", "flags", 2},  {"socket", "family", 0},      {"dup", "fildes", 0},
        {"dup2", "oldfd", 0},    {"dup2", "newfd", 1},         {"dup3", "oldfd", 0},
        {"dup3", "newfd", 1},    {"dup3", "flags", 2},         {"fcntl", "fd", 0},
        {"fcntl", "cmd", 1},     {"close", "fd", 0},           {"read", "fd", 0},
        {"recvmsg", "fd", 0},    {"recvfrom", "fd", 0},        {"readv", "fd", 0},
        {"pread", "fd", 0},      {"pread64", "fd", 0},         {"preadv", "fd", 0},
        {"write", "fd", 0},      {"sendmsg", "fd", 0},         {"sendto", "fd", 0},
        {"writev", "fd", 0},     {"pwrite", "fd", 0},          {"pwrite64", "fd", 0},
        {"pwritev", "fd", 0},    {"sync_file_range", "fd", 0}, {"fsync", "fd", 0},
        {"fdatasync", "fd", 0},
    };
    for (size_t i = 0; i < sizeof params / sizeof *params; i++)
        if (strcmp(params[i].call, call) == 0 && strcmp(params[i].field, field) == 0)
            return params[i].position;
    return -1;
}
