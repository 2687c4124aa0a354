"""Ray Train (TorchTrainer, gloo, CPU) version of the d-* trainer.

    python ray_train.py --workers 3 [--fault sigkill --fail-rank R --fail-step S] [--warnings]

The driver starts a local Ray instance on 127.0.0.1 only (no dashboard, no usage stats,
temp dir /tmp/ray), and a TorchTrainer with ScalingConfig(num_workers=N, use_gpu=False).
Each worker streams its own JSONL shard (make_shards.py: a bad token id in one shard is
the data fault) through an nn.Embedding classifier; ray.train.report every 2 steps.
  --fault sigkill   the worker of rank R SIGKILLs itself at step S (the OOM killer's way)
  --warnings        the training loop uses a deprecated-style call that warns every epoch
"""
import argparse
import json
import os
import signal
import time
import warnings

import ray
import ray.train
import ray.train.torch
import torch
import torch.nn as nn
import torch.nn.functional as F
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=16, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        return self.head(torch.relu(self.emb(x).mean(1)))


def read_batches(path, batch):
    while True:
        with open(path) as f:
            recs = [json.loads(line) for line in f]
        for i in range(0, len(recs) - batch + 1, batch):
            chunk = recs[i:i + batch]
            yield torch.tensor([r["tokens"] for r in chunk]), torch.tensor([r["label"] for r in chunk])


def train_loop(cfg):
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    print(f"worker rank {rank}/{ctx.get_world_size()} pid {os.getpid()} reading shard-{rank:05d}.jsonl")
    torch.manual_seed(0)
    model = ray.train.torch.prepare_model(TinyClassifier())
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    batches = read_batches(os.path.join(cfg["data"], f"shard-{rank:05d}.jsonl"), cfg["batch"])
    for step in range(1, cfg["steps"] + 1):
        if rank == cfg["fail_rank"] and step == cfg["fail_step"] and cfg["fault"] == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        x, y = next(batches)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        if cfg["warnings"] and step % 10 == 1:
            # an old recipe: clip with the deprecated in-place-less name
            torch.nn.utils.clip_grad_norm(model.parameters(), 1.0)
        opt.step()
        if step % 2 == 0:
            ray.train.report({"step": step, "loss": loss.item()})
            if rank == 0:
                print(f"step {step}/{cfg['steps']} loss {loss.item():.4f}")
        time.sleep(cfg["sleep"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--data", default=os.path.abspath("data"))
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--fault", default=None)
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=-1)
    p.add_argument("--warnings", action="store_true")
    p.add_argument("--name", default="tiny-cls")
    a = p.parse_args()
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1",
             _temp_dir="/tmp/ray", num_cpus=a.workers + 1)
    trainer = TorchTrainer(
        train_loop,
        train_loop_config=dict(data=a.data, steps=a.steps, batch=a.batch, lr=0.05, fault=a.fault,
                               fail_rank=a.fail_rank, fail_step=a.fail_step, warnings=a.warnings,
                               sleep=0.1),
        scaling_config=ScalingConfig(num_workers=a.workers, use_gpu=False),
        run_config=RunConfig(name=a.name, storage_path=os.path.abspath("ray_results")),
    )
    result = trainer.fit()
    print("final metrics:", result.metrics)


if __name__ == "__main__":
    main()
