"""DDP regression tests for the trainer's building blocks; every test runs on every rank (pytest -n 3 --dist each)."""
import logging

import pytest
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("ddp_suite")
ROWS, BATCH = 100, 34


def shard(rank, world):
    g = torch.Generator().manual_seed(7)
    X = torch.randn(ROWS, 16, generator=g); Y = (X[:, :4].sum(1) > 0).long()
    per = -(-ROWS // world)  # ceil: the last rank gets the remainder
    return X[rank * per:(rank + 1) * per], Y[rank * per:(rank + 1) * per]


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))


def test_ranks_all_present(pg):
    rank, world = pg
    got = [torch.zeros(1, dtype=torch.long) for _ in range(world)]
    dist.all_gather(got, torch.tensor([rank]))
    log.info("ranks seen: %s", [int(t) for t in got])
    assert sorted(int(t) for t in got) == list(range(world))


def test_ddp_step_keeps_replicas_equal(pg):
    rank, world = pg
    model = DDP(make_model())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    X, Y = shard(rank, world)
    nn.functional.cross_entropy(model(X[:BATCH]), Y[:BATCH]).backward(); opt.step()
    s = torch.stack([p.detach().sum() for p in model.parameters()]).sum().reshape(1)
    got = [torch.zeros(1) for _ in range(world)]
    dist.all_gather(got, s)
    log.info("parameter checksums after one step: %s", [round(float(t), 6) for t in got])
    assert all(torch.allclose(t, got[0]) for t in got)


def test_global_batch_loss_matches_single_process(pg):
    rank, world = pg
    X, Y = shard(rank, world)
    if len(X) < BATCH:
        pytest.skip(f"rank {rank}: shard has {len(X)} rows < batch {BATCH}")
    model = make_model()
    loss_sum = nn.functional.cross_entropy(model(X[:BATCH]), Y[:BATCH], reduction="sum").detach().reshape(1)
    dist.all_reduce(loss_sum)
    log.info("global loss sum over %d ranks: %.5f", world, float(loss_sum))
    assert torch.isfinite(loss_sum).all()


def test_rank0_state_broadcast(pg):
    rank, world = pg
    sd = [make_model().state_dict() if rank == 0 else None]
    dist.broadcast_object_list(sd, src=0)
    log.info("received state dict with %d tensors", len(sd[0]))
    ref = make_model().state_dict()
    assert all(torch.equal(sd[0][k], ref[k]) for k in ref)


def test_barrier(pg):
    dist.barrier()
