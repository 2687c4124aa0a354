"""``correlator eval``: run analyze on every scenario and compare with its truth.json.

A scenario is any directory under ROOT holding a ``truth.json`` (at any depth; a
scenario's own subdirectories are not searched). Accuracy is given per field,
overall and per folder of the corpus (the scenario's parent, relative to ROOT:
``.`` for the top level), because a corpus grown beside the engine flatters it
and the folders of logs it has never seen say how it really does.

A field is only scored where the truth states it (a null ``first_deviating.contains``
means "the initiator printed nothing": not scored for the substring). ``status`` is
scored on every scenario; ``kind`` (rank | all_ranks | external | unknown) where the
truth's ``initiating`` gives it.
"""

from __future__ import annotations

import gzip
import json
import multiprocessing as mp
import os
import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions
from correlator.verdict import Verdict

FIELDS = ("status", "kind", "rank", "node", "all_ranks", "category", "rule_id", "first_deviating", "collateral")


@dataclass
class FieldResult:
    expected: object
    got: object
    ok: bool


@dataclass
class ScenarioResult:
    name: str
    fields: dict[str, FieldResult] = field(default_factory=dict)
    error: str | None = None
    folder: str = "."


def scenarios(root: Path) -> list[Path]:
    """Every directory under ``root`` with a truth.json, not looking inside a scenario."""
    if (root / "truth.json").is_file():
        return [root]
    found: list[Path] = []
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        found.extend(scenarios(sub))
    return found


def _raw_lines(job: Path, rel: str, first: int, last: int | None) -> str:
    """Lines ``first``..``last`` (1-based) of a job's file as they are on disk ("" if unreadable)."""
    path = job / rel if job.is_dir() else job
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
    except OSError:
        return ""
    lines = data.decode("utf-8", "replace").splitlines()
    return "\n".join(lines[first - 1:(last or first)])


def score(truth: dict, v: Verdict, job: Path | None = None) -> dict[str, FieldResult]:
    out: dict[str, FieldResult] = {}
    out["status"] = FieldResult(truth["status"], v.status, truth["status"] == v.status)
    if truth["status"] != "failed":
        return out
    ti = truth.get("initiating") or {}
    vi = v.initiating
    if ti.get("kind"):
        got = vi.kind if vi else None
        out["kind"] = FieldResult(ti["kind"], got, got == ti["kind"])
    all_ranks = bool(ti.get("all_ranks"))
    got_all = bool(vi and vi.all_ranks)
    out["all_ranks"] = FieldResult(all_ranks, got_all, all_ranks == got_all)
    if not all_ranks and ti.get("rank") is not None:
        got = vi.rank if vi else None
        out["rank"] = FieldResult(ti["rank"], got, got == ti["rank"])
    if ti.get("node"):
        got = vi.node if vi else None
        out["node"] = FieldResult(ti["node"], got, got is not None and _same_host(got, ti["node"]))
    rc = truth.get("root_cause") or {}
    if rc.get("category"):
        got = v.root_cause.category if v.root_cause else None
        out["category"] = FieldResult(rc["category"], got, got == rc["category"])
    if rc.get("rule_id"):
        got = v.root_cause.rule_id if v.root_cause else None
        out["rule_id"] = FieldResult(rc["rule_id"], got, got == rc["rule_id"])
    fd = truth.get("first_deviating") or {}
    if fd.get("contains"):
        got_text = v.first_deviating.text if v.first_deviating else ""
        # the cited lines as the file has them count too: the verdict quotes a line without
        # the launcher prefix ingest peeled off ("[rank11]: ", "(Worker pid=N, ip=...) "),
        # and a truth quotes the line as the reporter saw it
        ok = fd["contains"] in got_text or (
            job is not None and v.first_deviating is not None
            and fd["contains"] in _raw_lines(job, v.first_deviating.file, v.first_deviating.line_no,
                                             v.first_deviating.line_end))
        if fd.get("rank") is not None and v.first_deviating and v.first_deviating.rank is not None:
            ok = ok and v.first_deviating.rank == fd["rank"]
        out["first_deviating"] = FieldResult(fd["contains"], got_text.splitlines()[-1][:80] if got_text else None, ok)
    want = sorted({r for c in truth.get("collateral") or [] for r in c.get("ranks") or []})
    if want:
        have = sorted({r for c in v.collateral for r in c.ranks})
        out["collateral"] = FieldResult(want, have, set(want) <= set(have))
    return out


def evaluate(root: Path, options: IngestOptions | None = None, workers: int | None = None) -> list[ScenarioResult]:
    """Every scenario's score, in ``scenarios`` order. ``workers`` > 1 analyzes scenarios in
    that many processes (each scenario's own ingest then stays in its process: a corpus of
    hundreds of small jobs is parallel across jobs, not within one); default: the CPU count."""
    found = [(d, str((d.relative_to(root) if d != root else Path(d.name)).parent)) for d in scenarios(root)]
    opts = options or IngestOptions(echo_problems=False)
    workers = min(workers or os.cpu_count() or 1, len(found))
    if workers <= 1:
        return [_evaluate_one(d, folder, opts) for d, folder in found]
    opts = replace(opts, workers=1)
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
        # small chunks: the scenarios differ a hundredfold in size, the pool balances them
        return list(pool.map(_evaluate_one, *zip(*found, strict=True), [opts] * len(found), chunksize=4))


def _evaluate_one(d: Path, folder: str, options: IngestOptions) -> ScenarioResult:
    res = ScenarioResult(d.name, folder=folder)
    try:
        truth = json.loads((d / "truth.json").read_text())
        verdict = analyze(str(d), options=options)
        res.fields = score(truth, verdict, d)
    except Exception as exc:  # one broken scenario must not hide the others
        res.error = f"{type(exc).__name__}: {exc}"
    return res


def accuracy(results: list[ScenarioResult]) -> dict[str, tuple[int, int]]:
    acc: dict[str, tuple[int, int]] = {}
    for f in FIELDS:
        scored = [r.fields[f] for r in results if f in r.fields]
        errors = sum(1 for r in results if r.error)
        if scored or errors:
            acc[f] = (sum(1 for x in scored if x.ok), len(scored) + (errors if f == "status" else 0))
    return acc


def by_folder(results: list[ScenarioResult]) -> dict[str, list[ScenarioResult]]:
    groups: dict[str, list[ScenarioResult]] = {}
    for r in results:
        groups.setdefault(r.folder, []).append(r)
    return groups


def render_table(results: list[ScenarioResult]) -> str:
    lines = []
    name_w = max([len(r.name) for r in results] + [8])
    lines.append(f"{'scenario':{name_w}s}  " + "  ".join(f"{f:15s}" for f in FIELDS))
    for r in results:
        if r.error:
            lines.append(f"{r.name:{name_w}s}  ERROR {r.error[:120]}")
            continue
        cells = []
        for f in FIELDS:
            fr = r.fields.get(f)
            cells.append(f"{'-':15s}" if fr is None else f"{('ok' if fr.ok else 'FAIL'):15s}")
        lines.append(f"{r.name:{name_w}s}  " + "  ".join(cells))
        for f in FIELDS:
            fr = r.fields.get(f)
            if fr is not None and not fr.ok:
                lines.append(f"{'':{name_w}s}    {f}: expected {fr.expected!r}, got {fr.got!r}")
    lines.append("")
    groups = by_folder(results)
    if len(groups) > 1:
        for folder, rs in groups.items():
            lines.append(f"[{folder}] {len(rs)} scenarios: " + ", ".join(
                f"{f} {ok}/{n}" for f, (ok, n) in accuracy(rs).items() if n))
        lines.append("")
    for f, (ok, n) in accuracy(results).items():
        lines.append(f"{f:16s} {ok}/{n} = {ok / n:.0%}" if n else f"{f:16s} -")
    return "\n".join(lines) + "\n"


def _same_host(a: str, b: str) -> bool:
    """One machine, whether named by its short name or its fully qualified one
    (``ip-172-31-37-82`` and ``ip-172-31-37-82.ec2.internal``); addresses compare whole."""
    if a == b:
        return True
    if re.fullmatch(r"[\d.]+", a) or re.fullmatch(r"[\d.]+", b):
        return False
    return a.split(".")[0] == b.split(".")[0]
