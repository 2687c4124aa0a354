"""Small-job latency: ``correlator analyze`` on the corpus's small jobs, end to end.

Times, each as its own child process and alternating them round by round (the
machine is noisy; alternation spreads its drift over every command alike):

- ``python -c pass``: the interpreter's own start, the floor of any command;
- ``python -c "import duckdb, polars, pyarrow"``: the import-only floor of a command
  that ingests and queries (what analyze cannot avoid loading);
- ``correlator --help``: a command that needs none of them;
- ``correlator analyze JOB --format json`` on each small job (output discarded).

Prints min / median / max per command, the ratios to the two floors, and PASS when
the median analyze of every job is under ``--target`` seconds (0.4 by default),
FAIL otherwise (exit 1).

    python bench/latency_bench.py
    python bench/latency_bench.py --runs 9 --job sample_logs/healthy-per-rank
    python bench/latency_bench.py --json bench/out/latency.json
    python bench/latency_bench.py --baseline /tmp/before    # a checkout of the old code, side by side

Children run without ``PYTHONDONTWRITEBYTECODE`` (the untimed first round writes
the ``.pyc`` files an install would have; ``--keep-env-bytecode`` keeps it).
The rulebook cache (``CORRELATOR_CACHE_DIR``) is left as the user has it, so the
figures are those of a second and later run; ``--cold-cache`` gives every analyze
an empty cache instead (the first run after an install or a rule edit).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Small jobs (3-60 KB) of several launchers and shapes: per-rank files, a tee'd
# console, pasted public threads.
DEFAULT_JOBS = (
    "sample_logs/gloo-data-error-per-rank",
    "sample_logs/torchrun-tee-console",
    "sample_logs/healthy-per-rank",
    "sample_logs/heldout5/g-arctic-allgather-watchdog-rank2-first",
    "sample_logs/heldout5/h-chatglm-finetuning-freeze-cuda-oom-wsl",
    "sample_logs/heldout5/g-nccl-aws-p4d-2node-broken-pipe-after-segfault",
)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def _time(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run. CPU time (user + system, the child's and its
    own children's) is the figure to compare on a loaded machine: other processes
    stretch the wall clock, much less the work done."""
    # `python -m` puts the working directory first on sys.path: run in the checkout timed
    cwd = env["PYTHONPATH"].split(os.pathsep)[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1, 3):  # analyze: 1 failed and 3 inconclusive are verdicts
        sys.exit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr.decode(errors='replace')}")
    return elapsed, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="rounds (each command once per round)")
    ap.add_argument("--job", action="append", default=None, help="a job to time (repeatable; default: a set of small jobs)")
    ap.add_argument("--target", type=float, default=0.4, help="seconds a small job's median analyze must stay under")
    ap.add_argument("--cold-cache", action="store_true", help="an empty rulebook cache for every analyze")
    ap.add_argument("--keep-env-bytecode", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE if set (default: unset, so .pyc files are used, as installed)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another checkout (e.g. before a change): its analyze of each job is timed in the same rounds")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    args = ap.parse_args()

    py = sys.executable
    # this checkout's package, whatever is installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    if not args.keep_env_bytecode:
        # as installed: pip byte-compiles the package, so a user's run reads .pyc files;
        # a checkout under PYTHONDONTWRITEBYTECODE would compile ~0.1 s of source each run
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    jobs = [Path(j) for j in (args.job or DEFAULT_JOBS)]
    commands: dict[str, list[str]] = {
        "python -c pass": [py, "-c", "pass"],
        "import duckdb, polars, pyarrow": [py, "-c", "import duckdb, polars, pyarrow"],
        "correlator --help": [py, "-m", "correlator", "--help"],
    }
    envs: dict[str, dict[str, str]] = {}
    for job in jobs:
        commands[f"analyze {job.name}"] = [py, "-m", "correlator", "analyze", str(ROOT / job), "--format", "json"]
        if args.baseline:  # the same job by another checkout, in the same rounds
            name = f"  baseline: analyze {job.name}"
            commands[name] = [py, "-m", "correlator", "analyze", str(ROOT / job), "--format", "json"]
            envs[name] = {**env, "PYTHONPATH": str(args.baseline.resolve())}

    times: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory(prefix="latency-bench-") as scratch:
        # one untimed round: page cache, .pyc files and (unless --cold-cache) the rulebook cache
        for name, cmd in commands.items():
            _time(cmd, envs.get(name, env))
        for r in range(args.runs):
            for name, cmd in commands.items():
                run_env = envs.get(name, env)
                if args.cold_cache and name.startswith("analyze"):
                    run_env = {**run_env, "CORRELATOR_CACHE_DIR": str(Path(scratch) / f"{r}-{name}")}
                wall, cpu = _time(cmd, run_env)
                times[name].append(wall)
                cpus[name].append(cpu)

    floor = statistics.median(times["python -c pass"])
    imports = statistics.median(times["import duckdb, polars, pyarrow"])
    print(f"{args.runs} alternating runs, wall seconds (min / median / max); x: median over python -c pass, "
          f"over the duckdb+polars+pyarrow import; cpu: median CPU seconds (user + system)\n")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:68s} {min(ts):6.3f} {med:6.3f} {max(ts):6.3f}   x{med / floor:5.1f}  x{med / imports:4.2f}"
              f"   cpu {statistics.median(cpus[name]):6.3f}")
    analyze = {n: statistics.median(ts) for n, ts in times.items() if n.startswith("analyze")}
    worst = max(analyze, key=analyze.__getitem__)
    ok = analyze[worst] < args.target
    if args.baseline:
        for label, series in (("wall", times), ("cpu", cpus)):
            ratios = [statistics.median(series[f"  baseline: {n}"]) / statistics.median(series[n]) for n in analyze]
            print(f"\n  baseline / this checkout, median analyze {label}: {min(ratios):.2f}x to {max(ratios):.2f}x "
                  f"(median {statistics.median(ratios):.2f}x)", end="")
        print()
    sizes = ", ".join(f"{_size(ROOT / j) / 1e3:.0f}" for j in jobs)
    print(f"\n  jobs' sizes (KB): {sizes}")
    print(f"  small-job analyze: slowest median {analyze[worst]:.3f} s ({worst}), "
          f"target < {args.target} s: {'PASS' if ok else 'FAIL'}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.json.with_name(f".{args.json.name}.{os.getpid()}.tmp")  # whole or absent
        tmp.write_text(json.dumps({"runs": args.runs, "target_s": args.target, "pass": ok,
                                   "times_s": times, "cpu_s": cpus}, indent=2) + "\n")
        tmp.replace(args.json)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
