"""Batch post-mortem: analyse every job under a directory, then summarise them all.

``correlator batch ROOT --out reports/`` writes::

    reports/summary.parquet          one row per job (SUMMARY_SCHEMA)
    reports/index.html, index.md     failures by category over time, inconclusive
                                     jobs, repeat offenders (nodes / GPUs), all jobs
    reports/jobs/<job>.html          the job's report
    reports/jobs/<job>.json          the job's verdict
    reports/timelines/<job>.parquet  the job's timeline (clock-aligned, secrets masked)
    reports/.state/<job>.json        the job's summary row; written last, so its
                                     presence means "done" (resume skips the job)

Jobs run in worker processes from the "spawn" context (Polars' thread pool does
not survive a fork), one job per task, each job's own ingest in-process. A job
that raises becomes an ``error`` row and is retried on the next run; a worker
that dies (segfault, out of memory) breaks only the pool: the unfinished jobs go
to a fresh one, and a job unfinished at two breaks runs alone, so the one that
kills its worker is named and the batch goes on. A job past ``job_timeout`` is
stopped with its pool and becomes an ``error`` row; the others go on in a fresh one.

``open_batch(con, out_dir)`` gives DuckDB views over the result: ``summary`` and
``events`` (all timelines, with their ``job`` column), plus ``files`` and
``problems`` of every job.
"""

from __future__ import annotations

import glob
import json
import math
import multiprocessing as mp
import os
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from correlator import __version__
from correlator.timeline import sql_literal
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


def find_jobs(root: str, exclude: Iterable[Path] = ()) -> list[tuple[str, Path]]:
    """(name, directory) of every job: ROOT's subdirectories, or the directories a
    glob names (``'/logs/2024-06-*'``). Names are the directory names, made unique
    (and safe as file names) when two globbed directories share one."""
    skip = {p.resolve() for p in exclude}
    if any(ch in root for ch in "*?["):
        dirs = [Path(p) for p in sorted(glob.glob(root)) if Path(p).is_dir()]
    else:
        base = Path(root)
        if not base.is_dir():
            raise FileNotFoundError(f"{root}: not a directory")
        dirs = sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    dirs = [d for d in dirs if d.resolve() not in skip and not any(d.resolve().is_relative_to(s) for s in skip)]
    names: dict[str, int] = Counter(_safe(d.name) for d in dirs)
    out = []
    for d in dirs:
        name = _safe(d.name)
        if names[name] > 1:
            name = _safe("__".join(d.resolve().parts[-2:]))
        out.append((name, d))
    return out


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", name).strip(".") or "job"


# --------------------------------------------------------------------------- one job (worker)


def analyse_job(name: str, path: str, out_dir: str, opts: BatchOptions) -> dict:
    """Analyse one job and write its outputs; returns its summary row. Never raises."""
    from correlator.ingest import IngestOptions

    out = Path(out_dir)
    started = time.perf_counter()
    row: dict = {"job": name, "path": str(path), "status": "error", "analysed_at": datetime.now(UTC),
                 "correlator_version": __version__}
    tmp = out / "timelines" / f".{name}.{os.getpid()}.tmp.parquet"
    if os.environ.get("CORRELATOR_TEST_KILL_WORKER_ON") == name:
        os._exit(70)  # fault injection for the tests: a worker dying as if killed by the OOM killer
    if os.environ.get("CORRELATOR_TEST_HANG_WORKER_ON") == name:
        time.sleep(120)  # fault injection for the tests: a job that takes far too long
    try:
        from correlator.analyze import analyze_with_events
        from correlator.ingest import ingest
        from correlator.query import open_timeline
        from correlator.report.common import report_facts
        from correlator.report.redact import redact_verdict

        options = IngestOptions(tz=opts.tz, job=name, workers=1, echo_problems=False, exclude=opts.exclude)
        result = ingest(path, out_parquet=tmp, options=options)
        t_ingest = time.perf_counter()
        verdict, events = analyze_with_events(
            str(tmp), rules_dirs=opts.rules_dirs, builtin_rules=opts.builtin_rules, options=options,
            max_events=opts.max_events,
        )
        t_analyze = time.perf_counter()
        with open_timeline(str(tmp)) as con:
            facts = report_facts(con)
            start, end, node_list = con.execute(
                "SELECT min(ts), max(ts), list(DISTINCT node ORDER BY node) FILTER (WHERE node IS NOT NULL) "
                "FROM events").fetchone()
            local = device = None
            if verdict.initiating and verdict.initiating.rank is not None:
                # the device from NCCL's init line ("cudaDev 3") when printed, else the local rank
                local, device = con.execute(
                    "SELECT mode(local_rank), mode(TRY_CAST(attrs['cuda_dev'] AS INTEGER)) "
                    "FILTER (WHERE kind = 'nccl.comm_init') FROM events WHERE rank = ?",
                    [verdict.initiating.rank]).fetchall()[0]
                device = device if device is not None else local
        timeline = out / "timelines" / f"{name}.parquet"
        _finish_timeline(tmp, timeline, verdict, opts.redact)
        shown = redact_verdict(verdict) if opts.redact else verdict
        jobs_dir = out / "jobs"
        _atomic_write(jobs_dir / f"{name}.json", shown.model_dump_json(indent=2) + "\n")
        if opts.html:
            from correlator.report.html import render_html

            _atomic_write(jobs_dir / f"{name}.html", render_html(verdict, events, facts, redact=opts.redact))
        t_report = time.perf_counter()
        row.update(_verdict_fields(shown))
        gpu = shown.initiating.gpu if shown.initiating else None
        row.update({
            "initiating_local_rank": local,
            # keyed by CUDA device where known, so repeat offenders group whatever the evidence
            "initiating_gpu": f"cuda:{device}" if device is not None else gpu,
            "job_start": start, "job_end": end, "node_list": node_list or [],
            "problems": len(result.problems.items),
            "ingest_s": round(t_ingest - started, 3), "analyze_s": round(t_analyze - t_ingest, 3),
            "report_s": round(t_report - t_analyze, 3),
            "report": f"jobs/{name}.html" if opts.html else None, "timeline": f"timelines/{name}.parquet",
        })
        row["total_s"] = round(time.perf_counter() - started, 3)
        _atomic_write(out / ".state" / f"{name}.json", json.dumps(_jsonable(row)) + "\n")
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
        tmp.unlink(missing_ok=True)


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
    turned off, secrets masked. Key-value metadata (files, problems) is kept."""
    from correlator.report.redact import redact_table

    offsets = {c.node: c.offset_s for c in verdict.clock if c.applied}
    pf = pq.ParquetFile(tmp)
    schema = pf.schema_arrow
    part = dest.with_name(dest.name + ".part")
    with pq.ParquetWriter(part, schema, compression="zstd") as w:
        for batch in pf.iter_batches(batch_size=65536):
            t = pa.Table.from_batches([batch], schema=schema)
            if offsets:
                t = _align(t, offsets)
            if redact:
                t = redact_table(t, [c for c in ("message", "template", "file", "attrs") if c in t.column_names])
            w.write_table(t.cast(schema))
    os.replace(part, dest)


def _align(t: pa.Table, offsets: dict[str, float]) -> pa.Table:
    nodes = pa.array(list(offsets), pa.string())
    micros = pa.array([round(o * 1e6) for o in offsets.values()], pa.int64())
    idx = pc.index_in(t.column("node"), value_set=nodes)
    off = pc.fill_null(pc.take(micros, idx), 0)
    ts_us = pc.cast(t.column("ts"), pa.int64())
    aligned = pc.cast(pc.subtract(ts_us, off), t.schema.field("ts_aligned").type)
    return t.set_column(t.schema.get_field_index("ts_aligned"), "ts_aligned", aligned)


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


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
) -> BatchResult:
    """Analyse every job under ``root`` into ``out_dir``; write summary and index."""
    opts = opts or BatchOptions()
    out = Path(out_dir)
    started = time.perf_counter()
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
    meter = _Progress(len(jobs), len(done), progress)
    rows = dict(done)
    for row in _run_all(todo, str(out), opts):
        rows[row["job"]] = row
        meter.update(row)
    meter.close()
    ordered = [rows[name] for name, _ in jobs if name in rows]
    write_summary(ordered, out)
    write_index(out)
    return BatchResult(out, len(jobs), len(todo), len(done), sum(r["status"] == "error" for r in ordered),
                       time.perf_counter() - started, ordered)


def _run_all(todo: list[tuple[str, Path]], out: str, opts: BatchOptions) -> Iterable[dict]:
    if not todo:
        return
    workers = max(1, min(opts.workers or os.cpu_count() or 1, len(todo)))
    breaks: Counter[str] = Counter()
    remaining = list(todo)
    while remaining:
        alone = [j for j in remaining if breaks[j[0]] >= 2]
        shared = [j for j in remaining if breaks[j[0]] < 2]
        remaining = []
        if shared:
            unfinished, stopped = yield from _pool(shared, out, opts, workers)
            for j in unfinished:
                breaks[j[0]] += 1
            remaining += unfinished + stopped
        for j in alone:
            unfinished, _ = yield from _pool([j], out, opts, 1)
            if unfinished:
                yield _error_row(j, "the worker process died analysing this job (crash or out of memory)")


def _error_row(job: tuple[str, Path], error: str) -> dict:
    return {"job": job[0], "path": str(job[1]), "status": "error", "analysed_at": datetime.now(UTC),
            "correlator_version": __version__, "error": error}


def _pool(jobs: list[tuple[str, Path]], out: str, opts: BatchOptions, workers: int):
    """Run ``jobs`` on one pool, yielding rows; returns (the jobs left unfinished
    when a worker died, the jobs stopped because another ran out of time).

    A job is handed over only when a worker is free, so the time it has had is
    the time since it was handed over. A job past ``opts.job_timeout`` gets an
    error row and the pool is torn down with its workers (a running task cannot
    be stopped alone); the jobs it stopped go to a fresh pool, with no break
    counted against them.
    """
    queue = list(jobs)
    running: dict = {}  # future -> (job, when it was handed over)
    ctx = mp.get_context("spawn")
    # (no max_tasks_per_child: on Python 3.11 the pool can hang when it replaces a worker)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(workers,))
    try:
        while queue or running:
            while queue and len(running) < workers:
                job = queue.pop(0)
                running[pool.submit(analyse_job, job[0], str(job[1]), out, opts)] = (job, time.monotonic())
            wait_s = None
            if opts.job_timeout is not None:
                oldest = min(t for _, t in running.values())
                wait_s = max(0.0, oldest + opts.job_timeout - time.monotonic())
            finished, _ = wait(running, timeout=wait_s, return_when=FIRST_COMPLETED)
            crashed = []
            for f in finished:
                job, _ = running.pop(f)
                try:
                    yield f.result()
                except BrokenProcessPool:
                    crashed.append(job)
                except Exception as exc:  # pickling and the like: still only this job's problem
                    yield _error_row(job, f"{type(exc).__name__}: {exc}")
            if crashed:  # the tasks still on the pool are lost with it; the queue never started
                return crashed + [j for j, _ in running.values()], queue
            if not finished and opts.job_timeout is not None:
                now = time.monotonic()
                late = [j for j, t in running.values() if now - t >= opts.job_timeout]
                if not late:  # woken a hair before the deadline: wait again
                    continue
                for j in late:
                    yield _error_row(j, f"took longer than the job timeout ({opts.job_timeout:g} s): stopped")
                _stop_workers(pool)
                return [], [j for j, _ in running.values() if j not in late] + queue
        return [], []
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    # Python 3.14 has pool.kill_workers(); before it, the executor's own process table
    for proc in list(getattr(pool, "_processes", {}).values()):
        proc.kill()


def _worker_init(workers: int) -> None:
    """Per worker process, before any job."""
    if workers > 1:
        # Jobs already run in parallel: Polars' own thread pool per worker would
        # only make the workers fight over the cores. (Read when polars is imported.)
        os.environ.setdefault("POLARS_MAX_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    # Rules are the same for every job: parse the YAML once per worker, not once per
    # job (a third of a small job's analysis). analyze_with_events has no argument
    # for preloaded rules yet, so its module-level name is wrapped with a cache.
    import functools

    import correlator.analyze as analyze_mod

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
        if self.tty:
            self.stream.write("\r\x1b[K" + line[:150])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if not self.stream:
            return
        if self.tty:
            self.stream.write("\n")
        counts = ", ".join(f"{n} {s}" for s, n in sorted(self.status.items()))
        self.stream.write(f"batch: {counts or 'nothing new'} in {time.perf_counter() - self.t0:.1f}s\n")
        self.stream.flush()


# --------------------------------------------------------------------------- summary


def write_summary(rows: list[dict], out: Path) -> None:
    table = pa.Table.from_pylist([{f.name: r.get(f.name) for f in SUMMARY_SCHEMA} for r in rows],
                                 schema=SUMMARY_SCHEMA)
    part = out / ".summary.parquet.part"
    pq.write_table(table, part)
    os.replace(part, out / "summary.parquet")


def read_summary(out: Path) -> list[dict]:
    return pq.read_table(out / "summary.parquet").to_pylist()


# --------------------------------------------------------------------------- repeat offenders


@dataclass
class Offender:
    key: str  # node, or "node cuda:N"
    node: str
    gpu: str | None
    initiated: int
    exposure: int  # failed jobs it took part in
    expected: float  # initiations expected if every member were equally likely
    p_value: float  # chance of at least this many initiations under that assumption
    flag: str  # "suspect" (strong), "possible", or ""
    categories: dict[str, int]
    jobs: list[str]


ALPHA = 0.05


def repeat_offenders(rows: list[dict], by: str = "node") -> tuple[list[Offender], int]:
    """Nodes (``by='node'``) or GPUs (``by='gpu'``) that initiated failures in more
    than one job, with how unlikely that is by chance.

    A node that runs in many failed jobs initiates some by chance alone: in a
    failed 4-node job each member initiates with probability 1/4. Initiations are
    compared with that: ``p_value`` is the chance of at least as many (a
    Poisson-binomial tail over the failed jobs it ran in). ``suspect``: below
    ALPHA after a Bonferroni correction over every node tested; ``possible``: below
    ALPHA alone. Returns the offenders (most telling first) and how many were tested.
    """
    failed = [r for r in rows if r.get("status") == "failed" and not r.get("all_ranks")
              and r.get("initiating_node")]
    exposure: dict[str, list[float]] = defaultdict(list)  # key -> per failed job, chance it initiates
    hits: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if r.get("status") != "failed" or r.get("all_ranks"):
            continue
        members = r.get("node_list") or ([r["initiating_node"]] if r.get("initiating_node") else [])
        if by == "node":
            for n in members:
                exposure[n].append(1.0 / max(1, len(members)))
        else:
            ranks = max(1, r.get("ranks") or 1)
            per_node = max(1, round(ranks / max(1, len(members))))
            for n in members:
                for g in range(per_node):
                    exposure[f"{n} cuda:{g}"].append(1.0 / ranks)
    for r in failed:
        if by == "node":
            hits[r["initiating_node"]].append(r)
        elif r.get("initiating_gpu"):
            key = f"{r['initiating_node']} {r['initiating_gpu']}"
            hits[key].append(r)
            if key not in exposure:
                exposure[key] = [1.0 / max(1, r.get("ranks") or 1)]
    tested = max(1, len(exposure))
    out = []
    for key, rs in hits.items():
        if len({r["job"] for r in rs}) < 2:
            continue
        ps = exposure.get(key) or [1.0] * len(rs)
        p = _tail(ps, len(rs))
        flag = "suspect" if p <= ALPHA / tested else "possible" if p <= ALPHA else ""
        node, _, gpu = key.partition(" ")
        out.append(Offender(key, node, gpu or None, len(rs), len(ps), round(sum(ps), 2), p, flag,
                            dict(Counter(r.get("category") or "?" for r in rs).most_common()),
                            sorted(r["job"] for r in rs)))
    out.sort(key=lambda o: (o.p_value, -o.initiated, o.key))
    return out, tested


def _tail(ps: list[float], k: int) -> float:
    """P(X >= k) for X a sum of independent Bernoulli(p_i) (Poisson-binomial)."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for i, q in enumerate(dist):
            nxt[i] += q * (1 - p)
            nxt[i + 1] += q * p
        dist = nxt
    return min(1.0, max(0.0, sum(dist[k:])))


# --------------------------------------------------------------------------- index


def _bucket(rows: list[dict]) -> tuple[str, Callable[[datetime], str]]:
    times = [_when(r) for r in rows if _when(r)]
    length = (max(times) - min(times)).total_seconds() if times else 0
    if length <= 2 * 86400:
        return "hour", lambda t: t.strftime("%Y-%m-%d %H:00")
    if length <= 120 * 86400:
        return "day", lambda t: t.strftime("%Y-%m-%d")
    return "week", lambda t: f"{t.isocalendar().year}-W{t.isocalendar().week:02d}"


def _when(r: dict) -> datetime | None:
    return r.get("failure_ts") or r.get("job_end") or r.get("job_start")


def category_over_time(rows: list[dict]) -> tuple[str, list[str], list[str], dict[tuple[str, str], int]]:
    """(bucket unit, buckets, categories, counts) of failed and inconclusive jobs."""
    bad = [r for r in rows if r.get("status") in ("failed", "inconclusive")]
    unit, key = _bucket(bad)
    counts: Counter[tuple[str, str]] = Counter()
    for r in bad:
        w = _when(r)
        b = key(w) if w else "unknown time"
        counts[(b, r.get("category") or "undetermined")] += 1
    buckets = sorted({b for b, _ in counts})
    cats = [c for c, _ in Counter({c: 0 for _, c in counts} | _sum_by_cat(counts)).most_common()]
    return unit, buckets, cats, dict(counts)


def _sum_by_cat(counts: Counter[tuple[str, str]]) -> Counter[str]:
    out: Counter[str] = Counter()
    for (_, c), n in counts.items():
        out[c] += n
    return out


def write_index(out: Path) -> None:
    rows = read_summary(out)
    nodes, tested = repeat_offenders(rows, "node")
    gpus, gtested = repeat_offenders(rows, "gpu")
    _atomic_write(out / "index.md", _index_md(rows, nodes, tested, gpus, gtested))
    _atomic_write(out / "index.html", _index_html(rows, nodes, tested, gpus, gtested))


def _counts(rows: list[dict]) -> str:
    c = Counter(r["status"] for r in rows)
    return ", ".join(f"{c[s]} {s}" for s in ("failed", "inconclusive", "healthy", "error") if c[s])


def _md(s: object) -> str:
    return ("" if s is None else str(s)).replace("|", "\\|").replace("\n", " ")


def _fmt_p(p: float) -> str:
    return f"{p:.1e}" if p < 0.001 else f"{p:.3f}"


def _index_md(rows: list[dict], nodes: list[Offender], tested: int, gpus: list[Offender], gtested: int) -> str:
    from correlator.report.redact import redact

    o = [f"# correlator batch: {len(rows)} jobs", "", _counts(rows) + ".", ""]
    o += ["## Repeat offenders: nodes", "",
          f"Nodes that initiated failures in more than one job. *p*: the chance of at least that many "
          f"initiations if every node of a failed job were equally likely to start it; **suspect**: *p* ≤ "
          f"{ALPHA}/{tested} (Bonferroni over the {tested} nodes seen in failed jobs); possible: *p* ≤ {ALPHA}.", ""]
    o += _offender_md(nodes, "node")
    o += ["", "## Repeat offenders: GPUs", "", f"The same, per GPU (node and CUDA device; {gtested} tested).", ""]
    o += _offender_md(gpus, "GPU")
    unit, buckets, cats, counts = category_over_time(rows)
    o += ["", f"## Failures by category over time (per {unit})", ""]
    if buckets:
        o += ["| " + unit + " | " + " | ".join(cats) + " | total |", "|---|" + "---|" * (len(cats) + 1)]
        for b in buckets:
            vals = [counts.get((b, c), 0) for c in cats]
            o.append(f"| {b} | " + " | ".join(str(v) if v else "" for v in vals) + f" | {sum(vals)} |")
        tot = [sum(counts.get((b, c), 0) for b in buckets) for c in cats]
        o.append("| **all** | " + " | ".join(f"**{t}**" for t in tot) + f" | **{sum(tot)}** |")
    else:
        o.append("_No failed or inconclusive job._")
    inc = [r for r in rows if r["status"] == "inconclusive"]
    o += ["", f"## Inconclusive jobs ({len(inc)})", ""]
    if inc:
        o += ["| job | best guess | confidence | missing facts |", "|---|---|---|---|"]
        for r in inc:
            guess = f"{r.get('category') or '?'} on {r.get('initiating_node') or '?'}"
            o.append(f"| [{_md(r['job'])}]({r.get('report') or ''}) | {_md(guess)} | "
                     f"{r.get('confidence') if r.get('confidence') is not None else ''} | "
                     f"{_md('; '.join(r.get('missing') or []))} |")
    else:
        o.append("_None._")
    err = [r for r in rows if r["status"] == "error"]
    if err:
        o += ["", f"## Jobs that could not be analysed ({len(err)})", "", "| job | error |", "|---|---|"]
        o += [f"| {_md(r['job'])} | {_md(r.get('error'))} |" for r in err]
    o += ["", "## All jobs", "", "| job | status | category | initiating | confidence | failure time | events | seconds |",
          "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        init = _init(r)
        link = f"[{_md(r['job'])}]({r['report']})" if r.get("report") else _md(r["job"])
        conf = f"{r['confidence']:.2f}" if r.get("confidence") is not None else ""
        w = _when(r)
        o.append(f"| {link} | {r['status']} | {_md(r.get('category') or '')} | {_md(init)} | {conf} | "
                 f"{w.strftime('%Y-%m-%d %H:%M:%S') if w else ''} | {r.get('events') or ''} | "
                 f"{r.get('total_s') or ''} |")
    o += ["", f"<sub>correlator {__version__} · SQL over the batch: `correlator sql DIR \"SELECT ... FROM "
          "summary\"` (views summary, events, files, problems)</sub>", ""]
    return redact("\n".join(o))


def _init(r: dict) -> str:
    if r.get("all_ranks"):
        return "all ranks"
    parts = []
    if r.get("initiating_node"):
        parts.append(r["initiating_node"])
    if r.get("initiating_rank") is not None:
        parts.append(f"rank {r['initiating_rank']}")
    return " ".join(parts)


def _offender_md(offs: list[Offender], what: str) -> list[str]:
    if not offs:
        return [f"_No {what} initiated failures in more than one job._"]
    o = [f"| {what} | initiated | failed jobs it ran in | expected | p | flag | categories | jobs |",
         "|---|---|---|---|---|---|---|---|"]
    for x in offs:
        cats = ", ".join(f"{c} {n}" for c, n in x.categories.items())
        jobs = ", ".join(x.jobs[:12]) + (f" … ({len(x.jobs)})" if len(x.jobs) > 12 else "")
        flag = f"**{x.flag}**" if x.flag == "suspect" else x.flag
        o.append(f"| {_md(x.key)} | {x.initiated} | {x.exposure} | {x.expected} | {_fmt_p(x.p_value)} | {flag} | "
                 f"{_md(cats)} | {_md(jobs)} |")
    return o


_INDEX_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2430;
  margin: 0 auto; padding: 18px 22px 40px; max-width: 1240px; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 26px; border-bottom: 1px solid #d8dde5; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { border: 1px solid #d8dde5; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f6f8fb; } a { color: #1c5fb8; text-decoration: none; }
table.offenders td:first-child { white-space: nowrap; }
.suspect td { background: #fdecea; } .possible td { background: #fff7e0; }
.sub { color: #5b6573; } code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
.failed { color: #c62828; font-weight: 600; } .inconclusive { color: #8d6e00; font-weight: 600; }
.healthy { color: #2e7d32; } .error { color: #6a1b9a; font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; fill: #1d2430; }
@media print { body { max-width: none; padding: 0; } table, svg { break-inside: avoid; } }
"""

_PALETTE = ("#c62828", "#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a", "#00838f", "#8d6e00", "#ad1457",
            "#4e342e", "#37474f", "#558b2f", "#283593", "#d84315", "#00695c")


def _index_html(rows: list[dict], nodes: list[Offender], tested: int, gpus: list[Offender], gtested: int) -> str:
    import html as h

    from correlator.report.redact import redact

    def e(s: object) -> str:
        return h.escape("" if s is None else str(s))

    o = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
         f"<title>correlator batch: {len(rows)} jobs</title><style>{_INDEX_CSS}</style></head><body>",
         f"<h1>correlator batch: {len(rows)} jobs</h1><p>{e(_counts(rows))}.</p>"]
    o.append("<h2 id=\"offenders\">Repeat offenders: nodes</h2>"
             "<p class=\"sub\">Nodes that initiated failures in more than one job. <i>p</i>: the chance of at least "
             "that many initiations if every node of a failed job were equally likely to start it; "
             f"<b>suspect</b>: <i>p</i> ≤ {ALPHA}/{tested} (Bonferroni over the {tested} nodes seen in failed jobs); "
             f"possible: <i>p</i> ≤ {ALPHA}.</p>")
    o.append(_offender_html(nodes, "node", rows, e))
    o.append(f"<h2 id=\"gpus\">Repeat offenders: GPUs</h2><p class=\"sub\">The same per GPU "
             f"(node and CUDA device; {gtested} tested).</p>")
    o.append(_offender_html(gpus, "GPU", rows, e))
    unit, buckets, cats, counts = category_over_time(rows)
    o.append(f"<h2 id=\"categories\">Failures by category over time (per {e(unit)})</h2>")
    if buckets:
        o.append(_category_svg(buckets, cats, counts))
        o.append(f"<details{' open' if len(buckets) <= 20 else ''}><summary>the counts, per {e(unit)}</summary>")
        o.append("<table><tr><th>" + e(unit) + "</th>" + "".join(f"<th>{e(c)}</th>" for c in cats)
                 + "<th>total</th></tr>")
        for b in buckets:
            vals = [counts.get((b, c), 0) for c in cats]
            o.append(f"<tr><td>{e(b)}</td>" + "".join(f"<td>{v or ''}</td>" for v in vals)
                     + f"<td>{sum(vals)}</td></tr>")
        o.append("</table></details>")
    else:
        o.append("<p class=\"sub\">No failed or inconclusive job.</p>")
    inc = [r for r in rows if r["status"] == "inconclusive"]
    o.append(f"<h2 id=\"inconclusive\">Inconclusive jobs ({len(inc)})</h2>")
    if inc:
        o.append("<table><tr><th>job</th><th>best guess</th><th>confidence</th><th>missing facts</th></tr>")
        for r in inc:
            guess = f"{r.get('category') or '?'} on {r.get('initiating_node') or '?'}"
            o.append(f"<tr><td>{_link(r, e)}</td><td>{e(guess)}</td><td>{e(r.get('confidence'))}</td>"
                     f"<td>{e('; '.join(r.get('missing') or []))}</td></tr>")
        o.append("</table>")
    else:
        o.append("<p class=\"sub\">None.</p>")
    err = [r for r in rows if r["status"] == "error"]
    if err:
        o.append(f"<h2 id=\"errors\">Jobs that could not be analysed ({len(err)})</h2><table>"
                 "<tr><th>job</th><th>error</th></tr>"
                 + "".join(f"<tr><td>{e(r['job'])}</td><td><code>{e(r.get('error'))}</code></td></tr>" for r in err)
                 + "</table>")
    o.append("<h2 id=\"jobs\">All jobs</h2><table><tr><th>job</th><th>status</th><th>category</th>"
             "<th>initiating</th><th>confidence</th><th>failure time</th><th>events</th><th>seconds</th></tr>")
    for r in rows:
        conf = f"{r['confidence']:.2f}" if r.get("confidence") is not None else ""
        w = _when(r)
        o.append(f"<tr><td>{_link(r, e)}</td><td class=\"{e(r['status'])}\">{e(r['status'])}</td>"
                 f"<td>{e(r.get('category') or '')}</td><td>{e(_init(r))}</td><td>{conf}</td>"
                 f"<td>{w.strftime('%Y-%m-%d %H:%M:%S') if w else ''}</td><td>{e(r.get('events') or '')}</td>"
                 f"<td>{e(r.get('total_s') or '')}</td></tr>")
    o.append("</table>")
    o.append(f"<p class=\"sub\">correlator {e(__version__)} · SQL over the batch: <code>correlator sql "
             "DIR \"SELECT ... FROM summary\"</code> (views summary, events, files, problems)</p></body></html>\n")
    return redact("\n".join(o))


def _link(r: dict, e: Callable[[object], str]) -> str:
    return f"<a href=\"{e(r['report'])}\">{e(r['job'])}</a>" if r.get("report") else e(r["job"])


def _offender_html(offs: list[Offender], what: str, rows: list[dict], e: Callable[[object], str]) -> str:
    if not offs:
        return f"<p class=\"sub\">No {e(what)} initiated failures in more than one job.</p>"
    report = {r["job"]: r.get("report") for r in rows}
    o = [f"<table class=\"offenders\"><tr><th>{e(what)}</th><th>initiated</th><th>failed jobs it ran in</th>"
         "<th>expected</th><th>p</th><th>flag</th><th>categories</th><th>jobs</th></tr>"]
    for x in offs:
        cats = ", ".join(f"{c} {n}" for c, n in x.categories.items())
        jobs = ", ".join(f"<a href=\"{e(report.get(j))}\">{e(j)}</a>" if report.get(j) else e(j) for j in x.jobs)
        o.append(f"<tr class=\"{e(x.flag)}\" data-key=\"{e(x.key)}\"><td><b>{e(x.key)}</b></td><td>{x.initiated}</td>"
                 f"<td>{x.exposure}</td><td>{x.expected}</td><td>{_fmt_p(x.p_value)}</td><td>{e(x.flag)}</td>"
                 f"<td>{e(cats)}</td><td>{jobs}</td></tr>")
    o.append("</table>")
    return "".join(o)


def _category_svg(buckets: list[str], cats: list[str], counts: dict[tuple[str, str], int]) -> str:
    w, h, left, bottom, top = 1100, 240, 70, 50, 14
    peak = max(sum(counts.get((b, c), 0) for c in cats) for b in buckets) or 1
    bw = (w - left - 10) / len(buckets)
    o = [f"<svg viewBox=\"0 0 {w} {h + 24}\" width=\"100%\" role=\"img\" aria-label=\"failures by category\">"]
    for i in range(0, 5):
        v = peak * i / 4
        y = h - bottom - (h - bottom - top) * i / 4
        o.append(f"<line x1=\"{left}\" x2=\"{w - 10}\" y1=\"{y:.1f}\" y2=\"{y:.1f}\" stroke=\"#e9edf2\"/>"
                 f"<text x=\"{left - 4}\" y=\"{y + 4:.1f}\" text-anchor=\"end\">{math.ceil(v) if i else 0}</text>")
    for i, b in enumerate(buckets):
        y = float(h - bottom)
        for j, c in enumerate(cats):
            n = counts.get((b, c), 0)
            if not n:
                continue
            bh = (h - bottom - top) * n / peak
            y -= bh
            o.append(f"<rect x=\"{left + i * bw + 1:.1f}\" y=\"{y:.1f}\" width=\"{max(1.0, bw - 2):.1f}\" "
                     f"height=\"{bh:.1f}\" fill=\"{_PALETTE[j % len(_PALETTE)]}\"><title>{b}: {n} {c}</title></rect>")
        if len(buckets) <= 40 or i % math.ceil(len(buckets) / 40) == 0:
            x = left + (i + 0.5) * bw
            o.append(f"<text x=\"{x:.1f}\" y=\"{h - bottom + 12}\" text-anchor=\"end\" "
                     f"transform=\"rotate(-35 {x:.1f} {h - bottom + 12})\">{b[-11:]}</text>")
    x = left
    for j, c in enumerate(cats):
        o.append(f"<rect x=\"{x}\" y=\"{h + 8}\" width=\"10\" height=\"10\" fill=\"{_PALETTE[j % len(_PALETTE)]}\"/>"
                 f"<text x=\"{x + 14}\" y=\"{h + 17}\">{c}</text>")
        x += 24 + 7 * len(c)
    o.append("</svg>")
    return "".join(o)


# --------------------------------------------------------------------------- SQL over a batch


def is_batch_dir(path: str | Path) -> bool:
    return (Path(path) / "summary.parquet").is_file()


def open_batch(con: duckdb.DuckDBPyConnection, out_dir: str | Path) -> None:
    """Views over a batch output directory on ``con``: ``summary`` (one row per job),
    ``events`` (every job's timeline, ``job`` column included), ``files`` and
    ``problems`` (every job's, with a ``job`` column)."""
    from correlator.problems import PROBLEM_SCHEMA
    from correlator.timeline import EVENT_SCHEMA, FILE_SCHEMA

    out = Path(out_dir)
    con.execute(f"CREATE VIEW summary AS SELECT * FROM read_parquet({sql_literal(str(out / 'summary.parquet'))})")
    parts = sorted(p for p in (out / "timelines").glob("*.parquet") if not p.name.startswith("."))
    if parts:
        paths = "[" + ", ".join(sql_literal(str(p)) for p in parts) + "]"
        con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet({paths}, union_by_name = true)")
    else:
        con.register("_empty_events", EVENT_SCHEMA.empty_table())
        con.execute("CREATE TABLE events AS SELECT * FROM _empty_events")
        con.unregister("_empty_events")
    for name, schema in (("files", FILE_SCHEMA), ("problems", PROBLEM_SCHEMA)):
        rows: list[dict] = []
        for p in parts:
            meta = pq.read_schema(p).metadata or {}
            raw = meta.get(f"correlator.{name}".encode())
            job = p.name.removesuffix(".parquet")
            for item in json.loads(raw.decode()) if raw else []:
                rows.append({"job": job, **item})
        full = pa.schema([("job", pa.string()), *schema])
        con.register(f"_{name}", pa.Table.from_pylist(rows, schema=full))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM _{name}")
        con.unregister(f"_{name}")
