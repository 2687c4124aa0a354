"""Rank / node attribution from paths (03-torchrun-elastic.md §4)."""

import pytest

from correlator.ingest.attribute import facts_from_path


@pytest.mark.parametrize(
    ("path", "rank", "local_rank", "node"),
    [
        ("rank3.log", 3, None, None),
        ("logs/rank_03.txt", 3, None, None),
        ("rank-3/out.log", 3, None, None),
        ("node-12/rank5.log", 5, None, "node-12"),
        ("run_ab12/attempt_0/3/stdout.log", None, 3, None),
        ("node-1/run_x/attempt_1/0/error.json", None, 0, "node-1"),
        ("worker-1.log", None, None, "worker-1"),
        ("slurm-1234.out", None, None, None),
        ("rank10.log.gz", 10, None, None),
        ("mpilogs/1/rank.2/stderr", 2, None, None),  # OpenMPI --output-filename
        ("local_rank_2.log", None, 2, None),
        ("gpu-node-07/train.log", None, None, "gpu-node-07"),
        ("job/launcher.log", None, None, None),
        # Ray's per-process session logs are processes, not machines (ids new)
        ("ray/session_2026-11-30_09-12-40_118200_771/logs/"
         "worker-5e0c1a9b77d2f04e6a31c8d9e2b7f0a45c6d8e1f9a0b3c2d4e5f6a7b-02000000-48213.err", None, None, None),
    ],
)
def test_path_rules(path, rank, local_rank, node):
    f = facts_from_path(path)
    assert (f.rank, f.local_rank, f.node) == (rank, local_rank, node)


@pytest.mark.parametrize("path", ["gpu-node-07/dmesg.log", "nid008637/collect_env.txt", "node-1/nvidia-smi.txt", "rank3/kern.log"])
def test_node_level_files_never_get_a_rank(path):
    f = facts_from_path(path)
    assert f.node_level and f.rank is None and f.local_rank is None
