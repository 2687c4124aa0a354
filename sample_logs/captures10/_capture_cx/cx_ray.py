"""Ray Train TorchTrainer (CPU, gloo) for captures10.

    python cx_ray.py --workers 2 --temp-dir rt --attn flash|sdpa
ray.init(address='local', _temp_dir=rt): the session's worker files are under rt/session_*/logs/. Workers log
with Python logging '%(asctime)s %(levelname)s [w%(rank)s] %(message)s' on stderr. --attn flash imports the optional
flash_attn package when the model is built (every worker)."""
import argparse, logging, os, sys, time

import ray
import ray.train
import ray.train.torch
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchConfig, TorchTrainer


def build_model(attn):
    if attn == "flash":
        from flash_attn import flash_attn_func  # optional fast path  # noqa: F401
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def train_loop(cfg):
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    log = logging.getLogger("cx.ray")
    if not log.handlers:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [w{rank}] %(message)s"))
        log.addHandler(h); log.setLevel(logging.INFO)
    log.info("worker up, world size %d, pid %d, attn=%s", ctx.get_world_size(), os.getpid(), cfg["attn"])
    torch.manual_seed(0)
    model = ray.train.torch.prepare_model(build_model(cfg["attn"]))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(1, cfg["steps"] + 1):
        g = torch.Generator().manual_seed(100 * rank + step)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--temp-dir", default="rt")
    p.add_argument("--attn", default="sdpa")
    a = p.parse_args()
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1",
             _temp_dir=os.path.abspath(a.temp_dir), num_cpus=a.workers + 1)
    trainer = TorchTrainer(train_loop, train_loop_config=dict(steps=a.steps, attn=a.attn),
                           torch_config=TorchConfig(backend="gloo", timeout_s=30),
                           scaling_config=ScalingConfig(num_workers=a.workers, use_gpu=False),
                           run_config=RunConfig(name="cx-ray", storage_path=os.path.abspath("ray_results")))
    result = trainer.fit()
    print("final metrics:", result.metrics)


if __name__ == "__main__":
    main()
