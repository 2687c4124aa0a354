"""c10d.collective_mismatch: both ranks' CollectiveFingerPrint, nested parentheses and all."""

import pytest

from correlator.ingest import lines_as_events
from parsers import PATTERNS

MISMATCH = next(p for p in PATTERNS if p.name == "c10d.collective_mismatch")

# sample_logs/collective-mismatch-detail/rank0.log line 22, verbatim (torch 2.13, gloo)
REAL = MISMATCH.examples[1]
# sample_logs/public/swift-minicpmv-collective-mismatch (modelscope/ms-swift PR 9443), verbatim
SWIFT = (
    "[rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[195812480], TensorDtypes=BFloat16, "
    "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cuda, layout=Strided (default), requires_grad=false "
    "(default), pinned_memory=false (default), memory_format=(nullopt))), but Rank 0 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[51123456], TensorDtypes=BFloat16, "
    "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cuda, layout=Strided (default), requires_grad=false "
    "(default), pinned_memory=false (default), memory_format=(nullopt))).Collectives differ in the following aspects: "
    "  Tensor Tensor shapes: 195812480vs 51123456"
)
TWO_DIMS = (
    "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=1, OpType=ALLREDUCE, TensorShape=[20, 10], TensorDtypes=Float, "
    "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), requires_grad=false "
    "(default), pinned_memory=false (default), memory_format=(nullopt))), but Rank 1 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=1, OpType=ALLGATHER, TensorShape=[20, 10], TensorDtypes=Float, "
    "TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), requires_grad=false "
    "(default), pinned_memory=false (default), memory_format=(nullopt)))."
)
FIELDS = ("peer_rank", "seq", "op", "shape", "dtype", "other_rank", "other_seq", "other_op", "other_shape", "other_dtype")


def _attrs(line: str) -> dict[str, str]:
    ev = lines_as_events([line], file="x.log")
    assert ev.column("kind").to_pylist() == ["c10d.collective_mismatch"]
    return dict(ev.column("attrs").to_pylist()[0])


@pytest.mark.parametrize(("line", "expected"), [
    (REAL, ("0", "43", "ALLREDUCE", "", "Float", "3", "43", "ALLGATHER", "", "Float")),
    (SWIFT, ("1", "3104", "ALLREDUCE", "195812480", "BFloat16", "0", "3104", "ALLREDUCE", "51123456", "BFloat16")),
    (TWO_DIMS, ("0", "1", "ALLREDUCE", "20, 10", "Float", "1", "1", "ALLGATHER", "20, 10", "Float")),
], ids=["detail-capture", "swift-shapes", "two-dims"])
def test_both_fingerprints_are_read(line, expected):
    a = _attrs(line)
    assert tuple(a.get(f, "") for f in FIELDS) == expected
    # the whole fingerprint, nested parentheses included (correlator/analysis/inferences.sql reads it)
    assert a["fingerprint"].endswith("memory_format=(nullopt))")
    assert a["other_fingerprint"].startswith("SequenceNumber=")


def test_short_and_old_and_cut_fingerprints():
    a = _attrs(MISMATCH.examples[0])  # "SequenceNumber=1OpType=BARRIER": no comma, no tensors
    assert (a["peer_rank"], a["seq"], a["op"], a["other_rank"], a["other_seq"], a["other_op"]) == (
        "1", "1", "BARRIER", "2", "0", "BARRIER")
    old = _attrs(  # torch 1.x: "inconsistent", no SequenceNumber, no other rank
        "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running inconsistent collective: "
        "CollectiveFingerPrint(OpType=BROADCAST, TensorShape=[34112], TensorDtypes=Float, TensorDeviceTypes="
        "TensorOptions(dtype=float (default), device=cuda, layout=Strided (default), requires_grad=false (default), "
        "pinned_memory=false (default), memory_format=(nullopt))"
    )
    assert (old["peer_rank"], old["op"], old["shape"], old["dtype"]) == ("0", "BROADCAST", "34112", "Float")
    assert "other_rank" not in old and "seq" not in old
    cut = _attrs(TWO_DIMS[: TWO_DIMS.index("TensorShape=[20, 10], TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))).") + 5])
    assert (cut["other_rank"], cut["other_seq"], cut["other_op"]) == ("1", "1", "ALLGATHER")
