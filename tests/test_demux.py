"""Wrapper prefixes (docs/formats/wrappers.md, docs/formats/torchrun-elastic.md §3)."""

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from correlator.ingest.demux import (
    rank_in_record_head,
    split_fused_mpi,
    split_glued_progress,
    strip_prefixes,
)
from correlator.timeline.shapes import shape_of


def _frame(lines: list[str]) -> pl.DataFrame:
    return pl.DataFrame({"line_no": list(range(1, len(lines) + 1)), "text": lines}).with_columns(
        pl.lit(0, dtype=pl.Int32).alias("part")
    )


def _strip(lines: list[str]) -> pl.DataFrame:
    return strip_prefixes(_frame(lines))


def test_stacked_prefixes_are_peeled_outermost_first():
    # 08-wrappers.md intro: "stdout: g0001: [default3]:[rank3]:[E..." stacks
    df = _strip(["stdout: g0001: [default3]:[rank3]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] x"])
    row = df.row(0, named=True)
    assert row["text"] == "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] x"
    assert (row["host"], row["local_rank"], row["rank"]) == ("g0001", 3, 3)


def test_tee_prefix_is_local_rank_not_rank():
    # 03-torchrun-elastic.md §3 (pytorch/pytorch issue 75087)
    row = _strip(["[default3]:Fatal Python error: Segmentation fault"]).row(0, named=True)
    assert row["local_rank"] == 3 and row["rank"] is None
    assert row["text"] == "Fatal Python error: Segmentation fault"


def test_excepthook_prefix_keeps_indentation():
    # 02-pytorch-c10d.md §9: "[rank2]:     work.wait()"
    row = _strip(["[rank2]:     work.wait()               "]).row(0, named=True)
    assert row["rank"] == 2 and row["text"].startswith("    work.wait()")


def test_srun_label_is_a_task_and_pdsh_needs_a_host_like_token():
    df = _strip(["3: step 5 loss 1.0", "ERROR: not a host", "node-1: hello", "RuntimeError: boom"])
    assert df["task"].to_list() == [3, None, None, None]
    assert df["host"].to_list() == [None, None, "node-1", None]
    assert df["text"].to_list() == ["step 5 loss 1.0", "ERROR: not a host", "hello", "RuntimeError: boom"]


def test_pdsh_host_before_nccl_header():
    # 01-nccl.md §3 (NVIDIA/nccl issue 1029)
    line = "rdma-gpu-train-worker-0: rdma-gpu-train-worker-0:19484:21054 [0] NCCL INFO comm 0x557e83314500 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 4f000 commId 0x9ad9b5e4ab2566da - Init START"
    row = _strip([line]).row(0, named=True)
    assert row["host"] == "rdma-gpu-train-worker-0"
    assert row["text"].startswith("rdma-gpu-train-worker-0:19484:21054 [0] NCCL INFO")


def test_kubectl_timestamp_and_openmpi_and_ray():
    df = _strip(
        [
            "2024-05-01T12:00:00.123456789Z [rank1]:hello",
            "[1,mpirank:0,algo-1]<stderr>:09/21/2022 13:37:39 - INFO - __main__ - x",  # 05-accelerate-hf.md §2
            "(RayWorkerVllm pid=5304) [E ProcessGroupNCCL.cpp:916] [Rank 7] boom",  # 02-pytorch-c10d.md §4
        ]
    )
    assert df["wrapper_ts"][0] == "2024-05-01T12:00:00.123456789Z"
    assert df["rank"].to_list() == [1, 0, None]
    assert df["pid"].to_list() == [None, None, 5304]
    assert df["text"][2] == "[E ProcessGroupNCCL.cpp:916] [Rank 7] boom"


def test_a_platform_stamp_before_the_rank_prefix_to_the_second_or_the_minute():
    # NVIDIA/nccl#1610: a console that stamps each line to the minute, then torch's prefix
    df = _strip([
        "2025-02-18 12:54 [rank13]:[E218 04:54:22.864467604 ProcessGroupNCCL.cpp:616] [Rank 1] x",
        "2025-02-18 12:54:07,120 [rank2]: Traceback (most recent call last):",
        "2025-02-18 12:54 ncivki7qpk7pmo1btv0h0:180:915 [7] NCCL INFO y",
    ])
    assert df["rank"].to_list() == [13, 2, None]
    assert df["wrapper_ts"].to_list() == [None, "2025-02-18 12:54:07,120", None]  # a minute is no line's time
    assert df["text"][0].startswith("[E218 04:54:22")


def test_c10_prefix_and_dmesg_are_not_wrappers():
    lines = ["[E ProcessGroupNCCL.cpp:737] x", "[14328.198496] NVRM: Xid", "[2024-05-01 12:00:00,123] [INFO] y"]
    assert _strip(lines)["text"].to_list() == lines


def test_fused_openmpi_line_is_split_per_rank():
    # 08-wrappers.md §3: two ranks fused on one physical line
    line = "[1,1]<stdout>:Train Epoch: 10 [10240/30000 (34%)]\tLoss: 0.121522[1,0]<stdout>:Train Epoch: 10 [10240/30000 (34%)]\tLoss: 0.241982"
    df = strip_prefixes(split_fused_mpi(_frame([line])))
    assert df["rank"].to_list() == [1, 0]
    assert df["line_no"].to_list() == [1, 1]
    assert df["text"][1].endswith("Loss: 0.241982")


def test_log_line_glued_after_progress_bar_is_recovered():
    # 02-pytorch-c10d.md §3 (pytorch/pytorch issue 118369)
    line = "Epoch 0:   6%|██                               | 32040/500150 [6:28:43<94:39:17,  1.37it/s, loss=2.6, v_num=95nc, reduced_train_loss=2.590, global_step=3.2e+4, consumed_samples=2.56e+7][E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=96120, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 25624887 milliseconds before timing out."
    df = split_glued_progress(strip_prefixes(_frame(["[default0]:" + line])))
    assert df.height == 2
    assert df["text"][1].startswith("[E ProcessGroupNCCL.cpp:458] [Rank 0] Watchdog")
    assert df["glued"].to_list() == [False, True]
    assert df["local_rank"].to_list() == [0, 0]  # the glued line inherits the bar's prefix


def test_plain_progress_bar_is_left_alone():
    df = split_glued_progress(_frame([" 45%|████      | 9/20 [00:01<00:02,  5.00it/s]"]))
    assert df.height == 1 and not df["glued"].any()


def test_kept_segments_become_rows_and_are_flagged_glued():
    from correlator.ingest.demux import split_kept_segments

    df = split_kept_segments(_frame(["glued log line\rfinal bar state", "plain"]))
    assert df["text"].to_list() == ["glued log line", "final bar state", "plain"]
    assert df["line_no"].to_list() == [1, 1, 2]
    assert df["glued"].to_list() == [True, False, False]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="ab\n", max_size=6), st.booleans()), max_size=12), st.booleans())
def test_split_rows_equals_splitting_each_row_in_turn(rows, few):
    # rows are put in place by index arithmetic (or, for few, between slices): it
    # must equal the obvious loop, a touched row with only empty pieces included
    # (it disappears)
    from correlator.ingest import demux
    from correlator.ingest.demux import _split_rows

    demux._FEW_SPLITS = 1024 if few else -1

    df = pl.DataFrame({"line_no": list(range(len(rows))), "text": [t.replace("\n", "|") for t, _ in rows],
                       "part": [0] * len(rows), "glued": [False] * len(rows)},
                      schema={"line_no": pl.Int64, "text": pl.Utf8, "part": pl.Int32, "glued": pl.Boolean})
    touched = pl.Series([t for _, t in rows], dtype=pl.Boolean)
    try:
        got = _split_rows(df, touched, pl.Series([t for t, _ in rows], dtype=pl.Utf8), flag="glued")
    finally:
        demux._FEW_SPLITS = 1024
    want = []
    for i, (text, split) in enumerate(rows):
        if not split:
            want.append((i, text.replace("\n", "|"), 0, False))
            continue
        pieces = text.split("\n")
        want += [(i, p, k, k > 0) for k, p in enumerate(pieces) if p]
    assert got.rows() == want


# Lines of every kind the searches look for, and look-alikes with other digits.
_SHAPE_CASES = [
    "2024-06-03 06:48:41,034 - INFO - __main__ - step 2887 loss 2.2424",
    "2024-06-03 06:48:42,035 - INFO - __main__ - step 2888 loss 2.1111",
    "[default3]:[rank3]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] x",
    "[default7]:[rank7]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] x",
    "g0001: [default0]:plain text",
    "stdout: node-12: hello",
    "[1,1]<stdout>:Train Epoch: 10\tLoss: 0.121522[1,0]<stdout>:Train Epoch: 10\tLoss: 0.241982",
    "[1,3]<stdout>:Train Epoch: 11\tLoss: 0.5",
    "glued log line\rfinal bar state",
    " 45%|████      | 9/20 [00:01<00:02,  5.00it/s]",
    " 55%|█████     | 11/20 [00:02<00:01,  5.00it/s]2024-06-03 06:48:43,000 - INFO - glued after a bar",
    "[default1]: 65%|██████    | 13/20 [00:02<00:01,  4.00it/s][rank1]:after the bar",
    "",
    "   ",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_SHAPE_CASES), min_size=1, max_size=30))
def test_searches_asked_of_shapes_find_what_the_lines_would(lines):
    # ingest hands demux the lines' digit shapes (SHAPE_CODE): every step must give
    # the frame it gives without them, and a row whose text it changed loses its code
    from correlator.ingest.demux import SHAPE_CODE, restrip_glued, split_kept_segments
    from correlator.timeline.shapes import digit_shapes

    def chain(df, shapes):
        df = split_kept_segments(split_fused_mpi(df, shapes), shapes)
        df = strip_prefixes(df, shapes=shapes)
        return restrip_glued(split_glued_progress(df, shapes))

    plain = chain(_frame(lines), None)
    shapes, codes = digit_shapes(pl.Series(lines, dtype=pl.Utf8))
    shaped = chain(_frame(lines).with_columns(codes.alias(SHAPE_CODE)), shapes)
    assert shaped.drop(SHAPE_CODE).equals(plain)
    known = shaped.filter(pl.col(SHAPE_CODE).is_not_null())
    assert known["text"].to_list() == [lines[n - 1] for n in known["line_no"].to_list()]
    assert shapes.gather(known[SHAPE_CODE]).to_list() == [shape_of(t) for t in known["text"].to_list()]


def test_demux_searches_are_digit_invariant():
    # what lets them run on shapes (correlator.timeline.shapes.digit_invariant)
    from correlator.ingest import demux
    from correlator.timeline.shapes import digit_invariant

    for regex in (demux._ANY_PREFIX, r"(?:it/s|s/it)[\],]", r"\]<std", r"\r"):
        assert digit_invariant(regex), regex


@pytest.mark.parametrize(("line", "rank"), [
    ("[2025-03-02 10:00:01,123][rank 3/8][INFO] step 10/500 loss 0.91", 3),
    ("2025-03-02 10:00:01,123 rank12 WARNING ds: slow step", 12),
    ("2025-03-02T10:00:01.5 | RANK=5 | epoch 1", 5),
    ("[RANK 6] Epoch 2 | Batchsize: 32 | Steps: 118", 6),
    ("rank 1 pid 4410 step 8 loss 1.40", 1),
    ("2025-03-02 10:00:01,123 INFO rank=7 step 3/40 local loss 2.11", 7),  # after the record's level
    ("2025-03-02 10:00:01 WARNING | rank:2 | grad norm 41.2", 2),
    # not a record's own rank field: c10d's process-group rank, words, a rank inside the text
    ("[E ProcessGroupNCCL.cpp:737] [Rank 3] Watchdog caught collective operation timeout", None),
    ("ranking metrics computed for 40 queries", None),
    ("2025-03-02 10:00:01,123 INFO the leader is rank 4", None),
    ("rank_zero_warn: deprecated", None),
    ("[Rank 0 Error Snippet]:", None),  # Ray Train's error report heading
])
def test_a_rank_field_at_a_records_head_names_its_rank(line, rank):
    df = pl.DataFrame({"text": [line], "rank": pl.Series([None], dtype=pl.Int32)})
    assert rank_in_record_head(df)["rank"][0] == rank


def test_skypilot_prefixes_name_the_node_and_pid():
    # SkyPilot's job log (skypilot-org/skypilot issue 4448 and axolotl issue 1495; values new)
    df = _strip([
        "(head, rank=0, pid=7311) [gpu-a7-0:2]:gpu-a7-0:9141:9190 [2] NCCL INFO comm 0x55 rank 2 nranks 8 cudaDev 2 busId 41000 - Init COMPLETE",
        "(worker1, rank=1, pid=2519, ip=10.4.0.12) step 3 loss 1.22",
        "(llm-spot, pid=4021) [rank5]:[E0410 08:00:01.000000000 ProcessGroupNCCL.cpp:616] [Rank 5] x",
    ])
    assert df["host"].to_list() == ["head", "worker1", None]  # the outermost prefix names the node
    assert df["pid"].to_list() == [7311, 2519, 4021]
    assert df["local_rank"].to_list() == [None, None, None]  # "[host:2]:" does not say which rank 2 is
    assert df["rank"].to_list() == [None, None, 5]
    assert df["text"][0].startswith("gpu-a7-0:9141:9190 [2] NCCL INFO")


def test_mpirun_xml_elements_name_the_rank_of_their_line(tmp_path):
    from conftest import write_job

    from correlator.analysis.analyze import analyze
    from correlator.ingest import IngestOptions
    lines = [f'<stdout rank="{r}">2026-03-01T10:00:0{r}.100 rank{r}/3 INFO train: step 4 loss 0.5{r}&#010;</stdout>'
             for r in range(3)]
    lines.append('<stderr rank="1">Fatal Python error: Floating point exception&#010;</stderr>')
    v = analyze(write_job(tmp_path / "job", {"console.log": "\n".join(lines) + "\n"}),
                options=IngestOptions(echo_problems=False))
    assert v.ranks == 3 and v.initiating.rank == 1
