-- iolatencystats by hand: the calls and their I/O categories as syscall-calls.sql pairs,
-- names and classes them (io_calls).  Per category: count, min, max, sum of the durations.
SELECT kind, count(*), min(d), max(d), sum(d) FROM io_calls WHERE kind IS NOT NULL GROUP BY kind
