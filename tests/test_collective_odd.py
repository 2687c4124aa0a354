"""Odd one out over the collective fingerprints c10d prints (TORCH_DISTRIBUTED_DEBUG=DETAIL).

Lines in the format of sample_logs/collective-mismatch-detail (torch 2.13,
ProcessGroupWrapper): each rank reports its own fingerprint and one peer's.
"""

from __future__ import annotations

from pathlib import Path

from correlator.analysis.analyze import analyze

_OPTS = ("TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), "
         "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))")


def _fp(seq: int, op: str, shape: str) -> str:
    return f"CollectiveFingerPrint(SequenceNumber={seq}, OpType={op}, TensorShape=[{shape}], TensorDtypes=Float, {_OPTS})"


def _line(r: int, mine: tuple, other_rank: int, other: tuple) -> str:
    return (f"[rank{r}]: RuntimeError: Detected mismatch between collectives on ranks. Rank {r} is running "
            f"collective: {_fp(*mine)}, but Rank {other_rank} is running collective: {_fp(*other)}."
            "Collectives differ in the following aspects: ")


def _job(tmp_path: Path, fps: dict[int, tuple], reports: dict[int, int]) -> Path:
    """rank r (a key of reports) reports its own fingerprint and that of rank reports[r]."""
    job = tmp_path / "job"
    job.mkdir()
    for r in fps:
        (job / f"rank{r}.log").write_text(
            f"2026-12-01 20:27:26,44{r} INFO trainer: starting: world_size={len(fps)} pid={17580 + r} host=vm\n"
            f"2026-12-01 20:27:34,37{r} INFO trainer: step 1 | rank {r} | loss 19.5876\n")
    (job / "launcher.log").write_text(
        "W1201 20:27:21.421000 17423 torch/distributed/run.py:874] \n"
        + "".join(_line(r, fps[r], o, fps[o]) + "\n" for r, o in reports.items()))
    return job


def test_majority_names_the_rank_with_a_different_op(tmp_path: Path) -> None:
    fps = {0: (43, "ALLREDUCE", ""), 1: (43, "ALLREDUCE", ""), 2: (43, "ALLGATHER", "")}
    v = analyze(str(_job(tmp_path, fps, {0: 2, 1: 2, 2: 0})))
    assert v.initiating.kind == "rank" and v.initiating.rank == 2
    assert v.root_cause.category == "collective_mismatch"


def test_one_against_one_at_an_older_sequence_number_is_behind(tmp_path: Path) -> None:
    fps = {0: (44, "ALLREDUCE", "1024"), 1: (43, "ALLREDUCE", "1024")}
    v = analyze(str(_job(tmp_path, fps, {0: 1})))
    assert v.initiating.kind == "rank" and v.initiating.rank == 1


def test_one_against_one_otherwise_is_a_tie_said_as_such(tmp_path: Path) -> None:
    fps = {0: (43, "ALLREDUCE", "1024"), 1: (43, "ALLREDUCE", "4096")}
    v = analyze(str(_job(tmp_path, fps, {1: 0})))
    assert v.initiating.kind == "unknown" and v.initiating.rank is None
    assert any("tie" in m and "third rank" in m for m in v.missing)
    assert "tie" in v.root_cause.title


def test_shapes_differing_only_in_the_batch_dimension_are_data(tmp_path: Path) -> None:
    fps = {0: (17, "ALLREDUCE", "32, 16"), 1: (17, "ALLREDUCE", "32, 16"), 2: (17, "ALLREDUCE", "7, 16")}
    v = analyze(str(_job(tmp_path, fps, {0: 2, 1: 2, 2: 1})))
    assert v.initiating.kind == "rank" and v.initiating.rank == 2
    assert v.root_cause.category == "data_error"


def test_shapes_differing_elsewhere_are_a_mismatch(tmp_path: Path) -> None:
    fps = {0: (17, "ALLREDUCE", "32, 16"), 1: (17, "ALLREDUCE", "32, 16"), 2: (17, "ALLREDUCE", "32, 19")}
    v = analyze(str(_job(tmp_path, fps, {0: 2, 1: 2, 2: 1})))
    assert v.initiating.rank == 2 and v.root_cause.category == "collective_mismatch"
