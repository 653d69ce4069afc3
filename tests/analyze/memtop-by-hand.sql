-- memtop by hand: pages allocated and freed per thread (the kernel model's thread of the
-- event; none for the idle task): kmem_mm_page_alloc/free (LTTng), mm_page_alloc/free
-- (ftrace); a free counts only while the trace's allocations minus counted frees are above
-- zero, that count floored at zero (x - min(0, lowest x so far) for the running sum x of
-- +1/-1): lttng-analyses' definition (la_memtop.c).  Events in the trace's order.
WITH pg AS (
  SELECT id, ts, utid, name IN ('kmem_mm_page_alloc', 'mm_page_alloc') AS alloc
  FROM ftrace_event WHERE name IN ('kmem_mm_page_alloc', 'mm_page_alloc', 'kmem_mm_page_free',
                                   'mm_page_free')),
x AS (SELECT id, ts, utid, alloc,
             SUM(CASE WHEN alloc THEN 1 ELSE -1 END) OVER (ORDER BY ts, id) AS x FROM pg),
f AS (SELECT id, ts, utid, alloc, x - min(0, MIN(x) OVER (ORDER BY ts, id)) AS kept FROM x),
c AS (SELECT utid, alloc, LAG(kept, 1, 0) OVER (ORDER BY ts, id) AS before FROM f)
SELECT t.tid, sum(alloc), sum(NOT alloc AND before > 0)
FROM c JOIN thread t USING (utid) WHERE t.tid != 0
GROUP BY t.tid HAVING sum(alloc) + sum(NOT alloc AND before > 0) > 0
