"""Emulates `srun --label` (`srun -l`) for a single-node, 4-task job step.

Slurm cannot run on the capture machine, so this wrapper does what srun does
for the parts that matter to log analysis, and nothing more:
  * it starts NTASKS copies of the command at once, each with the environment
    a Slurm job script would map from SLURM_PROCID / SLURM_NTASKS / SLURM_LOCALID
    (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT, and the SLURM_* vars);
  * it merges each task's stdout and stderr (as `sbatch` does into slurm-<jobid>.out)
    and writes every line of task N, as it arrives, prefixed "N: " (srun's label;
    the padding for >= 10 tasks is not emulated: only 4 tasks here);
  * stdout/stderr of the tasks are pipes, as under srun, so Python's stdout is
    block-buffered unless the program flushes.
It prints no srun/slurmstepd messages of its own: those would be invented text.

usage: python srun_label.py --ntasks 4 --port 29571 -- python train.py ...
"""
import argparse
import os
import subprocess
import sys
import threading


def pump(task, stream, out, lock):
    # read raw lines (split on b"\n" only, like srun; "\r" stays inside a line)
    for line in iter(stream.readline, b""):
        with lock:
            out.write(f"{task}: ".encode() + line)
            out.flush()
    stream.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ntasks", type=int, default=4)
    p.add_argument("--port", type=int, default=29571)
    p.add_argument("--jobid", default="4242")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    out = sys.stdout.buffer
    lock = threading.Lock()
    procs, threads = [], []
    for task in range(a.ntasks):
        env = dict(os.environ)
        env.update(
            SLURM_JOB_ID=a.jobid, SLURM_PROCID=str(task), SLURM_LOCALID=str(task),
            SLURM_NTASKS=str(a.ntasks), SLURM_NODEID="0",
            RANK=str(task), LOCAL_RANK=str(task), WORLD_SIZE=str(a.ntasks),
            LOCAL_WORLD_SIZE=str(a.ntasks),
            MASTER_ADDR="127.0.0.1", MASTER_PORT=str(a.port),
        )
        pr = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        procs.append(pr)
        t = threading.Thread(target=pump, args=(task, pr.stdout, out, lock))
        t.start()
        threads.append(t)
    rcs = [pr.wait() for pr in procs]
    for t in threads:
        t.join()
    # exit status of the step, as srun: non-zero if any task failed
    sys.exit(max((rc if rc >= 0 else 128 - rc) for rc in rcs))


if __name__ == "__main__":
    main()
