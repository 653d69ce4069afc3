-- iousagetop's block requests by hand (trace.dat: ftrace's block events): a request is a
-- block_rq_issue of a non-zero nr_sector whose next block_rq_issue/complete event on the same
-- dev and sector is a block_rq_complete of the same nr_sector (lttng-analyses' pending
-- request per disk and sector).  It writes when its rwbs text has a 'W' (blk_fill_rwbs),
-- else reads; its thread is the issuing event's (the kernel model's thread).  One row per
-- thread and direction: tid, 'read'/'write', bytes (nr_sector * 512); and per disk (tid
-- 'disk'): request count and sectors.
WITH b AS (SELECT ts, utid, name, EXTRACT_ARG(arg_set_id, 'dev') AS dev,
                  EXTRACT_ARG(arg_set_id, 'sector') AS sector,
                  EXTRACT_ARG(arg_set_id, 'nr_sector') AS nr,
                  EXTRACT_ARG(arg_set_id, 'rwbs') AS rwbs
           FROM ftrace_event WHERE name IN ('block_rq_issue', 'block_rq_complete')),
p AS (SELECT *, LEAD(name) OVER w AS nname, LEAD(nr) OVER w AS nnr
      FROM b WINDOW w AS (PARTITION BY dev, sector ORDER BY ts)),
r AS (SELECT t.tid, CASE WHEN instr(rwbs, 'W') > 0 THEN 'write' ELSE 'read' END AS dir,
             dev, nr
      FROM p JOIN thread t USING (utid)
      WHERE p.name = 'block_rq_issue' AND nr > 0 AND nname = 'block_rq_complete' AND nnr = nr)
SELECT tid, dir, sum(nr) * 512 FROM r GROUP BY tid, dir
UNION ALL
SELECT 'disk', count(*), sum(nr) FROM r
