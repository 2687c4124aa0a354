"""yc_rq_submit.py: enqueue one train_rank job per rank on its own queue (rank<R>), then poll the jobs until all are
finished or failed and print their final status (RQ 3)."""
import logging, sys, time
from redis import Redis
from rq import Queue
from rq.job import Job

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
log = logging.getLogger("submit")
world, port = int(sys.argv[1]), int(sys.argv[2]); argv = sys.argv[3:]
r = Redis(host="127.0.0.1", port=6379)
jobs = []
for rank in range(world):
    q = Queue(f"rank{rank}", connection=r)
    j = q.enqueue("yc_rq_tasks.train_rank", rank, world, port, argv, job_timeout=600, result_ttl=3600,
                  failure_ttl=3600, description=f"train rank {rank}/{world}")
    log.info("enqueued %s on queue %s", j.id, q.name)
    jobs.append(j)
t0 = time.time()
while True:
    st = [Job.fetch(j.id, connection=r).get_status() for j in jobs]
    if all(s in ("finished", "failed", "stopped", "canceled") for s in st) or time.time() - t0 > 400:
        break
    time.sleep(2)
bad = 0
for j in jobs:
    j = Job.fetch(j.id, connection=r)
    s = j.get_status()
    if s == "finished":
        log.info("job %s (%s): %s -> %r", j.id, j.description, s, j.return_value())
    else:
        bad += 1
        exc = (j.latest_result().exc_string or "").strip().splitlines() if j.latest_result() else []
        log.error("job %s (%s): %s%s", j.id, j.description, s, f": {exc[-1]}" if exc else "")
sys.exit(1 if bad else 0)
