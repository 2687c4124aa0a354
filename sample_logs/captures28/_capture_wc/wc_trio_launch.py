"""wc_trio_launch.py --nproc N --port P [--grace S] -- CMD...: site launcher on trio. One nursery task per env://
rank runs CMD with trio.run_process (stdout+stderr to stdio/rank<R>.log); a watcher cancels the remaining ranks
(SIGTERM, then SIGKILL after --grace s) once one rank exits non-zero. Launcher records go to launcher.log
(`YYYY-mm-ddTHH:MM:SS.ffffff launcher[pid] LEVEL msg`)."""
import argparse, datetime, logging, os, signal, sys
import trio

p = argparse.ArgumentParser(); p.add_argument("--nproc", type=int, default=3); p.add_argument("--port", type=int)
p.add_argument("--grace", type=float, default=10); p.add_argument("cmd", nargs=argparse.REMAINDER)
a = p.parse_args(); cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd


class F(logging.Formatter):
    def formatTime(self, r, datefmt=None):
        return datetime.datetime.fromtimestamp(r.created).isoformat(timespec="microseconds")


h = logging.FileHandler("launcher.log"); h.setFormatter(F(f"%(asctime)s launcher[{os.getpid()}] %(levelname)s %(message)s"))
log = logging.getLogger("launch"); log.addHandler(h); log.setLevel(logging.INFO)
os.makedirs("stdio", exist_ok=True)
procs, codes = {}, {}


async def rank(r, failed):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(a.nproc), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(a.port))
    with open(f"stdio/rank{r}.log", "wb") as out:
        proc = await trio.lowlevel.open_process(cmd, env=env, stdout=out, stderr=out)
    procs[r] = proc
    log.info("rank %d started pid %d: %s", r, proc.pid, " ".join(cmd))
    rc = await proc.wait()
    codes[r] = rc
    how = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
    (log.info if rc == 0 else log.error)("rank %d (pid %d) ended: %s", r, proc.pid, how)
    if rc != 0:
        failed.set()


async def reaper(failed, nursery):
    await failed.wait()
    left = [r for r, pr in procs.items() if pr.returncode is None]
    if not left:
        return
    log.warning("a rank failed; terminating ranks %s", left)
    for r in left:
        procs[r].send_signal(signal.SIGTERM)
    with trio.move_on_after(a.grace):
        while any(procs[r].returncode is None for r in left):
            await trio.sleep(0.2)
    for r in left:
        if procs[r].returncode is None:
            log.warning("rank %d still alive after %.0fs, SIGKILL", r, a.grace); procs[r].kill()


async def main():
    log.info("job start: %d ranks, MASTER_PORT %d, trio %s", a.nproc, a.port, trio.__version__)
    failed = trio.Event()
    async with trio.open_nursery() as n:
        n.start_soon(reaper, failed, n)
        async with trio.open_nursery() as ranks:
            for r in range(a.nproc):
                ranks.start_soon(rank, r, failed)
        n.cancel_scope.cancel()
    bad = {r: c for r, c in sorted(codes.items()) if c}
    log.info("job end: %s", "all ranks exit 0" if not bad else f"failed ranks {bad}")
    return 1 if bad else 0

sys.exit(trio.run(main))
