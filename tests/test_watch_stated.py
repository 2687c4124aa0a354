"""A collective timeout the logs state at start-up: read from the formats real software
prints, and the silence rule falls before it (the stalled rank named before the watchdog)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from correlator.watch.progress import Progress, Rule
from correlator.watch.stated import stated_timeout
from tests.test_watch import Job


@pytest.mark.parametrize(("line", "seconds"), [
    ("[I1201 10:00:00.1 ProcessGroupNCCL.cpp:915] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL "
     "initialization options: size: 8, global rank: 0, TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0", 600.0),
    ("[I1201 distributed_c10d.py:420] Waiting in store based barrier to initialize process group for rank: 0, "
     "key: store_based_barrier_key:1 (world_size=8, worker_count=7, timeout=0:30:00)", 1800.0),
    ("INFO train: init_process_group(backend=gloo, timeout=0:00:20)", 20.0),
    ("INFO train: dist config: backend=nccl timeout=datetime.timedelta(seconds=45)", 45.0),
    ("INFO train: process group timeout=timedelta(minutes=2)", 120.0),
    ("TrainingArguments(..., ddp_backend=None, ddp_timeout=1800, debug=[], ...)", 1800.0),
    ("INFO train: process group timeout: 300 s", 300.0),
    ("INFO launcher: NCCL timeout 20 min", 1200.0),
])
def test_start_up_formats(line: str, seconds: float) -> None:
    assert stated_timeout(line) == seconds


@pytest.mark.parametrize("line", [
    "NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.",  # an InfiniBand retry exponent
    "ProcessGroupNCCL environments: TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC: 480, TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC: 60000",
    "INFO http: request timeout=0:00:05 for https://hub.example/model",  # no distributed context
    "INFO data: fetching shard timed out after 5.0 s",
    "INFO train: step 12 | loss 1.2",
    # a timeout that fired, its line glued to a progress bar (no level): its numbers are no setting
    " 34%|#####    | 127/375 [43:23<1:24:43, 20.50s/it][rank1]:[E318 09:56:21.771048040 ProcessGroupNCCL.cpp:616] "
    "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4187, OpType=ALLREDUCE, "
    "Timeout(ms)=1800000) ran for 1800083 milliseconds before timing out.",
    "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST",
    "Running tokenizer:   9%|###  | 280000/2969526 [29:55<4:48:08, collective operation timeout: WorkNCCL(SeqNum=2",
    "Rank 2 failed to pass monitoredBarrier in 10000 ms",
])
def test_not_a_collective_timeout(line: str) -> None:
    assert stated_timeout(line) is None


T0 = datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC)


def _feed(p: Progress, rank: int, step: int, t: float) -> None:
    p.see_frame(pl.DataFrame({
        "file": [f"rank{rank}.log"], "line_no": [step], "rank": [rank], "local_rank": [None], "node": [None],
        "kind": ["app.step_metrics"], "level": ["INFO"], "template": [None], "message": [f"step {step} | loss 1.0"],
        "attrs": [[{"key": "step", "value": str(step)}]], "ts": [T0 + timedelta(seconds=t)], "ts_estimated": [False],
    }, schema_overrides={"local_rank": pl.Int64, "node": pl.String, "template": pl.String}), t)


def _stall(stated: float | None, cadence: float = 0.5) -> float:
    """Three ranks stepping every ``cadence`` s; rank 2 stops at step 10 while its peers log
    step 11 and wait in the collective. Seconds from rank 2's last step to its alarm."""
    p = Progress(Rule())
    p.stated_timeout_s = stated
    t = 0.0
    for step in range(1, 11):
        t = step * cadence
        for r in range(3):
            _feed(p, r, step, t)
    stopped = t
    for r in (0, 1):
        _feed(p, r, 11, t + cadence)
    now = t + cadence
    while now < stopped + 100:
        now += 0.1
        j = p.judge(now)
        if j.state == "rank_silent":
            assert [rp.rank for rp in j.silent] == [2]
            return now - stopped
    raise AssertionError("never named")


def test_a_stated_timeout_names_the_rank_before_it_fires() -> None:
    assert 30.0 < _stall(None) <= 30.2  # the floor: after a 10-20 s timeout would have fired
    assert 10.0 < _stall(20.0) <= 10.2  # half the stated 20 s
    assert 30.0 < _stall(600.0) <= 30.2  # a 10-minute timeout changes nothing
    # a rank whose steps take 8 s is not late after 10 s: two of its own intervals first
    assert 16.0 < _stall(20.0, cadence=8.0) <= 16.2


def test_a_job_stating_its_timeout_is_alerted_before_the_watchdog(tmp_path: Path) -> None:
    job = Job(tmp_path, ranks=3)
    for r in range(3):
        job.write(r, "INFO train: init_process_group(backend=gloo, timeout=0:00:20)")
    for _ in range(8):
        job.step()
        job.tick()
    stopped = job.t
    job.step(0, 1)  # they log the next step and wait for rank 2 in its collective
    while not job.alerts and job.t < stopped + 19:
        job.tick()
    assert job.alerts, "no alert before the 20 s timeout"
    a = job.alerts[0]
    assert a.alert.kind == "silent_rank" and a.initiating.rank == 2
    assert 10 < job.t - stopped <= 12
    assert a.alert.timeout_s == 20
    assert any("collective timeout of 20s: the silence rule falls before it" in n for n in job.sink.notes)


def test_a_timeout_that_fired_is_not_a_stated_one(tmp_path: Path) -> None:
    job = Job(tmp_path, ranks=3)
    for _ in range(8):
        job.step()
        job.tick()
    job.write(0, "ERROR train: process group timeout: 20 s expired")  # an error line: when it fired
    job.tick()
    assert job.session.progress.stated_timeout_s is None
