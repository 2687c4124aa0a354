"""analyze on generated jobs (correlator.synth): every scenario, a skewed clock, many ranks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from correlator.analysis.analyze import analyze
from correlator.ingest import IngestOptions


@pytest.mark.parametrize(
    ("scenario", "extra"),
    [
        ("oom-cascade", []),
        ("nccl-ib-error", ["--skew", "30s"]),
        ("xid79", []),
        ("hang", ["--skew", "30s"]),
        ("healthy", []),
    ],
)
def test_verdict_matches_the_generators_truth(tmp_path, scenario, extra):
    job = tmp_path / "job"
    subprocess.run(
        [sys.executable, "-m", "correlator.synth", str(job), "--ranks", "16", "--nodes", "4",
         "--size", "3MB", "--scenario", scenario, "--seed", "7", *extra],
        check=True, capture_output=True,
    )
    truth = json.loads((job / "truth.json").read_text())
    v = analyze(str(job), options=IngestOptions(echo_problems=False, workers=1))
    assert v.status == truth["status"]
    if truth["status"] == "failed":
        assert v.initiating is not None
        assert (v.initiating.rank, v.initiating.node) == (truth["initiating"]["rank"], truth["initiating"]["node"])
        assert v.root_cause.category == truth["root_cause"]["category"]
