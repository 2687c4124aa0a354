"""Ray Train TorchTrainer (CPU, gloo) for captures7.

    python s_ray.py --workers 3 --data data --temp-dir rt

ray.init(address='local', _temp_dir=<--temp-dir>, 127.0.0.1 only, no dashboard): the session's logs,
including every worker process's stdout/stderr (logs/worker-*.out / .err), are written under the temp dir;
the driver console gets them too, prefixed '(RayTrainWorker pid=..)'.
Workers log with Python logging ('%(asctime)s %(levelname)s rank=R %(message)s' on stderr), every rank logs
its local loss every step. Data: data/rank{R}/batch-{step:04d}.pt (make_batches.py). Gradients are
clipped with clip_grad_norm_(..., error_if_nonfinite=True)."""
import argparse, logging, os, sys, time

import ray
import ray.train
import ray.train.torch
import torch
import torch.nn as nn
import torch.nn.functional as F
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer


def train_loop(cfg):
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    log = logging.getLogger("tiny")
    if not log.handlers:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s rank={rank} %(message)s"))
        log.addHandler(h)
        log.setLevel(logging.INFO)
    log.info("worker up: world_size=%d pid=%d data=%s", ctx.get_world_size(), os.getpid(),
             os.path.join(cfg["data"], f"rank{rank}"))
    torch.manual_seed(0)
    model = ray.train.torch.prepare_model(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    for step in range(1, cfg["steps"] + 1):
        b = torch.load(os.path.join(cfg["data"], f"rank{rank}", f"batch-{step:04d}.pt"))
        loss = F.cross_entropy(model(b["x"]), b["y"])
        log.info("step %d/%d local loss %.4f", step, cfg["steps"], loss.item())
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        opt.step()
        if step % 4 == 0:
            ray.train.report({"step": step, "loss": loss.item(), "grad_norm": gn.item()})
        time.sleep(cfg["sleep"])
    log.info("done")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--data", default=os.path.abspath("data"))
    p.add_argument("--steps", type=int, default=16)
    p.add_argument("--temp-dir", default=os.path.abspath("rt"))
    p.add_argument("--name", default="tiny-mlp")
    a = p.parse_args()
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1",
             _temp_dir=os.path.abspath(a.temp_dir), num_cpus=a.workers + 1)
    trainer = TorchTrainer(
        train_loop,
        train_loop_config=dict(data=os.path.abspath(a.data), steps=a.steps, lr=0.05, sleep=0.2),
        scaling_config=ScalingConfig(num_workers=a.workers, use_gpu=False),
        run_config=RunConfig(name=a.name, storage_path=os.path.abspath("ray_results")),
    )
    result = trainer.fit()
    print("final metrics:", result.metrics)


if __name__ == "__main__":
    main()
