"""DeepSpeed ZeRO training of a small MLP classifier on per-rank shards (CPU accelerator, gloo); save/resume with
engine.save_checkpoint / engine.load_checkpoint."""
import argparse, os, time
import numpy as np
import torch, torch.nn as nn
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=120)
p.add_argument("--ckpt-dir", default="checkpoints")
p.add_argument("--save-every", type=int, default=60)
p.add_argument("--resume", action="store_true")
p.add_argument("--local_rank", type=int, default=-1)
p = deepspeed.add_config_arguments(p)
args = p.parse_args()

deepspeed.init_distributed(dist_backend="gloo")
rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4))
engine, opt, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
start = 0
if args.resume:
    path, client = engine.load_checkpoint(args.ckpt_dir)
    start = client["step"]
    print(f"[rank {rank}] resumed from {path} at step {start}", flush=True)
lossf = nn.CrossEntropyLoss()
bs = engine.train_micro_batch_size_per_gpu()
g = torch.Generator().manual_seed(rank)
for step in range(start + 1, args.steps + 1):
    idx = torch.randint(0, len(y), (bs,), generator=g)
    loss = lossf(engine(x[idx]), y[idx])
    engine.backward(loss)
    engine.step()
    if step % 20 == 0 and rank == 0:
        print(f"step {step}/{args.steps} loss {loss.item():.4f}", flush=True)
    if step % args.save_every == 0:
        engine.save_checkpoint(args.ckpt_dir, client_state={"step": step})
    time.sleep(0.01)
print(f"[rank {rank}] finished {args.steps} steps", flush=True)
