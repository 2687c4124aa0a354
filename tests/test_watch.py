"""``correlator watch``: alerts while a job runs, silence by its own cadence, the post-mortem at the end.

Time is a fake clock the tests move: no test sleeps to make a rank silent.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from correlator.analysis.analyze import analyze
from correlator.cli import main
from correlator.ingest import IngestOptions
from correlator.watch.progress import Rule
from correlator.watch.session import Collect, Session, WatchOptions

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
T0 = datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC)


class Job:
    """A fake job: per-rank files written as the fake clock moves, and a watch on them."""

    def __init__(self, root: Path, ranks: int = 4, **opts: object) -> None:
        self.root, self.ranks, self.t = root, ranks, 0.0
        self.steps = dict.fromkeys(range(ranks), 0)
        for r in range(ranks):
            self.write(r, "INFO train: process group initialized, backend=gloo")
        self.sink = Collect()
        options = WatchOptions(settle_s=1.0, rescan_s=0.0, idle_s=opts.pop("idle_s", 600.0),  # type: ignore[arg-type]
                               ingest=IngestOptions(workers=1, echo_problems=False), **opts)  # type: ignore[arg-type]
        self.session = Session(str(root), self.sink, options, clock=lambda: self.t,
                               wall=lambda: T0 + timedelta(seconds=self.t))

    def write(self, rank: int, text: str) -> None:
        stamp = (T0 + timedelta(seconds=self.t)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        with open(self.root / f"rank{rank}.log", "a", encoding="utf-8") as f:
            for i, line in enumerate(text.split("\n")):
                f.write((f"{stamp} {line}" if i == 0 else line) + "\n")

    def step(self, *ranks: int) -> None:
        for r in ranks or range(self.ranks):
            self.steps[r] += 1
            self.write(r, f"INFO train: step {self.steps[r]} | rank {r} | loss 1.{self.steps[r]:03d}")

    def tick(self, seconds: float = 1.0) -> None:
        """Let ``seconds`` pass, polling once a second."""
        end = self.t + seconds
        while self.t < end - 1e-9:
            self.t = min(end, self.t + 1.0)
            self.session.step()

    @property
    def alerts(self) -> list:
        return self.sink.alerts


def test_silent_rank_while_its_peers_go_on(tmp_path: Path) -> None:
    job = Job(tmp_path)
    for _ in range(10):
        job.step()
        job.tick()
    stopped = job.t
    for _ in range(45):  # rank 2 stops; the others go on (e.g. their loader threads keep logging steps)
        job.step(0, 1, 3)
        job.tick()
        if job.alerts:
            break
    assert len(job.alerts) == 1
    a = job.alerts[0]
    assert a.status == "running" and a.alert.kind == "silent_rank"
    assert a.initiating.kind == "rank" and a.initiating.rank == 2
    # late after max(30 s, 5 x its 1 s cadence), not before
    assert 30 < job.t - stopped <= 32
    assert a.root_cause.evidence.file == "rank2.log" and "step 10" in a.root_cause.evidence.text
    # recovery withdraws it
    job.step(2)
    job.tick()
    assert job.alerts[-1].alert.kind == "recovered" and job.alerts[-1].alert.withdraws == a.alert.id


def test_hang_where_the_peers_wait_one_step_further(tmp_path: Path) -> None:
    job = Job(tmp_path)
    job.write(0, "INFO train: process group timeout 300 s")
    for _ in range(10):
        job.step()
        job.tick()
    job.step(0, 1, 3)  # rank 2 never reaches step 11; the others block in its all_reduce
    stopped = job.t
    job.tick(29)
    assert job.alerts == []  # not before 30 s of silence
    job.tick(3)
    assert [a.alert.kind for a in job.alerts] == ["silent_rank"]
    a = job.alerts[0]
    assert a.initiating.rank == 2 and a.alert.step == 10
    assert a.alert.timeout_s == 300
    fires = (a.alert.timeout_fires_at - T0).total_seconds()
    assert abs(fires - (stopped + 300)) <= 1.5
    assert job.session.status()["state"] == "rank_silent"


def test_all_ranks_pause_is_not_an_alarm_until_it_outlasts_the_job(tmp_path: Path) -> None:
    job = Job(tmp_path)
    for _ in range(10):
        job.step()
        job.tick()
    job.tick(200)  # every rank evaluates / saves a checkpoint together
    assert job.alerts == []
    assert job.session.status()["state"] == "all_paused"
    for _ in range(10):
        job.step()
        job.tick()
    # the longest earlier pause is now ~200 s: a stop is an alarm past 3 x that, not at 300 s
    job.tick(400)
    assert job.alerts == []
    job.tick(210)
    assert [a.alert.kind for a in job.alerts] == ["all_ranks_paused"]
    assert job.alerts[0].initiating.kind == "all_ranks"
    job.step()
    job.tick()
    assert job.alerts[-1].alert.kind == "recovered"


def test_ranks_that_never_print_progress_are_never_silent(tmp_path: Path) -> None:
    job = Job(tmp_path)
    for _ in range(10):
        job.step(0)  # rank 0 logs for everyone
        for r in (1, 2, 3):
            job.write(r, "INFO train: heartbeat")
        job.tick()
    for _ in range(60):
        job.step(0)
        job.tick()
    assert job.alerts == []
    assert {r["rank"] for r in job.session.status()["ranks"]} == {"rank 0", "rank 1", "rank 2", "rank 3"}


def test_learned_progress_without_a_known_format(tmp_path: Path) -> None:
    """A counter the parsers have no pattern for ('batch N done') is learned from its repeats."""
    job = Job(tmp_path)
    for i in range(1, 11):
        for r in range(4):
            job.write(r, f"INFO mytrainer: batch {i} done")
            # numbers that do not count (up, down, up, ...): read a dozen times, then left alone
            job.write(r, f"INFO data: prefetched shard {20 - i} on worker {i}")
            job.write(r, f"INFO data: prefetched shard {i} on worker {20 - i}")
        job.tick()
    assert job.session.progress._dead  # the shard lines were given up on
    for i in range(11, 60):
        for r in (0, 1, 2):
            job.write(r, f"INFO mytrainer: batch {i} done")
        job.tick()
        if job.alerts:
            break
    assert [a.initiating.rank for a in job.alerts] == [3]


def test_alert_on_a_planted_traceback(tmp_path: Path) -> None:
    job = Job(tmp_path)
    for _ in range(5):
        job.step()
        job.tick()
    job.write(1, "ERROR train: step 6 failed\nTraceback (most recent call last):\n"
                 '  File "/job/train.py", line 88, in <module>\n    batch = next(it)\n'
                 "ValueError: corrupt sample at index 4711")
    at = job.t
    job.tick(3)
    assert [a.alert.kind for a in job.alerts] == ["error"]
    a = job.alerts[0]
    assert a.initiating.rank == 1 and a.status == "running"
    assert "corrupt sample" in a.root_cause.evidence.text
    assert a.alert.raised_at <= T0 + timedelta(seconds=at + 2)


def test_no_alert_on_a_healthy_job_with_warnings(tmp_path: Path) -> None:
    job = Job(tmp_path)
    for i in range(40):
        job.step()
        if i % 3 == 0:
            for r in range(4):
                job.write(r, "WARNING py.warnings: /venv/torch/utils/data/dataloader.py:558: UserWarning: "
                             "This DataLoader will create 4 worker processes in total.")
        job.tick()
    job.write(0, "INFO train: Training completed. 40 steps")
    job.tick(700)
    assert job.alerts == []
    assert job.session.ended and "idle" in job.session.ended
    assert job.session.final().status == "healthy"


def test_a_stated_collective_timeout_keeps_a_quiet_job_watched(tmp_path: Path) -> None:
    job = Job(tmp_path, idle_s=100.0)
    job.write(0, "INFO train: process group timeout 300 s")
    for _ in range(5):
        job.step()
        job.tick()
    job.tick(200)  # past --idle, but the hang's timeout has not fired yet
    assert job.session.ended is None
    job.tick(170)
    assert job.session.ended == "every file idle for 360s"


def test_the_silence_rule_is_configurable(tmp_path: Path) -> None:
    job = Job(tmp_path, rule=Rule(min_silence_s=10.0))
    for _ in range(10):
        job.step()
        job.tick()
    for _ in range(12):
        job.step(0, 1, 2)
        job.tick()
    assert [a.initiating.rank for a in job.alerts] == [3]


# ------------------------------------------------------------------ the end: analyze's verdict


@pytest.mark.parametrize("folder", ["gloo-data-error-per-rank", "healthy-per-rank", "torchrun-tee-console"])
def test_final_verdict_is_analyze_field_for_field(tmp_path: Path, folder: str) -> None:
    target = tmp_path / folder
    shutil.copytree(SAMPLES / folder, target)
    clock = [0.0]
    sink = Collect()
    s = Session(str(target), sink, WatchOptions(idle_s=5, rescan_s=0, ingest=IngestOptions(workers=1)),
                clock=lambda: clock[0])
    while not s.step():
        clock[0] += 1.0
    final = s.final()
    expected = analyze(str(target), options=IngestOptions(workers=1))
    assert final.model_dump(mode="json") == expected.model_dump(mode="json")


def test_cli_watch_prints_analyze_and_writes_alerts(tmp_path: Path) -> None:
    target = tmp_path / "job"
    shutil.copytree(SAMPLES / "gloo-data-error-per-rank", target)
    runner = CliRunner()
    analyzed = runner.invoke(main, ["analyze", str(target), "--format", "json"])
    got = tmp_path / "alert-stdin.json"
    jsonl = tmp_path / "alerts.jsonl"
    watched = runner.invoke(main, ["watch", str(target), "--format", "json", "--idle", "1", "--poll", "0.05",
                                   "--json", str(jsonl), "--on-alert", f"cat > {got}"])
    assert watched.exit_code == analyzed.exit_code == 1
    assert json.loads(watched.stdout) == json.loads(analyzed.stdout)
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    kinds = [r["type"] for r in records]
    assert kinds[0] == "status" and kinds[-1] == "final" and "alert" in kinds
    alert = next(r for r in records if r["type"] == "alert")
    assert alert["status"] == "running" and alert["initiating"]["rank"] == 2
    assert json.loads(got.read_text())["alert"]["id"] == alert["alert"]["id"]


def test_cli_watch_standard_input(tmp_path: Path) -> None:
    text = (SAMPLES / "torchrun-tee-console" / "console.log").read_bytes()
    runner = CliRunner()
    analyzed = runner.invoke(main, ["analyze", "-", "--format", "json"], input=text)
    watched = runner.invoke(main, ["watch", "-", "--format", "json", "--poll", "0.05"], input=text)
    assert watched.exit_code == analyzed.exit_code
    assert json.loads(watched.stdout) == json.loads(analyzed.stdout)


def test_a_run_whose_steps_reached_their_stated_total_ends_quietly(tmp_path: Path) -> None:
    # every rank prints "step k/12" up to 12/12 and then nothing (no exit line watch knows):
    # the run did its planned work, so the silence after it is no pause to alarm on
    job = Job(tmp_path, ranks=2)
    for k in range(1, 13):
        for r in range(2):
            job.write(r, f"INFO fit: step {k}/12 loss 0.{90 - k}")
        job.tick()
    job.tick(900)
    assert job.alerts == []
    # the same run stopped at 8/12 is a pause that outlasts the job, and is alarmed
    (tmp_path / "short").mkdir()
    short = Job(tmp_path / "short", ranks=2)
    for k in range(1, 9):
        for r in range(2):
            short.write(r, f"INFO fit: step {k}/12 loss 0.{90 - k}")
        short.tick()
    short.tick(900)
    # (with no trace of a signal the analysis cannot tell a kill from a snapshot: the alarm is the
    # pause itself)
    assert [(a.alert.kind, a.initiating.kind) for a in short.alerts] == [("all_ranks_paused", "all_ranks")]


def test_a_pause_the_analysis_reads_as_a_stop_from_outside_is_alerted_as_that(tmp_path: Path) -> None:
    """Every rank stops at once short of its stated total, nothing error-class printed (a
    forwarded SIGTERM one rank's handler noted): once the pause is long enough to alarm, the alert is the analysis's
    reading of those lines (stopped from outside), as the post-mortem's, not "all ranks paused"."""
    job = Job(tmp_path, ranks=3)
    for n in range(1, 21):
        for r in range(3):
            job.write(r, f"INFO train: step {n}/200 | rank {r} | loss 1.{n:03d}")
        job.tick()
    job.write(0, "INFO train: caught SIGTERM, exiting")
    job.tick(290)
    assert job.alerts == []  # a pause is no alarm before max(300 s, 3 x the longest pause)
    job.tick(20)
    assert [a.alert.kind for a in job.alerts] == ["error"]
    a = job.alerts[0]
    assert a.initiating.kind == "external" and a.root_cause.category == "killed_by_scheduler"
    job.tick(60)
    assert len(job.alerts) == 1  # told once; no "all ranks paused" beside it


def test_a_job_that_says_it_completed_withdraws_its_standing_alerts(tmp_path: Path) -> None:
    """An error a retry got past, and the run's own word that it finished: the error's
    alert is withdrawn, though the named rank's progress after it was never seen."""
    job = Job(tmp_path, ranks=2)
    for _ in range(5):
        job.step()
        job.tick()
    job.write(1, "ERROR train: step 6 failed\nTraceback (most recent call last):\n"
                 '  File "/job/train.py", line 88, in <module>\n    ack = sock.recv(16)\n'
                 "ConnectionResetError: [Errno 104] Connection reset by peer")
    job.tick(3)
    assert [a.alert.kind for a in job.alerts] == ["error"]
    job.tick(5)
    assert [a.alert.kind for a in job.alerts] == ["error"]  # nothing withdraws it yet
    job.write(0, "INFO train: Training finished, 6 steps")
    job.tick(2)
    assert [a.alert.kind for a in job.alerts] == ["error", "recovered"]
    assert job.alerts[1].alert.withdraws == job.alerts[0].alert.id
    assert "completed" in job.alerts[1].alert.story and "rank0.log" in job.alerts[1].alert.story
