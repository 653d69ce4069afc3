"""fleet_kill.py SCHEDULER WORKER_NAME PID N - kills a dask worker in the middle of a fleet run.

Watches the scheduler's tasks of a `traceglot fleet` run (keys traceglot-sql-*): once at least
a quarter of the N are done (their rows in memory on the workers, not yet gathered) while the
worker WORKER_NAME has some of them processing, kills that worker's process (SIGKILL, as a
machine dies: the rows it held are lost too) and says how many tasks it held.  Exits 1 if the
run ended before that could happen.
"""
import os
import signal
import sys
import time

from distributed import Client

addr, victim, pid, total = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])


def state(dask_scheduler):
    ours = [t for k, t in dask_scheduler.tasks.items() if str(k).startswith("traceglot-sql-")]
    done = sum(1 for t in ours if t.state == "memory")
    running = held = 0
    for ws in dask_scheduler.workers.values():
        if ws.name == victim:
            running = sum(1 for t in ws.processing if str(t.key).startswith("traceglot-sql-"))
            held = sum(1 for t in ws.has_what if str(t.key).startswith("traceglot-sql-"))
    return len(ours), done, running, held


client = Client(addr, timeout=60)
started, deadline = False, time.time() + 600
while time.time() < deadline:
    known, done, running, held = client.run_on_scheduler(state)
    if known and not started:
        print("the run is on the scheduler: %d tasks, %d done" % (known, done))
    started = started or known > 0
    if started and done >= total // 4 and running > 0:
        os.kill(pid, signal.SIGKILL)
        print("killed worker %s while it ran %d tasks and held the rows of %d; %d of %d done"
              % (victim, running, held, done, total))
        client.close()
        sys.exit(0)
    if started and known == 0:
        break
    time.sleep(0.02)
print("the run ended before the worker could be killed")
client.close()
sys.exit(1)
