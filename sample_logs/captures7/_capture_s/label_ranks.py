#!/usr/bin/env python3
"""label_ranks.py -n N -- CMD...: an `srun --label` look-alike for one node.

Starts N copies of CMD with RANK, LOCAL_RANK, WORLD_SIZE, SLURM_PROCID, SLURM_NTASKS set (MASTER_ADDR /
MASTER_PORT come from the caller's env), reads each task's stdout+stderr (merged per task, through a
pipe) and writes every line to our stdout as '<task>: <line>' in arrival order, as srun -l does.
Prints no line of its own; waits for every task (no kill-on-bad-exit); exits with the highest task
exit status (128+signal for a signalled task)."""
import os, subprocess, sys, threading

n = int(sys.argv[2]); cmd = sys.argv[4:]
lock = threading.Lock()
out = sys.stdout.buffer


def pump(i, pipe):
    for line in iter(pipe.readline, b""):
        with lock:
            out.write(f"{i}: ".encode() + line if line.endswith(b"\n") else f"{i}: ".encode() + line + b"\n")
            out.flush()


procs, threads = [], []
for i in range(n):
    env = dict(os.environ, RANK=str(i), LOCAL_RANK=str(i), WORLD_SIZE=str(n), SLURM_PROCID=str(i),
               SLURM_NTASKS=str(n), SLURM_LOCALID=str(i))
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    t = threading.Thread(target=pump, args=(i, p.stdout)); t.start()
    procs.append(p); threads.append(t)
codes = [p.wait() for p in procs]
for t in threads:
    t.join()
sys.exit(max((c if c >= 0 else 128 - c) for c in codes))
