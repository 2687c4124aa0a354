"""qc_popen_launch.py: site launcher. Starts N env:// ranks with subprocess.Popen under `stdbuf -oL`, one reader
thread per child that prefixes every line with [host:rank] and writes it to the launcher's stdout; waits for all,
terminates the rest when one fails."""
import os, socket, subprocess, sys, threading, time

n = int(sys.argv[1]); cmd = sys.argv[2:]
host = socket.gethostname(); lock = threading.Lock()
def say(msg):
    with lock:
        sys.stdout.write(f"[launcher {time.strftime('%H:%M:%S')}] {msg}\n"); sys.stdout.flush()

def pump(r, pipe):
    for raw in iter(pipe.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            sys.stdout.write(f"[{host}:{r}] {line}\n"); sys.stdout.flush()

procs, threads = [], []
for r in range(n):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(n), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=os.environ.get("MASTER_PORT", "29811"))
    p = subprocess.Popen(["stdbuf", "-oL", "-eL"] + cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    say(f"started rank {r} pid {p.pid}: {' '.join(cmd)}")
    t = threading.Thread(target=pump, args=(r, p.stdout), name=f"pump-{r}", daemon=True); t.start()
    procs.append(p); threads.append(t)
failed = None
while True:
    alive = 0
    for r, p in enumerate(procs):
        rc = p.poll()
        if rc is None: alive += 1
        elif rc != 0 and failed is None:
            failed = (r, rc); say(f"rank {r} (pid {p.pid}) exited with code {rc}; terminating the other ranks")
            for q in procs:
                if q.poll() is None: q.terminate()
    if not alive: break
    time.sleep(0.2)
for t in threads: t.join(timeout=5)
for r, p in enumerate(procs): say(f"rank {r} pid {p.pid} returncode {p.returncode}")
if failed:
    say(f"job FAILED (first failure: rank {failed[0]}, code {failed[1]})"); sys.exit(1)
say("job finished OK")
