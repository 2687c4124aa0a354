"""rc_pool_launch.py: site launcher on multiprocessing.Pool: one pool task per rank (maxtasksperchild=1), each task
loads its per-rank environment file (env/rank<R>.sh-style KEY=VALUE lines), sets RANK/WORLD_SIZE/MASTER_* and runs the
trainer in the pool worker with runpy; task results (ok / the exception text) are reported in completion order.
When a task fails the pool is terminated."""
import multiprocessing as mp, os, runpy, sys, time, traceback
N, script, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
def say(m): print(f"pool-launch[{time.strftime('%H:%M:%S')}] {m}", flush=True)
def task(r):
    os.environ.update(RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(N), MASTER_ADDR="127.0.0.1", MASTER_PORT="29655")
    envf = f"env/rank{r}.env"
    if os.path.exists(envf):
        for ln in open(envf):
            if "=" in ln and not ln.startswith("#"):
                k, v = ln.strip().split("=", 1); os.environ[k] = v
    sys.argv = [script] + args
    try:
        runpy.run_path(script, run_name="__main__"); return r, os.getpid(), None
    except BaseException as e:
        return r, os.getpid(), "".join(traceback.format_exception_only(type(e), e)).strip()
if __name__ == "__main__":
    mp.set_start_method("fork")
    pool = mp.Pool(N, maxtasksperchild=1); say(f"pool of {N} workers up, submitting {N} rank tasks: {script} {' '.join(args)}")
    failed = None
    for r, pid, err in pool.imap_unordered(task, range(N)):
        if err is None: say(f"rank {r} (worker pid {pid}) finished OK")
        else:
            say(f"rank {r} (worker pid {pid}) raised: {err.splitlines()[-1]}"); failed = r
            say("terminating the pool"); pool.terminate(); break
    else:
        pool.close()
    pool.join(); say("job " + (f"FAILED (rank {failed})" if failed is not None else "finished")); sys.exit(1 if failed is not None else 0)
