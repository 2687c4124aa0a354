"""The real hang captures (sample_logs/hangs): culprit and category for every one.

Each scenario's expectations come from its own truth.json; the scenarios still
failing are marked xfail(strict=True) with the reason, so that fixing one turns
the suite red until the mark is removed. The metamorphic tests change a real
capture in ways that must not (or must) change the verdict.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES

from correlator.analysis.analyze import analyze
from correlator.analysis.evaluate import scenarios

HANGS = SAMPLES / "hangs"

# Still failing, with why (none at present: a fix turns the suite red until its entry goes).
KNOWN_FAILING: dict[str, str] = {}


def _truth(d: Path) -> dict:
    return json.loads((d / "truth.json").read_text())


def _culprit(truth: dict) -> tuple:
    ti = truth["initiating"]
    return ti["kind"], (ti["rank"] if ti["kind"] == "rank" else None), ti.get("node") if ti["kind"] == "external" else None


def _got(v) -> tuple:
    i = v.initiating
    return i.kind, (i.rank if i.kind == "rank" else None), i.node if i.kind == "external" else None


_CASES = [
    pytest.param(d, id=d.name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_FAILING[d.name])]
                 if d.name in KNOWN_FAILING else [])
    for d in scenarios(HANGS)
]


@pytest.mark.parametrize("scenario", _CASES)
def test_hang_capture_culprit_and_category(scenario: Path) -> None:
    truth = _truth(scenario)
    v = analyze(str(scenario))
    assert v.status == truth["status"]
    assert v.initiating is not None
    assert _got(v) == _culprit(truth)
    assert v.initiating.all_ranks == truth["initiating"]["all_ranks"]
    assert v.root_cause is not None and v.root_cause.category == truth["root_cause"]["category"]


def test_known_failing_are_scenarios() -> None:
    names = {d.name for d in scenarios(HANGS)}
    assert set(KNOWN_FAILING) <= names


# ---------------------------------------------------------------- metamorphic

_STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO ")


def _rank_files(d: Path) -> dict[int, Path]:
    """rank<N>.log files (layout c: the trainer's own FileHandler, asctime-stamped)."""
    return {int(m.group(1)): p for p in d.glob("rank*.log") if (m := re.fullmatch(r"rank(\d+)\.log", p.name))}


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("README.md", "truth.json", "fr_trace.txt"))
    return dst


def _rank_file_cases(pred) -> list:
    out = []
    for d in scenarios(HANGS):
        t = _truth(d)
        if d.name not in KNOWN_FAILING and len(_rank_files(d)) >= 3 and pred(t):
            out.append(pytest.param(d, id=d.name))
    return out


@pytest.mark.parametrize("scenario", _rank_file_cases(lambda t: t["initiating"]["kind"] == "rank"))
def test_unrelated_info_line_of_another_rank_changes_nothing(scenario: Path, tmp_path: Path) -> None:
    truth = _truth(scenario)
    before = analyze(str(scenario))
    job = _copy(scenario, tmp_path / "job")
    other = min(r for r in _rank_files(job) if r != truth["initiating"]["rank"])
    f = _rank_files(job)[other]
    lines = f.read_text().splitlines(keepends=True)
    stamp = _STAMP.match(lines[0]).group(1)
    lines.insert(1, f"{stamp} INFO trainer: tokenizer cache warm (12 files)\n")
    f.write_text("".join(lines))
    after = analyze(str(job))
    assert _got(after) == _got(before)
    assert after.root_cause.category == before.root_cause.category
    assert after.initiating.confidence == before.initiating.confidence


@pytest.mark.parametrize("scenario", _rank_file_cases(lambda t: t["initiating"]["kind"] == "all_ranks"))
def test_all_ranks_failure_seen_on_one_to_n_ranks(scenario: Path, tmp_path: Path) -> None:
    """An error every rank raises alike at start-up is 'all ranks' however many of
    the ranks' logs are there (each runs the same check)."""
    truth = _truth(scenario)
    ranks = sorted(_rank_files(scenario))
    for k in range(1, len(ranks) + 1):
        job = _copy(scenario, tmp_path / f"job{k}")
        for r in ranks[k:]:
            _rank_files(job)[r].unlink()
        v = analyze(str(job))
        assert v.initiating is not None and v.initiating.kind == "all_ranks", k
        assert v.initiating.all_ranks and v.root_cause.category == truth["root_cause"]["category"], k


def test_console_echoes_take_the_ranks_the_failure_table_lists(tmp_path: Path) -> None:
    """Ranks 0 and 2 printed their store-wait tracebacks unranked into torchrun's console;
    its failure table lists exactly them as exiting with an error: they are the echoes'
    ranks, as a set. One entry fewer (rank 2 listed as SIGTERMed instead) and the count
    no longer matches: no rank is claimed."""
    src = HANGS / "store-late-init-rankfiles"
    echoes = {c.rule_id: c.ranks for c in analyze(str(src)).collateral}
    assert echoes["tcpstore-wait-timeout"] == [0, 2]
    job = _copy(src, tmp_path / "job")
    console = job / "launcher.log"
    text = console.read_text()
    entry = "  rank      : 2 (local_rank: 2)\n  exitcode  : 1 (pid: 22523) \n"
    assert entry in text
    console.write_text(text.replace(entry, "  rank      : 2 (local_rank: 2)\n  exitcode  : -15 (pid: 22523)  (SIGTERM)\n"))
    v = analyze(str(job))
    assert _got(v) == ("rank", 1, None)
    assert {c.rule_id: c.ranks for c in v.collateral}["tcpstore-wait-timeout"] == []


def _silent_culprit_worker_cases() -> list:
    out = []
    for d in scenarios(HANGS):
        t = _truth(d)
        if (d.name not in KNOWN_FAILING and (d / "worker-0.log").exists() and t["initiating"]["kind"] == "rank"
                and t["root_cause"]["category"] == "nccl_timeout_hang"
                and not (t.get("first_deviating") or {}).get("contains")):
            out.append(pytest.param(d, id=d.name))
    return out


@pytest.mark.parametrize("scenario", _silent_culprit_worker_cases())
def test_the_silent_rank_is_named_when_its_log_is_missing(scenario: Path, tmp_path: Path) -> None:
    """The silent rank's own file and the launcher's console (whose table names it)
    are left out: only the waiting ranks' logs remain, and the world size they state
    is what says a rank is missing. The verdict still names it, without evidence
    of its own; with the world size's lines gone too, nobody is named."""
    culprit = _truth(scenario)["initiating"]["rank"]
    job = _copy(scenario, tmp_path / "job")
    (job / f"worker-{culprit}.log").unlink()
    (job / "launcher.log").unlink()
    v = analyze(str(job))
    assert _got(v) == ("rank", culprit, None)
    assert v.root_cause is not None and v.root_cause.category == "nccl_timeout_hang"
    assert v.root_cause.evidence is None
    assert any(f"rank(s) {culprit} left no log" in m for m in v.missing)
    states_world = re.compile(r"world_size=\d|\brank \d+ of \d+")
    for f in job.glob("worker-*.log"):
        f.write_text("".join(ln for ln in f.read_text().splitlines(keepends=True) if not states_world.search(ln)))
    v = analyze(str(job))
    assert v.initiating is None or v.initiating.rank != culprit


_STEP = re.compile(r"\bstep \d+ \|")

_EIO = (
    "Exception in thread prefetch:\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner\n'
    "    self.run()\n"
    '  File "/job/train.py", line 128, in prefetch\n'
    "    batch = read_shard(path)\n"
    "OSError: [Errno 5] Input/output error: '/data/shards/train-00007.bin'\n"
)


def _own_error_cases() -> list:
    return _rank_file_cases(
        lambda t: t["initiating"]["kind"] == "rank" and t["root_cause"]["category"] == "nccl_timeout_hang"
        and not (t.get("first_deviating") or {}).get("contains"))


@pytest.mark.parametrize("scenario", _own_error_cases())
def test_quiet_rank_own_earlier_error_is_named_not_its_silence(scenario: Path, tmp_path: Path) -> None:
    """Negative control: the rank the others waited for printed an error of its own
    (a dead prefetch thread) before it went quiet: that error is the cause."""
    culprit = _truth(scenario)["initiating"]["rank"]
    job = _copy(scenario, tmp_path / "job")
    f = _rank_files(job)[culprit]
    # the thread's traceback as threading.excepthook prints it (sample_logs/hangs/*-thread-error-*),
    # right after the rank's last training step: its main thread then waits on the empty queue
    # (not at the end of the file: a rank may print during its stall, e.g. a Flight Recorder dump
    # note, and an error printed while the others already wait is not an earlier one)
    lines = f.read_text().splitlines(keepends=True)
    last_step = max((i for i, line in enumerate(lines) if _STEP.search(line)), default=len(lines) - 1)
    f.write_text("".join(lines[: last_step + 1]) + _EIO + "".join(lines[last_step + 1:]))
    v = analyze(str(job))
    assert v.initiating.kind == "rank" and v.initiating.rank == culprit
    assert v.root_cause.category == "storage_io"
    assert v.first_deviating is not None and "Input/output error" in v.first_deviating.text
