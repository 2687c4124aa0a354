"""Ray Train TorchTrainer (CPU, gloo) for captures9.

    python x_ray.py --workers 3 --temp-dir rt --pg-timeout 20 [--hang-rank R --hang-step S --hang-s T]

ray.init(address='local', _temp_dir=<--temp-dir>, 127.0.0.1, no dashboard): the session's worker
stdout/stderr files are under rt/session_*/logs/. TorchConfig(backend='gloo', timeout_s=--pg-timeout).
Workers log with Python logging in logfmt ('ts=... level=... rank=R msg="..."'); each step an all-reduce of
the loss (besides DDP's gradient all-reduce) for the rank-0 line. --hang-rank: that rank logs a debug line
'waiting for eval shard lock' and sleeps --hang-s before step --hang-step."""
import argparse, logging, os, sys, time
from datetime import timedelta

import ray
import ray.train
import ray.train.torch
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchConfig, TorchTrainer


def train_loop(cfg):
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    log = logging.getLogger("xray")
    if not log.handlers:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f'ts=%(asctime)s level=%(levelname)s rank={rank} msg="%(message)s"'))
        log.addHandler(h)
        log.setLevel(logging.INFO)
    log.info("worker up world_size=%d pid=%d", ctx.get_world_size(), os.getpid())
    torch.manual_seed(0)
    model = ray.train.torch.prepare_model(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(1, cfg["steps"] + 1):
        if rank == cfg["hang_rank"] and step == cfg["hang_step"]:
            log.info("step %d: waiting for eval shard lock /shared/eval/.lock", step)
            time.sleep(cfg["hang_s"])
        g = torch.Generator().manual_seed(100 * rank + step)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        t = loss.detach().clone()
        dist.all_reduce(t)
        if rank == 0:
            log.info("step %d/%d mean loss %.4f", step, cfg["steps"], t.item() / ctx.get_world_size())
        if step % 5 == 0:
            ray.train.report({"step": step, "loss": loss.item()})
        time.sleep(cfg["sleep"])
    log.info("done")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--temp-dir", default="rt")
    p.add_argument("--pg-timeout", type=int, default=20)
    p.add_argument("--hang-rank", type=int, default=-1)
    p.add_argument("--hang-step", type=int, default=-1)
    p.add_argument("--hang-s", type=float, default=60)
    p.add_argument("--name", default="tiny-ray")
    a = p.parse_args()
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1",
             _temp_dir=os.path.abspath(a.temp_dir), num_cpus=a.workers + 1)
    trainer = TorchTrainer(
        train_loop,
        train_loop_config=dict(steps=a.steps, sleep=0.2, hang_rank=a.hang_rank, hang_step=a.hang_step, hang_s=a.hang_s),
        torch_config=TorchConfig(backend="gloo", timeout_s=a.pg_timeout),
        scaling_config=ScalingConfig(num_workers=a.workers, use_gpu=False),
        run_config=RunConfig(name=a.name, storage_path=os.path.abspath("ray_results")),
    )
    result = trainer.fit()
    print("final metrics:", result.metrics)


if __name__ == "__main__":
    main()
