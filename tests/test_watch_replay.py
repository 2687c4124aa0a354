"""bench/replay.py: a captured job's lines written back at their original relative times,
and a watch following the replay (virtual clock: nothing sleeps)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    bench = str(ROOT / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)  # watch_replay imports replay as a sibling
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_stamped_lines_at_their_stamps_unstamped_after_their_predecessor(tmp_path: Path) -> None:
    replay_mod = _load("replay")
    src = tmp_path / "job"
    src.mkdir()
    (src / "rank0.log").write_text(
        "2026-12-01 10:00:00,000 INFO train: start\n"
        "2026-12-01 10:00:05,000 INFO train: step 1 loss 1.0\n"
        "no stamp here\n"
        "2026-12-01 10:00:20,500 INFO train: step 2 loss 0.9\n"
    )
    (src / "rank1.log").write_text("2026-12-01 10:00:07,000 INFO train: step 1 loss 1.1\n")
    r = replay_mod.Replay.load(src)
    assert r.stamped
    assert [r.at[("rank0.log", n)] for n in (1, 2, 3, 4)] == [0.0, 5.0, 5.0, 20.5]
    assert r.at[("rank1.log", 1)] == 7.0
    out = tmp_path / "out"
    r.start(out)
    assert r.write_until(6.0) == 3
    assert (out / "rank0.log").read_text().splitlines()[-1] == "no stamp here"
    assert not (out / "rank1.log").exists()
    r.write_until(100)
    assert r.done
    for name in ("rank0.log", "rank1.log"):
        assert (out / name).read_bytes() == (src / name).read_bytes()


def test_watch_on_a_replayed_failure_names_analyzes_rank_early(tmp_path: Path) -> None:
    bench = _load("watch_replay")
    row = bench.replay_one(ROOT / "sample_logs" / "gloo-data-error-per-rank", tmp_path)
    assert row is not None and row.status == "failed"
    assert row.right and row.early and row.final_equal
    assert row.first_alert == row.expected == "rank 2"


def test_watch_on_a_replayed_healthy_job_is_quiet(tmp_path: Path) -> None:
    bench = _load("watch_replay")
    row = bench.replay_one(ROOT / "sample_logs" / "healthy-per-rank", tmp_path)
    assert row is not None and row.status == "healthy"
    assert row.false_alarms == 0 and row.final_equal
