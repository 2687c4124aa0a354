"""Folding multi-line events (tracebacks, C++ dumps, tables, report blocks)."""

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest.fold import continuation_flags, fold
from correlator.ingest.timestamps import parse_timestamps
from correlator.timeline.shapes import digit_shapes, shape_of


def _fold(lines: list[str], streams: list[str] | None = None) -> pl.DataFrame:
    df = pl.DataFrame({"line_no": list(range(1, len(lines) + 1)), "text": lines})
    stamps = parse_timestamps(df["text"], default_year=2024)
    df = df.with_columns(
        stamps["ts"], stamps["ts_format"].cast(pl.Utf8),
        pl.Series("stream", streams or [""] * len(lines)),
    )
    return fold(df, carry_cols=[])


def test_chained_traceback_is_one_event_and_next_line_is_not():
    lines = [
        "2024-05-01 12:00:00,000 - INFO - __main__ - step 1",
        "Traceback (most recent call last):",
        '  File "train.py", line 3, in <module>',
        "    main()",
        "KeyError: 'x'",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "train.py", line 9, in <module>',
        "ValueError: corrupt sample",
        "2024-05-01 12:00:01,000 - INFO - __main__ - step 2",
    ]
    ev = _fold(lines)
    assert ev["line_no"].to_list() == [1, 2, 12]
    assert ev["line_end"].to_list() == [1, 11, 12]
    assert ev["message"][1].endswith("ValueError: corrupt sample")
    assert "The above exception" in ev["message"][1]


def test_cpp_stack_dump_folds_into_terminate_message():
    # 02-pytorch-c10d.md §3 (sgl-project/sglang issue 1693)
    lines = [
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        "  what():  [PG 3 Rank 5] Process group watchdog thread terminated with exception: [Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9141, OpType=_ALLGATHER_BASE, NumelIn=19008, NumelOut=152064, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.",
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):",
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f3b6d41df86 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)",
    ]
    ev = _fold(lines)
    assert ev.height == 1 and ev["line_end"][0] == 4


def test_interleaved_streams_fold_separately():
    lines = ["Traceback (most recent call last):", "Traceback (most recent call last):", '  File "a.py", line 1', '  File "b.py", line 2', "ValueError: a", "KeyError: b"]
    ev = _fold(lines, streams=["r0", "r1", "r0", "r1", "r0", "r1"])
    assert ev.height == 2
    by_stream = dict(zip(ev["stream"], ev["message"], strict=True))
    assert by_stream["r0"].endswith("ValueError: a") and "b.py" not in by_stream["r0"]
    assert by_stream["r1"].endswith("KeyError: b")


def test_torchrun_table_entries_are_separate_events():
    # 03-torchrun-elastic.md §2 (pytorch/pytorch issue 121209)
    lines = [
        "[3]:",
        "  time      : 2024-03-05_07:01:51",
        "  host      : vmnuvocinpoc.internal.cloudapp.net",
        "  rank      : 3 (local_rank: 3)",
        "  exitcode  : 1 (pid: 69814)",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2024-03-05_07:01:51",
        "  rank      : 0 (local_rank: 0)",
    ]
    ev = _fold(lines)
    starts = ev["line_no"].to_list()
    assert 1 in starts and 9 in starts and 10 in starts
    assert ev.filter(pl.col("line_no") == 1)["line_end"][0] == 8


def test_collect_env_report_is_one_event_until_next_stamp():
    # 07-collect-env.md §3 (PyTorch 1.13.1 output)
    lines = [
        "Collecting environment information...",
        "PyTorch version: 1.13.1",
        "Is debug build: False",
        "",
        "OS: Ubuntu 22.04.1 LTS (x86_64)",
        "Versions of relevant libraries:",
        "[pip3] numpy==1.23.5",
        "2024-05-01 12:00:00,000 - INFO - __main__ - training starts",
    ]
    ev = _fold(lines)
    assert ev["line_no"].to_list() == [1, 8]
    assert ev["message"][0].endswith("[pip3] numpy==1.23.5")


def test_nvidia_smi_table_folds_under_its_ctime_header():
    # 06-nvidia-smi-xid.md §1 (rossumai/nvgpu pull request 15)
    lines = [
        "Wed Jul 29 21:51:11 2020",
        "+-----------------------------------------------------------------------------+",
        "| NVIDIA-SMI 450.57       Driver Version: 450.57       CUDA Version: 11.0     |",
        "|===============================+======================+======================|",
        "|   0  TITAN Xp            On   | 00000000:17:00.0 Off |                  N/A |",
    ]
    assert _fold(lines).height == 1


def test_progress_bar_and_rich_level_lines_are_own_events():
    lines = ["x", "  5%|▌         | 1/20 [00:00<00:02,  8.00it/s]", " WARNING  Sending process 14 closing signal SIGTERM         api.py:699"]
    assert _fold(lines).height == 3


def test_events_of_one_line_keep_their_line_shape_code():
    lines = [
        "step 12 loss 3.5",
        "Traceback (most recent call last):",
        '  File "a.py", line 3, in f',
        "ValueError: bad batch 7",
        "step 13 loss 3.25",
        "Some header 1",
        "",
        "",
        "step 14 loss 3.0",
    ]
    df = pl.DataFrame({"line_no": list(range(1, len(lines) + 1)), "text": lines})
    df = df.with_columns(pl.lit(None, dtype=pl.Datetime("us", "UTC")).alias("ts"),
                         pl.lit(None, dtype=pl.Utf8).alias("ts_format"), pl.lit("").alias("stream"))
    shapes, codes = digit_shapes(df["text"])
    ev = fold(df, carry_cols=[], shaped=(shapes, codes))
    # the header's blank lines folded in and dropped again: still one line, its code
    assert ev["message"].to_list()[3] == "Some header 1"
    for message, code in zip(ev["message"].to_list(), ev["shape_code"].to_list(), strict=True):
        if "\n" in message:
            assert code is None
        else:
            assert shapes[code] == shape_of(message)
    assert ev["shape_code"].null_count() == 1  # the traceback


_LINE_KINDS = ["step 1", "  indented 2", "", "Traceback (most recent call last):", "ValueError: bad 3",
               "frame #0: foo", "During handling of the above exception, another exception occurred:"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_LINE_KINDS), st.sampled_from(["a", "b"])), min_size=1, max_size=14))
def test_fold_equals_grouping_each_stream_by_its_continuation_flags(rows):
    """Events are the runs of each stream's lines that start at a line continuing
    nothing (or at the stream's first line), in file order; trailing blank lines
    are dropped from the message and the end."""
    df = pl.DataFrame(
        {"line_no": list(range(1, len(rows) + 1)), "text": [t for t, _ in rows], "stream": [s for _, s in rows]}
    ).with_columns(pl.lit(None, dtype=pl.Datetime("us", "UTC")).alias("ts"), pl.lit(None, dtype=pl.Utf8).alias("ts_format"))
    flags = continuation_flags(df)
    assert not flags["aside"].any()  # no stamped line here: nothing is an aside
    cont = flags["cont"].to_list()
    groups: dict[str, list[list[tuple[int, str]]]] = {}
    for (text, stream), line_no, c in zip(rows, df["line_no"].to_list(), cont, strict=True):
        runs = groups.setdefault(stream, [])
        if c and runs:
            runs[-1].append((line_no, text))
        else:
            runs.append([(line_no, text)])
    want = []
    for stream, runs in groups.items():
        for run in runs:
            kept = [i for i, (_, t) in enumerate(run) if t.strip()]
            last = kept[-1] if kept else 0
            message = "\n".join(t for _, t in run[: last + 1]) if kept else ("" if len(run) > 1 else run[0][1])
            want.append((run[0][0], run[last][0] if kept else run[0][0], message, stream))
    got = fold(df, carry_cols=[])
    assert got.select("line_no", "line_end", "message", "stream").rows() == sorted(want)


def test_a_reraised_worker_traceback_stays_in_its_exception():
    """torch's DataLoader re-raises a worker's exception with the worker's traceback in
    its message (real lines, sample_logs/faults/single-getitem-keyerror, torch 2.13)."""
    from correlator.ingest import lines_as_events

    lines = [
        "Traceback (most recent call last):",
        '  File "/home/user/venv/lib/python3.11/site-packages/torch/_utils.py", line 794, in reraise',
        "    raise exception",
        "KeyError: Caught KeyError in DataLoader worker process 1.",
        "Original Traceback (most recent call last):",
        '  File "/home/user/job/ft.py", line 50, in __getitem__',
        '    return rec["x"], torch.tensor([rec["y"]])',
        "                                   ~~~^^^^^",
        "KeyError: 'y'",
        "12/01/2026 20:23:59 - INFO - ft - next line",
    ]
    ev = lines_as_events(lines).to_pylist()
    assert [(e["line_no"], e["line_end"]) for e in ev] == [(1, 9), (10, 10)]
    assert ev[0]["kind"] == "python.traceback" and ev[0]["message"].endswith("KeyError: 'y'")
    # an "Original Traceback" that follows no exception line is not glued to anything
    alone = lines_as_events(["12/01/2026 20:23:59 - INFO - ft - x", *lines[4:9]]).to_pylist()
    assert alone[0]["line_end"] == 1


_TEE_RACE = [  # console.log of sample_logs/hangs/allreduce-thread-error-late-both, rank 0's stream
    "2026-12-02 02:39:27,782 INFO trainer: step 40 | rank 0 | loss 0.1483",
    "[rank0]: Traceback (most recent call last):",
    '[rank0]:   File "/job/train.py", line 190, in <module>',
    "[rank0]:     main()",
    '[rank0]:   File "/job/train.py", line 175, in main',
    "2026-12-02 02:39:37,802 ERROR trainer: rank 0 failed at step 40: RuntimeError",
    "[rank0]:     dist.all_reduce(prm.grad)",
    '[rank0]:   File "/venv/torch/distributed/distributed_c10d.py", line 3252, in all_reduce',
    "[rank0]:     work.wait()",
    "[rank0]: RuntimeError: [gloo/transport/tcp/unbound_buffer.cc:129] Timed out waiting 10000ms for send",
    "2026-12-02 02:39:38,000 INFO trainer: next",
]


def test_a_line_logged_into_a_traceback_by_the_tee_race_is_an_aside():
    """torchrun --tee tails stdout.log and stderr.log in two threads: the worker's
    "failed at step 40" (stdout) lands inside its own traceback (stderr). The
    traceback is one event across it, the stamped line one of its own."""
    lines = [ln.removeprefix("[rank0]: ") for ln in _TEE_RACE]
    ev = _fold(lines)
    assert ev["line_no"].to_list() == [1, 2, 6, 11]
    tb = ev.row(1, named=True)
    assert tb["line_end"] == 10 and "failed at step 40" not in tb["message"]
    assert tb["message"].splitlines()[-1].startswith("RuntimeError: ") and "dist.all_reduce" in tb["message"]
    assert ev["message"][2].endswith("rank 0 failed at step 40: RuntimeError") and ev["line_end"][2] == 6


def test_a_stamped_line_after_a_finished_traceback_is_no_aside():
    lines = [ln.removeprefix("[rank0]: ") for ln in _TEE_RACE[:5]] + [
        "ValueError: cut here",  # the traceback closed
        _TEE_RACE[5],
        "    an indented detail of the stamped line",
    ]
    ev = _fold(lines)
    assert ev["line_no"].to_list() == [1, 2, 7]
    assert ev["message"][2].endswith("an indented detail of the stamped line")


def test_a_message_printed_below_its_exception_line_is_part_of_it_up_to_a_break():
    tb = ["Traceback (most recent call last):", '  File "run.py", line 4, in <module>', "    check()"]
    # bare type line: the message lines below it, up to the blank line
    ev = _fold([*tb, "AssertionError: ", "The installed driver is too old (found 470).",
                "Please update the driver.", "", "next thing the job printed"])
    assert ev["line_end"].to_list()[0] == 6 and ev["line_no"].to_list()[-1] == 8
    # a message that ends in ":" goes on below; a stamped line ends it
    ev = _fold(["ImportError: loading ext_ops failed because of:", "/opt/ext_ops.so: undefined symbol: _Zfoo",
                "2024-05-01 12:00:01,000 - INFO - __main__ - retrying"])
    assert ev["line_end"].to_list() == [2, 3]
    # an ordinary exception line does not swallow the unstamped line after it
    ev = _fold([*tb, "KeyError: 'labels'", "wandb: Waiting for W&B process to finish"])
    assert ev["line_end"].to_list() == [4, 5]
    # nor does an open message run on without end
    ev = _fold([*tb, "ValueError:", *[f"detail {i}" for i in range(12)]])
    assert ev["line_end"].to_list()[0] == 4 + 8


def test_a_launcher_table_without_borders_is_not_swallowed_by_its_exception():
    # a pasted ChildFailedError whose "====" borders the paste lost: the entries stay events
    ev = _fold(["torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "train.py FAILED",
                "Failures:", "[1]:", "  time      : 2024-01-02_03:04:05", "  rank      : 1 (local_rank: 1)"])
    assert ev["line_no"].to_list()[-1] == 4 and ev["line_end"].to_list()[-1] == 6


def test_a_traceback_that_lost_its_header_and_first_frame_is_not_the_record_aboves():
    """A paste cut inside a traceback: its first line a frame's code line, under a log record that
    has nothing to do with it. The record stays one line; the traceback is an event of its own."""
    lines = [
        "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left",
        "    self._initialize_workers(worker_group)",
        '  File "/usr/lib/python3/torch/distributed/elastic/agent/server/api.py", line 678, in _initialize_workers',
        "    self._rendezvous(worker_group)",
        "torch.distributed.elastic.rendezvous.api.RendezvousClosedError",
    ]
    ev = _fold(lines)
    assert ev["line_no"].to_list() == [1, 2]
    assert ev["line_end"].to_list() == [1, 5]
    # a record whose own indented detail is no code line of a frame keeps it
    kept = _fold(["2024-05-01 10:00:00 INFO config:", "    lr: 0.1", "    steps: 10", "next"])
    assert kept["line_no"].to_list() == [1, 4]
