"""``correlator eval``: run analyze on every scenario and compare with its truth.json.

A field is only scored where the truth states it (a null ``first_deviating.contains``
means "the initiator printed nothing": not scored for the substring).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions
from correlator.verdict import Verdict

FIELDS = ("status", "rank", "node", "all_ranks", "category", "rule_id", "first_deviating", "collateral")


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


def scenarios(root: Path) -> list[Path]:
    if (root / "truth.json").is_file():
        return [root]
    return sorted(p.parent for p in root.glob("*/truth.json"))


def score(truth: dict, v: Verdict) -> dict[str, FieldResult]:
    out: dict[str, FieldResult] = {}
    out["status"] = FieldResult(truth["status"], v.status, truth["status"] == v.status)
    if truth["status"] != "failed":
        return out
    ti = truth.get("initiating") or {}
    vi = v.initiating
    all_ranks = bool(ti.get("all_ranks"))
    got_all = bool(vi and vi.all_ranks)
    out["all_ranks"] = FieldResult(all_ranks, got_all, all_ranks == got_all)
    if not all_ranks and ti.get("rank") is not None:
        got = vi.rank if vi else None
        out["rank"] = FieldResult(ti["rank"], got, got == ti["rank"])
    if ti.get("node"):
        got = vi.node if vi else None
        out["node"] = FieldResult(ti["node"], got, got == ti["node"])
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
        ok = fd["contains"] in got_text
        if fd.get("rank") is not None and v.first_deviating and v.first_deviating.rank is not None:
            ok = ok and v.first_deviating.rank == fd["rank"]
        out["first_deviating"] = FieldResult(fd["contains"], got_text.splitlines()[-1][:80] if got_text else None, ok)
    want = sorted({r for c in truth.get("collateral") or [] for r in c.get("ranks") or []})
    if want:
        have = sorted({r for c in v.collateral for r in c.ranks})
        out["collateral"] = FieldResult(want, have, set(want) <= set(have))
    return out


def evaluate(root: Path, options: IngestOptions | None = None) -> list[ScenarioResult]:
    results = []
    for d in scenarios(root):
        res = ScenarioResult(d.name)
        try:
            truth = json.loads((d / "truth.json").read_text())
            verdict = analyze(str(d), options=options or IngestOptions(echo_problems=False))
            res.fields = score(truth, verdict)
        except Exception as exc:  # one broken scenario must not hide the others
            res.error = f"{type(exc).__name__}: {exc}"
        results.append(res)
    return results


def accuracy(results: list[ScenarioResult]) -> dict[str, tuple[int, int]]:
    acc: dict[str, tuple[int, int]] = {}
    for f in FIELDS:
        scored = [r.fields[f] for r in results if f in r.fields]
        errors = sum(1 for r in results if r.error)
        if scored or errors:
            acc[f] = (sum(1 for x in scored if x.ok), len(scored) + (errors if f == "status" else 0))
    return acc


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
    for f, (ok, n) in accuracy(results).items():
        lines.append(f"{f:16s} {ok}/{n} = {ok / n:.0%}" if n else f"{f:16s} -")
    return "\n".join(lines) + "\n"
