"""Lightning Fabric training loop (run with `fabric run`): MLP classifier on per-rank shards, checkpoint with
fabric.save every --save-every steps."""
import argparse, os, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=300)
p.add_argument("--save-every", type=int, default=50)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--launch", action="store_true")   # start the processes from the script (python bm_fabric.py --launch)
p.add_argument("--devices", type=int, default=1)
args = p.parse_args()

if args.launch:
    fabric = L.Fabric(accelerator="cpu", strategy="ddp", devices=args.devices)
    fabric.launch()
else:
    fabric = L.Fabric()
fabric.seed_everything(5)
d = np.load(os.path.join(args.data, f"shard_{fabric.global_rank:02d}.npz"))
x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
model = nn.Sequential(nn.Linear(16, args.hidden), nn.ReLU(), nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                      nn.Linear(args.hidden, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
model, opt = fabric.setup(model, opt)
fabric.print(f"world size {fabric.world_size}, {sum(p.numel() for p in model.parameters())} parameters")
g = torch.Generator().manual_seed(fabric.global_rank)
t0 = time.time()
for step in range(1, args.steps + 1):
    idx = torch.randint(0, len(y), (32,), generator=g)
    loss = F.cross_entropy(model(x[idx]), y[idx])
    opt.zero_grad(); fabric.backward(loss); opt.step()
    if step % 25 == 0:
        fabric.print(f"step {step:4d} | loss {loss.item():.4f} | {(time.time() - t0) / step * 1000:.1f} ms/step")
    if step % args.save_every == 0:
        path = os.path.join(args.ckpt_dir, f"step-{step:05d}.ckpt")
        fabric.save(path, {"model": model, "optimizer": opt, "step": step})
        fabric.print(f"saved {path}")
    time.sleep(0.01)
fabric.barrier()
fabric.print("done")
