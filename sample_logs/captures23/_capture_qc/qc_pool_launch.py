"""qc_pool_launch.py: launcher using concurrent.futures.ThreadPoolExecutor: one thread per rank runs the rank as a
subprocess (env:// variables set per rank, output to /dev/null: the ranks log to their own files) and reports its
return code; the launcher's own log goes to launcher.log."""
import concurrent.futures as cf, logging, os, subprocess, sys

logging.basicConfig(filename="launcher.log", level=logging.INFO,
                    format="%(asctime)s %(threadName)s %(levelname)s %(message)s")
lg = logging.getLogger("pool")
n = int(sys.argv[1]); cmd = sys.argv[2:]

def run(r):
    env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(n), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1", MASTER_PORT="29833")
    lg.info("rank %d: exec %s", r, " ".join(cmd))
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(f"logs/rank{r}.stderr", "w"))
    lg.info("rank %d: pid %d", r, p.pid)
    rc = p.wait(); lg.log(logging.INFO if rc == 0 else logging.ERROR, "rank %d: pid %d exited rc=%d", r, p.pid, rc)
    return rc

with cf.ThreadPoolExecutor(max_workers=n, thread_name_prefix="rank") as ex:
    futs = {ex.submit(run, r): r for r in range(n)}
    rcs = {futs[f]: f.result() for f in cf.as_completed(futs)}
bad = sorted(r for r, c in rcs.items() if c)
lg.info("summary: %s", ", ".join(f"rank{r}={rcs[r]}" for r in sorted(rcs)))
if bad:
    lg.error("job failed: ranks %s returned non-zero", bad); sys.exit(1)
lg.info("job ok")
