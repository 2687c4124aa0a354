"""Batch post-mortem: analyse every job under a directory, then summarise them all.

``correlator batch ROOT --out reports/`` writes::

    reports/summary.parquet          one row per job (SUMMARY_SCHEMA)
    reports/index.html, index.md     failures by category over time, inconclusive
                                     jobs, repeat offenders (nodes / GPUs), all jobs
    reports/jobs/<job>.html          the job's report
    reports/jobs/<job>.json          the job's verdict
    reports/timelines/<job>.parquet  the job's timeline (clock-aligned, secrets masked in
                                     every text column and in its files / problems)
    reports/.state/<job>.json        the job's summary row; written last, so its
                                     presence means "done" (resume skips the job)

Jobs run on an engine (``correlator.engine``), one job per task, each job's own
ingest in the task's process: ``--engine local`` (the default) a pool of spawned
processes on this machine, ``--engine ray`` Ray tasks on a cluster whose nodes see
ROOT and OUT at the same paths. Either way a job that raises becomes an ``error``
row and is retried on the next run; a job whose worker dies (segfault, out of
memory) is named in an ``error`` row after the engine's retries, and the batch goes
on; a job past ``job_timeout`` is stopped and becomes an ``error`` row. Only the
summary rows come back to this process; reports and timelines are written by the
tasks where they run, each atomically, and ``.state/<job>.json`` last.

``correlator.timeline.collection.open_collection(con, out_dir)`` gives DuckDB views over the result: ``summary`` and
``events`` (all timelines, with their ``job`` column), plus ``files`` and
``problems`` of every job.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from correlator import __version__
from correlator.batch.index import write_index
from correlator.engine import Engine, Task, engine_for
from correlator.output import OutputRefused, atomic_path, atomic_write_text
from correlator.progress import enabled as progress_bars
from correlator.progress import quiet as progress_quiet
from correlator.progress import step
from correlator.report.terminal import clean_line
from correlator.timeline.collection import SUMMARY_FILE, is_collection
from correlator.timeline.parts_dir import is_timeline_dir
from correlator.verdict import Verdict

SUMMARY_SCHEMA = pa.schema([
    ("job", pa.string()),
    ("path", pa.string()),
    ("status", pa.string()),  # failed | healthy | inconclusive | error
    ("error", pa.string()),
    ("category", pa.string()),
    ("rule_id", pa.string()),
    ("title", pa.string()),
    ("initiating_rank", pa.int32()),
    ("initiating_node", pa.string()),
    # the directory name(s) the initiating node went by where the logs name its host
    ("initiating_node_alias", pa.string()),
    ("initiating_local_rank", pa.int32()),
    ("initiating_gpu", pa.string()),
    ("all_ranks", pa.bool_()),
    ("confidence", pa.float64()),
    ("first_file", pa.string()),
    ("first_line", pa.int64()),
    ("first_ts", pa.timestamp("us", tz="UTC")),
    ("failure_ts", pa.timestamp("us", tz="UTC")),
    ("job_start", pa.timestamp("us", tz="UTC")),
    ("job_end", pa.timestamp("us", tz="UTC")),
    ("ranks", pa.int32()),
    ("nodes", pa.int32()),
    ("node_list", pa.list_(pa.string())),
    # the nodes of node_list no log line names as a host: directory names, one machine
    # of this job each (the repeat-offender table keys them job/node)
    ("path_nodes", pa.list_(pa.string())),
    ("files", pa.int32()),
    ("events", pa.int64()),
    ("problems", pa.int32()),
    ("collateral_groups", pa.int32()),
    ("collateral_ranks", pa.int32()),
    ("hypotheses", pa.int32()),
    ("missing", pa.list_(pa.string())),
    ("ingest_s", pa.float64()),
    ("analyze_s", pa.float64()),
    ("report_s", pa.float64()),
    ("total_s", pa.float64()),
    ("analysed_at", pa.timestamp("us", tz="UTC")),
    ("correlator_version", pa.string()),
    ("report", pa.string()),
    ("timeline", pa.string()),
])

_TS_FIELDS = {f.name for f in SUMMARY_SCHEMA if pa.types.is_timestamp(f.type)}


@dataclass
class BatchOptions:
    workers: int | None = None  # default: CPU count
    force: bool = False
    redact: bool = True
    rules_dirs: tuple[str, ...] = ()
    builtin_rules: bool = True
    tz: str = "UTC"
    max_events: int = 20000
    html: bool = True
    exclude: tuple[str, ...] = ()  # globs of files to leave out of every job (like ingest --exclude)
    job_timeout: float | None = None  # seconds a job may take; past it, an error row and the batch goes on
    engine: str = "local"  # where the jobs run: correlator.engine.ENGINES
    address: str | None = None  # the Ray cluster's, for engine "ray" (None: RAY_ADDRESS, else a local instance)


@dataclass
class BatchResult:
    out_dir: Path
    jobs: int
    analysed: int
    skipped: int
    errors: int
    seconds: float
    rows: list[dict] = field(default_factory=list)


# --------------------------------------------------------------------------- finding jobs


def _job_dirs(root: str) -> list[Path]:
    if any(ch in root for ch in "*?["):
        return [Path(p) for p in sorted(glob.glob(root)) if Path(p).is_dir()]
    base = Path(root)
    if not base.is_dir():
        raise FileNotFoundError(f"{root}: not a directory")
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def find_jobs(root: str, exclude: Iterable[Path] = ()) -> list[tuple[str, Path]]:
    """(name, directory) of every job: ROOT's subdirectories, or the directories a
    glob names (``'/logs/2024-06-*'``). A batch output (``summary.parquet``) is
    not a job, nor is anything under ``exclude`` (this batch's own output).

    Names are the directory names, safe as file names. Two directories whose names
    come out alike (``job a`` and ``job_a``; ``Job`` and ``job`` on a case-blind
    disk; ``x/a`` and ``y/a`` from a glob) each get a short hash of their path, so
    no job's outputs overwrite another's, and the same job keeps its name next time."""
    skip = {p.resolve() for p in exclude}
    dirs = [d for d in _job_dirs(root)
            if d.resolve() not in skip and not any(d.resolve().is_relative_to(s) for s in skip)
            and not is_collection(d) and not is_timeline_dir(d)]
    names: dict[str, int] = Counter(_safe(d.name).lower() for d in dirs)
    out = []
    for d in dirs:
        name = _safe(d.name)
        if names[name.lower()] > 1:
            name = f"{name}-{hashlib.sha1(str(d.resolve()).encode()).hexdigest()[:8]}"
        out.append((name, d))
    return out


def check_out_dir(root: str, out: Path) -> None:
    """Raise ``OutputRefused`` when ``out`` would write into a job: ROOT itself
    (its subdirectories would become jobs), a job's directory, or a place inside
    one (the job would read its own reports). A directory of ROOT that is this
    batch's output (``.state`` or ``summary.parquet`` in it) is fine: it is left out."""
    o = out.resolve()
    if not any(ch in root for ch in "*?[") and o == Path(root).resolve():
        raise OutputRefused(f"refusing to write the batch output into {root} itself: name a directory "
                            f"outside it, or a new one inside it (e.g. {root}/reports)")
    for d in _job_dirs(root):
        r = d.resolve()
        ours = o == r and ((r / ".state").is_dir() or is_collection(r) or not any(r.iterdir()))
        if (o == r and not ours) or (o != r and o.is_relative_to(r)):
            raise OutputRefused(f"refusing to write the batch output into the job directory {d}: "
                                "it would be analysed, or overwrite its logs")


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", name).strip(".") or "job"


# --------------------------------------------------------------------------- one job (worker)


# Processes a job's ingest parses with (None: ingest's default, every CPU), set per
# worker by ``_worker_init``; 1 where a job runs outside a pool.
_INGEST_WORKERS: int | None = 1


def analyse_job(name: str, path: str, out_dir: str, opts: BatchOptions) -> dict:
    """Analyse one job and write its outputs; returns its summary row. Never raises."""
    from correlator.ingest import IngestOptions

    out = Path(out_dir)
    started = time.perf_counter()
    row: dict = {"job": name, "path": str(path), "status": "error", "analysed_at": datetime.now(UTC),
                 "correlator_version": __version__}
    # the raw timeline, in a private directory beside the outputs (same disk; a
    # unique name that no planted link can stand in for), gone when the job is
    scratch = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".part", dir=out / "timelines"))
    tmp = scratch / "timeline.parquet"
    if os.environ.get("CORRELATOR_TEST_KILL_WORKER_ON") == name:
        os._exit(70)  # fault injection for the tests: a worker dying as if killed by the OOM killer
    if os.environ.get("CORRELATOR_TEST_HANG_WORKER_ON") == name:
        time.sleep(120)  # fault injection for the tests: a job that takes far too long
    try:
        from correlator.analysis.analyze import analysis_open
        from correlator.ingest import ingest
        from correlator.report.common import report_data_on
        from correlator.report.redact import redact_verdict

        options = IngestOptions(tz=opts.tz, job=name, workers=_INGEST_WORKERS, echo_problems=False,
                                exclude=opts.exclude)
        result = ingest(path, out_parquet=tmp, options=options)
        t_ingest = time.perf_counter()
        # the verdict, then what the report cites and the summary's facts, on one open timeline
        with analysis_open(str(tmp), rules_dirs=opts.rules_dirs, builtin_rules=opts.builtin_rules,
                           options=options) as (verdict, con):
            t_analyze = time.perf_counter()
            data = report_data_on(con, verdict, opts.max_events if opts.html else 0)
            events, facts = data.events, data.facts
            start, end, node_list, path_nodes = con.execute(
                "SELECT min(ts), max(ts), list(DISTINCT node ORDER BY node) FILTER (WHERE node IS NOT NULL), "
                "list(DISTINCT node ORDER BY node) FILTER (WHERE node IS NOT NULL AND node NOT IN "
                "(SELECT unnest(hosts) FROM files)) FROM events").fetchall()[0]
            alias = None
            if verdict.initiating and verdict.initiating.node is not None:
                alias = con.execute(
                    "SELECT string_agg(DISTINCT node_alias, ', ' ORDER BY node_alias) FROM events "
                    "WHERE node = ? AND node_alias IS DISTINCT FROM node", [verdict.initiating.node]).fetchall()[0][0]
            local = device = None
            if verdict.initiating and verdict.initiating.rank is not None:
                # the device from NCCL's init line ("cudaDev 3") when printed, else the local rank
                # (the init lines picked by position first: a filter alone read every event's attrs)
                local = con.execute("SELECT mode(local_rank) FROM events WHERE rank = ?",
                                    [verdict.initiating.rank]).fetchall()[0][0]
                device = con.execute(
                    "SELECT mode(TRY_CAST(attrs['cuda_dev'] AS INTEGER)) FROM timeline_raw_rows WHERE event_row IN "
                    "(SELECT event_row FROM timeline_raw_rows WHERE rank = ? AND kind = 'nccl.comm_init')",
                    [verdict.initiating.rank]).fetchall()[0][0]
                device = device if device is not None else local
        timeline = out / "timelines" / f"{name}.parquet"
        _finish_timeline(tmp, timeline, verdict, opts.redact)
        shown = redact_verdict(verdict) if opts.redact else verdict
        jobs_dir = out / "jobs"
        atomic_write_text(jobs_dir / f"{name}.json", shown.model_dump_json(indent=2) + "\n")
        if opts.html:
            from correlator.report.html import render_html

            atomic_write_text(jobs_dir / f"{name}.html", render_html(verdict, events, facts, redact=opts.redact))
        t_report = time.perf_counter()
        row.update(_verdict_fields(shown))
        gpu = shown.initiating.gpu if shown.initiating else None
        row.update({
            "initiating_local_rank": local,
            # keyed by CUDA device where known, so repeat offenders group whatever the evidence
            "initiating_gpu": f"cuda:{device}" if device is not None else gpu,
            "job_start": start, "job_end": end, "node_list": node_list or [], "path_nodes": path_nodes or [],
            "initiating_node_alias": alias,
            "problems": len(result.problems.items),
            "ingest_s": round(t_ingest - started, 3), "analyze_s": round(t_analyze - t_ingest, 3),
            "report_s": round(t_report - t_analyze, 3),
            "report": f"jobs/{name}.html" if opts.html else None, "timeline": f"timelines/{name}.parquet",
        })
        row["total_s"] = round(time.perf_counter() - started, 3)
        atomic_write_text(out / ".state" / f"{name}.json", json.dumps(_jsonable(row)) + "\n")
        return row
    except Exception as exc:  # a bad job must never stop the batch: it becomes an error row
        from correlator.report.redact import redact

        msg = f"{type(exc).__name__}: {exc}"
        row["error"] = redact(msg)[:2000]
        row["total_s"] = round(time.perf_counter() - started, 3)
        if os.environ.get("CORRELATOR_DEBUG"):
            traceback.print_exc()
        return row
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _verdict_fields(v: Verdict) -> dict:
    init, rc, fd = v.initiating, v.root_cause, v.first_deviating
    failure = (rc.evidence.ts if rc and rc.evidence and rc.evidence.ts else None) or (fd.ts if fd else None)
    return {
        "status": v.status,
        "category": rc.category if rc else None, "rule_id": rc.rule_id if rc else None,
        "title": rc.title if rc else None,
        "initiating_rank": init.rank if init else None, "initiating_node": init.node if init else None,
        "all_ranks": init.all_ranks if init else None, "confidence": init.confidence if init else None,
        "first_file": fd.file if fd else None, "first_line": fd.line_no if fd else None,
        "first_ts": fd.ts if fd else None, "failure_ts": failure,
        "ranks": v.ranks, "nodes": v.nodes, "files": v.files, "events": v.events,
        "collateral_groups": len(v.collateral),
        "collateral_ranks": len({r for c in v.collateral for r in c.ranks}),
        "hypotheses": len(v.hypotheses), "missing": list(v.missing),
    }


def _finish_timeline(tmp: Path, dest: Path, verdict: Verdict, redact: bool) -> None:
    """The ingested timeline, rewritten batch by batch: ``ts_aligned`` from the
    verdict's clock offsets (so SQL over the batch sees aligned time) and, unless
    turned off, secrets masked in every text column and in the key-value metadata
    (files, problems: file names, messages), which is kept."""
    from correlator.report.redact import redact_parquet

    offsets = {c.node: c.offset_s for c in verdict.clock if c.applied}
    # the scratch file is given up: renamed into place when nothing in it changes
    redact_parquet(tmp, dest, transform=(lambda t: _align(t, offsets)) if offsets else None, redact=redact,
                   move=True)


def _align(t: pa.Table, offsets: dict[str, float]) -> pa.Table:
    nodes = pa.array(list(offsets), pa.string())
    micros = pa.array([round(o * 1e6) for o in offsets.values()], pa.int64())
    idx = pc.index_in(t.column("node"), value_set=nodes)
    off = pc.fill_null(pc.take(micros, idx), 0)
    ts_us = pc.cast(t.column("ts"), pa.int64())
    aligned = pc.cast(pc.subtract(ts_us, off), t.schema.field("ts_aligned").type)
    return t.set_column(t.schema.get_field_index("ts_aligned"), "ts_aligned", aligned)


def _jsonable(row: dict) -> dict:
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in row.items()}


def _from_json(row: dict) -> dict:
    return {k: (datetime.fromisoformat(v) if k in _TS_FIELDS and isinstance(v, str) else v) for k, v in row.items()}


# --------------------------------------------------------------------------- the batch


def run_batch(
    root: str,
    out_dir: str,
    opts: BatchOptions | None = None,
    *,
    progress: TextIO | None = sys.stderr,
    engine: Engine | None = None,
) -> BatchResult:
    """Analyse every job under ``root`` into ``out_dir``; write summary and index.
    ``engine``: where the jobs run (default: ``opts.engine``, made here and closed after)."""
    opts = opts or BatchOptions()
    out = Path(out_dir)
    started = time.perf_counter()
    check_out_dir(root, out)
    jobs = find_jobs(root, exclude=[out])
    for sub in ("jobs", "timelines", ".state"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    done: dict[str, dict] = {}
    todo: list[tuple[str, Path]] = []
    for name, path in jobs:
        state = out / ".state" / f"{name}.json"
        if not opts.force and state.is_file() and (out / "timelines" / f"{name}.parquet").is_file():
            try:
                done[name] = _from_json(json.loads(state.read_text()))
                continue
            except (json.JSONDecodeError, ValueError):
                pass  # a torn state file: analyse again
        todo.append((name, path))
    meter = _Progress(len(jobs), len(done), None if progress_quiet() else progress)
    rows = dict(done)
    own = engine is None
    engine = engine or (engine_for(opts.engine, workers=opts.workers, address=opts.address) if todo else None)
    try:
        with step("batch", total=len(jobs), unit="jobs") as bar:
            bar.advance(len(done))
            for row in (_run_all(todo, str(out), opts, engine) if engine is not None else ()):
                rows[row["job"]] = row
                meter.update(row)
                bar.advance()
    finally:
        if own and engine is not None:
            engine.close()
    meter.close()
    ordered = [rows[name] for name, _ in jobs if name in rows]
    write_summary(ordered, out)
    write_index(out)
    return BatchResult(out, len(jobs), len(todo), len(done), sum(r["status"] == "error" for r in ordered),
                       time.perf_counter() - started, ordered)


def _run_all(todo: list[tuple[str, Path]], out: str, opts: BatchOptions, engine: Engine) -> Iterable[dict]:
    """Every job of ``todo`` on ``engine``, one task a job; rows as jobs finish. What a
    task did wrong (``correlator.engine.Outcome``) becomes the job's error row."""
    paths = dict(todo)
    tasks = [Task(name, (name, str(path), out, opts)) for name, path in todo]
    # a job's ingest shares the machine's CPUs with the jobs beside it (see _worker_init)
    initargs = (min(engine.slots, len(todo)) if todo else 1, engine.name == "local")
    for o in engine.run(analyse_job, tasks, timeout=opts.job_timeout, init=_worker_init, initargs=initargs):
        job = (o.key, paths[o.key])
        if o.ok:
            yield o.value
        elif o.failure == "crashed":
            yield _error_row(job, "the worker process died analysing this job (crash or out of memory)")
        elif o.failure == "timed_out":
            yield _error_row(job, f"took longer than the job timeout ({opts.job_timeout:g} s): stopped")
        else:  # pickling and the like: still only this job's problem (analyse_job itself never raises)
            yield _error_row(job, o.detail)


def _error_row(job: tuple[str, Path], error: str) -> dict:
    return {"job": job[0], "path": str(job[1]), "status": "error", "analysed_at": datetime.now(UTC),
            "correlator_version": __version__, "error": error}


def _worker_init(workers: int, own_processes: bool = True) -> None:
    """Per worker process, before any job. ``own_processes``: a job alone on the machine
    may start processes of its own to parse with (not in a Ray task, which has one CPU)."""
    global _INGEST_WORKERS
    # A job's ingest shares the CPUs with the other workers' jobs: alone (one job, or
    # --workers 1) it parses in parallel as `analyze` does; else with its share.
    if not own_processes:
        _INGEST_WORKERS = 1
        return
    _INGEST_WORKERS = None if workers == 1 else max(1, (os.cpu_count() or 1) // workers)
    if workers == 1:
        # and its parsing processes start now, while this one imports the analysis,
        # as `analyze` starts them while it loads the CLI (a big job takes them;
        # a small one, parsed in-process, lets them go)
        from correlator.ingest import start_early

        start_early(os.cpu_count() or 1)
    if workers > 1:
        # Jobs already run in parallel: Polars' own thread pool per worker would
        # only make the workers fight over the cores. (Read when polars is imported.)
        os.environ.setdefault("POLARS_MAX_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    # Rules are the same for every job: parse the YAML once per worker, not once per
    # job (a third of a small job's analysis). analyze_with_events has no argument
    # for preloaded rules yet, so its module-level name is wrapped with a cache.
    import functools

    import correlator.analysis.analyze as analyze_mod

    original = analyze_mod.load_rules

    @functools.cache
    def cached(dirs: tuple, builtin: bool) -> list:
        return original(list(dirs), builtin=builtin)

    analyze_mod.load_rules = lambda dirs=(), *, builtin=True: cached(tuple(dirs), builtin)  # type: ignore[assignment]


class _Progress:
    """A plain stderr counter: one updating line on a terminal, a line per job otherwise."""

    def __init__(self, total: int, skipped: int, stream: TextIO | None) -> None:
        self.total, self.n, self.stream = total, skipped, stream
        self.t0 = time.perf_counter()
        self.tty = bool(stream and hasattr(stream, "isatty") and stream.isatty())
        self.status: Counter[str] = Counter()
        if stream and skipped:
            stream.write(f"batch: {skipped} of {total} jobs already analysed (use --force to redo)\n")

    def update(self, row: dict) -> None:
        self.n += 1
        self.status[row["status"]] += 1
        if not self.stream:
            return
        el = time.perf_counter() - self.t0
        what = row["status"]
        if row["status"] in ("failed", "inconclusive") and row.get("category"):
            what += f" {row['category']}"
            if row.get("initiating_node"):
                what += f" {row['initiating_node']}"
                if row.get("initiating_rank") is not None:
                    what += f" rank {row['initiating_rank']}"
        elif row["status"] == "error":
            what += ": " + (row.get("error") or "")[:80]
        line = f"[{self.n:>{len(str(self.total))}}/{self.total}] {el:6.1f}s  {row['job']}: {what}"
        line = clean_line(line)  # an error names files, and names come from archives
        if self.tty and progress_bars():
            return  # the batch bar counts the jobs
        if self.tty:
            self.stream.write("\r\x1b[K" + line[:150])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if not self.stream:
            return
        if self.tty and not progress_bars():
            self.stream.write("\n")
        counts = ", ".join(f"{n} {s}" for s, n in sorted(self.status.items()))
        self.stream.write(f"batch: {counts or 'nothing new'} in {time.perf_counter() - self.t0:.1f}s\n")
        self.stream.flush()


# --------------------------------------------------------------------------- summary


def write_summary(rows: list[dict], out: Path) -> None:
    table = pa.Table.from_pylist([{f.name: r.get(f.name) for f in SUMMARY_SCHEMA} for r in rows],
                                 schema=SUMMARY_SCHEMA)
    with atomic_path(out / SUMMARY_FILE) as part:
        pq.write_table(table, part)


