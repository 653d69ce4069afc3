-- iolatencystats by hand: a call of a thread (the kernel model's thread of the event) is its
-- entry (sys_enter_NAME, syscall_entry_NAME) followed, as that thread's next system call
-- event, by an exit, as syscalls-by-hand.sql pairs them; lttng-analyses' I/O categories
-- (la_iostate.c): Open (open, openat, socket, dup, dup2, dup3, fcntl F_DUPFD), Read, Write,
-- Sync.  Per category: count, min, max, sum of the durations.
WITH e AS (SELECT ts, utid, name, arg_set_id FROM ftrace_event
           WHERE name LIKE 'sys\_enter\_%' ESCAPE '\' OR name LIKE 'sys\_exit\_%' ESCAPE '\'
              OR name LIKE 'syscall\_entry\_%' ESCAPE '\' OR name LIKE 'syscall\_exit\_%' ESCAPE '\'),
p AS (SELECT ts, utid, name, arg_set_id, LEAD(name) OVER w AS nname, LEAD(ts) OVER w AS nts
      FROM e WINDOW w AS (PARTITION BY utid ORDER BY ts)),
c AS (SELECT CASE WHEN p.name LIKE 'sys\_enter\_%' ESCAPE '\' THEN substr(p.name, 11)
                  ELSE substr(p.name, 15) END AS call,
             nts - ts AS d, p.arg_set_id
      FROM p JOIN thread t USING (utid)
      WHERE t.tid != 0
        AND (p.name LIKE 'sys\_enter\_%' ESCAPE '\' OR p.name LIKE 'syscall\_entry\_%' ESCAPE '\')
        AND (nname LIKE 'sys\_exit\_%' ESCAPE '\' OR nname LIKE 'syscall\_exit\_%' ESCAPE '\')),
k AS (SELECT CASE
               WHEN call IN ('open', 'openat', 'socket', 'dup', 'dup2', 'dup3')
                 OR (call = 'fcntl' AND EXTRACT_ARG(arg_set_id, 'cmd') = 0) THEN 'Open'
               WHEN call IN ('read', 'recvmsg', 'recvfrom', 'readv', 'pread', 'pread64', 'preadv')
                 THEN 'Read'
               WHEN call IN ('write', 'sendmsg', 'sendto', 'writev', 'pwrite', 'pwrite64', 'pwritev')
                 THEN 'Write'
               WHEN call IN ('sync', 'sync_file_range', 'fsync', 'fdatasync') THEN 'Sync'
             END AS kind, d
      FROM c)
SELECT kind, count(*), min(d), max(d), sum(d) FROM k WHERE kind IS NOT NULL GROUP BY kind
