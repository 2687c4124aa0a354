"""qc_pipe_launch.py: site launcher. Each env:// rank is started with subprocess.Popen, stdout to out/rank<R>.txt and
stderr to a pipe that the launcher collects with communicate() after the rank ends (to print a per-rank stderr
report into launcher.log at the end)."""
import os, subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
L = open("launcher.log", "a", buffering=1)
def say(m): L.write(f"{time.strftime('%F %T')} launcher: {m}\n")
procs = []
for r in range(n):
    env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(n), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1", MASTER_PORT="29888")
    p = subprocess.Popen(cmd, env=env, stdout=open(f"out/rank{r}.txt", "w"), stderr=subprocess.PIPE, text=True)
    procs.append(p); say(f"rank {r} started pid {p.pid}")
rcs = []
for r, p in enumerate(procs):
    _, err = p.communicate()
    rcs.append(p.returncode); say(f"rank {r} pid {p.pid} exited {p.returncode}; stderr follows ({len(err.splitlines())} lines)")
    for line in err.splitlines()[-40:]:
        L.write(f"  rank{r} stderr| {line}\n")
say("job " + ("OK" if not any(rcs) else f"FAILED (return codes {rcs})"))
sys.exit(1 if any(rcs) else 0)
