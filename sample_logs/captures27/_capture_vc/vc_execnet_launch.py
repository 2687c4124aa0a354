"""vc_execnet_launch.py: site launcher built on execnet. One `popen` gateway per rank (a fresh interpreter talking
execnet's protocol over its stdin/stdout), the trainer run in the gateway by remote_exec with a logging handler that
sends every formatted record back over the channel; the launcher writes them, with its own stamp and the gateway id,
into one job log. Per-rank argument overrides come from a JSON host table. A RemoteError (the rank's traceback) is
written to the job log too; the other gateways are then exit()ed after a grace period."""
import argparse, json, sys, threading, time, datetime
import execnet

REMOTE = r'''
import logging, os, sys, traceback
env, argv, fmt = channel.receive()
os.environ.update(env)
os.makedirs("logs", exist_ok=True)
_err = os.open("logs/gw%s.stderr" % env["RANK"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
os.dup2(_err, 2)
sys.path.insert(0, os.getcwd())
class ChannelHandler(logging.Handler):
    def emit(self, record):
        try:
            channel.send(("log", self.format(record)))
        except Exception:
            pass
h = ChannelHandler(); h.setFormatter(logging.Formatter(fmt))
import vc_train
try:
    vc_train.main(argv, h)
    channel.send(("exit", 0))
except SystemExit as e:
    channel.send(("exit", e.code))
'''


def stamp():
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--hosts", required=True); p.add_argument("--port", type=int, required=True)
    p.add_argument("--log", default="logs/execnet-job.log"); p.add_argument("--python", default=sys.executable)
    p.add_argument("--grace", type=float, default=15)
    p.add_argument("argv", nargs=argparse.REMAINDER)
    o = p.parse_args()
    table = json.load(open(o.hosts))
    world = len(table["ranks"])
    import os; os.makedirs(os.path.dirname(o.log) or ".", exist_ok=True)
    out = open(o.log, "a", buffering=1)
    lock = threading.Lock()

    def w(tag, line):
        with lock:
            for l in str(line).splitlines():
                out.write(f"{stamp()} [{tag}] {l}\n")

    w("launcher", f"execnet {execnet.__version__}: starting {world} gateways, master 127.0.0.1:{o.port}")
    gws, done, threads = [], {}, []
    ev = threading.Event()

    def pump(r, gw, ch):
        try:
            while True:
                kind, val = ch.receive()
                if kind == "log":
                    w(gw.id, val)
                else:
                    w("launcher", f"{gw.id} (rank {r}) finished with exit code {val}")
                    done[r] = val; break
        except execnet.RemoteError as e:
            w(gw.id, f"execnet.RemoteError from rank {r}:")
            w(gw.id, e.formatted)
            done[r] = "RemoteError"
        except (EOFError, OSError) as e:
            done.setdefault(r, f"channel lost: {e!r}")
        ev.set()

    argv = o.argv[1:] if o.argv[:1] == ["--"] else o.argv
    for ent in table["ranks"]:
        r = ent["rank"]
        gw = execnet.makegateway(f"popen//python={o.python}//id=gw{r}")
        gws.append(gw)
        w("launcher", f"gateway {gw.id} up (pid {gw._rinfo().pid}, {gw._rinfo().executable})")
        ch = gw.remote_exec(REMOTE)
        env = {"RANK": str(r), "WORLD_SIZE": str(world), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(o.port),
               "LOCAL_RANK": str(r)}
        args = argv + ent.get("args", [])
        if ent.get("args"):
            w("launcher", f"rank {r}: host-table overrides {' '.join(ent['args'])}")
        ch.send((env, args, table["fmt"].replace("{rank}", str(r)).replace("{world}", str(world))))
        t = threading.Thread(target=pump, args=(r, gw, ch), daemon=True); t.start(); threads.append(t)
    first_fail = t_fail = None
    while len(done) < world:
        ev.wait(1); ev.clear()
        bad = [r for r, v in done.items() if v not in (0, None)]
        if bad and first_fail is None:
            first_fail = bad[0]; t_fail = time.time()
            w("launcher", f"rank {first_fail} failed ({done[first_fail]}); waiting up to {o.grace:.0f}s for the others")
        if t_fail and time.time() - t_fail > o.grace:
            for r in range(world):
                if r not in done:
                    w("launcher", f"terminating gateway gw{r} (rank {r})")
                    done[r] = "terminated"
            break
    for gw in gws:
        try:
            gw.exit()
        except Exception as e:
            w("launcher", f"gateway {gw.id} exit: {e!r}")
    execnet.default_group.terminate(timeout=5)
    rc = 0 if all(v in (0, None) for v in done.values()) else 1
    w("launcher", f"job {'completed' if rc == 0 else 'FAILED'}: " + ", ".join(f"rank {r}={done[r]}" for r in sorted(done)))
    sys.exit(rc)


if __name__ == "__main__":
    main()
