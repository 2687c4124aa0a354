"""DeepSpeed engine (ZeRO stage 1, CPU accelerator, gloo) on the toy shards."""
import argparse, json, os, time
import numpy as np
import torch, torch.nn as nn
import deepspeed
from deepspeed.utils import logger

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--local_rank", type=int, default=-1)
p = deepspeed.add_config_arguments(p)
args = p.parse_args()

def main():
    deepspeed.init_distributed(dist_backend="gloo")
    rank = torch.distributed.get_rank()
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    ds = torch.utils.data.TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    engine, _, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(), training_data=ds)
    lossf = nn.CrossEntropyLoss()
    for ep in range(args.epochs):
        for s, (xb, yb) in enumerate(loader):
            loss = lossf(engine(xb), yb)
            engine.backward(loss); engine.step()
            if s % 4 == 0:
                print(f"[rank {rank}] epoch {ep} step {s}/{len(loader)} loss {loss.item():.4f}", flush=True)
            time.sleep(args.step_sleep)
        print(f"[rank {rank}] epoch {ep} finished, global step {engine.global_steps}", flush=True)
    torch.distributed.barrier()
    if rank == 0:
        print("training done", flush=True)

if __name__ == "__main__":
    main()
