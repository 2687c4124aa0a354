"""Scale must not change the verdict: one failure generated at 64 and at 1,024 ranks.

Each pair is the same scenario, seed and culprit (the same rank, on the same node
and local rank) with the same bytes per rank (so the same number of training
steps); only the world size differs, spread over nodes of 8 GPUs or over two
dense nodes (``synth``'s default node count). The verdicts are compared field by
field, with what must differ (rank numbers in file names, how many ranks an echo
reached) put in terms of the job.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from correlator import synth
from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions
from correlator.verdict import Verdict

SMALL, LARGE = 64, 1024
BYTES_PER_RANK = 4_000  # a few MB at 1,024 ranks: the generator's minimum run of steps


def _job(root: Path, scenario: str, ranks: int, nodes: int, culprit: int, seed: int) -> tuple[Path, dict]:
    out = root / f"{scenario}-{ranks}"
    truth = synth.generate_job(out, ranks=ranks, nodes=nodes, size=ranks * BYTES_PER_RANK, scenario=scenario,
                               seed=seed, culprit=culprit, workers=1)
    return out, truth


def _verdict(job: Path) -> Verdict:
    return analyze(str(job), options=IngestOptions(echo_problems=False, workers=1))


def _digits(text: str | None) -> str:
    """The line without its numbers, nor a kernel stamp (a node's dmesg prints raw
    uptime or ``dmesg -T`` dates, drawn per node: the draws run over every node)."""
    return re.sub(r"0x[0-9a-f]+|\d+", "N", re.sub(r"^\[[^\]]*\] ", "", text or ""))


def _shape(v: Verdict, ranks: int, ranks_per_node: int) -> dict:
    """The verdict in terms that do not depend on the world size."""
    init, cause, first = v.initiating, v.root_cause, v.first_deviating
    culprit = init.rank if init else None
    home = set(range(culprit - culprit % ranks_per_node, culprit - culprit % ranks_per_node + ranks_per_node)) \
        if culprit is not None else set()
    outside = set(range(ranks)) - home
    return {
        "status": v.status,
        "initiating": init and (init.kind, init.rank, init.node, init.local_rank, init.gpu, init.all_ranks,
                                round(init.confidence, 3)),
        "root_cause": cause and (cause.category, cause.rule_id, _digits(cause.evidence and cause.evidence.text)),
        "first_deviating": first and (first.rank, first.node, _digits(Path(first.file).name),
                                      _digits(first.text)),
        # each echo and who printed it as a part of the job (the culprit itself, every rank
        # off its node), not as a count; which of a node's ranks an agent found still alive
        # to SIGTERM is the generator's dice, not the verdict's
        "collateral": sorted((c.rule_id, c.category, culprit in c.ranks, outside <= set(c.ranks))
                             for c in v.collateral),
    }


@pytest.mark.parametrize(
    ("scenario", "ranks_per_node", "culprit", "seed"),
    [
        ("oom-cascade", 8, 28, 2),
        ("nccl-ib-error", 8, 28, 3),
        ("xid79", 8, 28, 1),
        ("hang", 8, 28, 1),
        # synth's default of two nodes: 512 GPUs a node at 1,024 ranks, where local
        # ranks past 40 shared a PCI bus (and the Xid named one of sixteen ranks)
        ("xid79", None, 28, 0),
        ("oom-cascade", None, 28, 0),
    ],
)
def test_the_verdict_at_1024_ranks_is_the_verdict_at_64(tmp_path, scenario, ranks_per_node, culprit, seed):
    shapes = []
    for ranks in (SMALL, LARGE):
        nodes = ranks // ranks_per_node if ranks_per_node else 2
        job, truth = _job(tmp_path, scenario, ranks, nodes, culprit, seed)
        v = _verdict(job)
        assert v.status == truth["status"] and v.initiating is not None
        assert v.initiating.rank == truth["initiating"]["rank"] == culprit
        shapes.append(_shape(v, ranks, ranks // nodes))
    small, large = shapes
    for field in small:
        assert large[field] == small[field], field


def test_no_two_gpus_of_a_node_share_a_pci_bus():
    """However many ranks a node runs: a bus shared by two ranks is a GPU shared by them."""
    plan = synth.make_plan(scenario="xid79", ranks=1024, hosts=synth.default_hosts(2), seed=0, culprit=300)
    for node in range(2):
        members = plan.node_ranks(node)
        assert len({plan.bus(r) for r in members}) == len(members) == 512
        assert len({plan.nccl_bus(r) for r in members}) == 512
    # NCCL's busId is the PCI address without ':' (docs/formats/nccl.md §1), domain included
    for r in (0, 7, 8, 47, 300, 511):
        assert plan.nccl_bus(r).lstrip("0") == (plan.bus(r).replace(":", "") + "000").lstrip("0")


def test_a_gpu_several_ranks_share_names_none_of_them(tmp_path, monkeypatch):
    """An Xid on a bus that NCCL saw four ranks use blames none of the four by itself
    (the rules would pick one of them at random); the rank whose own CUDA error says
    so is named, with the confidence of a job where the bus names it."""
    culprit = 13
    plain, _ = _job(tmp_path / "plain", "xid79", 32, 2, culprit, 3)
    # four ranks a GPU: local ranks 1, 5, 9 and 13 all on the Xid's bus
    monkeypatch.setattr(synth.Plan, "pci", lambda self, rank: (0, synth.BUS_IDS[self.local_of(rank) % 4]))
    shared, truth = _job(tmp_path / "shared", "xid79", 32, 2, culprit, 3)
    assert f"busId {synth.BUS_IDS[1]}000" in (shared / truth["initiating"]["node"] / "rank001.log").read_text()
    v, w = _verdict(shared), _verdict(plain)
    by_rule = {h.rule_id: h.rank for h in v.hypotheses}
    assert by_rule["xid-79"] is None and by_rule["cuda-unknown-error"] == culprit
    assert {h.rule_id: h.rank for h in w.hypotheses}["xid-79"] == culprit
    assert v.status == w.status == "failed"
    assert (v.initiating.rank, v.root_cause.rule_id) == (w.initiating.rank, w.root_cause.rule_id) == (culprit, "xid-79")
    assert v.initiating.confidence == w.initiating.confidence


def test_a_warning_its_rank_trained_on_after_is_not_where_its_failure_began(tmp_path):
    """A short run: the culprit's "slow data loading" warning (every 397 steps, offset by
    rank: 4 of 64 ranks print it in 38 steps, all of them in a long run) deviates, and it
    trained 15 steps on after it before its OOM. The first deviating line is the OOM: the
    warning's rarity depends on the run's length and width, the failure's does not."""
    job = tmp_path / "job"
    truth = synth.generate_job(job, ranks=64, nodes=8, size=64 * 15_000, scenario="oom-cascade", seed=1,
                               culprit=52, workers=1)
    assert "slow data loading" in (job / truth["initiating"]["node"] / "rank052.log").read_text()
    v = _verdict(job)
    assert v.initiating is not None and v.initiating.rank == 52
    assert v.first_deviating is not None and truth["first_deviating"]["contains"] in v.first_deviating.text
