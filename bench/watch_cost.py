"""What following a big job costs ``correlator watch``: CPU share and memory over time.

64 rank files under 8 node folders are appended to at ``--rate`` (default 10 MB a
minute for all of them together: ~1,700 lines a second of step lines, info and
warning lines, and now and then a multi-line block), while ``correlator watch``
follows them in its own process (``--poll``, default 2 s as watch's own; ``--follow``
each of ``--modes``, a fresh tree and process for each run, the modes alternating over
``--rounds``). Every ``--sample`` seconds the bench reads the watch's CPU time and
resident memory from /proc; at the end it prints each run's CPU share (CPU seconds /
wall seconds, of one core) while written to and, with ``--quiet-seconds``, while
nothing is written, and memory at each sample, so that growth with the job's length
shows.

    python bench/watch_cost.py                                   # notify, 64 ranks, 10 MB/min, 180 s
    python bench/watch_cost.py --modes poll,notify --rounds 2 --seconds 90 --quiet-seconds 30
    python bench/watch_cost.py --poll 1 --seconds 90             # the cost of a 1 s poll
    python bench/watch_cost.py --seconds 60 --ranks 16
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _proc(pid: int) -> tuple[float, float]:
    """(CPU seconds, resident MB) of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return cpu, rss


def _line(rank: int, step: int, rng: random.Random) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    r = rng.random()
    if r < 0.6:
        return (f"{stamp} INFO train: step {step} | rank {rank} | loss {rng.uniform(0.5, 3):.4f} | "
                f"lr 3.0e-04 | {rng.uniform(0.1, 0.2):.3f} s/step\n")
    if r < 0.9:
        return (f"{stamp} INFO data: prefetched shard {rng.randrange(10_000)} of /datasets/web/part-"
                f"{rng.randrange(1000):05d}.arrow ({rng.randrange(1, 900)} MB) on worker {rng.randrange(8)}\n")
    if r < 0.995:
        return (f"{stamp} WARNING py.warnings: /venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py:"
                "558: UserWarning: This DataLoader will create 8 worker processes in total.\n")
    return (f"{stamp} INFO train: memory summary\n|  allocated: {rng.randrange(10**5)} MiB\n"
            f"|  reserved:  {rng.randrange(10**5)} MiB\n|  peak:      {rng.randrange(10**5)} MiB\n")


def segment(args: argparse.Namespace, mode: str, seed: int) -> dict:
    """One watch process following a fresh tree in ``mode`` (``--follow``): ``--seconds``
    of writing at ``--rate``, then ``--quiet-seconds`` with nothing written."""
    rng = random.Random(seed)
    per_s = args.rate * 1e6 / 60
    with tempfile.TemporaryDirectory(prefix="watch-cost-") as work:
        logs = Path(work) / "logs"
        files = []
        for r in range(args.ranks):
            d = logs / f"node-{r * args.nodes // args.ranks}"
            d.mkdir(parents=True, exist_ok=True)
            files.append(open(d / f"rank{r}.log", "a", encoding="utf-8"))  # noqa: SIM115 (closed below)
        for r, f in enumerate(files):
            f.write(f"INFO train: rank {r} of {args.ranks} starting\n")
            f.flush()
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env = dict(os.environ, PYTHONPATH=path)
        watch = subprocess.Popen(
            [sys.executable, "-m", "correlator", "watch", str(logs), "--poll", str(args.poll), "--idle", "3600",
             "--follow", mode, "--json", str(Path(work) / "alerts.jsonl")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
        time.sleep(5)  # imports and the first read, not counted
        samples = []
        cpu0, _ = _proc(watch.pid)
        t0 = time.monotonic()
        written = 0
        steps = [0] * args.ranks
        next_sample = t0 + args.sample
        while (now := time.monotonic()) - t0 < args.seconds:
            due = int((now - t0) * per_s) - written
            while due > 0:
                r = rng.randrange(args.ranks)
                steps[r] += 1
                text = _line(r, steps[r], rng)
                files[r].write(text)
                written += len(text)
                due -= len(text)
                if args.flush == "line":
                    files[r].flush()
            for f in files:
                f.flush()
            if now >= next_sample:
                cpu, rss = _proc(watch.pid)
                samples.append({"at_s": round(now - t0), "cpu_share": round((cpu - cpu0) / (now - t0), 4),
                                "rss_mb": round(rss, 1), "mb_written": round(written / 1e6, 1)})
                print(json.dumps({"mode": mode, **samples[-1]}), flush=True)
                next_sample += args.sample
            time.sleep(0.1)
        cpu, rss = _proc(watch.pid)
        wall = time.monotonic() - t0
        quiet_share = None
        if args.quiet_seconds > 0:  # the cost of following a job that prints nothing
            time.sleep(3)  # the last writes' read
            qcpu0, _ = _proc(watch.pid)
            q0 = time.monotonic()
            time.sleep(args.quiet_seconds)
            qcpu, _ = _proc(watch.pid)
            quiet_share = round((qcpu - qcpu0) / (time.monotonic() - q0), 5)
        os.killpg(watch.pid, signal.SIGTERM)
        _, err = watch.communicate(timeout=60)
        for f in files:
            f.close()
    said = next((ln for ln in err.decode(errors="replace").splitlines()
                 if "change notifications" in ln or "polling every" in ln), "")
    return {"mode": mode, "said": said, "ranks": args.ranks, "mb_per_min": round(written / 1e6 / wall * 60, 2),
            "seconds": round(wall), "cpu_share_of_one_core": round((cpu - cpu0) / wall, 4),
            "quiet_cpu_share": quiet_share, "rss_mb_end": round(rss, 1),
            "rss_mb_first_sample": samples[0]["rss_mb"] if samples else None, "samples": samples}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--nodes", type=int, default=8)
    ap.add_argument("--rate", type=float, default=10.0, help="MB a minute, all files together")
    ap.add_argument("--seconds", type=float, default=180.0, help="of writing, per run")
    ap.add_argument("--quiet-seconds", type=float, default=0.0, help="then this long with nothing written")
    ap.add_argument("--sample", type=float, default=15.0)
    ap.add_argument("--poll", type=float, default=2.0, help="watch's --poll (its default)")
    ap.add_argument("--flush", choices=["tick", "line"], default="tick",
                    help="flush every file each 0.1 s tick, or after every line (as logging does: one "
                         "change notification per line)")
    ap.add_argument("--modes", default="notify", help="watch's --follow modes, comma-separated, run in turn")
    ap.add_argument("--rounds", type=int, default=1, help="times the modes are run, alternating")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    results = []
    for rnd in range(args.rounds):
        for mode in args.modes.split(","):
            res = segment(args, mode, seed=7 + rnd)
            results.append(res)
            print(json.dumps({k: v for k, v in res.items() if k != "samples"}), flush=True)
    print("\nmode     CPU share (writing)   CPU share (quiet)   RSS first sample -> end")
    for res in results:
        quiet = "-" if res["quiet_cpu_share"] is None else f"{100 * res['quiet_cpu_share']:.2f}%"
        print(f"{res['mode']:8s} {100 * res['cpu_share_of_one_core']:8.2f}%            {quiet:>8s}"
              f"            {res['rss_mb_first_sample']} -> {res['rss_mb_end']} MB")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
