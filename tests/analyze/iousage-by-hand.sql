-- iousagetop's per-process bytes by hand: the calls as syscall-calls.sql pairs, names and
-- classes them (io_calls); a Read or Write call that returned n > 0 moved n bytes
-- (lttng-analyses' returned size) for its thread.  One row per thread and direction: tid,
-- 'read'/'written', bytes.
SELECT tid, CASE kind WHEN 'Read' THEN 'read' ELSE 'written' END, sum(ret) FROM io_calls
WHERE kind IN ('Read', 'Write') AND ret > 0 GROUP BY 1, 2
