-- cputop by hand: a thread runs from its switch-in (next) to its next switch-out (prev),
-- on whichever CPU (a second switch-in before a switch-out replaces the first; the last to
-- the last event); a thread first seen switched out (not switched in or migrated before)
-- ran since the first event: lttng-analyses' definition (la_cputop.c).  LTTng 0.x names
-- the switch sched_schedule; perf's side-band records (PERF_RECORD_*) are no events.
WITH b AS (SELECT min(ts) AS b, max(ts) AS e FROM ftrace_event
           WHERE name NOT LIKE 'PERF\_RECORD\_%' ESCAPE '\'),
s AS (SELECT ts,
             COALESCE(EXTRACT_ARG(arg_set_id, 'prev_pid'), EXTRACT_ARG(arg_set_id, 'prev_tid')) AS prev,
             COALESCE(EXTRACT_ARG(arg_set_id, 'next_pid'), EXTRACT_ARG(arg_set_id, 'next_tid')) AS next
      FROM ftrace_event WHERE name IN ('sched_switch', 'sched_schedule')),
io AS (SELECT prev AS tid, ts, 0 AS is_in FROM s
       UNION ALL SELECT next, ts, 1 FROM s WHERE next != 0),
seen AS (SELECT tid, ts, is_in FROM io
         UNION ALL SELECT COALESCE(EXTRACT_ARG(arg_set_id, 'pid'), EXTRACT_ARG(arg_set_id, 'tid')), ts, 1
                   FROM ftrace_event WHERE name = 'sched_migrate_task'),
first AS (SELECT tid, min(ts) AS fts FROM seen GROUP BY tid),
o AS (SELECT tid, ts, is_in, LEAD(is_in) OVER w AS nin, LEAD(ts) OVER w AS nts
      FROM io WINDOW w AS (PARTITION BY tid ORDER BY ts, is_in)),
runs AS (SELECT tid, COALESCE(nts, (SELECT e FROM b)) - ts AS d FROM o
          WHERE is_in = 1 AND (nin = 0 OR nin IS NULL)
         UNION ALL
         SELECT f.tid, f.fts - (SELECT b FROM b) FROM first f
          WHERE NOT EXISTS (SELECT 1 FROM seen x WHERE x.tid = f.tid AND x.ts = f.fts AND x.is_in = 1))
SELECT tid, sum(d) AS t FROM runs GROUP BY tid ORDER BY t DESC, tid
