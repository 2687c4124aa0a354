"""Parser declarations against verbatim real lines (provenance per line in docs/formats/)."""

import polars as pl
import pytest

from correlator.ingest.classify import classify
from parsers import PATTERNS

WITH_EXAMPLES = [p for p in PATTERNS if p.examples]


def _classify(messages: list[str], **cols) -> pl.DataFrame:
    n = len(messages)
    df = pl.DataFrame(
        {
            "message": messages,
            "ts": pl.Series([None] * n, dtype=pl.Datetime("us", "UTC")),
            "ts_format": pl.Series([None] * n, dtype=pl.Utf8),
            "stream": [""] * n,
            "rank": pl.Series(cols.get("rank", [None] * n), dtype=pl.Int32),
            "local_rank": pl.Series([None] * n, dtype=pl.Int32),
            "pid": pl.Series([None] * n, dtype=pl.Int32),
        }
    )
    return classify(df)


def _attrs(row) -> dict[str, str]:
    return {a["key"]: a["value"] for a in row["attrs"]}


def test_pattern_names_are_unique_and_namespaced():
    names = [p.name for p in PATTERNS]
    assert len(names) == len(set(names))
    assert all("." in n for n in names)


@pytest.mark.parametrize("pattern", WITH_EXAMPLES, ids=lambda p: p.name)
def test_examples_match_their_pattern(pattern):
    for example in pattern.examples:
        assert any(t in example for t in pattern.triggers), f"no trigger of {pattern.name} in {example!r}"
        if pattern.regex:
            assert pl.Series([example]).str.contains(pattern.regex)[0], example


@pytest.mark.parametrize("pattern", [p for p in PATTERNS if p.near_misses], ids=lambda p: p.name)
def test_near_misses_do_not_match(pattern):
    for line in pattern.near_misses:
        triggered = any(t in line for t in pattern.triggers)
        matched = pattern.regex is None or pl.Series([line]).str.contains(pattern.regex)[0]
        assert not (triggered and matched), line


def test_c10d_watchdog_timeout_attrs():
    # 02-pytorch-c10d.md §3, XPixelGroup/BasicSR issue 737
    ev = _classify(["[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) ran for 600020 milliseconds before timing out."])
    row = ev.row(0, named=True)
    a = _attrs(row)
    assert row["kind"] == "c10d.watchdog_timeout" and row["source"] == "c10d" and row["level"] == "ERROR"
    assert (a["seq_num"], a["op_type"], a["timeout_ms"], a["ran_for_ms"], a["pg_rank"]) == ("808", "ALLREDUCE", "600000", "600020", "1")
    assert row["rank"] is None  # [Rank 1] is the PG rank: never the global rank


def test_watchdog_exception_last_enqueued_and_completed():
    # 02-pytorch-c10d.md §3, modelscope/DiffSynth-Studio issue 458
    ev = _classify(["[E318 07:39:53.792772442 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 9 Rank 4] Exception (either an error or timeout) detected by watchdog at work: 610, last enqueued NCCL work: 616, last completed NCCL work: 609."])
    a = _attrs(ev.row(0, named=True))
    assert (a["seq_num"], a["last_enqueued"], a["last_completed"], a["pg"]) == ("610", "616", "609", "PG ID 2 PG GUID 9")


def test_nccl_init_line_fills_pid_and_names_comm_rank():
    # 01-nccl.md §3, NVIDIA/nccl issue 1814
    ev = _classify(["hostname-test:984:1257 [4] NCCL INFO comm 0x557fe785f7a0 rank 36 nranks 64 cudaDev 4 nvmlDev 4 busId 9b000 commId 0x5ae77eb5ea4ec1ee - Init COMPLETE"])
    row = ev.row(0, named=True)
    a = _attrs(row)
    assert row["kind"] == "nccl.comm_init" and row["source"] == "nccl" and row["level"] == "INFO"
    assert row["pid"] == 984 and row["rank"] is None
    assert (a["host"], a["comm_rank"], a["nranks"], a["cuda_dev"], a["bus_id"]) == ("hostname-test", "36", "64", "4", "9b000")


def test_nccl_warn_level_and_ib_error():
    # 01-nccl.md §4, deepspeedai/DeepSpeed issue 2931
    ev = _classify(["PHLRR4036:24141:24296 [2] ib_plugin.c:978 NCCL WARN NET/IB : Got completion from peer 10.226.98.98<48598> with error 12, opcode 0, len 0, vendor err 129"])
    row = ev.row(0, named=True)
    assert row["kind"] == "nccl.ib_completion_error" and row["level"] == "ERROR"
    assert _attrs(row)["peer"] == "10.226.98.98<48598>" and _attrs(row)["status"] == "12"


def test_cuda_oom_inside_traceback_beats_the_envelope():
    # 08-wrappers.md §5, OpenHelix-Team/cobra issue 24 (behind a traceback)
    msg = "Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 158.00 MiB. GPU 0 has a total capacity of 23.69 GiB of which 115.69 MiB is free. Process 21422 has 23.57 GiB memory in use."
    row = _classify([msg]).row(0, named=True)
    a = _attrs(row)
    assert row["kind"] == "python.cuda_oom"
    assert (a["tried_to_allocate"], a["gpu"], a["capacity2"], a["free"]) == ("158.00 MiB", "0", "23.69 GiB", "115.69 MiB")
    assert a["exc_type"] == "torch.OutOfMemoryError"  # the envelope's attrs are kept too


def test_torchrun_failure_entry_and_worker_failed():
    # 03-torchrun-elastic.md §1-2
    entry = "[0]:\n  time      : 2023-06-03_22:45:01\n  host      : gpu187.cluster.local\n  rank      : 4 (local_rank: 0)\n  exitcode  : -9 (pid: 19401)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 19401"
    failed = "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 3 (pid: 33054) of binary: /home/ubuntu/pythonn3.11/bin/python3"
    ev = _classify(["Root Cause (first observed failure):", entry, failed])
    a = _attrs(ev.row(1, named=True))
    assert ev["kind"].to_list() == ["torchrun.root_cause_header", "torchrun.failure_entry", "torchrun.worker_failed"]
    assert (a["failed_rank"], a["failed_local_rank"], a["exitcode"], a["child_pid"], a["signal"]) == ("4", "0", "-9", "19401", "SIGKILL")
    assert a["host"] == "gpu187.cluster.local" and a["first_observed"] == "true"
    b = _attrs(ev.row(2, named=True))
    assert (b["exitcode"], b["failed_local_rank"], b["child_pid"]) == ("1", "3", "33054")
    assert ev["pid"][2] == 32974  # the agent's pid from the torch._logging prefix
    assert ev["level"][2] == "ERROR"


def test_xid_line_attrs():
    # 06-nvidia-smi-xid.md §5, NVIDIA/open-gpu-kernel-modules issue 1150
    row = _classify(["kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149"]).row(0, named=True)
    a = _attrs(row)
    assert row["kind"] == "kernel.xid" and row["source"] == "kernel"
    assert (a["pci"], a["xid"], a["xid_pid"], a["process_name"], a["caused_by_xid"]) == ("0000:dc:00", "45", "1818990", "python3", "149")


def test_deepspeed_batch_assertion_wrapped_by_rich():
    # 04-deepspeed.md §3, bigcode-project/starcoder issue 77 (hard-wrapped)
    msg = "AssertionError: Check batch related parameters. train_batch_size is not\nequal to micro_batch_per_gpu * gradient_acc_step * world_size 64 != 4 *\n8 * 1"
    a = _attrs(_classify([msg]).row(0, named=True))
    assert (a["train_batch_size"], a["micro_batch"], a["grad_acc"], a["world_size"]) == ("64", "4", "8", "1")


def test_python_logging_logger_decides_source():
    ev = _classify([
        "03/13/2023 10:48:18 - INFO - accelerate.accelerator - hi",
        "2024-05-01 12:00:00,123 - WARNING - __main__ - my trainer",
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 812914 closing signal SIGTERM",
    ])
    assert ev["source"].to_list() == ["accelerate", "app", "torchrun"]
    assert ev["level"].to_list() == ["INFO", "WARNING", "WARNING"]


def test_collect_env_report_attrs():
    # 07-collect-env.md §3 (PyTorch 2.4.0 output, vllm-project/vllm pull request 9293)
    msg = "Collecting environment information...\nPyTorch version: 2.4.0+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\n\nPython version: 3.12.3 | packaged by Anaconda, Inc. | (main, May  6 2024, 19:46:43) [GCC 11.2.0] (64-bit runtime)\nNvidia driver version: 551.88\n[pip3] numpy==1.23.5\n[conda] blas                      1.0                         mkl  "
    row = _classify([msg]).row(0, named=True)
    a = _attrs(row)
    assert row["source"] == "collect_env"
    assert a["pytorch_version"] == "2.4.0+cu121" and a["cuda_used_to_build_pytorch"] == "12.1"
    assert a["nvidia_driver_version"] == "551.88" and a["pip.numpy"] == "1.23.5" and a["conda.blas"] == "1.0"


def test_unrecognised_line_without_rank_is_unknown_and_with_rank_is_app():
    ev = _classify(["just some text", "just some text"], rank=[None, 3])
    assert ev["source"].to_list() == ["unknown", "app"]
    assert ev["kind"].to_list() == [None, None]


def test_a_match_that_leaves_every_named_group_empty_is_still_a_match(monkeypatch):
    """A pattern's groups and whether it matched come from one capture pass (the
    whole match is a group of its own): a match with only optional groups, none
    taken, must count, and a line that does not match must not."""
    import correlator.ingest.classify as classify_mod
    from parsers.base import Pattern

    optional = Pattern(name="test.optional", triggers=("widget",), regex=r"widget ready(?: id=(?P<widget_id>\d+))?",
                       source="app")
    monkeypatch.setattr(classify_mod, "PATTERNS", [optional])
    classify_mod._pattern_exprs.cache_clear()
    try:
        msg = pl.Series(["widget ready", "widget ready id=7", "widget broken"])
        facts, long = classify_mod._apply_pattern(0, optional, pl.Series([0, 1, 2], dtype=pl.UInt32), msg)
    finally:
        classify_mod._pattern_exprs.cache_clear()
    assert facts.get_column("row").to_list() == [0, 1]
    assert facts.get_column("kind").to_list() == ["test.optional"] * 2
    assert long.select("row", "key", "value").rows() == [(1, "widget_id", "7")]


def test_c10d_store_wait_timeout_keys_and_duration():
    # sample_logs/hangs/store-never-init-tee: the key's last component is the rank that never joined
    ev = _classify(["[default1]:torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/2"])
    row = ev.row(0, named=True)
    a = _attrs(row)
    assert row["kind"] == "c10d.store_wait_timeout" and row["level"] == "ERROR"
    assert (a["timeout_ms"], a["keys"]) == ("10000", "/default_pg/0//cpu//0/2")
