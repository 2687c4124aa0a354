"""A failure that spreads is ordered by training step, then by aligned time.

Lines in the format of sample_logs/hangs' trainer (a logging.FileHandler per rank,
asctime stamps, `step K | rank R | loss X` before each step's all_reduce) and the
torchrun launcher's stderr.
"""

from __future__ import annotations

from pathlib import Path

from correlator.analysis.analyze import analyze

_NAN_TB = (
    "[rank{r}]: Traceback (most recent call last):\n"
    '[rank{r}]:   File "/home/user/job/train.py", line 160, in main\n'
    "[rank{r}]:     raise RuntimeError(f\"Loss is {{loss.item()}}\")\n"
    "[rank{r}]: RuntimeError: Loss is nan\n"
)


def _job(tmp_path: Path, nan_at: dict[int, int], stamp_of_nan: dict[int, str]) -> Path:
    """Three ranks train; rank r logs `loss nan` at step nan_at[r] (stamped stamp_of_nan[r])
    and raises `Loss is nan` right after."""
    job = tmp_path / "job"
    job.mkdir()
    launcher = []
    for r in range(3):
        lines = [f"2026-12-01 20:27:26,44{r} INFO trainer: starting: world_size=3 pid={17580 + r} host=vm",
                 f"2026-12-01 20:27:26,45{r} INFO trainer: process group ready (backend=gloo, rank {r} of 3)"]
        for k in range(1, nan_at[r]):
            lines.append(f"2026-12-01 20:27:{30 + k:02d},{100 + r:03d} INFO trainer: step {k} | rank {r} | loss {2.5 / k:.4f}")
        lines.append(f"{stamp_of_nan[r]} INFO trainer: step {nan_at[r]} | rank {r} | loss nan")
        (job / f"rank{r}.log").write_text("\n".join(lines) + "\n")
        launcher.append(_NAN_TB.format(r=r))
    (job / "launcher.log").write_text(
        "W1201 20:27:21.421000 17423 torch/distributed/run.py:874] \n" + "".join(launcher)
    )
    return job


def test_the_rank_a_step_earlier_is_first_within_one_second(tmp_path: Path) -> None:
    # rank 1's loss is nan at step 7; the all_reduce spreads it and ranks 0 and 2 show
    # it at step 8, stamped a few hundred ms *before* rank 1's line (clocks, buffering)
    job = _job(tmp_path, {0: 8, 1: 7, 2: 8},
               {0: "2026-12-01 20:27:38,100", 1: "2026-12-01 20:27:38,600", 2: "2026-12-01 20:27:38,200"})
    v = analyze(str(job))
    assert v.status == "failed"
    assert v.initiating is not None and v.initiating.kind == "rank" and v.initiating.rank == 1
    assert v.root_cause is not None and v.root_cause.category == "nan_divergence"


def test_same_step_everywhere_stays_all_ranks(tmp_path: Path) -> None:
    # control: every rank shows it at the same step within a second: no rank is first
    job = _job(tmp_path, {0: 8, 1: 8, 2: 8},
               {0: "2026-12-01 20:27:38,100", 1: "2026-12-01 20:27:38,600", 2: "2026-12-01 20:27:38,200"})
    v = analyze(str(job))
    assert (v.initiating is not None and v.initiating.kind != "rank") or v.initiating.rank is None
