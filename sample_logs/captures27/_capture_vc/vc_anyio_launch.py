"""vc_anyio_launch.py: site launcher on anyio (structured concurrency): one anyio.open_process per env:// rank in a
task group; each rank's stdout and stderr go to files under stdio/ (the ranks' logging goes elsewhere, e.g. a zmq
PUBHandler); when a rank exits non-zero the task group's scope is cancelled after a grace period, which terminates
the remaining ranks (SIGTERM). Launcher records in launcher.log."""
import argparse, logging, os, sys, time
import anyio

log = logging.getLogger("anyio-launch")


async def run_rank(r, world, port, cmd, state, tg):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(port))
    os.makedirs("stdio", exist_ok=True)
    with open(f"stdio/rank{r}.out", "ab") as out, open(f"stdio/rank{r}.err", "ab") as err:
        proc = await anyio.open_process(cmd, stdout=out, stderr=err, env=env)
        log.info("rank %d started: pid %d", r, proc.pid)
        try:
            rc = await proc.wait()
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                log.warning("rank %d (pid %d): cancelled, sending SIGTERM", r, proc.pid)
                proc.terminate()
                with anyio.move_on_after(10):
                    await proc.wait()
                if proc.returncode is None:
                    proc.kill(); await proc.wait()
                log.warning("rank %d (pid %d): returncode %s after cancel", r, proc.pid, proc.returncode)
            raise
    log.log(logging.INFO if rc == 0 else logging.ERROR, "rank %d (pid %d) exited with returncode %d", r, proc.pid, rc)
    state[r] = rc
    if rc != 0 and "failed" not in state:
        state["failed"] = r
        log.error("rank %d failed; cancelling the job in %.0fs", r, state["grace"])
        await anyio.sleep(state["grace"])
        tg.cancel_scope.cancel()


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nproc", type=int, default=3); p.add_argument("--port", type=int, required=True)
    p.add_argument("--grace", type=float, default=10); p.add_argument("cmd", nargs=argparse.REMAINDER)
    o = p.parse_args()
    cmd = o.cmd[1:] if o.cmd[:1] == ["--"] else o.cmd
    state = {"grace": o.grace}
    log.info("launching %d ranks: %s", o.nproc, " ".join(cmd))
    async with anyio.create_task_group() as tg:
        for r in range(o.nproc):
            tg.start_soon(run_rank, r, o.nproc, o.port, cmd, state, tg)
    codes = [state.get(r) for r in range(o.nproc)]
    log.info("job finished: returncodes %s", codes)
    return 0 if all(c == 0 for c in codes) else 1


if __name__ == "__main__":
    logging.basicConfig(filename="launcher.log", level=logging.INFO,
                        format="%(asctime)s.%(msecs)03d %(name)s[%(process)d] %(levelname)s: %(message)s",
                        datefmt="%b %d %H:%M:%S")
    sys.exit(anyio.run(main))
