-- syscallstats by hand: the calls as syscall-calls.sql pairs and names them; per thread and
-- call: count, min, max, sum of the durations (la_syscalls.c).
SELECT tid, call, count(*), min(d), max(d), sum(d) FROM syscall_calls GROUP BY tid, call
