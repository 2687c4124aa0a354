"""Subsets of the copies of one failure that a user may have collected.

A worker's failure reaches the logs several times: its own stderr (a ``--log-dir``
``stderr.log``, a rank file, or the ``[defaultN]:`` echo of a ``--tee`` console),
its ``error.json`` (``@record``), and the launcher's summaries of it (the
ChildFailedError table, ``failed (exitcode: N) local_rank: R``). A capture is
copied into a scratch directory with some of those copies left out; the layouts
are told apart by what the files hold, never by a scenario's name.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from correlator.verdict import Verdict

# The ChildFailedError table: a rule of '=' then '<script> FAILED', to the closing rule.
_RULE = re.compile(r"^\S*\s*={20,}\s*$")
_FAILED = re.compile(r"\bFAILED\s*$")
_LAUNCHER_SUMMARY = re.compile(r"\bfailed \(exitcode: -?\d+\) local_rank: \d+")
_RAISED_SUMMARY = re.compile(r"\bfailed \(exitcode: [1-9]\d*\) local_rank: \d+")
_ENTRY = re.compile(r"^\S*\s*\[\d+\]:\s*$")
_ENTRY_END = re.compile(r"^\S*\s*(?:\[\d+\]:|-{20,}|={20,}|Root Cause)")
_RAISED = re.compile(r"^\S*\s*exitcode\s*:\s*[1-9]\d*\b")
_DOC = {"README.md", "truth.json", ".correlatorignore"}


def log_files(scenario: Path) -> list[Path]:
    return sorted(p for p in scenario.rglob("*") if p.is_file() and p.name not in _DOC)


def _text(p: Path) -> str | None:
    try:
        return p.read_text()
    except UnicodeDecodeError:
        return None


def table_spans(lines: list[str]) -> list[tuple[int, int]]:
    """[start, end] line index ranges of every ChildFailedError table in ``lines``."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if _RULE.match(lines[i]) and i + 1 < len(lines) and _FAILED.search(lines[i + 1]):
            j = i + 2
            while j < len(lines) and not _RULE.match(lines[j]):
                j += 1
            spans.append((i, min(j, len(lines) - 1)))
            i = j + 1
        else:
            i += 1
    return spans


def has_launcher_summary(scenario: Path) -> bool:
    return any((t := _text(p)) is not None and table_spans(t.splitlines()) for p in log_files(scenario))


def _without_launcher_summaries(text: str) -> str:
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    for a, b in table_spans([ln.rstrip("\n") for ln in lines]):
        drop.update(range(a, b + 1))
    drop.update(i for i, ln in enumerate(lines) if _LAUNCHER_SUMMARY.search(ln))
    return "".join(ln for i, ln in enumerate(lines) if i not in drop)


_ENTRY_RANK = re.compile(r"^\S*\s*rank\s*:\s*(\d+)")


def raised_ranks(scenario: Path) -> set[int]:
    """The ranks whose launcher entries ``no-launcher-copies`` leaves out."""
    out: set[int] = set()
    for p in log_files(scenario):
        t = _text(p)
        if t is None:
            continue
        kept = set(_without_raised_entries(t).splitlines())
        out |= {int(m.group(1)) for ln in t.splitlines() if ln not in kept and (m := _ENTRY_RANK.match(ln))}
    return out


def _without_raised_entries(text: str) -> str:
    """The launcher's summaries of children that exited with an error of their own
    (exit code > 0) left out: those children printed it themselves. Entries of
    children killed by a signal stay (nothing guarantees the child said anything)."""
    lines = text.splitlines(keepends=True)
    drop: set[int] = {i for i, ln in enumerate(lines) if _RAISED_SUMMARY.search(ln)}
    for a, b in table_spans([ln.rstrip("\n") for ln in lines]):
        i = a
        while i <= b:
            if _ENTRY.match(lines[i]):
                j = i + 1
                while j <= b and not _ENTRY_END.match(lines[j]):
                    j += 1
                if any(_RAISED.match(lines[k]) for k in range(i, j)):
                    drop.update(range(i, j))
                i = j
            else:
                i += 1
    return "".join(ln for i, ln in enumerate(lines) if i not in drop)


_WORKER_PREFIX = re.compile(r"^\[(?:default|rank)\d+\]:", re.MULTILINE)


def _is_worker_stream(p: Path) -> bool:
    # torchrun --log-dir: <dir>/attempt_N/<local_rank>/{stdout,stderr}.log
    return p.name in ("stderr.log", "stdout.log") and p.parent.name.isdigit() and p.parent.parent.name.startswith(
        "attempt_")


def subsets(scenario: Path) -> Iterator[tuple[str, set[Path], bool]]:
    """(name, files to transform, lossless) for each subset of copies ``scenario`` allows.

    ``lossless``: every rank's own report is still there in some copy, so the
    verdict must not move. The others drop the only copy of something.
    """
    files = log_files(scenario)
    summary_files = {p for p in files if (t := _text(p)) is not None
                     and (table_spans(t.splitlines()) or _LAUNCHER_SUMMARY.search(t))}
    # the workers' own output is there: other files than the launcher's, or its echo
    workers_seen = bool(set(files) - summary_files) or any(
        _WORKER_PREFIX.search(t or "") for p in summary_files if (t := _text(p)) is not None)
    raised = {p for p in summary_files if _without_raised_entries(p.read_text()) != p.read_text()}
    if raised and workers_seen:
        yield "no-launcher-copies", raised, True
    if summary_files:
        # signal deaths and ranks only the launcher names are gone too
        yield "no-launcher-summaries", summary_files, False
    error_json = {p for p in files if p.name == "error.json"}
    if error_json:
        yield "no-error-json", error_json, True
        # error.json holds the worker's exception and traceback: its stderr.log is a copy
        yield "no-stderr-of-error-json-ranks", {p.parent / "stderr.log" for p in error_json
                                                if (p.parent / "stderr.log").exists()}, True
    workers = {p for p in files if _is_worker_stream(p)}
    if workers and summary_files:
        # the launcher's view alone: its table has no traceback, so this loses the why
        yield "launcher-only", workers | error_json, False


def build(scenario: Path, dest: Path, name: str, touched: set[Path]) -> Path:
    """A copy of ``scenario`` under ``dest`` as subset ``name`` makes it."""
    out = dest / name
    shutil.copytree(scenario, out)
    for p in touched:
        q = out / p.relative_to(scenario)
        if name == "no-launcher-summaries":
            q.write_text(_without_launcher_summaries(p.read_text()))
        elif name == "no-launcher-copies":
            q.write_text(_without_raised_entries(p.read_text()))
        else:
            q.unlink()
    return out


def key(v: Verdict) -> dict:
    """The fields a subset of copies must leave alone."""
    i, r = v.initiating, v.root_cause
    return {
        "status": v.status,
        "kind": i.kind if i else None,
        "rank": i.rank if i else None,
        "all_ranks": i.all_ranks if i else None,
        "confidence": round(i.confidence, 6) if i else None,
        "category": r.category if r else None,
        "rule_id": r.rule_id if r else None,
    }
