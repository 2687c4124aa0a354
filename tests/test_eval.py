"""`correlator eval`: scenarios analyzed in several processes score as they do in one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from correlator.analysis.evaluate import accuracy, evaluate

PICKED = ("oom-cascade-nccl-timeouts", "healthy-per-rank", "slurm-time-limit", "import-error-all-ranks")


def _corpus(samples: Path, root: Path) -> Path:
    for i, name in enumerate(PICKED):
        # two folders, so the per-folder grouping is exercised across processes too
        shutil.copytree(samples / name, root / ("a" if i % 2 else "b") / name)
    broken = root / "b" / "broken-truth"
    shutil.copytree(samples / PICKED[0], broken)
    (broken / "truth.json").write_text("{not json")
    return root


def _flat(results) -> list[tuple]:
    return [(r.name, r.folder, r.error, {k: (v.ok, json.dumps(v.got, default=str)) for k, v in r.fields.items()})
            for r in results]


def test_eval_in_two_processes_equals_eval_in_one(samples, tmp_path):
    root = _corpus(samples, tmp_path)
    serial = evaluate(root, workers=1)
    parallel = evaluate(root, workers=2)
    assert [r.name for r in serial] == sorted(PICKED[1::2]) + sorted([*PICKED[0::2], "broken-truth"])
    assert _flat(parallel) == _flat(serial)
    # the broken scenario is an error of its own; the others are still scored
    errors = {r.name: r.error for r in parallel if r.error}
    assert list(errors) == ["broken-truth"] and "JSONDecodeError" in errors["broken-truth"]
    assert accuracy(parallel)["status"] == (len(PICKED), len(PICKED) + 1)


def test_a_node_matches_by_its_short_name_but_an_address_only_whole():
    from correlator.analysis.evaluate import _same_host
    assert _same_host("ip-172-31-37-82", "ip-172-31-37-82.ec2.internal")
    assert _same_host("gpu-node-3.cluster.local", "gpu-node-3")
    assert not _same_host("gpu-node-3", "gpu-node-4.cluster.local")
    assert not _same_host("10.0.0.1", "10.0.0.12")
    assert not _same_host("10.0.0.1", "10.0.1.1")
