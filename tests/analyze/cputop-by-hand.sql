-- cputop by hand: a thread runs from each switch-in to the next switch on its CPU (the
-- last to the last event); a thread first seen switched out (not switched in or migrated
-- before) ran since the first event: lttng-analyses' definition (la_cputop.c).
WITH b AS (SELECT min(ts) AS b, max(ts) AS e FROM ftrace_event),
s AS (SELECT ts, cpu,
             COALESCE(EXTRACT_ARG(arg_set_id, 'prev_pid'), EXTRACT_ARG(arg_set_id, 'prev_tid')) AS prev,
             COALESCE(EXTRACT_ARG(arg_set_id, 'next_pid'), EXTRACT_ARG(arg_set_id, 'next_tid')) AS next,
             LEAD(ts) OVER (PARTITION BY cpu ORDER BY ts) AS nts
      FROM ftrace_event WHERE name = 'sched_switch'),
seen AS (SELECT prev AS tid, ts, 0 AS as_prev FROM s
         UNION ALL SELECT next, ts, 1 FROM s WHERE next != 0
         UNION ALL SELECT COALESCE(EXTRACT_ARG(arg_set_id, 'pid'), EXTRACT_ARG(arg_set_id, 'tid')), ts, 1
                   FROM ftrace_event WHERE name = 'sched_migrate_task'),
first AS (SELECT tid, min(ts) AS fts FROM seen GROUP BY tid),
runs AS (SELECT next AS tid, COALESCE(nts, (SELECT e FROM b)) - ts AS d FROM s WHERE next != 0
         UNION ALL
         SELECT f.tid, f.fts - (SELECT b FROM b) FROM first f
          WHERE NOT EXISTS (SELECT 1 FROM seen x WHERE x.tid = f.tid AND x.ts = f.fts AND x.as_prev = 1))
SELECT tid, sum(d) AS t FROM runs GROUP BY tid ORDER BY t DESC, tid
