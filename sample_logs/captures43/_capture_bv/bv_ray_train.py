"""Ray Train TorchTrainer (CPU workers, gloo) training an MLP on per-worker shards; hyper-parameters from a JSON
recipe; every worker checks the loss for NaN/inf and stops the run instead of training on garbage."""
import argparse, json, math, os, time
import numpy as np
import ray, ray.train
import torch, torch.nn as nn
from ray.train import RunConfig, ScalingConfig
from ray.train.torch import TorchTrainer, prepare_model

p = argparse.ArgumentParser()
p.add_argument("--workers", type=int, default=2)
p.add_argument("--recipe", default="recipe.json")
p.add_argument("--data", default=os.path.abspath("data"))
args = p.parse_args()


def train_loop(cfg):
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    d = np.load(os.path.join(cfg["data"], f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    torch.manual_seed(0)
    model = prepare_model(nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"])
    bs = cfg["batch_size"]
    step = 0
    for ep in range(cfg["epochs"]):
        perm = torch.randperm(len(y))
        tot = 0.0
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            loss = nn.functional.cross_entropy(model(x[b]), y[b])
            if not math.isfinite(loss.item()):
                raise FloatingPointError(f"worker {rank}: loss is {loss.item()} at epoch {ep} step {step} "
                                         f"(lr={cfg['lr']}, momentum={cfg['momentum']})")
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item() * len(b); step += 1
            if step % 20 == 0 and rank == 0:
                print(f"epoch {ep} step {step} loss {loss.item():.4f}")
            time.sleep(0.005)
        ray.train.report({"epoch": ep, "train_loss": tot / len(perm)})


if __name__ == "__main__":
    with open(args.recipe) as f:
        cfg = json.load(f)
    cfg["data"] = args.data
    ray.init(num_cpus=2, include_dashboard=False)
    trainer = TorchTrainer(train_loop, train_loop_config=cfg,
                           scaling_config=ScalingConfig(num_workers=args.workers, use_gpu=False,
                                                        resources_per_worker={"CPU": 0.5}),
                           run_config=RunConfig(name="mlp_clf", storage_path=os.path.abspath("ray_results")))
    result = trainer.fit()
    print(f"training finished: {result.metrics}")
