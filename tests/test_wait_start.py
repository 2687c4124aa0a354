"""A wait's start is its report's stamp minus the duration it printed.

The NCCL watchdog reports a collective timeout when it gives up (`ran for 600020
milliseconds`), ten minutes after the wait began. The rank the others waited for
stopped logging before that start; a rank still logging during the wait was not
the one they waited for. Real-format lines (torch 2.x ProcessGroupNCCL, a trainer's
logging.FileHandler per rank).
"""

from __future__ import annotations

from pathlib import Path

from correlator.analysis.analyze import analyze

_WATCHDOG = ("[E626 06:34:44.90388{r}913 ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation "
             "timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, "
             "Timeout(ms)=600000) ran for 600020 milliseconds before timing out.")


def test_the_rank_silent_before_the_waits_began_is_named(tmp_path: Path) -> None:
    job = tmp_path / "job"
    job.mkdir()
    for r in range(4):
        lines = [f"2026-06-26 06:20:0{r},100 INFO trainer: starting: world_size=4 pid={900 + r} host=vm",
                 f"2026-06-26 06:24:0{r},200 INFO trainer: step 807 | rank {r} | loss 2.{r}1"]
        # every rank logs step 808 before its collective, which starts at 06:24:44.88
        # (06:34:44.90 minus 600.02 s); rank 2 never returns from it
        lines.append(f"2026-06-26 06:24:4{r},300 INFO trainer: step 808 | rank {r} | loss 2.{r}2")
        if r == 3:  # rank 3 kept logging during the wait (its own report was lost with its log's tail)
            lines.append("2026-06-26 06:30:00,000 INFO trainer: checkpoint shard 3 flushed (12 MB)")
        if r in (0, 1):
            lines.append(_WATCHDOG.format(r=r))
        (job / f"rank{r}.log").write_text("\n".join(lines) + "\n")
    v = analyze(str(job))
    assert v.initiating is not None and v.initiating.kind == "rank" and v.initiating.rank == 2
    assert "precedes the start of their waits" in v.root_cause.explanation
    # rank 3 logged during the wait: it is no candidate at all (not merely a later one)
    assert all(h.rank != 3 for h in v.hypotheses)
