"""Hard-wrapped lines joined back (correlator.ingest.demux.join_hard_wraps)."""

import polars as pl

from correlator.ingest import lines_as_events
from correlator.ingest.demux import join_hard_wraps

WATCHDOG = (
    "[rank1]:[E424 01:11:21.160819497 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112, Timeout(ms)=1800000) ran for "
    "1800010 milliseconds before timing out."
)


def _join(lines: list[str]) -> list[str]:
    df = pl.DataFrame({"line_no": list(range(1, len(lines) + 1)), "text": lines})
    return join_hard_wraps(df).get_column("text").to_list()


def _wrap(line: str, width: int) -> list[str]:
    return [line[i:i + width] for i in range(0, len(line), width)]


def test_pieces_of_the_terminal_width_are_joined():
    lines = ["[rank0]:[I424 01:00:00.000000000 x.cpp:1] starting", *_wrap(WATCHDOG, 80),
             *_wrap(WATCHDOG.replace("rank1", "rank2").replace("Rank 1", "Rank 2"), 80), "done"]
    assert _join(lines) == [lines[0], WATCHDOG, WATCHDOG.replace("rank1", "rank2").replace("Rank 1", "Rank 2"), "done"]


def test_the_real_wrapped_paste_gives_watchdog_timeouts(samples):
    # open-r1 issue 620: the reporter's terminal cut every line at 137 columns
    text = (samples / "public/open-r1-grpo-broadcast-timeout-wrapped/console.log").read_text()
    ev = lines_as_events(text.splitlines(), file="console.log")
    kinds = [k for k in ev.column("kind").to_pylist() if k == "c10d.watchdog_timeout"]
    ranks = sorted(r for r, k in zip(ev.column("rank").to_pylist(), ev.column("kind").to_pylist(), strict=True)
                   if k == "c10d.watchdog_timeout" and r is not None)
    assert len(kinds) == 5 and ranks == [2, 3, 5, 6]  # the first line's prefix was not pasted


def test_a_single_longest_line_is_joined_only_where_the_cut_splits_a_word():
    head = '  File "/home/u/anaconda3/envs/pytorch/lib/python3.6/site-packages/torch/nn/modules/module.py", line 5'
    assert _join(["x", head[:60], head[60:], "y"]) == ["x", head, "y"]
    # a line that merely is the longest, followed by an ordinary one, stays
    assert _join(["x", "E" * 60 + ".", "Next line", "y"]) == ["x", "E" * 60 + ".", "Next line", "y"]


def test_lines_of_one_length_that_are_not_wrapped_stay():
    rows = ["+" + "-" * 58 + "+", "|" + " GPU  Name " .ljust(58) + "|", "+" + "-" * 58 + "+"]
    assert _join(["nvidia-smi", *rows, "end"]) == ["nvidia-smi", *rows, "end"]
    same = [f"[rank{r}]:[W ProcessGroupNCCL.cpp:1250] Warning: process group has NOT been destroyed {r}" for r in range(4)]
    assert _join([*same, "x"]) == [*same, "x"]
    stamped = [f"11/30/2026 04:32:2{i} - INFO - train - step {i} | loss 3.4561 | avg loss 4.6304 | 0.07 s/step" for i in range(3)]
    assert _join(stamped) == stamped
    bars = [f"Training:  20%|███▏   | 6/30 [00:00<00:01, 14.86it/s, loss=4.63{i}]" for i in range(3)]
    assert _join(bars) == bars


def test_a_single_cut_after_a_quote_or_inside_an_acronym_is_joined():
    q = 'other_models = (accelerator.unwrap_model(unet.base_model.model))) else "text_encoder"'
    assert _join(["x", q[:72], q[72:], "y"]) == ["x", q, "y"]
    n = "torch.distributed.DistBackendError: NCCL error in: x.hpp:268, remote process exited, NCCL version 2.21.5"
    cut = n.index("CCL version")
    assert _join(["x", n[:cut], n[cut:], "y"]) == ["x", n, "y"]
    # a heading's colon is a line end, not a cut
    assert _join(["x", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "experiments/a.py FAILED"]) == [
        "x", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "experiments/a.py FAILED"]


def test_lines_cut_by_the_reader_are_no_wrap():
    huge = ["x" * 5000, "next line", "y" * 5000, "another"]
    assert _join(huge) == huge


def test_one_continued_head_among_two_is_no_wrap_unless_cut_inside_a_word():
    import polars as pl

    from correlator.ingest.demux import join_hard_wraps

    step = "2024-05-01 12:00:0{} - INFO - __main__ - step {}"
    rows = [step.format(0, 1), "ERROR: x", " 45%|###      | 45/100", step.format(9, 2)]
    assert join_hard_wraps(pl.DataFrame({"text": rows}))["text"].to_list() == rows
    cut = [step.format(0, 1) + " loading shard train-000", "01.bin", step.format(9, 2) + " and on and on and on"]
    joined = join_hard_wraps(pl.DataFrame({"text": cut}))["text"].to_list()
    assert joined[0].endswith("train-00001.bin")
