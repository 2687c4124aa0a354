"""Ingest benchmark: a synthetic job of a given size through the real `correlator` CLI.

    python bench/run_bench.py [--size 1GB] [--ranks 64] [--nodes 8] [--keep]

Generates (or reuses) bench/out/job with correlator.synth, then times, each as a
child process whose own peak RSS is read back with os.wait4:

- `correlator ingest bench/out/job --out bench/out/job.parquet` (the figure that counts),
- `correlator analyze bench/out/job --format json` (skipped if the CLI lacks it),
- `correlator analyze bench/out/job.parquet --format json`: the analysis alone, on the
  timeline ingest wrote,
- `cat` of every file (the I/O floor) and, if installed, lnav indexing the same files.

Exit status: 0 when ingest ran and met every target (and analyze its own, when it
ran), 1 otherwise.
See bench/README.md for what the figures mean.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
if str(REPO) not in sys.path:  # run as a script from anywhere: import the repo's package
    sys.path.insert(0, str(REPO))

from correlator.synth import generate_job, parse_size  # noqa: E402

TARGET_MB_S = 100.0
TARGET_LINES_S = 500_000.0
TARGET_RSS_BYTES = 2 * 1024**3
TARGET_ANALYZE_S = 15.0  # end to end, ingest included
NO_SUCH_COMMAND = "No such command"  # click's message for an unknown subcommand


@dataclass
class Run:
    """One timed child process."""

    name: str
    argv: list[str]
    seconds: float = 0.0
    returncode: int | None = None
    peak_rss_bytes: int = 0
    stdout: str = ""
    stderr: str = ""
    skipped: str | None = None  # why it did not run
    # analyze exits 1 (failed) or 3 (inconclusive) when it worked: the job's state
    ok_codes: tuple[int, ...] = (0,)

    @property
    def ok(self) -> bool:
        return self.skipped is None and self.returncode in self.ok_codes


@dataclass
class Report:
    size_bytes: int
    files: int
    lines: int
    params: JobParams
    runs: dict[str, Run] = field(default_factory=dict)
    # ingest's own failures on this clean input ("could not parse/ingest" problems):
    # an internal error is kept as raw lines, not raised, so speed alone would hide it
    failures: list[str] | None = None

    def rate(self, name: str) -> tuple[float, float]:
        """(MB/s, lines/s) of a run over the whole input."""
        run = self.runs.get(name)
        if run is None or not run.ok or run.seconds <= 0:
            return 0.0, 0.0
        return self.size_bytes / 1e6 / run.seconds, self.lines / run.seconds

    def targets(self) -> list[tuple[str, str, bool]]:
        """(label, measured, passed) for each target: ingest's three, and analyze's when it ran."""
        ingest = self.runs.get("ingest")
        ran = ingest is not None and ingest.ok
        mb_s, lines_s = self.rate("ingest")
        rss = ingest.peak_rss_bytes if ingest is not None else 0
        return [
            (
                f"throughput >= {TARGET_MB_S:.0f} MB/s",
                f"{mb_s:,.1f} MB/s",
                ran and mb_s >= TARGET_MB_S,
            ),
            (
                f"lines/s >= {TARGET_LINES_S:,.0f}",
                f"{lines_s:,.0f} lines/s",
                ran and lines_s >= TARGET_LINES_S,
            ),
            ("peak RSS < 2 GB", _mib(rss), ran and 0 < rss < TARGET_RSS_BYTES),
            ("every line parsed", _failures_text(self.failures), ran and self.failures == []),
            *self._analyze_target(),
        ]

    def _analyze_target(self) -> list[tuple[str, str, bool]]:
        run = self.runs.get("analyze")
        if run is None or run.skipped:
            return []
        return [(f"analyze end to end < {TARGET_ANALYZE_S:.0f} s", f"{run.seconds:,.1f} s",
                 run.ok and run.seconds < TARGET_ANALYZE_S)]

    def passed(self) -> bool:
        return all(ok for _, _, ok in self.targets())


# --------------------------------------------------------------------------- arguments


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", default="1GB", type=_size_arg, help="input size: 20MB, 1GB, 2GiB")
    p.add_argument("--ranks", type=int, default=64)
    p.add_argument("--nodes", type=int, default=8)
    p.add_argument("--scenario", default="oom-cascade")
    p.add_argument("--skew", default="30s")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--keep",
        action="store_true",
        help="keep bench/out/job and the Parquet output for the next run to reuse",
    )
    p.add_argument(
        "--out-dir",
        type=Path,
        default=BENCH_DIR / "out",
        help="where the job and outputs go (default: bench/out, gitignored)",
    )
    p.add_argument(
        "--cli",
        default=None,
        help="command that runs correlator (default: `correlator` on PATH, "
        "else correlator.cli's click group through this Python)",
    )
    p.add_argument("--no-lnav", action="store_true", help="do not time lnav even if installed")
    p.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    return p.parse_args(argv)


def _size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def cli_command(explicit: str | None) -> list[str]:
    if explicit:
        return shlex.split(explicit)
    found = shutil.which("correlator")
    # correlator/cli/__init__.py need not have a __main__ guard, so call its click group directly.
    return [found] if found else [sys.executable, "-c", "from correlator.cli import main; main()"]


# --------------------------------------------------------------------------- the job


@dataclass(frozen=True)
class JobParams:
    size: int
    ranks: int
    nodes: int
    scenario: str
    skew: str
    seed: int


def job_params(a: argparse.Namespace) -> JobParams:
    return JobParams(a.size, a.ranks, a.nodes, a.scenario, a.skew, a.seed)


def ensure_job(out_dir: Path, params: JobParams) -> Path:
    """Generate out_dir/job unless a job with exactly these parameters is already there."""
    job = out_dir / "job"
    stamp = out_dir / "job.params.json"  # beside the job, so ingest never reads it
    wanted = asdict(params)
    if job.is_dir() and stamp.is_file() and json.loads(stamp.read_text()) == wanted:
        print(f"reusing {job} (same parameters)", file=sys.stderr)
        return job
    out_dir.mkdir(parents=True, exist_ok=True)
    if job.exists():
        shutil.rmtree(job)
    stamp.unlink(missing_ok=True)
    started = time.perf_counter()
    generate_job(
        job,
        ranks=params.ranks,
        nodes=params.nodes,
        size=params.size,
        scenario=params.scenario,
        skew=params.skew,
        seed=params.seed,
    )
    print(f"generated {job} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    stamp.write_text(json.dumps(wanted) + "\n")
    return job


def measure_input(job: Path) -> tuple[int, int, int]:
    """(bytes, files, lines). Reading everything once also warms the page cache for every tool."""
    size = files = lines = 0
    for path in sorted(p for p in job.rglob("*") if p.is_file()):
        files += 1
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 22):
                size += len(chunk)
                lines += chunk.count(b"\n")
    return size, files, lines


# --------------------------------------------------------------------------- timing


def timed(name: str, argv: list[str], *, shell: bool = False) -> Run:
    """Run one child; wall time and that child's own peak RSS (not the whole tree's max)."""
    run = Run(name, argv)
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(
            argv if not shell else argv[0],
            shell=shell,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        run.skipped = f"cannot start: {exc}"
        return run
    out, err = _drain(proc)
    _, status, usage = os.wait4(proc.pid, 0)
    run.seconds = time.perf_counter() - started
    run.returncode = os.waitstatus_to_exitcode(status)
    proc.returncode = run.returncode
    run.peak_rss_bytes = usage.ru_maxrss * 1024  # kilobytes on Linux
    run.stdout, run.stderr = out, err
    return run


def _drain(proc: subprocess.Popen[bytes]) -> tuple[str, str]:
    """Read both pipes to EOF without reaping the child (os.wait4 does that)."""
    sel = selectors.DefaultSelector()
    bufs: dict[int, list[bytes]] = {}
    for stream in (proc.stdout, proc.stderr):
        assert stream is not None
        sel.register(stream, selectors.EVENT_READ)
        bufs[stream.fileno()] = []
    while sel.get_map():
        for key, _ in sel.select():
            data = os.read(key.fd, 1 << 16)
            if data:
                bufs[key.fd].append(data)
            else:
                sel.unregister(key.fileobj)
    assert proc.stdout is not None and proc.stderr is not None
    out = b"".join(bufs[proc.stdout.fileno()]).decode(errors="replace")
    err = b"".join(bufs[proc.stderr.fileno()]).decode(errors="replace")
    proc.stdout.close()
    proc.stderr.close()
    return out, err


def _failures_text(failures: list[str] | None) -> str:
    if failures is None:
        return "not read"
    return f"{len(failures)} failures" if failures else "no failures"


def _ingest_failures(parquet: Path) -> list[str] | None:
    """The problems in the timeline's metadata where ingest failed on a file or batch."""
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(parquet).metadata.metadata or {}
        problems = json.loads(meta.get(b"correlator.problems", b"[]"))
    except Exception:  # not a timeline this script can read: the target says so
        return None
    return [f"{p['file']}: {p['what']}" for p in problems if p["what"].startswith("could not")]


def run_all(report: Report, job: Path, out_dir: Path, cli: list[str], lnav: bool) -> None:
    parquet = out_dir / "job.parquet"
    if parquet.exists():
        shutil.rmtree(parquet) if parquet.is_dir() else parquet.unlink()
    ingest = timed("ingest", [*cli, "ingest", str(job), "--out", str(parquet)])
    if ingest.returncode == 0 and not parquet.exists():
        ingest.returncode, ingest.stderr = -1, f"exit 0 but {parquet} was not written"
    report.runs["ingest"] = ingest
    if ingest.ok and parquet.exists():
        report.failures = _ingest_failures(parquet)
    analyze = timed("analyze", [*cli, "analyze", str(job), "--format", "json"])
    analyze.ok_codes = (0, 1, 3)
    if analyze.returncode not in (0, None) and NO_SUCH_COMMAND in analyze.stderr:
        analyze.skipped = "the CLI has no `analyze` command yet"
    report.runs["analyze"] = analyze
    analysis = Run("analysis", [], skipped="no timeline (ingest failed)")
    if analyze.skipped:
        analysis.skipped = analyze.skipped
    elif parquet.exists():
        analysis = timed("analysis", [*cli, "analyze", str(parquet), "--format", "json"])
        analysis.ok_codes = (0, 1, 3)
    report.runs["analysis"] = analysis
    quoted = shlex.quote(str(job))
    report.runs["cat"] = timed(
        "cat", [f"find {quoted} -type f -print0 | xargs -0 cat > /dev/null"], shell=True
    )
    if lnav and shutil.which("lnav"):
        report.runs["lnav"] = timed(
            "lnav",
            ["lnav", "-n", "-N", "-c", ";SELECT count(*) AS n FROM all_logs", "-r", str(job)],
        )
    else:
        report.runs["lnav"] = Run(
            "lnav",
            [],
            skipped="not installed (apt-get install -y lnav)"
            if lnav
            else "disabled with --no-lnav",
        )


# --------------------------------------------------------------------------- report


def _mib(n: int) -> str:
    return f"{n / 1024**2:,.0f} MiB" if n else "n/a"


def _run_line(report: Report, name: str) -> str:
    run = report.runs.get(name)
    if run is None:
        return f"{name:<8}: not run"
    if run.skipped:
        return f"{name:<8}: skipped ({run.skipped})"
    mb_s, lines_s = report.rate(name)
    status = "" if run.ok else f"  FAILED (exit {run.returncode}): {_last_line(run.stderr)}"
    return (
        f"{name:<8}: {run.seconds:8.2f} s  {mb_s:9,.1f} MB/s  {lines_s:12,.0f} lines/s  "
        f"peak RSS {_mib(run.peak_rss_bytes)}{status}"
    )


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "(no stderr)"


def format_report(report: Report) -> str:
    p = report.params
    out = [
        f"job     : {p.ranks} ranks / {p.nodes} nodes, scenario {p.scenario}, seed {p.seed}",
        f"input   : {report.size_bytes / 1e6:,.1f} MB in {report.files:,} files, {report.lines:,} lines",
    ]
    out += [_run_line(report, name) for name in ("ingest", "analyze", "analysis", "cat", "lnav")]
    out.append("targets:")
    out += [
        f"  {label:<24} {measured:>18}  {'PASS' if ok else 'FAIL'}"
        for label, measured, ok in report.targets()
    ]
    for failure in (report.failures or [])[:5]:
        out.append(f"  failed: {failure[:150]}")
    lnav = report.runs.get("lnav")
    if lnav is not None and lnav.ok and lnav.stdout.strip():
        out.append(f"lnav counted: {' '.join(lnav.stdout.split())}")
    return "\n".join(out)


def report_json(report: Report) -> dict[str, object]:
    runs = {}
    for name, run in report.runs.items():
        mb_s, lines_s = report.rate(name)
        d = asdict(run)
        d.pop("stdout")
        stderr = d.pop("stderr")
        d["stderr_tail"] = _last_line(stderr) if stderr else ""
        runs[name] = {**d, "mb_per_s": mb_s, "lines_per_s": lines_s}
    return {
        "input_bytes": report.size_bytes,
        "files": report.files,
        "lines": report.lines,
        "params": asdict(report.params),
        "runs": runs,
        "targets": [{"target": t, "measured": m, "pass": ok} for t, m, ok in report.targets()],
        "failures": report.failures,
    }


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    a = parse_args(argv)
    params = job_params(a)
    job = ensure_job(a.out_dir, params)
    size, files, lines = measure_input(job)
    report = Report(size, files, lines, params)
    run_all(report, job, a.out_dir, cli_command(a.cli), lnav=not a.no_lnav)
    print(format_report(report))
    if a.json is not None:
        a.json.write_text(json.dumps(report_json(report), indent=2) + "\n")
    if not a.keep:
        for leftover in (job, a.out_dir / "job.parquet", a.out_dir / "job.params.json"):
            if leftover.is_dir():
                shutil.rmtree(leftover)
            else:
                leftover.unlink(missing_ok=True)
    return 0 if report.passed() else 1


if __name__ == "__main__":
    raise SystemExit(main())
