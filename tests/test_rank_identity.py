"""Rank identity at ingest: numbered sibling files whose ranked members agree with
their numbers name the silent member's rank; the rank in c10d's process-group prefix
is the global rank only for the default group; the world size the logs state."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_job

from correlator.ingest import IngestOptions
from correlator.target import open_timeline

QUIET = IngestOptions(echo_problems=False, workers=1)


def _ranks(root: Path) -> dict[str, list[int | None]]:
    with open_timeline(str(root), QUIET) as con:
        rows = con.execute("SELECT file, list(DISTINCT rank ORDER BY rank) FROM events GROUP BY file").fetchall()
    return dict(rows)


def _talking(rank: int) -> str:
    # a rank that printed its [rankN]: prefix (a traceback of a timed-out collective)
    return (f"2026-12-01 20:26:41,256 INFO trainer: step 1 | loss 9.1\n"
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f"[rank{rank}]:   File \"/job/train.py\", line 9, in <module>\n"
            f"[rank{rank}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
            "Timed out waiting 10000ms for recv operation to complete\n")


# the silent rank stalled before printing anything with a prefix
SILENT = "2026-12-01 20:26:34,911 INFO trainer: process group ready (backend=gloo)\n"


def _family(names: list[str], silent: int) -> dict[str, str]:
    return {name: SILENT if i == silent else _talking(i) for i, name in enumerate(names)}


@pytest.mark.parametrize("pattern", ["worker-{}.log", "rank{}.log", "{}.log", "logs/proc_{}.txt"])
def test_a_silent_sibling_gets_the_rank_its_number_says(tmp_path, pattern):
    # metamorphic: the family's name does not matter, only that its members agree
    names = [pattern.format(i) for i in range(4)]
    got = _ranks(write_job(tmp_path / "job", _family(names, silent=3)))
    assert [got[n] for n in names] == [[0], [1], [2], [3]]


def test_a_family_whose_members_disagree_with_their_numbers_is_not_mapped(tmp_path):
    # pods numbered from 1 (or nodes of several ranks): worker-1 shows rank 0
    names = [f"worker-{i}.log" for i in (1, 2, 3, 4)]
    files = {names[0]: _talking(0), names[1]: _talking(1), names[2]: _talking(2), names[3]: SILENT}
    got = _ranks(write_job(tmp_path / "job", files))
    assert got["worker-4.log"] == [None]
    # one agreeing member alone is no evidence (worker-0 is rank 0 in many layouts)
    got = _ranks(write_job(tmp_path / "job2", {"worker-0.log": _talking(0), "worker-1.log": SILENT}))
    assert got["worker-1.log"] == [None]


def test_a_member_showing_two_ranks_breaks_the_family(tmp_path):
    files = {"node-0.log": _talking(0) + _talking(1), "node-1.log": _talking(1), "node-2.log": _talking(2),
             "node-3.log": SILENT}
    assert _ranks(write_job(tmp_path / "job", files))["node-3.log"] == [None]


def test_a_number_another_file_shows_is_not_given_twice(tmp_path):
    files = {**_family([f"worker-{i}.log" for i in range(4)], silent=3), "extra.log": _talking(3)}
    assert _ranks(write_job(tmp_path / "job", files))["worker-3.log"] == [None]


def _starting(world: int) -> str:
    # the only line a worker printed before its start-up check failed: no rank anywhere
    return (f"2026-12-01 20:36:14,748 INFO trainer: starting: world_size={world} pid=30131 host=vm\n"
            "ValueError: global_batch_size (64) must be divisible by micro_batch_size * grad_accum\n")


@pytest.mark.parametrize("pattern", ["worker-{}.log", "rank{}.log", "logs/proc_{}.txt"])
def test_a_family_counting_the_stated_world_size_is_ranks(tmp_path, pattern):
    # no member shows a rank; all say world_size=3 and they are numbered 0..2
    names = [pattern.format(i) for i in range(3)]
    got = _ranks(write_job(tmp_path / "job", {n: _starting(3) for n in names}))
    assert [got[n] for n in names] == [[0], [1], [2]]


@pytest.mark.parametrize("case", ["pods of several ranks", "numbered from 1", "a member missing",
                                  "sizes disagree", "one member states none"])
def test_a_family_that_does_not_count_the_world_is_not_ranks(tmp_path, case):
    files = {
        "pods of several ranks": {f"worker-{i}.log": _starting(16) for i in range(2)},
        "numbered from 1": {f"worker-{i}.log": _starting(3) for i in (1, 2, 3)},
        "a member missing": {f"worker-{i}.log": _starting(3) for i in (0, 1)},
        "sizes disagree": {"worker-0.log": _starting(2), "worker-1.log": _starting(3)},
        "one member states none": {"worker-0.log": _starting(2), "worker-1.log": SILENT},
    }[case]
    got = _ranks(write_job(tmp_path / "job", files))
    assert all(v == [None] for v in got.values()), got


def test_allreduce_stall_behind_workers_names_the_silent_rank(samples):
    got = _ranks(samples / "hangs" / "allreduce-stall-behind-workers")
    assert got["worker-3.log"] == [3] and got["launcher.log"] == [None]


# verbatim c10d lines (docs/formats/pytorch-c10d.md §3), without the [rankN]: prefix a
# TORCH_CPP_LOG_LEVEL capture adds: the glog-style line is all there is
DEFAULT_PG = ("[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 1] "
              "Exception (either an error or timeout) detected by watchdog at work: 808, last enqueued NCCL "
              "work: 811, last completed NCCL work: 807.\n")
SUB_PG = ("[E318 07:39:53.792772442 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 9 Rank 4] Exception (either "
          "an error or timeout) detected by watchdog at work: 610, last enqueued NCCL work: 616, last completed "
          "NCCL work: 609.\n")
OLD_PG = ("[E1213 17:24:49.082111648 ProcessGroupNCCL.cpp:2241] [PG 0 (default_pg) Rank 3]  failure detected "
          "by watchdog at work sequence id: 716 PG status: last enqueued work: 747, last completed work: 715\n")
STEP = "2026-06-26 06:14:44,000 INFO trainer: step 5 loss 2.0\n"


def test_the_default_groups_rank_is_the_global_rank(tmp_path):
    files = {"train.log": STEP + DEFAULT_PG, "other.log": STEP + OLD_PG,
             "dmesg.log": DEFAULT_PG}  # read in one batch with the others; a node-level file has no rank
    got = _ranks(write_job(tmp_path / "job", files))
    assert got == {"train.log": [1], "other.log": [3], "dmesg.log": [None]}  # one rank per file


def test_a_sub_groups_rank_is_not_the_global_rank(tmp_path):
    root = write_job(tmp_path / "job", {"train.log": STEP + SUB_PG})
    assert _ranks(root) == {"train.log": [None]}
    with open_timeline(str(root), QUIET) as con:
        (pg_rank,) = con.execute("SELECT attrs['pg_rank'] FROM events WHERE kind LIKE 'c10d.%'").fetchone()
    assert pg_rank == "4"  # kept as the rank within its group
    # a [rankN]: prefix (the global rank) beats any group's rank
    assert _ranks(write_job(tmp_path / "j2", {"t.log": "[rank6]:" + DEFAULT_PG})) == {"t.log": [6]}


def test_rank_n_of_m_names_the_rank_of_a_file_nothing_else_names(tmp_path):
    banner = "2026-12-01 20:26:34,911 INFO trainer: process group ready (backend=gloo, rank {} of 4)\n"
    files = {"a.log": STEP + banner.format(2),
             "b.log": STEP + banner.format(1) + banner.format(3),  # two ranks stated: which is it?
             "c.log": "[rank0]:" + STEP + banner.format(3)}  # its prefix names rank 0: the banner is no evidence
    got = _ranks(write_job(tmp_path / "job", files))
    assert got == {"a.log": [2], "b.log": [None], "c.log": [0]}


def test_the_world_size_the_logs_state_is_in_the_files_table(tmp_path):
    files = {"a.log": "2026-12-01 20:26:34,161 INFO trainer: starting: world_size=4 pid=13735 host=vm\n",
             "b.log": STEP,
             "c.log": "gpn021:41205:41205 [0] NCCL INFO comm 0x5581f4e0 rank 3 nranks 8 cudaDev 3 busId 4e000 "
                      "commId 0x9f1d3c2b4a5e6f70 - Init COMPLETE\n"}
    with open_timeline(str(write_job(tmp_path / "job", files)), QUIET) as con:
        got = dict(con.execute("SELECT file, world_size FROM files").fetchall())
    assert got == {"a.log": 4, "b.log": None, "c.log": 8}


def test_a_job_of_world_size_one_is_rank_zero(tmp_path):
    one = "12/01/2026 20:23:50 - INFO - ft -   World size = 1\n"
    err = "Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\nMemoryError\n"
    assert _ranks(write_job(tmp_path / "one", {"train.log": one + err})) == {"train.log": [0]}
    # another file says the world is 4: a file stating 1 is no longer the whole job
    got = _ranks(write_job(tmp_path / "mixed", {"train.log": one + err, "other.log": _starting(4)}))
    assert got["train.log"] == [None]
    # a file that states nothing of the world is not given a rank
    assert _ranks(write_job(tmp_path / "none", {"train.log": err})) == {"train.log": [None]}


def test_hf_not_distributed_is_a_world_of_one(tmp_path):
    line = ("12/01/2026 20:37:51 - WARNING - hf_train - Process rank: 0, device: cpu, n_gpu: 0, "
            "distributed training: {}\n")
    err = "Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\nMemoryError\n"
    assert _ranks(write_job(tmp_path / "alone", {"train.log": line.format("False") + err})) == {"train.log": [0]}
    assert _ranks(write_job(tmp_path / "dist", {"train.log": line.format("True") + err})) == {"train.log": [None]}
