"""Ingest benchmark: two jobs through the real `correlator` CLI, beside a naive parse and lnav.

    python bench/run_bench.py [--size 1GB] [--ranks 64] [--nodes 8] [--rounds 3]
                              [--jobs synthetic,realmix] [--keep]

Two jobs of the same size (each generated or reused under bench/out):

- ``synthetic``: ``correlator.synth``'s job (the line mix ingest was tuned on);
- ``realmix``: ``bench/realmix.py``'s job, real lines resampled from ``sample_logs/`` in
  their proportions and layouts (flat, per node, ``--log-dir`` trees, consoles).

On each, several rounds, the commands alternating (their order rotates each round):
``correlator ingest``, ``bench/naive_parse.py`` (a straightforward Polars regex parse:
the yardstick), lnav's indexing when installed, and ``cat`` (the I/O floor); then the
job's rank files alone, hard-linked once into one flat folder and once into per-node
folders, ingested alternately (what the path tells ingest is the only difference).
Each figure is min / median / max over the rounds; peak RSS is the largest sum of
the resident sets of the command's whole process tree (sampled from /proc), so
ingest's workers count. On the synthetic job, `correlator analyze` (end to end and on
the timeline alone) runs once after the rounds.

Exit status: 0 when every target of every job passed, 1 otherwise.
See bench/README.md for what the figures mean.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
if str(REPO) not in sys.path:  # run as a script from anywhere: import the repo's package
    sys.path.insert(0, str(REPO))
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

from correlator.synth import generate_job, parse_size  # noqa: E402

TARGET_MB_S = 100.0
TARGET_LINES_S = 500_000.0
TARGET_RSS_BYTES = 2 * 1024**3
TARGET_ANALYZE_S = 15.0  # end to end, ingest included
TARGET_VS_NAIVE = 1.5  # ingest at least this many times faster than the naive parse
TARGET_VS_LNAV = 1.5  # ingest no slower than this many times lnav's indexing
TARGET_FLAT_VS_PER_NODE = 1.10  # flat folder within 10% of per-node folders
NO_SUCH_COMMAND = "No such command"  # click's message for an unknown subcommand
JOBS = ("synthetic", "realmix")
_RANK_FILE = re.compile(r"^rank\d+\.log$")


@dataclass
class Run:
    """One timed child process."""

    name: str
    argv: list[str]
    seconds: float = 0.0
    returncode: int | None = None
    peak_rss_bytes: int = 0  # the largest sum over the child's process tree
    # CPU-seconds of the whole tree (user + system, sampled from /proc): on a machine
    # other work shares, less noisy than wall time
    cpu_seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    skipped: str | None = None  # why it did not run
    # analyze exits 1 (failed) or 3 (inconclusive) when it worked: the job's state
    ok_codes: tuple[int, ...] = (0,)

    @property
    def ok(self) -> bool:
        return self.skipped is None and self.returncode in self.ok_codes


@dataclass
class Spread:
    """min / median / max seconds of a command's successful rounds."""

    runs: list[Run]

    @property
    def seconds(self) -> list[float]:
        return sorted(r.seconds for r in self.runs if r.ok)

    @property
    def ok(self) -> bool:
        return bool(self.runs) and all(r.ok for r in self.runs)

    @property
    def median(self) -> float:
        s = self.seconds
        return statistics.median(s) if s else 0.0

    @property
    def cpu_median(self) -> float:
        cpu = [r.cpu_seconds for r in self.runs if r.ok]
        return statistics.median(cpu) if cpu else 0.0

    @property
    def peak_rss(self) -> int:
        return max((r.peak_rss_bytes for r in self.runs), default=0)

    def text(self) -> str:
        s = self.seconds
        return f"{s[0]:6.2f} / {self.median:6.2f} / {s[-1]:6.2f} s" if s else "n/a"


@dataclass
class JobParams:
    size: int
    ranks: int
    nodes: int
    scenario: str
    skew: str
    seed: int


@dataclass
class Report:
    """One job's figures."""

    size_bytes: int
    files: int
    lines: int
    params: JobParams
    runs: dict[str, Run] = field(default_factory=dict)  # the first round's, and the one-off runs
    # ingest's own failures on this input ("could not parse/ingest" problems, and lines
    # the timeline's file table does not account for): an internal error is kept as raw
    # lines, not raised, so speed alone would hide it
    failures: list[str] | None = None
    label: str = "synthetic"
    rounds: dict[str, list[Run]] = field(default_factory=dict)
    layout_bytes: int = 0  # the rank files of the flat / per-node comparison

    def spread(self, name: str) -> Spread:
        runs = self.rounds.get(name)
        if runs is None:
            run = self.runs.get(name)
            runs = [run] if run is not None else []
        return Spread(runs)

    def rate(self, name: str) -> tuple[float, float]:
        """(MB/s, lines/s) of a command's median run over the whole input."""
        sp = self.spread(name)
        if not sp.ok or sp.median <= 0:
            return 0.0, 0.0
        return self.size_bytes / 1e6 / sp.median, self.lines / sp.median

    def ratio(self, slower: str, faster: str) -> float | None:
        a, b = self.spread(slower), self.spread(faster)
        if not (a.ok and b.ok and a.median > 0 and b.median > 0):
            return None
        return a.median / b.median

    def cpu_ratio(self, slower: str, faster: str) -> float | None:
        a, b = self.spread(slower), self.spread(faster)
        if not (a.ok and b.ok and a.cpu_median > 0 and b.cpu_median > 0):
            return None
        return a.cpu_median / b.cpu_median

    def targets(self) -> list[tuple[str, str, bool]]:
        """(label, measured, passed) for each target that applies to this job."""
        ingest = self.spread("ingest")
        ran = ingest.ok
        rss = ingest.peak_rss
        out = []
        if self.label == "synthetic":
            mb_s, lines_s = self.rate("ingest")
            out += [
                (f"throughput >= {TARGET_MB_S:.0f} MB/s", f"{mb_s:,.1f} MB/s", ran and mb_s >= TARGET_MB_S),
                (f"lines/s >= {TARGET_LINES_S:,.0f}", f"{lines_s:,.0f} lines/s", ran and lines_s >= TARGET_LINES_S),
            ]
        out += [
            ("peak RSS < 2 GB (tree)", _mib(rss), ran and 0 < rss < TARGET_RSS_BYTES),
            ("every line parsed", _failures_text(self.failures), ran and self.failures == []),
        ]
        naive = self.ratio("naive", "ingest")
        if naive is not None or "naive" in self.rounds:
            out.append((f"vs naive parse >= {TARGET_VS_NAIVE}x", _x(naive),
                        naive is not None and naive >= TARGET_VS_NAIVE))
        lnav = self.spread("lnav")
        if lnav.runs and lnav.runs[0].skipped is None:
            r = self.ratio("ingest", "lnav")
            out.append((f"ingest <= {TARGET_VS_LNAV}x lnav", _x(r), r is not None and r <= TARGET_VS_LNAV))
        if "ingest-flat" in self.rounds:
            r = self.ratio("ingest-flat", "ingest-per-node")
            out.append((f"flat <= {TARGET_FLAT_VS_PER_NODE:.2f}x per-node", _x(r),
                        r is not None and r <= TARGET_FLAT_VS_PER_NODE))
        out += self._analyze_target()
        return out

    def _analyze_target(self) -> list[tuple[str, str, bool]]:
        run = self.runs.get("analyze")
        if run is None or run.skipped:
            return []
        return [(f"analyze end to end < {TARGET_ANALYZE_S:.0f} s", f"{run.seconds:,.1f} s",
                 run.ok and run.seconds < TARGET_ANALYZE_S)]

    def passed(self) -> bool:
        return all(ok for _, _, ok in self.targets())


def _x(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


# --------------------------------------------------------------------------- arguments


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", default="1GB", type=_size_arg, help="input size of each job: 20MB, 1GB, 2GiB")
    p.add_argument("--ranks", type=int, default=64)
    p.add_argument("--nodes", type=int, default=8)
    p.add_argument("--scenario", default="oom-cascade", help="the synthetic job's planted failure")
    p.add_argument("--skew", default="30s")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rounds", type=int, default=3, help="rounds of each compared command (default 3)")
    p.add_argument("--jobs", default="synthetic,realmix", type=_jobs_arg,
                   help="which jobs, comma-separated: synthetic, realmix (default both)")
    p.add_argument("--no-layouts", action="store_true",
                   help="skip the flat / per-node comparison of the rank files")
    p.add_argument("--no-naive", action="store_true", help="skip the naive Polars parse")
    p.add_argument(
        "--keep",
        action="store_true",
        help="keep the jobs and the Parquet output under --out-dir for the next run to reuse",
    )
    p.add_argument(
        "--out-dir",
        type=Path,
        default=BENCH_DIR / "out",
        help="where the jobs and outputs go (default: bench/out, gitignored)",
    )
    p.add_argument(
        "--cli",
        default=None,
        help="command that runs correlator (default: `correlator` on PATH, "
        "else `python -m correlator` through this Python)",
    )
    p.add_argument("--no-lnav", action="store_true", help="do not time lnav even if installed")
    p.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    return p.parse_args(argv)


def _size_arg(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _jobs_arg(text: str) -> list[str]:
    jobs = [j.strip() for j in text.split(",") if j.strip()]
    bad = [j for j in jobs if j not in JOBS]
    if bad or not jobs:
        raise argparse.ArgumentTypeError(f"jobs are {', '.join(JOBS)}; not {', '.join(bad) or 'none'}")
    return jobs


def cli_command(explicit: str | None) -> list[str]:
    if explicit:
        return shlex.split(explicit)
    found = shutil.which("correlator")
    # `-m correlator` is what the installed script runs (correlator/__main__.py), which
    # starts ingest's workers before it loads the CLI
    return [found] if found else [sys.executable, "-m", "correlator"]


# --------------------------------------------------------------------------- the jobs


def job_params(a: argparse.Namespace) -> JobParams:
    return JobParams(a.size, a.ranks, a.nodes, a.scenario, a.skew, a.seed)


def ensure_job(out_dir: Path, params: JobParams, kind: str = "synthetic") -> Path:
    """Generate out_dir/<job> unless a job with exactly these parameters is already there."""
    name = "job" if kind == "synthetic" else kind
    job = out_dir / name
    stamp = out_dir / f"{name}.params.json"  # beside the job, so ingest never reads it
    wanted = {**asdict(params), "kind": kind}
    if kind == "synthetic":
        wanted.pop("kind")  # as earlier versions wrote it: their kept jobs stay reusable
    if job.is_dir() and stamp.is_file() and json.loads(stamp.read_text()) == wanted:
        print(f"reusing {job} (same parameters)", file=sys.stderr)
        return job
    out_dir.mkdir(parents=True, exist_ok=True)
    if job.exists():
        shutil.rmtree(job)
    stamp.unlink(missing_ok=True)
    started = time.perf_counter()
    if kind == "synthetic":
        generate_job(job, ranks=params.ranks, nodes=params.nodes, size=params.size,
                     scenario=params.scenario, skew=params.skew, seed=params.seed)
    else:
        # in a child process: the generator's memory must not stay in the bench's own,
        # which every timed command is forked from
        subprocess.run([sys.executable, str(BENCH_DIR / "realmix.py"), str(job), "--size", str(params.size),
                        "--ranks", str(params.ranks), "--nodes", str(params.nodes), "--seed", str(params.seed)],
                       check=True, stdout=subprocess.DEVNULL)
    print(f"generated {job} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    stamp.write_text(json.dumps(wanted) + "\n")
    return job


def layout_pair(job: Path, out_dir: Path) -> tuple[Path, Path, int]:
    """The job's rank files hard-linked into one flat folder and into per-node folders.

    Same bytes, same file names: only what the path says of the node differs. A rank
    file's node is its directory in the job (`gpu-node-03/rank007.log`) or, for a
    rank file at the top, the node its rank number falls in (filled like the others).
    """
    name = job.name
    flat, per_node = out_dir / f"{name}-flat", out_dir / f"{name}-per-node"
    for d in (flat, per_node):
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    size = 0
    for path in sorted(job.rglob("*")):
        if not (path.is_file() and _RANK_FILE.match(path.name)):
            continue
        node = path.parent.name if path.parent != job else "top"
        (per_node / node).mkdir(exist_ok=True)
        os.link(path, per_node / node / path.name)
        os.link(path, flat / path.name)
        size += path.stat().st_size
    return flat, per_node, size


def measure_input(job: Path) -> tuple[int, int, int]:
    """(bytes, files, lines). Reading everything once also warms the page cache for every tool."""
    per_file = file_lines(job)
    return sum(size for size, _ in per_file.values()), len(per_file), sum(n for _, n in per_file.values())


def file_lines(job: Path, *, to_last_text: bool = False) -> dict[str, tuple[int, int]]:
    """(bytes, newlines) of each file, by its path relative to the job; with
    ``to_last_text``, the number of its last line that holds text instead of its
    newlines (trailing blank lines make no event, so the timeline ends there)."""
    out = {}
    for path in sorted(p for p in job.rglob("*") if p.is_file()):
        size = lines = last = 0
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 22):
                size += len(chunk)
                text = chunk.rstrip()
                if text:
                    last = lines + text.count(b"\n") + 1
                lines += chunk.count(b"\n")
        out[path.relative_to(job).as_posix()] = (size, last if to_last_text else lines)
    return out


# --------------------------------------------------------------------------- timing


class TreeRss:
    """Samples the summed resident set of a process and all its descendants, and
    each one's CPU time.

    ``ru_maxrss`` is one process's peak; ingest's workers are other processes, and the
    target is for all of them together. Pages shared between them count once per
    process (an over-estimate, on the safe side). CPU time is each process's last
    sample (up to one interval of it may be missed), summed.
    """

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        self.pid = pid
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._page = os.sysconf("SC_PAGE_SIZE")
        self._tick = os.sysconf("SC_CLK_TCK")
        self.cpu: dict[int, float] = {}
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.sample())
            self._stop.wait(self.interval)

    def sample(self) -> int:
        total, todo, seen = 0, [self.pid], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                with open(f"/proc/{pid}/statm") as fh:
                    total += int(fh.read().split()[1]) * self._page
                with open(f"/proc/{pid}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                self.cpu[pid] = (int(fields[11]) + int(fields[12])) / self._tick  # utime, stime
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children") as fh:
                        todo.extend(int(c) for c in fh.read().split())
            except (OSError, ValueError):
                continue  # exited meanwhile
        return total


def timed(name: str, argv: list[str], *, shell: bool = False) -> Run:
    """Run one child; wall time and the peak summed RSS of its process tree."""
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
    with TreeRss(proc.pid) as rss:
        out, err = _drain(proc)
        _, status, usage = os.wait4(proc.pid, 0)
    run.seconds = time.perf_counter() - started
    run.returncode = os.waitstatus_to_exitcode(status)
    proc.returncode = run.returncode
    # ru_maxrss only for a child too short-lived for the sampler: a forked child starts
    # with its parent's resident set as its high-water mark (a bench that generated a
    # job in-process made `cat` look 1.2 GB), so it is no measure of the command itself
    run.peak_rss_bytes = rss.peak or usage.ru_maxrss * 1024  # kilobytes on Linux
    # wait4 counts the child and the descendants reaped below it exactly; a worker left
    # unreaped on the way out (ingest does not wait for its pool) only in the samples
    run.cpu_seconds = max(usage.ru_utime + usage.ru_stime, sum(rss.cpu.values()))
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


def _ingest_failures(parquet: Path, lines: dict[str, int] | None = None) -> list[str] | None:
    """The problems in the timeline's metadata where ingest failed on a file or batch,
    and, given each input file's last line with text, files whose lines the timeline's
    file table does not all account for (files ingest leaves out on purpose, such as
    truth.json, are not in that table and not counted)."""
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(parquet).metadata.metadata or {}
        problems = json.loads(meta.get(b"correlator.problems", b"[]"))
        files = json.loads(meta.get(b"correlator.files", b"[]"))
    except Exception:  # not a timeline this script can read: the target says so
        return None
    failures = [f"{p['file']}: {p['what']}" for p in problems if p["what"].startswith("could not")]
    for f in files if lines else ():
        want = lines.get(f["file"])
        if want is not None and f.get("size") is not None and int(f.get("lines") or 0) < want:
            failures.append(f"{f['file']}: the timeline accounts for {f['lines']:,} of {want:,} lines")
    return failures


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _lnav_argv(job: Path) -> list[str]:
    return ["lnav", "-n", "-N", "-c", ";SELECT count(*) AS n FROM all_logs", "-r", str(job)]


def run_rounds(commands: dict[str, list[str]], rounds: int, before: dict[str, Path] | None = None,
               ) -> dict[str, list[Run]]:
    """Each command once a round, the order rotating so none always runs first."""
    names = list(commands)
    out: dict[str, list[Run]] = {n: [] for n in names}
    for r in range(rounds):
        for i in range(len(names)):
            name = names[(i + r) % len(names)]
            if before and name in before:
                _remove(before[name])  # each run writes its output afresh
            shell = name == "cat"
            out[name].append(timed(name, commands[name], shell=shell))
    return out


def run_all(report: Report, job: Path, out_dir: Path, cli: list[str], lnav: bool, *,
            rounds: int = 1, naive: bool = True, layouts: bool = False, analyze: bool = True) -> None:
    parquet = out_dir / f"{job.name}.parquet"
    naive_out = out_dir / f"{job.name}.naive.parquet"
    commands: dict[str, list[str]] = {"ingest": [*cli, "ingest", str(job), "--out", str(parquet)]}
    if naive:
        commands["naive"] = [sys.executable, str(BENCH_DIR / "naive_parse.py"), str(job), str(naive_out)]
    lnav_there = lnav and shutil.which("lnav") is not None
    if lnav_there:
        commands["lnav"] = _lnav_argv(job)
    quoted = shlex.quote(str(job))
    commands["cat"] = [f"find {quoted} -type f -print0 | xargs -0 cat > /dev/null"]
    report.rounds.update(run_rounds(commands, rounds, {"ingest": parquet, "naive": naive_out}))
    for name, runs in report.rounds.items():
        report.runs[name] = runs[0]
    if not lnav_there:
        report.runs["lnav"] = Run("lnav", [], skipped="not installed (apt-get install -y lnav)"
                                  if lnav else "disabled with --no-lnav")
    ingest = report.runs["ingest"]
    if ingest.returncode == 0 and not parquet.exists():
        ingest.returncode, ingest.stderr = -1, f"exit 0 but {parquet} was not written"
    if ingest.ok and parquet.exists():
        last = file_lines(job, to_last_text=True)
        report.failures = _ingest_failures(parquet, {k: n for k, (_, n) in last.items()})
    if layouts:
        flat, per_node, report.layout_bytes = layout_pair(job, out_dir)
        outs = {"ingest-flat": out_dir / f"{job.name}-flat.parquet",
                "ingest-per-node": out_dir / f"{job.name}-per-node.parquet"}
        report.rounds.update(run_rounds(
            {"ingest-flat": [*cli, "ingest", str(flat), "--out", str(outs["ingest-flat"])],
             "ingest-per-node": [*cli, "ingest", str(per_node), "--out", str(outs["ingest-per-node"])]},
            rounds, outs))
        for leftover in (flat, per_node, *outs.values()):
            _remove(leftover)
    if not analyze:
        return
    run = timed("analyze", [*cli, "analyze", str(job), "--format", "json"])
    run.ok_codes = (0, 1, 3)
    if run.returncode not in (0, None) and NO_SUCH_COMMAND in run.stderr:
        run.skipped = "the CLI has no `analyze` command yet"
    report.runs["analyze"] = run
    analysis = Run("analysis", [], skipped="no timeline (ingest failed)")
    if run.skipped:
        analysis.skipped = run.skipped
    elif parquet.exists():
        analysis = timed("analysis", [*cli, "analyze", str(parquet), "--format", "json"])
        analysis.ok_codes = (0, 1, 3)
    report.runs["analysis"] = analysis


# --------------------------------------------------------------------------- report


def _mib(n: int) -> str:
    return f"{n / 1024**2:,.0f} MiB" if n else "n/a"


_NAMES = ("ingest", "naive", "lnav", "cat", "analyze", "analysis", "ingest-flat", "ingest-per-node")


def _run_line(report: Report, name: str) -> str:
    label = f"{name:<8}" if len(name) <= 8 else name
    sp = report.spread(name)
    if not sp.runs:
        return f"{label}: not run"
    first = sp.runs[0]
    if first.skipped:
        return f"{label}: skipped ({first.skipped})"
    failed = next((r for r in sp.runs if not r.ok), None)
    status = "" if failed is None else f"  FAILED (exit {failed.returncode}): {_last_line(failed.stderr)}"
    cpu = f"  CPU {sp.cpu_median:6.1f} s" if sp.cpu_median else ""
    if name.startswith("ingest-"):
        mb_s = report.layout_bytes / 1e6 / sp.median if sp.median else 0.0
        return f"{label}: {sp.text()}  {mb_s:9,.1f} MB/s{cpu}  peak RSS {_mib(sp.peak_rss)}{status}"
    mb_s, lines_s = report.rate(name)
    return (
        f"{label}: {sp.text()}  {mb_s:9,.1f} MB/s  {lines_s:12,.0f} lines/s{cpu}  "
        f"peak RSS {_mib(sp.peak_rss)}{status}"
    )


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "(no stderr)"


def format_report(report: Report) -> str:
    p = report.params
    n = max((len(r) for r in report.rounds.values()), default=1)
    what = f"scenario {p.scenario}, " if report.label == "synthetic" else ""
    out = [
        f"job     : {report.label}: {p.ranks} ranks / {p.nodes} nodes, {what}seed {p.seed}; "
        f"min / median / max of {n} round{'s' if n != 1 else ''}",
        f"input   : {report.size_bytes / 1e6:,.1f} MB in {report.files:,} files, {report.lines:,} lines",
    ]
    out += [_run_line(report, name) for name in _NAMES
            if name in report.runs or name in report.rounds or name in ("ingest", "analyze", "lnav")]
    ratios = [("naive / ingest", report.ratio("naive", "ingest")),
              ("ingest / lnav", report.ratio("ingest", "lnav")),
              ("flat / per-node", report.ratio("ingest-flat", "ingest-per-node"))]
    shown = [f"{label} {_x(r)}" for label, r in ratios if r is not None]
    if shown:
        out.append("ratios  : " + ",  ".join(shown) + "  (of median wall times)")
    cpu = [(label, report.cpu_ratio(*names)) for label, names in (
        ("naive / ingest", ("naive", "ingest")), ("ingest / lnav", ("ingest", "lnav")),
        ("flat / per-node", ("ingest-flat", "ingest-per-node")))]
    shown = [f"{label} {_x(r)}" for label, r in cpu if r is not None]
    if shown:
        out.append("CPU     : " + ",  ".join(shown) + "  (of median CPU-seconds, for reference)")
    out.append("targets:")
    out += [
        f"  {label:<26} {measured:>18}  {'PASS' if ok else 'FAIL'}"
        for label, measured, ok in report.targets()
    ]
    for failure in (report.failures or [])[:5]:
        out.append(f"  failed: {failure[:150]}")
    lnav = report.runs.get("lnav")
    if lnav is not None and lnav.ok and lnav.stdout.strip():
        out.append(f"lnav counted: {' '.join(lnav.stdout.split())} (messages of the files it recognised as logs)")
    return "\n".join(out)


def report_json(report: Report) -> dict[str, object]:
    runs = {}
    for name, run in report.runs.items():
        mb_s, lines_s = report.rate(name)
        d = asdict(run)
        d.pop("stdout")
        stderr = d.pop("stderr")
        d["stderr_tail"] = _last_line(stderr) if stderr else ""
        sp = report.spread(name)
        runs[name] = {**d, "mb_per_s": mb_s, "lines_per_s": lines_s, "seconds_all": sp.seconds,
                      "seconds_median": sp.median, "peak_rss_all_rounds": sp.peak_rss}
    for name in report.rounds:
        if name not in runs:
            sp = report.spread(name)
            runs[name] = {"seconds_all": sp.seconds, "seconds_median": sp.median, "peak_rss_all_rounds": sp.peak_rss}
    return {
        "job": report.label,
        "input_bytes": report.size_bytes,
        "files": report.files,
        "lines": report.lines,
        "params": asdict(report.params),
        "runs": runs,
        "ratios": {"naive_over_ingest": report.ratio("naive", "ingest"),
                   "ingest_over_lnav": report.ratio("ingest", "lnav"),
                   "flat_over_per_node": report.ratio("ingest-flat", "ingest-per-node")},
        "targets": [{"target": t, "measured": m, "pass": ok} for t, m, ok in report.targets()],
        "failures": report.failures,
    }


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    a = parse_args(argv)
    params = job_params(a)
    cli = cli_command(a.cli)
    reports = []
    for kind in a.jobs:
        job = ensure_job(a.out_dir, params, kind)
        size, files, lines = measure_input(job)
        report = Report(size, files, lines, params, label=kind)
        run_all(report, job, a.out_dir, cli, lnav=not a.no_lnav, rounds=max(1, a.rounds),
                naive=not a.no_naive, layouts=not a.no_layouts, analyze=kind == "synthetic")
        reports.append(report)
        print(format_report(report), flush=True)
        print()
    if a.json is not None:
        figures = [report_json(r) for r in reports]
        a.json.write_text(json.dumps(figures[0] if len(figures) == 1 else figures, indent=2) + "\n")
    if not a.keep:
        for kind in a.jobs:
            name = "job" if kind == "synthetic" else kind
            for suffix in ("", ".parquet", ".naive.parquet", ".params.json", ".manifest.json"):
                _remove(a.out_dir / f"{name}{suffix}")
    return 0 if all(r.passed() for r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
