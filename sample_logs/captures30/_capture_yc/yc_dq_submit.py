"""yc_dq_submit.py: send one message per rank to the rank's queue, then wait for every result."""
import logging, sys, time
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
import yc_dq_tasks
from dramatiq.results import ResultFailure, ResultMissing

log = logging.getLogger("submit")
world, port = int(sys.argv[1]), int(sys.argv[2]); argv = sys.argv[3:]
msgs = []
for rank in range(world):
    m = yc_dq_tasks.ACTORS[f"rank{rank}"].send(rank, world, port, argv)
    log.info("sent %s to queue %s (message %s)", m.actor_name, m.queue_name, m.message_id)
    msgs.append(m)
bad = 0; pending = dict(enumerate(msgs)); t0 = time.time()
while pending and time.time() - t0 < 240:
    for rank, m in list(pending.items()):
        try:
            log.info("rank %d: %s", rank, m.get_result(block=False))
        except ResultMissing:
            continue
        except ResultFailure as e:
            bad += 1
            log.error("rank %d (message %s): %s: %s", rank, m.message_id, type(e).__name__, e)
        del pending[rank]
    time.sleep(2)
for rank, m in pending.items():
    bad += 1
    log.error("rank %d (message %s): no result after %.0fs", rank, m.message_id, time.time() - t0)
sys.exit(1 if bad else 0)
