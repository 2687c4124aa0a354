"""rc_sel_launch.py: site launcher that multiplexes the ranks' stdout/stderr pipes with `selectors` and writes ONE
JSON-lines file (job.jsonl): {"ts", "src": "rank<R>"|"launcher", "stream": "stdout"|"stderr"|"event", "line"}.
Per-rank resource limits come from limits.conf (`<rank> as_gb=<N>`, applied with resource.setrlimit in preexec_fn)."""
import json, os, resource, selectors, signal, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
out = open("job.jsonl", "a", buffering=1)
def rec(src, stream, line): out.write(json.dumps({"ts": round(time.time(), 3), "src": src, "stream": stream, "line": line}) + "\n")
lim = {}
if os.path.exists("limits.conf"):
    for ln in open("limits.conf"):
        f = ln.split("#")[0].split()
        if f: lim[int(f[0])] = dict(kv.split("=") for kv in f[1:])
sel = selectors.DefaultSelector(); procs = {}
for r in range(n):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(n), MASTER_ADDR="127.0.0.1", MASTER_PORT="29691")
    as_gb = float(lim.get(r, {}).get("as_gb", 0))
    def pre(g=as_gb):
        if g: resource.setrlimit(resource.RLIMIT_AS, (int(g * (1 << 30)),) * 2)
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=pre)
    procs[r] = p
    rec("launcher", "event", f"started rank {r} pid {p.pid}" + (f" (RLIMIT_AS {as_gb:g} GiB)" if as_gb else ""))
    sel.register(p.stdout, selectors.EVENT_READ, (r, "stdout")); sel.register(p.stderr, selectors.EVENT_READ, (r, "stderr"))
open_pipes, failed, done = 2 * n, None, set()
while open_pipes:
    for key, _ in sel.select(timeout=0.5):
        r, stream = key.data; raw = key.fileobj.readline()
        if not raw:
            sel.unregister(key.fileobj); open_pipes -= 1; continue
        rec(f"rank{r}", stream, raw.decode("utf-8", "replace").rstrip("\n"))
    for r, p in procs.items():
        if r not in done and p.poll() is not None:
            done.add(r); rec("launcher", "event", f"rank {r} pid {p.pid} exited with {p.returncode}")
            if p.returncode != 0 and failed is None:
                failed = r; rec("launcher", "event", f"rank {r} failed; SIGTERM to the other ranks")
                for q in procs.values():
                    if q.poll() is None: q.send_signal(signal.SIGTERM)
for r, p in procs.items():
    p.wait()
    if r not in done: rec("launcher", "event", f"rank {r} pid {p.pid} exited with {p.returncode}")
rec("launcher", "event", "job " + (f"FAILED (first failure rank {failed})" if failed is not None else "finished"))
sys.exit(1 if failed is not None else 0)
