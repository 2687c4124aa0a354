"""``correlator watch`` on real, live torchrun jobs (gloo on CPU): how soon does it speak?

Four small jobs (4 ranks, a tiny DDP model, ~0.5 s a step, a 300 s process-group
timeout), each followed live by ``correlator watch`` in its own process:

* ``stall``: rank 2 stalls in its data loading at step 20 (the others log step 20
  and wait for it in the backward all_reduce). Wanted: rank 2 named within 60 s of
  its last line, well before the 300 s timeout (the job is stopped once it is);
* ``exception``: rank 1 raises ``ValueError`` at step 15. Wanted: within 5 s;
* ``pause``: every rank writes a 60 s checkpoint at step 20, then goes on. Wanted: no alert;
* ``healthy``: 40 steps with a warning now and then. Wanted: no alert.

torch is not a dependency of correlator: the jobs run with ``--python`` (default
``/home/user/venv/bin/python``, whose ``torchrun`` module starts them); without torch
there, the bench says so and stops.

    python bench/watch_live.py                 # all four (about 4 minutes)
    python bench/watch_live.py --only stall exception
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TRAINER = r'''
import datetime, os, sys, time, warnings
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

mode, bad_rank, bad_step, steps, step_s, pause_s, marker = sys.argv[1:8]
bad_rank, bad_step, steps, step_s, pause_s = int(bad_rank), int(bad_step), int(steps), float(step_s), float(pause_s)
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=300))
rank, world = dist.get_rank(), dist.get_world_size()


def log(msg):
    print(datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3] + " INFO train: " + msg, flush=True)


def mark(what):
    with open(marker, "a") as f:
        f.write(f"{what} {rank} {time.time()}\n")


log(f"rank {rank} of {world}: process group timeout 300 s, backend gloo")
torch.manual_seed(rank)
model = DDP(torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss = torch.tensor(0.0)
for step in range(1, steps + 1):
    # the batch: where a rank stuck on a network filesystem stops
    if mode == "stall" and rank == bad_rank and step == bad_step:
        mark("stall")
        time.sleep(3600)
    if mode == "exception" and rank == bad_rank and step == bad_step:
        mark("raise")
        raise ValueError(f"corrupt sample in batch {step} (rank {rank})")
    if mode == "pause" and step == bad_step:
        log("saving checkpoint")
        time.sleep(pause_s)
        log("checkpoint saved")
    x = torch.randn(8, 16)
    log(f"step {step} | rank {rank} | loss {loss.item():.4f}")
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    if mode == "healthy" and step % 10 == 0:
        warnings.warn("This DataLoader will create 4 worker processes in total.", UserWarning)
    time.sleep(step_s)
log("Training completed")
dist.destroy_process_group()
'''

JOBS = {  # mode: (bad rank, bad step, steps, the longest it may run)
    "stall": (2, 20, 60, 150),
    "exception": (1, 15, 40, 90),
    "pause": (0, 20, 40, 180),
    "healthy": (0, 0, 40, 90),
}


def _have_torch(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", "import torch, torch.distributed"], capture_output=True,
                              timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def run_job(mode: str, python: str, work: Path, step_s: float, pause_s: float, follow: str = "auto") -> dict:
    bad_rank, bad_step, steps, limit = JOBS[mode]
    job = work / mode
    logs = job / "logs"
    logs.mkdir(parents=True)
    marker = job / "marker.txt"
    trainer = job / "train.py"
    trainer.write_text(TRAINER)
    alerts = job / "alerts.jsonl"
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1")
    watch = subprocess.Popen(
        [sys.executable, "-m", "correlator", "watch", str(logs), "--json", str(alerts), "--idle", "120",
         "--format", "json", "--follow", follow],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    started = time.time()
    with open(logs / "launcher.log", "wb") as launcher_log:
        job_proc = subprocess.Popen(
            [python, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "4",
             "--log-dir", str(logs / "torchrun"), "--redirects", "3",
             str(trainer), mode, str(bad_rank), str(bad_step), str(steps), str(step_s), str(pause_s), str(marker)],
            stdout=launcher_log, stderr=subprocess.STDOUT, env=dict(env, PYTHONPATH=""), start_new_session=True)
        stopped_for_alert = False
        while job_proc.poll() is None and time.time() - started < limit:
            time.sleep(0.5)
            if mode == "stall" and _alerts(alerts):  # named: no need to wait for the 300 s timeout
                stopped_for_alert = True
                break
        if job_proc.poll() is None:
            os.killpg(job_proc.pid, signal.SIGTERM)
            try:
                job_proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(job_proc.pid, signal.SIGKILL)
                job_proc.wait()
    try:
        out, _ = watch.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(watch.pid, signal.SIGINT)
        out, _ = watch.communicate(timeout=120)
    marks = [line.split() for line in marker.read_text().splitlines()] if marker.exists() else []
    planted_at = float(marks[0][2]) if marks else None
    found = _alerts(alerts)
    first = found[0] if found else None
    row: dict = {"job": mode, "alerts": [f"{a['alert']['kind']}: {a['alert']['story']}" for a in found],
                 "stopped_after_alert": stopped_for_alert, "exit": job_proc.returncode}
    if first is not None and planted_at is not None:
        raised = datetime.fromisoformat(first["alert"]["raised_at"]).timestamp()
        row["first_alert_names"] = (first["initiating"] or {}).get("rank")
        row["seconds_after_planted"] = round(raised - planted_at, 1)
        if mode == "stall":
            last_line = _last_line_time(logs, bad_rank)
            row["seconds_after_its_last_line"] = None if last_line is None else round(raised - last_line, 1)
            row["seconds_before_timeout"] = round(planted_at + 300 - raised, 1)
    try:
        final = json.loads(out)
        row["final"] = {"status": final["status"], "initiating": (final.get("initiating") or {}).get("rank")}
    except (json.JSONDecodeError, TypeError):
        row["final"] = None
    return row


def _alerts(path: Path) -> list[dict]:
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("type") == "alert" and r["alert"]["kind"] != "recovered"]


def _last_line_time(logs: Path, rank: int) -> float | None:
    """The stamp of the stalled rank's last line (its own stdout)."""
    for path in logs.rglob(f"attempt_0/{rank}/stdout.log"):
        lines = [ln for ln in path.read_text().splitlines() if ln.strip()]
        if lines:
            return datetime.strptime(lines[-1][:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default="/home/user/venv/bin/python", help="a Python with torch")
    ap.add_argument("--only", nargs="*", choices=list(JOBS), default=list(JOBS))
    ap.add_argument("--step-s", type=float, default=0.5)
    ap.add_argument("--pause-s", type=float, default=60.0)
    ap.add_argument("--follow", choices=["auto", "notify", "poll"], default="auto", help="watch's --follow")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if not _have_torch(args.python):
        print(f"skipped: no torch in {args.python} (torch is not a dependency of correlator; "
              "pass --python a Python that has it)", file=sys.stderr)
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="watch-live-") as work:
        for mode in args.only:
            row = run_job(mode, args.python, Path(work), args.step_s, args.pause_s, args.follow)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
