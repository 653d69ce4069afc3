-- irqstats by hand: each hard IRQ entry paired with the next exit on its CPU when it has
-- the same number, each softirq entry with the next softirq exit of its vector (the
-- definitions of lttng-analyses, la_irq.c): count, min, max and sum of the durations.
-- LTTng 0.x: irq_entry (irq_id) ends at the next irq_exit, which names no IRQ; softirq_id.
WITH e AS (SELECT ts, cpu,
                  CASE name WHEN 'irq_entry' THEN 'irq_handler_entry'
                            WHEN 'irq_exit' THEN 'irq_handler_exit' ELSE name END AS name,
                  COALESCE(EXTRACT_ARG(arg_set_id, 'irq'), EXTRACT_ARG(arg_set_id, 'irq_id')) AS irq,
                  COALESCE(EXTRACT_ARG(arg_set_id, 'vec'), EXTRACT_ARG(arg_set_id, 'softirq_id')) AS vec
           FROM ftrace_event WHERE name IN ('irq_handler_entry', 'irq_handler_exit', 'softirq_entry',
                                            'softirq_exit', 'irq_entry', 'irq_exit')),
p AS (SELECT ts, cpu, name, irq, vec, LEAD(ts) OVER w AS nts, LEAD(name) OVER w AS nname,
             LEAD(irq) OVER w AS nirq, LEAD(vec) OVER w AS nvec
      FROM e WINDOW w AS (PARTITION BY cpu, name LIKE 'soft%' ORDER BY ts))
SELECT 'hard', irq, count(*), min(nts - ts), max(nts - ts), sum(nts - ts) FROM p
 WHERE name = 'irq_handler_entry' AND nname = 'irq_handler_exit' AND (nirq = irq OR nirq IS NULL)
 GROUP BY irq
UNION ALL
SELECT 'soft', vec, count(*), min(nts - ts), max(nts - ts), sum(nts - ts) FROM p
 WHERE name = 'softirq_entry' AND nname = 'softirq_exit' AND nvec = vec GROUP BY vec
ORDER BY 1, 2
