-- schedstats by hand: a thread's scheduling latency runs from its first wakeup
-- (sched_wakeup, sched_wakeup_new, sched_waking; LTTng 0.x sched_try_wakeup,
-- sched_wakeup_new_task) after its previous switch-in to its next switch-in; a wakeup while
-- the thread is some CPU's current task (the next of that CPU's latest switch) is ignored:
-- lttng-analyses' definition (la_state.c, la_sched.c).  Per thread: count, min, max and sum
-- of the latencies.  Events in the trace's order: time, then id.
WITH sw AS MATERIALIZED (
  SELECT id, ts, cpu,
         COALESCE(EXTRACT_ARG(arg_set_id, 'next_tid'), EXTRACT_ARG(arg_set_id, 'next_pid')) AS next
  FROM ftrace_event WHERE name IN ('sched_switch', 'sched_schedule')),
cur AS MATERIALIZED (  -- each CPU's current task from a switch to the CPU's next switch
  SELECT next AS tid, id, ts, LEAD(id) OVER w AS to_id, LEAD(ts) OVER w AS to_ts
  FROM sw WINDOW w AS (PARTITION BY cpu ORDER BY ts, id)),
wk AS (
  SELECT id, ts, COALESCE(EXTRACT_ARG(arg_set_id, 'tid'), EXTRACT_ARG(arg_set_id, 'pid')) AS tid
  FROM ftrace_event WHERE name IN ('sched_wakeup', 'sched_wakeup_new', 'sched_waking',
                                   'sched_try_wakeup', 'sched_wakeup_new_task')),
vw AS MATERIALIZED (  -- the wakeups of a thread not running
  SELECT w.id, w.ts, w.tid FROM wk w
  WHERE NOT EXISTS (SELECT 1 FROM cur c WHERE c.tid = w.tid
                      AND (c.ts < w.ts OR (c.ts = w.ts AND c.id < w.id))
                      AND (c.to_ts IS NULL OR w.ts < c.to_ts OR (w.ts = c.to_ts AND w.id < c.to_id)))),
ins AS (  -- each switch-in and the thread's switch-in before it
  SELECT next AS tid, id, ts, LAG(id) OVER w AS p_id, LAG(ts) OVER w AS p_ts
  FROM sw WHERE next != 0 WINDOW w AS (PARTITION BY next ORDER BY ts, id)),
lat AS (
  SELECT i.tid, i.ts - (SELECT min(v.ts) FROM vw v WHERE v.tid = i.tid
                          AND (v.ts < i.ts OR (v.ts = i.ts AND v.id < i.id))
                          AND (i.p_id IS NULL OR v.ts > i.p_ts OR (v.ts = i.p_ts AND v.id > i.p_id))) AS l
  FROM ins i)
SELECT tid, count(*), min(l), max(l), sum(l) FROM lat WHERE l IS NOT NULL GROUP BY tid
