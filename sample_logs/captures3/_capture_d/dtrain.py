"""Tiny gloo DDP trainer for the d-* captures (mpirun, bash loop, torchrun).

Rank and world size come from Open MPI (OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE)
when launched by mpirun, else from RANK / WORLD_SIZE (torchrun, a shell loop).
Each rank streams its own JSONL shard (make_shards.py) line by line, 8 lines a step,
pools token embeddings (+ a memmapped feature row with --features) into a 4-way
classifier, and all-reduces a metrics tensor every --log-every steps.

Faults (on --fail-rank at --fail-step, unless said otherwise):
  --fault sigkill        the rank SIGKILLs itself (what the host OOM killer does)
  --fault sigbus         the rank's memmapped features file is truncated under it
                         (as a rewrite by another job does); the next read is SIGBUS
  --fault metric_shape   the rank all-reduces a metrics tensor with one more entry
                         (it counts an extra 'skipped' metric the others don't)
  --fault stale_port     nothing in the trainer: the launcher leaves a stale store on
                         MASTER_PORT (see capture.sh)
  --backend nccl         every rank asks for NCCL on this CPU-only build
Data faults come from the shard itself (make_shards.py --truncate-line / --bad-token).
"""
import argparse
import faulthandler
import json
import logging
import os
import signal
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP

log = logging.getLogger("dtrain")


class ShardStream:
    def __init__(self, path, batch, features=None):
        self.path, self.batch = path, batch
        self.f = open(path)
        self.lineno = 0
        self.features = features

    def next_batch(self):
        toks, labels, rows = [], [], []
        while len(toks) < self.batch:
            line = self.f.readline()
            if not line:
                self.f.seek(0)
                self.lineno = 0
                continue
            rec = json.loads(line)
            toks.append(rec["tokens"])
            labels.append(rec["label"])
            rows.append(self.lineno)
            self.lineno += 1
        x = torch.tensor(toks)
        y = torch.tensor(labels)
        feats = None
        if self.features is not None:
            feats = torch.from_numpy(self.features[rows].copy())
        return x, y, feats


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, classes=4, features=False):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(16, dim) if features else None
        self.head = nn.Linear(dim, classes)

    def forward(self, x, feats=None):
        h = self.emb(x).mean(1)
        if self.proj is not None:
            h = h + self.proj(feats)
        return self.head(torch.relu(h))


def rank_world():
    if "OMPI_COMM_WORLD_RANK" in os.environ:
        return int(os.environ["OMPI_COMM_WORLD_RANK"]), int(os.environ["OMPI_COMM_WORLD_SIZE"])
    return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


@record
def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="data")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--log-every", type=int, default=2)
    p.add_argument("--backend", default="gloo")
    p.add_argument("--features", action="store_true")
    p.add_argument("--fault", default=None)
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=-1)
    p.add_argument("--pg-timeout", type=int, default=60)
    p.add_argument("--step-sleep", type=float, default=0.1)
    p.add_argument("--faulthandler", action="store_true")
    p.add_argument("--log-format", default="%(asctime)s %(levelname)s [%(name)s] %(message)s")
    a = p.parse_args()
    if a.faulthandler:
        faulthandler.enable()
    rank, world = rank_world()
    logging.basicConfig(level=logging.INFO, format=a.log_format, stream=sys.stdout)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    log.info("rank %d/%d starting on %s pid %d, backend=%s, MASTER=%s:%s", rank, world,
             os.uname().nodename, os.getpid(), a.backend, os.environ["MASTER_ADDR"],
             os.environ.get("MASTER_PORT"))
    dist.init_process_group(a.backend, rank=rank, world_size=world,
                            timeout=timedelta(seconds=a.pg_timeout))
    log.info("rank %d: process group ready (%s)", rank, dist.get_backend())
    torch.manual_seed(0)
    model = DDP(TinyClassifier(features=a.features))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    features = None
    feat_path = os.path.join(a.data, f"features-{rank:05d}.f32")
    if a.features:
        import numpy as np
        features = np.memmap(feat_path, dtype="float32", mode="r").reshape(-1, 16)
    stream = ShardStream(os.path.join(a.data, f"shard-{rank:05d}.jsonl"), a.batch, features)
    mine = rank == a.fail_rank
    for step in range(1, a.steps + 1):
        if mine and step == a.fail_step:
            if a.fault == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            if a.fault == "sigbus":
                os.truncate(feat_path, 0)
        x, y, feats = stream.next_batch()
        loss = F.cross_entropy(model(x, feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % a.log_every == 0:
            with torch.no_grad():
                acc = (model.module(x, feats).argmax(1) == y).float().mean()
            metrics = [loss.detach(), acc]
            if mine and a.fault == "metric_shape" and step >= a.fail_step:
                metrics.append(torch.tensor(0.0))  # 'skipped' counter only this rank keeps
            m = torch.stack(metrics)
            dist.all_reduce(m)
            m /= world
            if rank == 0:
                log.info("step %d/%d loss %.4f acc %.3f", step, a.steps, m[0].item(), m[1].item())
        time.sleep(a.step_sleep)
    dist.barrier()
    log.info("rank %d done", rank)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
