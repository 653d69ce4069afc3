-- syscallstats by hand: a call of a thread (the kernel model's thread of the event) is its
-- entry (sys_enter_NAME, syscall_entry_NAME; by number: perf's raw_syscalls sys_enter and
-- LTTng 0.x's syscall_entry, named by LTTng 0.x's sys_call_table; on an x86_64 trace by
-- x86_64's table, which sql-agree.sh puts in place of x86's row from the kernel header's
-- __NR_* lines; else syscall_ID) followed,
-- as that thread's next system call event, by an exit (an entry followed by another entry
-- is lost): lttng-analyses' definition (la_syscalls.c).  Per thread and call: count, min,
-- max, sum of the durations.
WITH e AS (SELECT ts, utid, name,
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
p AS (SELECT ts, utid, name, nr, LEAD(name) OVER w AS nname, LEAD(ts) OVER w AS nts
      FROM e WINDOW w AS (PARTITION BY utid ORDER BY ts))
SELECT t.tid,
       CASE WHEN p.name IN ('sys_enter', 'syscall_entry')
                 THEN COALESCE(tbl.tcall, x86.name, 'syscall_' || p.nr)
            WHEN p.name LIKE 'sys\_enter\_%' ESCAPE '\' THEN substr(p.name, 11)
            ELSE substr(p.name, 15) END AS call,
       count(*), min(nts - ts), max(nts - ts), sum(nts - ts)
FROM p JOIN thread t USING (utid) LEFT JOIN tbl ON tbl.nr = p.nr LEFT JOIN x86 ON x86.nr = p.nr
WHERE t.tid != 0
  AND (p.name LIKE 'sys\_enter\_%' ESCAPE '\' OR p.name LIKE 'syscall\_entry\_%' ESCAPE '\'
       OR p.name IN ('sys_enter', 'syscall_entry'))
  AND (nname LIKE 'sys\_exit\_%' ESCAPE '\' OR nname LIKE 'syscall\_exit\_%' ESCAPE '\'
       OR nname IN ('sys_exit', 'syscall_exit'))
GROUP BY t.tid, call
