-- syscallstats by hand: a call of a thread (the kernel model's thread of the event) is its
-- entry (sys_enter_NAME, syscall_entry_NAME) followed, as that thread's next system call
-- event, by an exit (an entry followed by another entry is lost): lttng-analyses'
-- definition (la_syscalls.c).  Per thread and call: count, min, max, sum of the durations.
WITH e AS (SELECT ts, utid, name FROM ftrace_event
           WHERE name LIKE 'sys\_enter\_%' ESCAPE '\' OR name LIKE 'sys\_exit\_%' ESCAPE '\'
              OR name LIKE 'syscall\_entry\_%' ESCAPE '\' OR name LIKE 'syscall\_exit\_%' ESCAPE '\'),
p AS (SELECT ts, utid, name, LEAD(name) OVER w AS nname, LEAD(ts) OVER w AS nts
      FROM e WINDOW w AS (PARTITION BY utid ORDER BY ts))
SELECT t.tid,
       CASE WHEN p.name LIKE 'sys\_enter\_%' ESCAPE '\' THEN substr(p.name, 11)
            ELSE substr(p.name, 15) END AS call,
       count(*), min(nts - ts), max(nts - ts), sum(nts - ts)
FROM p JOIN thread t USING (utid)
WHERE t.tid != 0
  AND (p.name LIKE 'sys\_enter\_%' ESCAPE '\' OR p.name LIKE 'syscall\_entry\_%' ESCAPE '\')
  AND (nname LIKE 'sys\_exit\_%' ESCAPE '\' OR nname LIKE 'syscall\_exit\_%' ESCAPE '\')
GROUP BY t.tid, call
