/* la_sysnames.h - an architecture's system call names by number, for the tracers that record
 * a call by number only (perf's and ftrace's raw_syscalls sys_enter).  The table is
 * generated at build time from the kernel's uapi header (cmake/syscall-names.cmake over
 * asm/unistd_64.h), so it is the kernel's own list, not one written here. */
#ifndef TG_ANALYSIS_LA_SYSNAMES_H
#define TG_ANALYSIS_LA_SYSNAMES_H

#include <stdint.h>

/* x86_64's name of system call id ("read" for 0), NULL when the kernel header has none. */
const char *la_sysname_x86_64(int64_t id);

#endif
