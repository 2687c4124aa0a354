"""vc_spawn_launch.py: minimal site launcher on os.spawnvpe(P_NOWAIT): every env:// rank inherits the launcher's
stdout/stderr (one raw interleaved console, no prefixes); reaps with os.waitpid(-1); on the first failure it waits a
grace period, then SIGTERMs the rest. Prints `launch: ...` lines."""
import os, signal, sys, time
nproc, port, grace = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
cmd = sys.argv[5:] if sys.argv[4] == "--" else sys.argv[4:]
pids = {}
for r in range(nproc):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(nproc), MASTER_ADDR="127.0.0.1",
               MASTER_PORT=port)
    pids[os.spawnvpe(os.P_NOWAIT, cmd[0], cmd, env)] = r
    print(f"launch: rank {r} pid {list(pids)[-1]}", flush=True)
codes, t_fail = {}, None
while len(codes) < nproc:
    if t_fail and time.time() - t_fail > grace:
        for pid, r in pids.items():
            if r not in codes:
                print(f"launch: grace period over, SIGTERM to rank {r} pid {pid}", flush=True)
                os.kill(pid, signal.SIGTERM)
        t_fail = float("inf")
    pid, st = os.waitpid(-1, os.WNOHANG)
    if pid == 0:
        time.sleep(0.2); continue
    r = pids[pid]; codes[r] = os.waitstatus_to_exitcode(st)
    print(f"launch: rank {r} pid {pid} exited {codes[r]}", flush=True)
    if codes[r] != 0 and t_fail is None:
        t_fail = time.time()
print(f"launch: done, exit codes {[codes[r] for r in range(nproc)]}", flush=True)
sys.exit(0 if all(c == 0 for c in codes.values()) else 1)
