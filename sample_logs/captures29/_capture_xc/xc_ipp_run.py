"""xc_ipp_run.py WORLD PORT -- TRAIN_ARGS...: the training job on an ipyparallel cluster (profile xc, started with
ipcluster): engine i runs rank i (the rank
numbers scattered over a DirectView of all engines, run_rank applied on the view), the driver waits for all ranks and prints
every engine's captured output (AsyncResult.display_outputs) and the returned values."""
import os, sys, datetime
import ipyparallel as ipp

world, port = int(sys.argv[1]), int(sys.argv[2])
argv = sys.argv[4:] if sys.argv[3:4] == ["--"] else sys.argv[3:]
say = lambda m: print(f"[{datetime.datetime.now():%H:%M:%S}] driver: {m}", flush=True)


def run_rank(jobdir, rank, world, port, argv):
    import os, sys
    os.chdir(jobdir); sys.path.insert(0, jobdir)
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=str(port))
    import xc_train
    xc_train.main(argv)
    return f"rank {rank} done on engine pid {os.getpid()}"


rc = ipp.Client(profile="xc")
rc.wait_for_engines(world, timeout=120)
say(f"{len(rc.ids)} engines: {rc.ids}")
dv = rc[:]
dv.scatter("rank", list(range(world)), flatten=True, block=True)
ar = dv.apply_async(run_rank, os.getcwd(), ipp.Reference("rank"), world, port, argv)
ok = True
try:
    for line in ar.get(timeout=300):
        say(line)
except Exception as e:
    ok = False; say(f"{type(e).__name__}: {e}")
ar.display_outputs()
say("all ranks finished" if ok else "job failed")
sys.exit(0 if ok else 1)
