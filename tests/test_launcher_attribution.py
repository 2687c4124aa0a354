"""Launchers name their children by pid: job-wide attribution turns those pids into ranks.

DeepSpeed's launcher prints the node -> global ranks table and one `spawned` line per
child (pid, --local_rank); torchrun names SIGTERM'd children only by pid; the kernel's
OOM killer names its victim only by pid; srun names tasks as ranges. Lines modeled on
sample_logs/zero3-offload-host-oom, oom-cascade-nccl-timeouts and slurm-time-limit.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from jobs import write_job

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions, ingest

QUIET = IngestOptions(echo_problems=False, workers=1)


def _events(job: Path, tmp: Path) -> duckdb.DuckDBPyConnection:
    out = tmp / "t.parquet"
    ingest(str(job), out_parquet=out, options=QUIET)
    con = duckdb.connect()
    con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet('{out}')")
    return con


def _child_ranks(con: duckdb.DuckDBPyConnection, kind: str) -> dict[int, int | None]:
    rows = con.execute(
        "SELECT CAST(attrs['child_pid'] AS INT), TRY_CAST(attrs['child_rank'] AS INT) FROM events WHERE kind = ?",
        [kind],
    ).fetchall()
    return dict(rows)


# --------------------------------------------------------------------------- DeepSpeed

def _ds_node(host: str, node_rank: int, first_pid: int, mapping: str, n: int = 4, t: str = "10:00:05") -> str:
    lines = [
        f"{host}: [2024-03-20 {t},338] [INFO] [launch.py:145:main] WORLD INFO DICT: "
        "{'gpu-node-01': [0, 1, 2, 3], 'gpu-node-02': [0, 1, 2, 3]}",
        f"{host}: [2024-03-20 {t},338] [INFO] [launch.py:151:main] nnodes=2, num_local_procs={n}, node_rank={node_rank}",
        f"{host}: [2024-03-20 {t},338] [INFO] [launch.py:162:main] global_rank_mapping=defaultdict(<class 'list'>, {mapping})",
    ]
    for lr in range(n):
        lines.append(
            f"{host}: [2024-03-20 {t},34{lr}] [INFO] [launch.py:253:main] process {first_pid + lr} spawned with command: "
            f"['/usr/bin/python', '-u', 'train.py', '--local_rank={lr}', '--deepspeed', 'ds_zero3_offload.json']"
        )
    return "\n".join(lines) + "\n"


MAPPING = "{'gpu-node-01': [0, 1, 2, 3], 'gpu-node-02': [4, 5, 6, 7]}"
DMESG = (
    "[5886806.198000] python invoked oom-killer: gfp_mask=0x6200ca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n"
    "[5886806.199061] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-7,global_oom,"
    "task_memcg=/user.slice/user-0.slice/session-9.scope,task=python,pid=38861,uid=0\n"
    "[5886806.199076] Out of memory: Killed process 38861 (python) total-vm:612382044kB, anon-rss:247012380kB, "
    "file-rss:71232kB, shmem-rss:12296kB, UID:0 pgtables:498312kB oom_score_adj:0\n"
)


def _ds_console(exit_local_rank: int) -> str:
    # the exit line's argv is the launcher's *last* spawned command (launch.py's
    # sigkill_handler logs the leftover `cmd`), so real logs show --local_rank=3 here
    return (
        "[2024-03-20 10:00:02,240] [INFO] [multinode_runner.py:80:get_cmd] Running on the following workers: gpu-node-01,gpu-node-02\n"
        + _ds_node("gpu-node-01", 0, 51233, MAPPING, t="10:00:04")
        + _ds_node("gpu-node-02", 1, 38860, MAPPING)
        + "".join(
            f"gpu-node-02: [2024-03-20 10:54:30,{818 + 30 * i}] [INFO] [launch.py:315:sigkill_handler] Killing subprocess {38860 + i}\n"
            for i in range(4)
        )
        + "gpu-node-02: [2024-03-20 10:54:30,968] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', "
        f"'train.py', '--local_rank={exit_local_rank}', '--deepspeed', 'ds_zero3_offload.json'] exits with return code = -9\n"
        "pdsh@gpu-node-01: gpu-node-02: ssh exited with exit code 247\n"
    )


def test_deepspeed_spawn_lines_map_child_pids_to_global_ranks(tmp_path):
    con = _events(write_job(tmp_path, {"deepspeed.log": _ds_console(3)}), tmp_path)
    spawned = _child_ranks(con, "deepspeed.launcher_spawn")
    assert spawned == {51233: 0, 51234: 1, 51235: 2, 51236: 3, 38860: 4, 38861: 5, 38862: 6, 38863: 7}
    assert _child_ranks(con, "deepspeed.killing_subprocess") == {38860: 4, 38861: 5, 38862: 6, 38863: 7}
    # the launcher's own lines stay the launcher's: no rank, no child pid in the pid column
    assert con.execute(
        "SELECT count(*) FROM events WHERE kind LIKE 'deepspeed.%' AND (rank IS NOT NULL OR pid IS NOT NULL)"
    ).fetchone()[0] == 0


def test_kernel_oom_victim_pid_is_the_initiating_rank(tmp_path):
    # the -9 line's argv says --local_rank=3 (as real launchers print): it must not decide
    job = write_job(tmp_path, {"deepspeed.log": _ds_console(3), "gpu-node-02/dmesg.log": DMESG})
    v = analyze(str(job), options=QUIET)
    assert v.status == "failed"
    assert (v.initiating.rank, v.initiating.node) == (5, "gpu-node-02")
    assert v.ranks == 8  # no rank logged here, but the launchers spawned eight
    assert v.root_cause.rule_id == "kernel-oom-killer" and v.root_cause.category == "oom"
    # the kill has no wall-clock stamp: cited without a time, still the first deviating line
    assert v.root_cause.evidence.ts is None
    assert "Out of memory: Killed process 38861 (python)" in v.first_deviating.text
    assert v.first_deviating.rank == 5 and v.first_deviating.ts is None
    killed = next(c for c in v.collateral if c.rule_id == "deepspeed-killing-subprocess")
    assert killed.ranks == [4, 6, 7] and killed.count == 3  # rank 5's own line is not its echo


def test_without_the_kernel_log_the_launcher_names_only_the_node(tmp_path):
    v = analyze(str(write_job(tmp_path, {"deepspeed.log": _ds_console(1)})), options=QUIET)
    assert v.root_cause.rule_id == "deepspeed-launcher-sigkill"
    assert (v.initiating.rank, v.initiating.node) == (None, "gpu-node-02")


def test_deepspeed_mapping_where_index_and_modulo_disagree_is_not_used(tmp_path):
    # 3 + 2 GPUs: node 2's children are ranks [3, 4]; newer launchers pass
    # --local_rank = rank % 2 (1, 0), older ones the index (0, 1): ambiguous, so no rank
    mapping = "{'gpu-node-01': [0, 1, 2], 'gpu-node-02': [3, 4]}"
    con = _events(write_job(tmp_path, {"deepspeed.log": _ds_node("gpu-node-02", 1, 700, mapping, n=2)}), tmp_path)
    assert _child_ranks(con, "deepspeed.launcher_spawn") == {700: None, 701: None}


# --------------------------------------------------------------------------- torchrun

def _agent(sigterm_pids: list[int], failed: tuple[int, int, int]) -> str:
    """An agent's shutdown: SIGTERM lines, its first failure, the ChildFailedError table."""
    rank, local_rank, pid = failed
    out = [
        f"W0318 09:46:25.40{i}000 18760 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] "
        f"Sending process {p} closing signal SIGTERM"
        for i, p in enumerate(sigterm_pids)
    ]
    out.append(
        "E0318 09:46:26.273000 18760 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] "
        f"failed (exitcode: 1) local_rank: {local_rank} (pid: {pid}) of binary: /opt/conda/bin/python3.11"
    )
    out += [
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2025-03-18_09:46:26",
        "  host      : gpu-a100-018",
        f"  rank      : {rank} (local_rank: {local_rank})",
        f"  exitcode  : 1 (pid: {pid})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "============================================================",
    ]
    return "\n".join(out) + "\n"


def test_torchrun_sigterm_pids_take_ranks_from_spawn_order(tmp_path):
    con = _events(write_job(tmp_path, {"node-1/console.log": _agent([18803, 18805, 18806], (5, 1, 18804))}), tmp_path)
    assert _child_ranks(con, "torchrun.closing_signal") == {18803: 4, 18805: 6, 18806: 7}


@pytest.mark.parametrize(
    "pids",
    [
        [18805, 18803, 18806],  # signal lines not in pid order: pids were not handed out in spawn order
        [18803, 18804, 18806],  # the failed pid (local rank 1) would sit at position 2
    ],
)
def test_torchrun_sigterm_pids_stay_unattributed_when_the_order_does_not_hold(tmp_path, pids):
    failed = (5, 1, 18805 if 18804 in pids else 18804)
    con = _events(write_job(tmp_path, {"node-1/console.log": _agent(pids, failed)}), tmp_path)
    assert set(_child_ranks(con, "torchrun.closing_signal").values()) == {None}


# --------------------------------------------------------------------------- Slurm

TAIL = (
    "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
    "slurmstepd: error: *** JOB 812734 ON gpu-a100-017 CANCELLED AT 2025-04-20T13:02:11 DUE TO TIME LIMIT ***\n"
    "srun: error: gpu-a100-018: tasks 4-7: Terminated\n"
    "srun: error: gpu-a100-017: tasks 0-3: Terminated\n"
)


def _terminated_ranks(job: Path) -> list[int]:
    v = analyze(str(job), options=QUIET)
    (group,) = [c for c in v.collateral if c.rule_id == "slurm-task-terminated"]
    assert group.count == 2
    return group.ranks


def test_srun_task_ranges_are_ranks_when_tasks_are_ranks(tmp_path):
    body = "".join(
        f"{r}: 04/20/2025 09:03:24 - INFO - train - step 50 | rank {r} | loss 2.5 | 1.25 s/step\n" for r in range(8)
    )
    assert _terminated_ranks(write_job(tmp_path, {"slurm-812734.out": body + TAIL})) == list(range(8))


def test_srun_task_ranges_stay_tasks_when_a_task_is_a_torchrun_agent(tmp_path):
    # one torchrun per node: task 1's lines are torchrun's local ranks 0-3 of node 1
    body = "".join(
        f"{t}: [default{lr}]:04/20/2025 09:03:24 - INFO - train - step 50 | loss 2.5\n" for t in range(2) for lr in range(4)
    )
    assert _terminated_ranks(write_job(tmp_path, {"slurm-812734.out": body + TAIL})) == []
