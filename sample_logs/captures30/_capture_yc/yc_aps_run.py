"""yc_aps_run.py NPROC PORT -- TRAIN_ARGS...: APScheduler launcher, one date-triggered job per rank (subprocess)."""
import datetime, logging, os, subprocess, sys, threading
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler

logging.basicConfig(filename="scheduler.log", level=logging.DEBUG,
                    format="%(asctime)s %(threadName)s %(name)s %(levelname)s %(message)s")
log = logging.getLogger("yc.aps")
n, port = int(sys.argv[1]), sys.argv[2]
train = sys.argv[sys.argv.index("--") + 1:]


def run_rank(rank):
    env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(n), LOCAL_RANK=str(rank), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=port)
    with open(f"ranks/rank{rank}.log", "w") as out:
        p = subprocess.run([sys.executable, "yc_train.py"] + train, env=env, stdout=out, stderr=subprocess.STDOUT)
    log.info("rank %d process exited with %d", rank, p.returncode)
    if p.returncode:
        raise RuntimeError(f"rank {rank} exited with {p.returncode}")
    return p.returncode


sched = BlockingScheduler(executors={"default": ThreadPoolExecutor(n)}, timezone="UTC")
done = set(); lock = threading.Lock(); failed = []


def on_event(ev):
    with lock:
        done.add(ev.job_id)
        if ev.exception:
            failed.append(ev.job_id)
        log.info("job %s finished (%s); %d of %d done", ev.job_id, "error" if ev.exception else "ok", len(done), n)
        if len(done) == n:
            threading.Thread(target=sched.shutdown, kwargs={"wait": False}).start()


sched.add_listener(on_event, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=2)
for r in range(n):
    sched.add_job(run_rank, "date", run_date=at, args=[r], id=f"train_rank{r}", name=f"train rank {r}/{n}",
                  misfire_grace_time=30)
log.info("scheduled %d rank jobs at %s", n, at.isoformat())
sched.start()
log.info("scheduler stopped; failed jobs: %s", failed or "none")
sys.exit(1 if failed else 0)
