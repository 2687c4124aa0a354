"""xc_huey_enqueue.py WORLD PORT WAIT -- TRAIN_ARGS...: enqueue one train_rank task per rank, then poll the result
store for WAIT seconds and report what came back."""
import sys, time, datetime
from huey.exceptions import TaskException
from xc_huey_app import train_rank

world, port, wait = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
argv = sys.argv[5:] if sys.argv[4:5] == ["--"] else sys.argv[4:]
say = lambda m: print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} enqueue: {m}", flush=True)
res = [train_rank(r, world, port, argv) for r in range(world)]
for r, x in enumerate(res):
    say(f"rank {r}: task {x.id} enqueued")
t0 = time.time(); got = {}
while len(got) < world and time.time() - t0 < wait:
    for r, x in enumerate(res):
        if r in got:
            continue
        try:
            v = x.get()
        except TaskException as e:
            got[r] = f"error: {e.metadata.get('error')}"; say(f"rank {r}: task {x.id} failed: {e.metadata.get('error')}")
            continue
        if v is not None:
            got[r] = v; say(f"rank {r}: task {x.id} returned {v!r}")
    time.sleep(0.5)
for r, x in enumerate(res):
    if r not in got:
        say(f"rank {r}: task {x.id} has no result after {wait:.0f}s")
sys.exit(0 if all(not str(v).startswith("error") for v in got.values()) and len(got) == world else 1)
