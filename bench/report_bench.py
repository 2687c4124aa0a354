"""Reports, exports and batch against the verdict they render, on one generated job.

    python bench/report_bench.py [--size 250MB] [--ranks 64] [--nodes 8] [--rounds 3] [--out DIR]

Generates (or reuses) a synthetic job under ``--out`` (default ``bench/out/report``),
ingests it once into ``job.parquet``, then runs each command below as a child
process of the real CLI, the commands alternating within each round so that the
machine's drift hits them all alike:

- ``analyze job.parquet --format json``: the verdict, the yardstick;
- ``analyze job.parquet --format html`` / ``--format md`` and
  ``export job.parquet --format perfetto``: each report from the same saved timeline;
- ``analyze job/ --format json`` and ``batch root/ --out ...`` (``root/`` holds only
  the job): a batch job against the verdict of the same directory, ingest included;
  ``ingest job/`` alone beside them, with no yardstick.

It prints each command's min / median / max seconds and median CPU-seconds, the ratio of its median to its
yardstick's median and PASS / FAIL against ``TARGET_RATIO``, and the sizes of the
HTML report and the Perfetto trace. Exit status 0 when every ratio passes.
Importable: ``measure(...)`` returns the figures as ``Figures``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
if str(REPO) not in sys.path:  # run as a script from anywhere: import the repo's package
    sys.path.insert(0, str(REPO))

TARGET_RATIO = 1.5
TRACE_LIMIT_BYTES = 20 * 1024**2  # the bound for a 1 GB job's trace


@dataclass
class Timing:
    name: str
    yardstick: str | None  # the command this one is measured against; None: it is a yardstick
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # CPU-seconds (user + system) of the child and its children
    peak_rss: int = 0  # bytes, the largest of the rounds (the child and its own children)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


@dataclass
class Figures:
    job: Path
    size_bytes: int
    timings: dict[str, Timing]
    html_bytes: int = 0
    md_bytes: int = 0
    trace_bytes: int = 0

    def ratio(self, name: str) -> float | None:
        t = self.timings[name]
        return t.median / self.timings[t.yardstick].median if t.yardstick else None

    def passed(self) -> bool:
        return all((r := self.ratio(n)) is None or r <= TARGET_RATIO for n in self.timings)


def cli() -> list[str]:
    return [sys.executable, "-m", "correlator"]


def ensure_job(out: Path, size: str, ranks: int, nodes: int, seed: int) -> Path:
    """The job directory under ``out/root/`` (a batch root with this one job)."""
    from correlator.synth import generate_job

    job = out / "root" / "job"
    stamp = out / "params.txt"
    params = f"{size} {ranks} {nodes} {seed}"
    if not (job.is_dir() and stamp.is_file() and stamp.read_text() == params):
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        generate_job(job, ranks=ranks, nodes=nodes, size=size, seed=seed)
        stamp.write_text(params)
    return job


def _run(argv: list[str]) -> tuple[float, int, float]:
    """Seconds, peak RSS (bytes) and CPU-seconds of one child process; RSS and CPU from
    ``wait4``: the largest RSS of the process and the children it waited for (ingest's
    workers), the CPU of them all (on a shared machine it moves far less than wall time)."""
    import os

    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1, 3):  # 1 failed / 3 inconclusive are verdicts, not errors
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}:\n{err[-2000:]}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return took, usage.ru_maxrss * scale, usage.ru_utime + usage.ru_stime


def measure(out: Path, *, size: str = "250MB", ranks: int = 64, nodes: int = 8, seed: int = 0,
            rounds: int = 3, batch: bool = True, only: Sequence[str] = ()) -> Figures:
    job = ensure_job(out, size, ranks, nodes, seed)
    timeline = out / "job.parquet"
    if not timeline.is_file():
        subprocess.run([*cli(), "ingest", str(job), "--out", str(timeline)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    html, md, trace = out / "report.html", out / "report.md", out / "trace.json"
    batch_out = out / "batch-out"
    commands: dict[str, tuple[str | None, list[str]]] = {
        "verdict (timeline)": (None, [*cli(), "analyze", str(timeline), "--format", "json"]),
        "html (timeline)": ("verdict (timeline)",
                            [*cli(), "analyze", str(timeline), "--format", "html", "--out", str(html)]),
        "md (timeline)": ("verdict (timeline)",
                          [*cli(), "analyze", str(timeline), "--format", "md", "--out", str(md)]),
        "perfetto (timeline)": ("verdict (timeline)",
                                [*cli(), "export", str(timeline), "--format", "perfetto", "--out", str(trace)]),
    }
    if batch:
        # ingest alone: what batch's shared timeline costs ingest (its secret scan)
        commands["ingest (directory)"] = (None, [*cli(), "ingest", str(job), "--out", str(out / "ingested.parquet")])
        commands["verdict (directory)"] = (None, [*cli(), "analyze", str(job), "--format", "json"])
        commands["batch (one job)"] = ("verdict (directory)",
                                       [*cli(), "batch", str(job.parent), "--out", str(batch_out), "--force"])
    if only:  # these commands and their yardsticks (a short run on a busy machine)
        keep = {n for n in commands if any(n.startswith(o) for o in only)}
        keep |= {commands[n][0] for n in keep if commands[n][0]}
        commands = {n: c for n, c in commands.items() if n in keep}
    timings = {name: Timing(name, yard) for name, (yard, _) in commands.items()}
    for _ in range(rounds):
        for name, (_, argv) in commands.items():
            took, rss, cpu = _run(argv)
            timings[name].seconds.append(took)
            timings[name].cpu.append(cpu)
            timings[name].peak_rss = max(timings[name].peak_rss, rss)
    size_bytes = sum(p.stat().st_size for p in job.rglob("*") if p.is_file())
    return Figures(job, size_bytes, timings, *(p.stat().st_size if p.is_file() else 0 for p in (html, md, trace)))


def format_figures(f: Figures) -> str:
    lines = [f"job: {f.job} ({f.size_bytes / 1e6:,.1f} MB)",
             f"{'command':24s} {'min':>7s} {'median':>7s} {'max':>7s} {'CPU-s':>7s} {'RSS MiB':>8s}  {'ratio':>6s}  target"]
    for name, t in f.timings.items():
        r = f.ratio(name)
        verdict = "" if r is None else f"{r:6.2f}x  {'PASS' if r <= TARGET_RATIO else 'FAIL'} (<= {TARGET_RATIO}x)"
        lines.append(f"{name:24s} {min(t.seconds):7.2f} {t.median:7.2f} {max(t.seconds):7.2f} "
                     f"{statistics.median(t.cpu):7.2f} {t.peak_rss / 2**20:8.0f}  {verdict}")
    lines.append(f"HTML report {f.html_bytes / 1024:,.1f} KB; Markdown {f.md_bytes / 1024:,.1f} KB; "
                 f"Perfetto trace {f.trace_bytes / 1e6:,.2f} MB "
                 f"({'PASS' if f.trace_bytes <= TRACE_LIMIT_BYTES else 'FAIL'} <= 20 MB)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="250MB")
    ap.add_argument("--ranks", type=int, default=64)
    ap.add_argument("--nodes", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-batch", action="store_true", help="Leave out batch and its yardstick.")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="Time only the commands whose name starts with NAME (repeatable), and their yardsticks.")
    ap.add_argument("--out", type=Path, default=BENCH_DIR / "out" / "report")
    a = ap.parse_args(argv)
    f = measure(a.out, size=a.size, ranks=a.ranks, nodes=a.nodes, seed=a.seed, rounds=a.rounds,
                batch=not a.no_batch, only=a.only)
    print(format_figures(f))
    return 0 if f.passed() else 1


if __name__ == "__main__":
    sys.exit(main())
