"""vc_ctr.py run --name NAME --hostname HOST --shm-size SIZE [--env K=V ...] -- CMD...: a minimal container-ish
runner ("ctr"): the command runs in fresh UTS + PID + mount namespaces (unshare, its own /proc), with a private
/dev/shm tmpfs of --shm-size (docker's --shm-size; docker's default is 64m). stdout / stderr are written by the
runtime in docker's json-file log-driver format to containers/<id>/<id>-json.log ({"log": ..., "stream": ...,
"time": RFC3339Nano}); the runtime's own messages go to ctrd.log in logrus text format
(time="..." level=info msg="..." container=<id>)."""
import argparse, datetime, hashlib, json, os, subprocess, sys, threading, time

p = argparse.ArgumentParser(prog="ctr run"); p.add_argument("--name", required=True)
p.add_argument("--hostname", required=True); p.add_argument("--shm-size", default="64m")
p.add_argument("--env", action="append", default=[]); p.add_argument("cmd", nargs=argparse.REMAINDER)
assert sys.argv[1] == "run", "usage: vc_ctr.py run ..."
o = p.parse_args(sys.argv[2:])
cmd = o.cmd[1:] if o.cmd[:1] == ["--"] else o.cmd
cid = hashlib.sha256(f"{o.name}{time.time_ns()}".encode()).hexdigest()
d = f"containers/{cid}"; os.makedirs(d, exist_ok=True)
lock = threading.Lock()


def ts():
    t = time.time_ns()
    return datetime.datetime.fromtimestamp(t // 10**9, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + \
        f".{t % 10**9:09d}Z"


def ctrd(level, msg):
    with lock, open("ctrd.log", "a") as f:
        f.write(f'time="{datetime.datetime.now().astimezone().isoformat(timespec="microseconds")}" level={level} '
                f'msg="{msg}" container={cid[:12]}\n')


out = open(f"{d}/{cid}-json.log", "a")


def pump(stream, name):
    for raw in iter(stream.readline, b""):
        with lock:
            out.write(json.dumps({"log": raw.decode("utf-8", "replace"), "stream": name, "time": ts()}) + "\n")
            out.flush()


env = dict(os.environ, HOSTNAME=o.hostname)
env.update(dict(e.split("=", 1) for e in o.env))
inner = ('mount -t tmpfs -o size="$1",mode=1777 shm /dev/shm && hostname "$2" && shift 2 && exec "$@"')
full = ["unshare", "--uts", "--pid", "--fork", "--mount", "--mount-proc", "sh", "-c", inner, "ctr-init", o.shm_size,
        o.hostname] + cmd
ctrd("info", f"creating container {o.name} (hostname {o.hostname}, shm-size {o.shm_size})")
proc = subprocess.Popen(full, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ctrd("info", f"container {o.name} started, init pid {proc.pid}")
ths = [threading.Thread(target=pump, args=(proc.stdout, "stdout")), threading.Thread(target=pump, args=(proc.stderr, "stderr"))]
[t.start() for t in ths]
rc = proc.wait(); [t.join() for t in ths]
code = 128 - rc if rc < 0 else rc
ctrd("info" if code == 0 else "error", f"container {o.name} exited (exit code {code})")
sys.exit(code)
