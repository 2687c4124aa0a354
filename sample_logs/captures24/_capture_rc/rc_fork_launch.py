"""rc_fork_launch.py: site launcher CLI (argparse). Forks one child per rank with os.fork; each child points fd 1
and 2 at <logdir>/rank<R>.log with os.dup2 and execs the trainer with env:// variables. The parent writes its own
lines to stdout, reaps children with os.waitpid and SIGTERMs the rest when one fails."""
import argparse, os, signal, sys, time
ap = argparse.ArgumentParser(prog="rc-launch")
ap.add_argument("--nproc", type=int, required=True); ap.add_argument("--logdir", default="logs")
ap.add_argument("--master-port", default="29841"); ap.add_argument("cmd", nargs=argparse.REMAINDER)
a = ap.parse_args(); cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
os.makedirs(a.logdir, exist_ok=True)
def say(m): print(f"rc-launch {time.strftime('%Y-%m-%d %H:%M:%S')} {m}", flush=True)
kids = {}
for r in range(a.nproc):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.path.join(a.logdir, f"rank{r}.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1); os.dup2(fd, 2); os.close(fd)
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(a.nproc), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=a.master_port)
        os.execvpe(cmd[0], cmd, env)
    kids[pid] = r; say(f"forked rank {r} as pid {pid} -> {a.logdir}/rank{r}.log")
failed = None
while kids:
    pid, st = os.waitpid(-1, 0); r = kids.pop(pid)
    if os.WIFSIGNALED(st): desc, bad = f"killed by signal {os.WTERMSIG(st)}", True
    else: desc, bad = f"exit status {os.WEXITSTATUS(st)}", os.WEXITSTATUS(st) != 0
    say(f"rank {r} (pid {pid}) {desc}")
    if bad and failed is None:
        failed = r; say(f"rank {r} failed; sending SIGTERM to {len(kids)} remaining rank(s)")
        for p in kids: os.kill(p, signal.SIGTERM)
say("all ranks reaped; job " + ("FAILED" if failed is not None else "succeeded"))
sys.exit(1 if failed is not None else 0)
