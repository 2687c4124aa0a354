"""tc_joblib_launch.py: in-house launcher on joblib's loky process pool. One task per rank runs tc_train.main()
inside a loky worker (env:// variables set in the worker, rank log to logs/rank<R>.log, pid to run/rank<R>.pid).
A stall watchdog thread in the launcher watches the rank logs; when none has grown for --stall seconds it runs
`py-spy dump` on every rank (stacks/rank<R>.txt) and notes it in its own output."""
import argparse, glob, os, subprocess, sys, threading, time
from joblib import Parallel, delayed

ap = argparse.ArgumentParser(); ap.add_argument("--nproc", type=int, default=3); ap.add_argument("--port", default="29786")
ap.add_argument("--stall", type=float, default=20); ap.add_argument("train_args", nargs=argparse.REMAINDER)
a = ap.parse_args()
targs = a.train_args[1:] if a.train_args[:1] == ["--"] else a.train_args


def say(msg): print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [launch] {msg}", flush=True)


def run_rank(rank, world, port, argv):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=port)
    os.makedirs("run", exist_ok=True)
    with open(f"run/rank{rank}.pid", "w") as f: f.write(str(os.getpid()))
    sys.argv = ["tc_train.py"] + argv
    import tc_train
    tc_train.main(argv)
    return rank, os.getpid()


def watchdog(stop):
    dumped = False
    while not stop.wait(2):
        logs = glob.glob("logs/rank*.log")
        if len(logs) < a.nproc or dumped: continue
        age = time.time() - max(os.path.getmtime(p) for p in logs)
        if age < a.stall: continue
        say(f"watchdog: no rank log has grown for {age:.0f}s; dumping Python stacks with py-spy")
        os.makedirs("stacks", exist_ok=True)
        for r in range(a.nproc):
            pid = open(f"run/rank{r}.pid").read().strip()
            with open(f"stacks/rank{r}.txt", "w") as out:
                rc = subprocess.call(["py-spy", "dump", "--pid", pid], stdout=out, stderr=subprocess.STDOUT, timeout=30)
            say(f"watchdog: rank {r} (pid {pid}) stack -> stacks/rank{r}.txt (py-spy exit {rc})")
        dumped = True


say(f"launching {a.nproc} ranks on joblib/loky, MASTER_PORT={a.port}: tc_train.py {' '.join(targs)}")
stop = threading.Event(); th = threading.Thread(target=watchdog, args=(stop,), daemon=True); th.start()
try:
    res = Parallel(n_jobs=a.nproc, backend="loky", verbose=10)(
        delayed(run_rank)(r, a.nproc, a.port, targs) for r in range(a.nproc))
    say(f"all ranks finished: {res}")
except Exception as e:
    say(f"job failed: {type(e).__name__}: {e}")
    raise
finally:
    stop.set()
