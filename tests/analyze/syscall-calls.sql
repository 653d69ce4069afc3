-- syscall-calls.sql - the system calls of a trace as lttng-analyses pairs them (la_syscalls.c)
-- and their I/O categories: two views shared by syscalls-by-hand.sql, io-by-hand.sql and
-- iousage-by-hand.sql (sql-agree.sh runs this before each).
-- syscall_calls: a call of a thread (the kernel model's thread of the event) is its entry
-- (sys_enter_NAME, syscall_entry_NAME; by number: perf's and ftrace's raw_syscalls sys_enter
-- and LTTng 0.x's syscall_entry, named by LTTng 0.x's sys_call_table or, on an x86_64 trace,
-- by x86_64's table, which sql-agree.sh puts in place of x86's row from the kernel header's
-- __NR_* lines; else syscall_ID) followed, as that thread's next system call event, by an
-- exit (an entry followed by another entry is lost).  One row per call: tid, call, d (its
-- duration), the entry's arg_set_id, ret (the exit's return value) and cmd (fcntl's cmd: its
-- field, or raw_syscalls' second argument; args is 6 x 8 bytes).
CREATE TEMP VIEW syscall_calls AS
WITH e AS (SELECT ts, utid, name, arg_set_id,
                  COALESCE(EXTRACT_ARG(arg_set_id, 'id'), EXTRACT_ARG(arg_set_id, 'syscall_id')) AS nr
           FROM ftrace_event
           WHERE name LIKE 'sys\_enter\_%' ESCAPE '\' OR name LIKE 'sys\_exit\_%' ESCAPE '\'
              OR name LIKE 'syscall\_entry\_%' ESCAPE '\' OR name LIKE 'syscall\_exit\_%' ESCAPE '\'
              OR name IN ('sys_enter', 'sys_exit', 'syscall_entry', 'syscall_exit')),
sym AS (SELECT EXTRACT_ARG(arg_set_id, 'id') AS nr, EXTRACT_ARG(arg_set_id, 'symbol') AS s
        FROM ftrace_event WHERE name = 'sys_call_table'),
x86 (nr, name) AS (VALUES (NULL, NULL)), -- X86_64_NAMES
tbl AS MATERIALIZED (SELECT nr, CASE WHEN s LIKE 'sys\_%' ESCAPE '\'
                                     THEN substr(s, 5, instr(s, '+') - 5)
                                     ELSE substr(s, 1, instr(s, '+') - 1) END AS tcall FROM sym),
p AS (SELECT ts, utid, name, nr, arg_set_id, LEAD(name) OVER w AS nname, LEAD(ts) OVER w AS nts,
             LEAD(arg_set_id) OVER w AS narg
      FROM e WINDOW w AS (PARTITION BY utid ORDER BY ts))
SELECT t.tid,
       CASE WHEN p.name IN ('sys_enter', 'syscall_entry')
                 THEN COALESCE(tbl.tcall, x86.name, 'syscall_' || p.nr)
            WHEN p.name LIKE 'sys\_enter\_%' ESCAPE '\' THEN substr(p.name, 11)
            ELSE substr(p.name, 15) END AS call,
       nts - ts AS d, p.arg_set_id, EXTRACT_ARG(narg, 'ret') AS ret,
       COALESCE(EXTRACT_ARG(p.arg_set_id, 'cmd'),
                CASE WHEN substr(EXTRACT_ARG(p.arg_set_id, 'args'), 17, 16) = '0000000000000000'
                     THEN 0 END) AS cmd
FROM p JOIN thread t USING (utid) LEFT JOIN tbl ON tbl.nr = p.nr LEFT JOIN x86 ON x86.nr = p.nr
WHERE t.tid != 0
  AND (p.name LIKE 'sys\_enter\_%' ESCAPE '\' OR p.name LIKE 'syscall\_entry\_%' ESCAPE '\'
       OR p.name IN ('sys_enter', 'syscall_entry'))
  AND (nname LIKE 'sys\_exit\_%' ESCAPE '\' OR nname LIKE 'syscall\_exit\_%' ESCAPE '\'
       OR nname IN ('sys_exit', 'syscall_exit'))
;
-- io_calls: each call with lttng-analyses' I/O category (la_iostate.c): Open (open, openat,
-- socket, dup, dup2, dup3, fcntl F_DUPFD: its cmd is 0), Read, Write, Sync; else NULL.
CREATE TEMP VIEW io_calls AS
SELECT *, CASE
            WHEN call IN ('open', 'openat', 'socket', 'dup', 'dup2', 'dup3')
              OR (call = 'fcntl' AND cmd = 0) THEN 'Open'
            WHEN call IN ('read', 'recvmsg', 'recvfrom', 'readv', 'pread', 'pread64', 'preadv')
              THEN 'Read'
            WHEN call IN ('write', 'sendmsg', 'sendto', 'writev', 'pwrite', 'pwrite64', 'pwritev')
              THEN 'Write'
            WHEN call IN ('sync', 'sync_file_range', 'fsync', 'fdatasync') THEN 'Sync'
          END AS kind
FROM syscall_calls
