"""``--engine local`` against ``--engine ray`` on this machine, side by side (issue 29).

Two measurements, each command run as a user runs it (``python -m correlator ...`` in a
fresh process; ``--engine ray`` starts its own local Ray instance, as it does without
``--address``), alternating the engines round after round:

1. **batch**: ``--jobs`` (200) small generated jobs (8 ranks on 4 nodes, two planted bad
   nodes on a 32-node cluster), ``correlator batch --engine local`` vs ``--engine ray``:
   the wall time, and Ray's overhead per job ((ray - local) / jobs), with Ray's own
   start-up (``ray.init`` of a local instance, timed alone) said apart. The summaries
   are compared (rows equal but the timing columns).
2. **ingest**: one generated job of ``--big-ranks`` (1,024) ranks and ``--big-size``
   (4.5 GB), ``correlator ingest --out X.timeline/`` with each engine: wall time, the
   driver's peak RSS (the ``correlator`` process itself, from ``/proc``: not Ray's
   workers), and whether the parts are the same bytes. Then ``analyze --format json``
   of the directory (the verdict of a 1,024-rank job read from its parts). One round by
   default: on a 2-core VM each ingest takes minutes.

Prints min / median / max per command. Free disk under ``--work`` (default the system
temp) is checked before the big job is generated; everything is deleted after.

    python bench/ray_bench.py                         # both
    python bench/ray_bench.py --skip-big --rounds 3   # the batch part only
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq

from correlator import synth

REPO = Path(__file__).resolve().parents[1]
TIMING = ("ingest_s", "analyze_s", "report_s", "total_s", "analysed_at")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["CORRELATOR_PROGRESS"] = "never"
    return env


# ``--omp-variant``: the local engine once more, its workers with Arrow's thread pool cut to
# one thread as Ray's are (Ray sets OMP_NUM_THREADS to a task's CPUs; Arrow sizes its pool
# by it): is what Ray gains on one machine Ray's, or its workers' environment?
VARIANTS = {"local": ("local", {}), "ray": ("ray", {}), "local-omp1": ("local", {"OMP_NUM_THREADS": "1"})}


def _run(args: list[str], extra_env: dict[str, str] | None = None) -> tuple[float, int]:
    """Wall seconds and the peak RSS (KiB) of the command's own process."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "correlator", "-q", *args], env={**_env(), **(extra_env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0]

    def watch() -> None:
        status = Path(f"/proc/{proc.pid}/status")
        while proc.poll() is None:
            try:
                for line in status.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak[0] = max(peak[0], int(line.split()[1]))
            except OSError:
                return
            time.sleep(0.2)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - started
    t.join()
    if proc.returncode not in (0, 1, 3):  # analyze: 1 failed, 3 inconclusive
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}:\n{err[-2000:]}")
    return wall, peak[0]


def _ray_startup() -> float:
    code = ("import time; t = time.perf_counter(); import ray; "
            "ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False); "
            "print(time.perf_counter() - t); ray.shutdown()")
    out = subprocess.run([sys.executable, "-c", "import os; " + code], env=_env(), capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def _stats(xs: list[float]) -> str:
    return f"min {min(xs):7.1f}  median {statistics.median(xs):7.1f}  max {max(xs):7.1f}"


def _summary(out: Path) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in pq.read_table(out / "summary.parquet").to_pylist()]


def bench_batch(work: Path, jobs: int, rounds: int, variants: list[str]) -> dict:
    root = work / "jobs"
    t0 = time.perf_counter()
    synth.generate_batch(root, jobs=jobs, ranks=8, nodes=4, size="200KB", bad_nodes=2, cluster_nodes=32, seed=0)
    print(f"generated {jobs} jobs in {time.perf_counter() - t0:.1f} s", flush=True)
    walls: dict[str, list[float]] = {v: [] for v in variants}
    same = True
    for r in range(rounds):
        for variant in variants if r % 2 == 0 else variants[::-1]:
            engine, extra = VARIANTS[variant]
            out = work / f"reports-{variant}"
            shutil.rmtree(out, ignore_errors=True)
            wall, _ = _run(["batch", str(root), "--out", str(out), "--exclude", "truth.json", "--engine", engine],
                           extra)
            walls[variant].append(wall)
            print(f"round {r + 1}: batch {variant:10s} {wall:7.1f} s", flush=True)
        same = same and _summary(work / "reports-local") == _summary(work / "reports-ray")
    startup = [_ray_startup() for _ in range(rounds)]
    per_job = [(ray - loc) / jobs for ray, loc in zip(walls["ray"], walls["local"], strict=True)]
    print(f"\nbatch of {jobs} jobs ({os.cpu_count()} CPUs), wall seconds over {rounds} round(s):")
    for variant, xs in walls.items():
        print(f"  {variant:10s} {_stats(xs)}")
    print(f"  ray / local (per round): {', '.join(f'{r / loc:.2f}x' for r, loc in zip(walls['ray'], walls['local'], strict=True))}")
    print(f"  Ray overhead per job, (ray - local) / jobs: {', '.join(f'{x * 1000:.0f} ms' for x in per_job)}; "
          f"of which Ray's start-up (alone: {_stats(startup)} s) is {statistics.median(startup) / jobs * 1000:.0f} ms a job")
    if "local-omp1" in walls:
        print("  local-omp1 / local (per round): "
              + ", ".join(f"{o / loc:.2f}x" for o, loc in zip(walls["local-omp1"], walls["local"], strict=True)))
    print(f"  summaries equal (but timing columns): {'yes' if same else 'NO'}")
    shutil.rmtree(root, ignore_errors=True)
    return {"jobs": jobs, "walls": walls, "ray_startup_s": startup, "per_job_s": per_job, "summaries_equal": same}


def _noop(x: int) -> int:
    return x


def bench_noop(tasks: int) -> dict:
    """Each engine's own cost per task: ``tasks`` calls of a function that does nothing,
    through ``Engine.run`` (the local engine's pool already started, Ray already up)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    from correlator.engine import Task
    from correlator.engine.local import LocalEngine
    from correlator.engine.ray import RayEngine

    calls = [Task(str(i), (i,)) for i in range(tasks)]
    res = {}
    pool = ProcessPoolExecutor(os.cpu_count(), mp_context=mp.get_context("spawn"))
    for engine in (LocalEngine.on_pool(pool), RayEngine()):
        list(engine.run(_noop, calls[:50]))  # warm: workers started, the function shipped
        started = time.perf_counter()
        got = sum(o.value for o in engine.run(_noop, calls))
        res[engine.name] = (time.perf_counter() - started) / tasks
        assert got == sum(range(tasks))
    import ray

    ray.shutdown()
    pool.shutdown()
    print(f"\nengine cost per task ({tasks} no-op tasks, {os.cpu_count()} in flight): "
          f"local {res['local'] * 1000:.2f} ms, ray {res['ray'] * 1000:.2f} ms", flush=True)
    return res


def bench_big(work: Path, ranks: int, size: str, rounds: int, variants: list[str]) -> dict:
    need = synth.parse_size(size) * 2.2  # the logs, and two timelines of about half their size each
    free = shutil.disk_usage(work).free
    if free < need:
        raise SystemExit(f"{work}: {free / 1e9:.1f} GB free, the big job needs about {need / 1e9:.1f} GB")
    job = work / "big-job"
    t0 = time.perf_counter()
    synth.generate_job(job, ranks=ranks, nodes=ranks // 8, size=size, scenario="xid79", seed=7)
    (job / "truth.json").unlink(missing_ok=True)
    gen = time.perf_counter() - t0
    files = [p for p in job.rglob("*") if p.is_file()]
    nbytes = sum(p.stat().st_size for p in files)
    print(f"\ngenerated a {ranks}-rank job: {nbytes / 1e9:.2f} GB in {len(files)} files, {gen:.0f} s", flush=True)
    res: dict = {"ranks": ranks, "bytes": nbytes, "files": len(files), "ingest": {v: [] for v in variants},
                 "rss_kib": {v: [] for v in variants}}
    for r in range(rounds):
        for variant in variants if r % 2 == 0 else variants[::-1]:
            engine, extra = VARIANTS[variant]
            out = work / f"big-{variant}.timeline"
            shutil.rmtree(out, ignore_errors=True)
            wall, rss = _run(["ingest", str(job), "--out", str(out) + "/", "--engine", engine], extra)
            res["ingest"][variant].append(wall)
            res["rss_kib"][variant].append(rss)
            print(f"round {r + 1}: ingest {variant:10s} {wall:7.1f} s, {nbytes / 1e6 / wall:6.1f} MB/s, "
                  f"driver peak RSS {rss / 1024:.0f} MiB", flush=True)
    parts = sorted(p.name for p in (work / "big-local.timeline").iterdir())
    same = parts == sorted(p.name for p in (work / "big-ray.timeline").iterdir()) and all(
        (work / "big-local.timeline" / p).read_bytes() == (work / "big-ray.timeline" / p).read_bytes() for p in parts)
    size_out = sum(p.stat().st_size for p in (work / "big-local.timeline").iterdir())
    wall, rss = _run(["analyze", str(work / "big-local.timeline"), "--format", "json"])
    res.update({"parts": len(parts) - 1, "timeline_bytes": size_out, "same_bytes": same, "analyze_s": wall,
                "analyze_rss_kib": rss})
    print(f"\n{ranks}-rank job, {nbytes / 1e9:.2f} GB -> {len(parts) - 1} parts, {size_out / 1e9:.2f} GB; parts "
          f"byte-identical across engines: {'yes' if same else 'NO'}")
    for variant in variants:
        print(f"  ingest {variant:10s} {_stats(res['ingest'][variant])} s; driver peak RSS "
              f"{max(res['rss_kib'][variant]) / 1024:.0f} MiB")
    print(f"  analyze of the parts directory: {wall:.1f} s, peak RSS {rss / 1024:.0f} MiB")
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the batch part")
    ap.add_argument("--big-ranks", type=int, default=1024)
    ap.add_argument("--big-size", default="4.5GB")
    ap.add_argument("--big-rounds", type=int, default=1)
    ap.add_argument("--noop-tasks", type=int, default=2000, help="no-op tasks timing each engine's own cost")
    ap.add_argument("--omp-variant", action="store_true",
                    help="also the local engine with OMP_NUM_THREADS=1 (Arrow's pool of one thread, as in Ray's workers)")
    ap.add_argument("--skip-batch", action="store_true")
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--work", default=None, help="where to generate and write (default: the system temp)")
    ap.add_argument("--json", default=None, help="write the figures here")
    a = ap.parse_args(argv)
    variants = ["local", "ray", *(["local-omp1"] if a.omp_variant else [])]
    work = Path(tempfile.mkdtemp(prefix="correlator-ray-bench-", dir=a.work))
    figures: dict = {}
    try:
        if not a.skip_batch:
            figures["batch"] = bench_batch(work, a.jobs, a.rounds, variants)
            figures["noop"] = bench_noop(a.noop_tasks)
        if not a.skip_big:
            figures["big"] = bench_big(work, a.big_ranks, a.big_size, a.big_rounds, variants)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        Path(a.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
