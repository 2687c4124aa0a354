"""DeepSpeed training of an MLP classifier on per-rank .npz shards (CPU accelerator, gloo); checkpoints with
engine.save_checkpoint every --save-every steps into --ckpt-dir."""
import argparse, os, time
import numpy as np
import torch, torch.nn as nn
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=200)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="checkpoints")
p.add_argument("--local_rank", type=int, default=-1)
p = deepspeed.add_config_arguments(p)
args = p.parse_args()

deepspeed.init_distributed(dist_backend="gloo")
rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
print(f"[rank {rank}/{world}] shard_{rank:02d}: {len(y)} rows", flush=True)
h = args.hidden
model = nn.Sequential(nn.Linear(16, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 4))
engine, opt, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
lossf = nn.CrossEntropyLoss()
bs = engine.train_micro_batch_size_per_gpu()
g = torch.Generator().manual_seed(rank)
for step in range(1, args.steps + 1):
    idx = torch.randint(0, len(y), (bs,), generator=g)
    loss = lossf(engine(x[idx]), y[idx])
    engine.backward(loss)
    engine.step()
    if step % 25 == 0:
        print(f"[rank {rank}] step {step}/{args.steps} loss {loss.item():.4f}", flush=True)
    if args.save_every and step % args.save_every == 0:
        engine.save_checkpoint(args.ckpt_dir, tag=f"step{step}", client_state={"step": step})
        if rank == 0:
            print(f"saved checkpoint {args.ckpt_dir}/step{step}", flush=True)
    time.sleep(0.01)
print(f"[rank {rank}] finished {args.steps} steps", flush=True)
