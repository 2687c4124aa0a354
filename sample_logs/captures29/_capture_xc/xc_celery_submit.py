"""xc_celery_submit.py WORLD PORT TIMEOUT -- TRAIN_ARGS...: submit one xcjobs.train_rank task per rank and wait for
them (the job's submit side; prints task ids and final states with a timestamp)."""
import sys, time, datetime
from xc_celery_app import app, train_rank

world, port, timeout = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
argv = sys.argv[5:] if sys.argv[4:5] == ["--"] else sys.argv[4:]
say = lambda m: print(f"{datetime.datetime.now().isoformat(sep=' ', timespec='milliseconds')} submit: {m}", flush=True)
res = []
for r in range(world):
    ar = train_rank.apply_async(args=(r, world, port, argv))
    say(f"rank {r} -> task {ar.id}"); res.append(ar)
t0 = time.time(); done = set()
while len(done) < world and time.time() - t0 < timeout:
    for r, ar in enumerate(res):
        if r not in done and ar.ready():
            done.add(r)
            say(f"rank {r} task {ar.id} {ar.state}: {ar.result!r}")
    time.sleep(0.5)
for r, ar in enumerate(res):
    if r not in done:
        say(f"rank {r} task {ar.id} still {ar.state} after {timeout:.0f}s")
bad = [r for r, ar in enumerate(res) if ar.state != "SUCCESS"]
say("all ranks succeeded" if not bad else f"failed ranks: {bad}")
sys.exit(1 if bad else 0)
