"""xc_parsl_run.py WORLD PORT -- TRAIN_ARGS...: the training job as a Parsl workflow: one bash_app per env:// rank on
a ThreadPoolExecutor with WORLD threads (all ranks run at once), stdout/stderr of each app in logs/train-r<R>.out /
.err, Parsl's own log under runinfo/000/parsl.log; then a summary app greps the rank logs."""
import sys, datetime
import parsl
from parsl.app.app import bash_app
from parsl.config import Config
from parsl.executors.threads import ThreadPoolExecutor

world, port = int(sys.argv[1]), int(sys.argv[2])
argv = sys.argv[4:] if sys.argv[3:4] == ["--"] else sys.argv[3:]
say = lambda m: print(f"{datetime.datetime.now():%H:%M:%S} xc-parsl: {m}", flush=True)


@bash_app
def train_rank(rank, world, port, args, stdout=None, stderr=None):
    import shlex
    return (f"RANK={rank} LOCAL_RANK={rank} WORLD_SIZE={world} MASTER_ADDR=127.0.0.1 MASTER_PORT={port} "
            f"/home/user/venv/bin/python xc_train.py " + " ".join(shlex.quote(x) for x in args))


@bash_app
def summary(inputs=(), stdout=None, stderr=None):
    return "grep -h -e 'final eval' -e 'done:' logs/train-r*.out"


parsl.load(Config(executors=[ThreadPoolExecutor(max_threads=world, label="ranks")], run_dir="runinfo",
                  retries=0))
futs = [train_rank(r, world, port, argv, stdout=f"logs/train-r{r}.out", stderr=f"logs/train-r{r}.err")
        for r in range(world)]
say(f"submitted {world} rank apps")
ok = True
for r, f in enumerate(futs):
    try:
        say(f"rank {r}: app exited {f.result()}")
    except Exception as e:
        ok = False; say(f"rank {r}: app failed: {e!r}")
if ok:
    s = summary(inputs=futs, stdout="logs/summary.out", stderr="logs/summary.err")
    say(f"summary app exited {s.result()}")
parsl.dfk().cleanup()
say("workflow finished" if ok else "workflow failed")
sys.exit(0 if ok else 1)
