"""vc_podrun.py SPEC.json: a kubelet-like single-host pod runner for a PyTorchJob-shaped job (one master pod, N
worker pods). Each pod: its own UTS namespace (hostname = pod name, via `unshare --uts`), a cgroup-v1 memory cgroup
with the pod's limit, the container command with the spec's env. Container stdout/stderr are written in the CRI
(containerd) log format to pods/<namespace>_<pod>_<uid>/<container>/0.log: `<RFC3339Nano UTC> <stream> <F|P> <line>`.
Pod lifecycle events (Scheduled, Started, OOMKilled, Completed, Error, BackOff-free: restartPolicy Never) go to
events.log. After every pod ended, a `kubectl get pods`-style table goes to pods.txt."""
import datetime, json, os, subprocess, sys, threading, time, uuid

spec = json.load(open(sys.argv[1]))
ns = spec.get("namespace", "default")
CG = "/sys/fs/cgroup/memory/kubepods"
os.makedirs(CG, exist_ok=True)
ev_lock = threading.Lock()


def now_cri():
    t = time.time_ns()
    return datetime.datetime.fromtimestamp(t // 10**9, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + \
        f".{t % 10**9:09d}Z"


def event(typ, reason, pod, message):
    with ev_lock, open("events.log", "a") as f:
        f.write(f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}\t{typ}\t{reason}\t"
                f"pod/{pod}\t{message}\n")


def parse_mem(s):
    units = {"Ki": 1024, "Mi": 1024**2, "Gi": 1024**3}
    for u, m in units.items():
        if s.endswith(u):
            return int(float(s[:-2]) * m)
    return int(s)


def pump(stream, name, out, lock):
    buf = b""
    while True:
        chunk = stream.read1(16384) if hasattr(stream, "read1") else stream.read(16384)
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            with lock:
                out.write(f"{now_cri()} {name} F ".encode() + line + b"\n"); out.flush()
    if buf:
        with lock:
            out.write(f"{now_cri()} {name} P ".encode() + buf + b"\n"); out.flush()


results = {}


def run_pod(p):
    name, cname = p["name"], p.get("container", "pytorch")
    uid = str(uuid.uuid4())
    d = f"pods/{ns}_{name}_{uid}/{cname}"; os.makedirs(d, exist_ok=True)
    cg = f"{CG}/pod{uid}"; os.makedirs(cg, exist_ok=True)
    lim = parse_mem(p["resources"]["limits"]["memory"])
    open(f"{cg}/memory.limit_in_bytes", "w").write(str(lim))
    event("Normal", "Scheduled", name, f"Successfully assigned {ns}/{name} to {os.uname().nodename}")
    time.sleep(p.get("startDelaySeconds", 0))
    env = dict(os.environ); env.update({k: str(v) for k, v in p.get("env", {}).items()}); env["HOSTNAME"] = name
    cmd = ["unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', name] + p["command"]
    out = open(f"{d}/0.log", "ab"); lock = threading.Lock()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: open(f"{cg}/cgroup.procs", "w").write(str(os.getpid())))
    event("Normal", "Started", name, f"Started container {cname} (pid {proc.pid}, memory limit {p['resources']['limits']['memory']})")
    ts = [threading.Thread(target=pump, args=(proc.stdout, "stdout", out, lock)),
          threading.Thread(target=pump, args=(proc.stderr, "stderr", out, lock))]
    [t.start() for t in ts]
    rc = proc.wait(); [t.join() for t in ts]
    oom = int(open(f"{cg}/memory.failcnt").read()) > 0 and rc == -9
    code = 128 - rc if rc < 0 else rc
    if oom:
        reason = "OOMKilled"
        event("Warning", "OOMKilled", name, f"Container {cname} was OOM-killed: memory limit "
              f"{p['resources']['limits']['memory']} reached (max usage {int(open(f'{cg}/memory.max_usage_in_bytes').read())} bytes), exit code {code}")
    elif code == 0:
        reason = "Completed"; event("Normal", "Completed", name, f"Container {cname} exited with code 0")
    else:
        reason = "Error"; event("Warning", "Error", name, f"Container {cname} terminated with exit code {code}")
    results[name] = (reason, code)


ths = [threading.Thread(target=run_pod, args=(p,)) for p in spec["pods"]]
[t.start() for t in ths]; [t.join() for t in ths]
with open("pods.txt", "w") as f:
    f.write(f"{'NAME':<24}{'READY':<8}{'STATUS':<12}{'EXIT':<6}\n")
    for p in spec["pods"]:
        r, c = results[p["name"]]
        f.write(f"{p['name']:<24}{'0/1':<8}{r:<12}{c:<6}\n")
sys.exit(0 if all(c == 0 for _, c in results.values()) else 1)
