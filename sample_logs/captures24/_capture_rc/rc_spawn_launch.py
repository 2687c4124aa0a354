"""rc_spawn_launch.py: site launcher. Reads a slot table (slots.conf: one line per process, `slot VAR=VALUE ...`),
starts every slot with os.posix_spawn (file_actions open the slot's spawn/<slot>.out on fd 1 and dup2 it onto fd 2),
and waits with os.waitpid; its own lines go to stdout. On the first failure it SIGTERMs the remaining slots."""
import os, signal, sys, time
conf, cmd = sys.argv[1], sys.argv[2:]
def say(m): print(f"{time.strftime('%H:%M:%S')} spawn-launch: {m}", flush=True)
os.makedirs("spawn", exist_ok=True)
slots = []
for ln in open(conf):
    ln = ln.split("#")[0].split()
    if ln: slots.append((ln[0], dict(kv.split("=", 1) for kv in ln[1:])))
kids = {}
for name, kv in slots:
    env = dict(os.environ, **kv)
    fa = [(os.POSIX_SPAWN_OPEN, 1, f"spawn/{name}.out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
          (os.POSIX_SPAWN_DUP2, 1, 2)]
    pid = os.posix_spawnp(cmd[0], cmd, env, file_actions=fa)
    kids[pid] = name; say(f"slot {name}: pid {pid} " + " ".join(f"{k}={v}" for k, v in kv.items()))
failed = None
while kids:
    pid, st = os.waitpid(-1, 0); name = kids.pop(pid); code = os.waitstatus_to_exitcode(st)
    say(f"slot {name}: pid {pid} exited, code {code}")
    if code != 0 and failed is None:
        failed = name; say(f"slot {name} failed; terminating {len(kids)} other slot(s)")
        for p in kids: os.kill(p, signal.SIGTERM)
say("job " + ("FAILED (first failed slot: %s)" % failed if failed else "completed, all slots exit 0"))
sys.exit(1 if failed else 0)
