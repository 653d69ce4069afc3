-- iousagetop's per-process bytes by hand: the calls as io-by-hand.sql pairs, names and classes
-- them; a Read or Write call that returned n > 0 moved n bytes (lttng-analyses' returned
-- size) for its thread.  One row per thread and direction: tid, 'read'/'written', bytes.
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
      FROM e WINDOW w AS (PARTITION BY utid ORDER BY ts)),
c AS (SELECT CASE WHEN p.name IN ('sys_enter', 'syscall_entry')
                       THEN COALESCE(tbl.tcall, x86.name, 'syscall_' || p.nr)
                  WHEN p.name LIKE 'sys\_enter\_%' ESCAPE '\' THEN substr(p.name, 11)
                  ELSE substr(p.name, 15) END AS call,
             nts - ts AS d, p.arg_set_id, t.tid, EXTRACT_ARG(narg, 'ret') AS ret,
             -- fcntl's cmd: its field, or raw_syscalls' second argument (args: 6 x 8 bytes)
             COALESCE(EXTRACT_ARG(p.arg_set_id, 'cmd'),
                      CASE WHEN substr(EXTRACT_ARG(p.arg_set_id, 'args'), 17, 16) = '0000000000000000'
                           THEN 0 END) AS cmd
      FROM p JOIN thread t USING (utid) LEFT JOIN tbl ON tbl.nr = p.nr
           LEFT JOIN x86 ON x86.nr = p.nr
      WHERE t.tid != 0
        AND (p.name LIKE 'sys\_enter\_%' ESCAPE '\' OR p.name LIKE 'syscall\_entry\_%' ESCAPE '\'
             OR p.name IN ('sys_enter', 'syscall_entry'))
        AND (nname LIKE 'sys\_exit\_%' ESCAPE '\' OR nname LIKE 'syscall\_exit\_%' ESCAPE '\'
             OR nname IN ('sys_exit', 'syscall_exit'))),
k AS (SELECT CASE
               WHEN call IN ('open', 'openat', 'socket', 'dup', 'dup2', 'dup3')
                 OR (call = 'fcntl' AND cmd = 0) THEN 'Open'
               WHEN call IN ('read', 'recvmsg', 'recvfrom', 'readv', 'pread', 'pread64', 'preadv')
                 THEN 'Read'
               WHEN call IN ('write', 'sendmsg', 'sendto', 'writev', 'pwrite', 'pwrite64', 'pwritev')
                 THEN 'Write'
               WHEN call IN ('sync', 'sync_file_range', 'fsync', 'fdatasync') THEN 'Sync'
             END AS kind, d, tid, ret
      FROM c)
SELECT tid, CASE kind WHEN 'Read' THEN 'read' ELSE 'written' END, sum(ret) FROM k
WHERE kind IN ('Read', 'Write') AND ret > 0 GROUP BY 1, 2
