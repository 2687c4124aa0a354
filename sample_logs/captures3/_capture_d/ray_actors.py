"""Plain Ray actors running a gloo DDP job (no Ray Train): the driver creates N actors,
hands each its rank, MASTER_ADDR=127.0.0.1 and a port, and ray.get()s their train() calls.

    python ray_actors.py --world 3 --port 29831 [--fault eval_keyerror --fail-rank 0 --fail-step 10]

  --fault eval_keyerror  rank R's periodic evaluation logs metrics['val_loss'], a key
                         its evaluate() never filled (it returns 'loss'): KeyError
"""
import argparse
import json
import logging
import os
import time
from datetime import timedelta

import ray
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


@ray.remote(num_cpus=1)
class Trainer:
    def __init__(self, rank, world, port, data):
        self.rank, self.world, self.data = rank, world, data
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        logging.basicConfig(level=logging.INFO,
                            format=f"%(asctime)s rank{rank} %(levelname)s %(message)s")
        self.log = logging.getLogger("trainer")

    def evaluate(self, model, x, y):
        with torch.no_grad():
            out = model(x)
        return {"loss": F.cross_entropy(out, y).item(),
                "acc": (out.argmax(1) == y).float().mean().item()}

    def train(self, steps, fault, fail_rank, fail_step):
        dist.init_process_group("gloo", rank=self.rank, world_size=self.world,
                                timeout=timedelta(seconds=30))
        self.log.info("joined gloo group, world size %d", self.world)
        torch.manual_seed(0)
        model = DDP(nn.Sequential(nn.EmbeddingBag(100, 16), nn.ReLU(), nn.Linear(16, 4)))
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        with open(os.path.join(self.data, f"shard-{self.rank:05d}.jsonl")) as f:
            recs = [json.loads(line) for line in f]
        for step in range(1, steps + 1):
            chunk = recs[(step - 1) * 8: step * 8]
            x = torch.tensor([r["tokens"] for r in chunk])
            y = torch.tensor([r["label"] for r in chunk])
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 5 == 0:
                metrics = self.evaluate(model.module, x, y)
                key = "val_loss" if (fault == "eval_keyerror" and self.rank == fail_rank
                                     and step >= fail_step) else "loss"
                self.log.info("step %d eval loss %.4f acc %.3f", step, metrics[key], metrics["acc"])
            time.sleep(0.1)
        dist.barrier()
        dist.destroy_process_group()
        return self.rank


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--world", type=int, default=3)
    p.add_argument("--port", type=int, default=29831)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--data", default=os.path.abspath("data"))
    p.add_argument("--fault", default=None)
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=-1)
    a = p.parse_args()
    ray.init(address="local", include_dashboard=False, _temp_dir="/tmp/ray", num_cpus=a.world)
    actors = [Trainer.remote(r, a.world, a.port, a.data) for r in range(a.world)]
    done = ray.get([t.train.remote(a.steps, a.fault, a.fail_rank, a.fail_step) for t in actors])
    print("all ranks finished:", done)


if __name__ == "__main__":
    main()
