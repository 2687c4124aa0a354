"""oc_asyncio_launch.py WORLD PORT -- CMD...: the lab's small asyncio launcher. Starts WORLD copies of CMD with
RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT set, prefixes every line they print with a timestamp and `[wR]`, and
when a worker fails, gives the others GRACE seconds and then SIGTERMs them."""
import asyncio, os, signal, sys, time

GRACE = 20.0


def stamp():
    t = time.time()
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"


def out(tag, line):
    sys.stdout.write(f"{stamp()} [{tag}] {line}\n")
    sys.stdout.flush()


async def pump(tag, stream):
    while True:
        b = await stream.readline()
        if not b:
            return
        out(tag, b.decode(errors="replace").rstrip("\n"))


def describe(rc):
    if rc < 0:
        return f"killed by {signal.Signals(-rc).name} ({rc})"
    return f"exit code {rc}"


async def main():
    world, port = int(sys.argv[1]), sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    procs = []
    out("launcher", f"starting {world} workers: {' '.join(cmd)} (master 127.0.0.1:{port})")
    for r in range(world):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port)
        p = await asyncio.create_subprocess_exec(*cmd, env=env, stdout=asyncio.subprocess.PIPE,
                                                 stderr=asyncio.subprocess.PIPE)
        out("launcher", f"w{r} pid {p.pid}")
        procs.append(p)
    pumps = [asyncio.create_task(pump(f"w{r}", s)) for r, p in enumerate(procs) for s in (p.stdout, p.stderr)]
    waits = {asyncio.create_task(p.wait()): r for r, p in enumerate(procs)}
    failed, pending = None, set(waits)
    while pending:
        done, pending = await asyncio.wait(pending, timeout=None if failed is None else GRACE,
                                           return_when=asyncio.FIRST_COMPLETED)
        if not done:
            for t in pending:
                r = waits[t]
                out("launcher", f"w{r} still running {GRACE:.0f}s after w{failed} failed: sending SIGTERM to pid "
                                f"{procs[r].pid}")
                procs[r].send_signal(signal.SIGTERM)
            done, pending = await asyncio.wait(pending)
        for t in done:
            r = waits[t]
            rc = t.result()
            out("launcher", f"w{r} (pid {procs[r].pid}) finished: {describe(rc)}")
            if rc != 0 and failed is None:
                failed = r
    await asyncio.gather(*pumps)
    rcs = [p.returncode for p in procs]
    out("launcher", f"all workers done; exit codes {rcs}; first failure: {'none' if failed is None else 'w%d' % failed}")
    return 1 if failed is not None else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
