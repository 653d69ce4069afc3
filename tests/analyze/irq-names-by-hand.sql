-- LTTng 0.x hard IRQ names by hand: the actions the irq_state statedump (interrupt) lists for
-- the IRQ, in their order, joined with ", "; "unknown" for an IRQ it does not list
-- (la_state.c).  One row per IRQ number an irq_entry has.
WITH a AS (SELECT id, EXTRACT_ARG(arg_set_id, 'irq_id') AS irq,
                  EXTRACT_ARG(arg_set_id, 'action') AS action
           FROM ftrace_event WHERE name = 'interrupt' ORDER BY ts, id),
e AS (SELECT DISTINCT EXTRACT_ARG(arg_set_id, 'irq_id') AS irq FROM ftrace_event
      WHERE name = 'irq_entry')
SELECT e.irq, COALESCE((SELECT group_concat(action, ', ') FROM a WHERE a.irq = e.irq), 'unknown')
FROM e
