"""``correlator watch`` on per-rank files whose lines name no rank (``correlator.watch.streams``).

A numbered sibling (``worker-2.log``, ``out_2.txt``) that stalls is named: by the rank
its number says where the members that show a rank agree with theirs (as ``analyze``
reads it), else by its file. A file with no siblings that names no rank stays no rank.
Time is a fake clock the tests move.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl

from correlator.ingest import IngestOptions
from correlator.watch.session import Collect, Session, WatchOptions
from correlator.watch.streams import FileRanks

T0 = datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC)


class Files:
    """Files named ``name.format(i)`` written as the fake clock moves; step lines name no rank."""

    def __init__(self, root: Path, name: str, n: int = 4, hello: dict[int, str] | None = None) -> None:
        self.root, self.name, self.n, self.t = root, name, n, 0.0
        self.steps = dict.fromkeys(range(n), 0)
        for i in range(n):
            self.write(i, (hello or {}).get(i, "INFO train: starting"))
        self.sink = Collect()
        options = WatchOptions(settle_s=1.0, rescan_s=0.0, ingest=IngestOptions(workers=1, echo_problems=False))
        self.session = Session(str(root), self.sink, options, clock=lambda: self.t,
                               wall=lambda: T0 + timedelta(seconds=self.t))

    def write(self, i: int, text: str) -> None:
        stamp = (T0 + timedelta(seconds=self.t)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        with open(self.root / self.name.format(i), "a", encoding="utf-8") as f:
            f.write(f"{stamp} {text}\n")

    def step(self, *files: int) -> None:
        for i in files or range(self.n):
            self.steps[i] += 1
            self.write(i, f"INFO train: step {self.steps[i]} | loss 1.{self.steps[i]:03d}")

    def tick(self, seconds: float = 1.0) -> None:
        end = self.t + seconds
        while self.t < end - 1e-9:
            self.t = min(end, self.t + 1.0)
            self.session.step()

    def stall(self, culprit: int, limit: int = 45) -> float:
        """Ten steps together, then ``culprit`` stops while the rest go on; the seconds
        from its last step to the first alert."""
        for _ in range(10):
            self.step()
            self.tick()
        stopped = self.t
        for _ in range(limit):
            self.step(*(i for i in range(self.n) if i != culprit))
            self.tick()
            if self.sink.alerts:
                break
        return self.t - stopped


def test_a_silent_sibling_takes_the_rank_its_number_says_where_the_family_agrees(tmp_path: Path) -> None:
    # workers 0, 1 and 3 state their rank once (`rank R of 4`); worker 2 never does
    hello = {i: f"INFO train: process group ready (backend=gloo, rank {i} of 4)" for i in (0, 1, 3)}
    job = Files(tmp_path, "worker-{}.log", hello=hello)
    waited = job.stall(2)
    assert [a.alert.kind for a in job.sink.alerts] == ["silent_rank"]
    a = job.sink.alerts[0]
    assert a.initiating.kind == "rank" and a.initiating.rank == 2
    assert a.root_cause.evidence.file == "worker-2.log" and "step 10" in a.root_cause.evidence.text
    assert 30 < waited <= 32
    # one stream per rank: the stated lines' ranks and their files' step lines are one key
    assert sorted(r["rank"] for r in job.session.status()["ranks"]) == [
        "rank 0@worker-0", "rank 1@worker-1", "rank 2@worker-2", "rank 3@worker-3"]


def test_a_silent_sibling_of_a_family_that_shows_no_rank_is_named_by_its_file(tmp_path: Path) -> None:
    job = Files(tmp_path, "out_{}.txt")
    waited = job.stall(1)
    assert [a.alert.kind for a in job.sink.alerts] == ["silent_rank"]
    a = job.sink.alerts[0]
    assert a.initiating.kind == "rank" and a.initiating.rank is None
    assert "out_1.txt" in a.alert.story and a.root_cause.evidence.file == "out_1.txt"
    assert 30 < waited <= 32


def test_a_family_whose_members_disagree_gives_no_rank_by_number(tmp_path: Path) -> None:
    # numbered from 1: worker-1 is rank 0, worker-2 rank 1 ... so worker-3's number is no rank
    hello = {i: f"INFO train: process group ready (backend=gloo, rank {i - 1} of 4)" for i in (1, 2, 4)}
    job = Files(tmp_path, "worker-{}.log", n=5, hello=hello)
    job.write(0, "INFO train: a file that stays idle")
    job.stall(3)
    a = job.sink.alerts[0]
    assert a.alert.kind == "silent_rank" and a.initiating.rank is None
    assert a.root_cause.evidence.file == "worker-3.log"


def test_a_log_split_into_numbered_parts_is_no_family_of_peers(tmp_path: Path) -> None:
    # one process's console pasted in two parts: the first part stops where the second starts
    job = Files(tmp_path, "driver_part{}.log", n=2)
    for _ in range(10):
        job.step(0)
        job.tick()
    for _ in range(60):
        job.step(1)
        job.tick()
    assert job.sink.alerts == []
    assert job.session.progress.judged_files == {"driver_part0.log", "driver_part1.log"}


def test_a_lone_file_that_names_no_rank_is_never_late(tmp_path: Path) -> None:
    # one console of several ranks, none named: its silence is nobody's
    job = Files(tmp_path, "train.log", n=1)
    for _ in range(10):
        job.step()
        job.tick()
    job.tick(120)
    assert job.sink.alerts == []


def test_readings_skip_launcher_consoles_and_files_of_several_ranks() -> None:
    ranks = FileRanks()
    ev = pl.DataFrame({
        "file": ["w-0.log", "w-1.log", "w-2.log", "w-3.log", "w-3.log", "launch-4.log", "launch-5.log"],
        "rank": [0, 1, None, 2, 3, 4, None],
        "source": ["app", "app", "app", "app", "app", "torchrun", "torchrun"],
        "kind": [None] * 7, "message": ["step 1"] * 7,
    }, schema_overrides={"rank": pl.Int32})
    assert ranks.see(ev)
    # w-3 shows two ranks: the family disagrees, so w-2 gets no rank by number, and is one stream
    assert ranks.rank == {"w-0.log": 0, "w-1.log": 1}
    assert ranks.judged == {"w-2.log"}
    assert not ranks.see(ev)  # nothing new
    # a console that reports a child's error (mp.spawn's parent) is a launcher's: not read as a rank
    spawn = pl.DataFrame({"file": ["p-0.log", "p-0.log", "p-1.log"], "rank": [0, None, 1],
                          "source": ["python"] * 3, "kind": [None] * 3,
                          "message": ["x", "-- Process 0 terminated with the following error:", "y"]},
                         schema_overrides={"rank": pl.Int32})
    ranks.see(spawn)
    assert "p-0.log" not in ranks.rank and ranks.rank["p-1.log"] == 1
