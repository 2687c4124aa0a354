"""Accelerate training loop (MLP on per-rank .npz shards, CPU / gloo) with a non-finite-loss guard: a NaN/inf loss
is raised at once instead of being allreduced into every replica."""
import argparse, logging, math, os, sys, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--log-every", type=int, default=20)
args = p.parse_args()

logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.INFO, stream=sys.stdout)
log = get_logger("train_mlp")
acc = Accelerator(cpu=True)
set_seed(5)
r = acc.process_index
d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
log.info(f"rank {r}: shard_{r:02d}.npz {tuple(x.shape)} {x.dtype}", main_process_only=False)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=args.batch_size, shuffle=True)
model = nn.Sequential(nn.Linear(16, 128), nn.LayerNorm(128), nn.GELU(), nn.Linear(128, 4))
opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
model, opt = acc.prepare(model, opt)   # the per-rank shard loader is not sharded again
lossf = nn.CrossEntropyLoss()
step = 0
for ep in range(args.epochs):
    for xb, yb in dl:
        loss = lossf(model(xb), yb)
        if not math.isfinite(loss.item()):
            raise FloatingPointError(f"non-finite loss {loss.item()} at epoch {ep} step {step} on process {r} "
                                     f"(batch feature range [{xb.min().item():.3g}, {xb.max().item():.3g}])")
        acc.backward(loss)
        opt.step(); opt.zero_grad()
        step += 1
        if step % args.log_every == 0:
            l = acc.reduce(loss.detach(), "mean")
            log.info(f"epoch {ep} step {step} loss {l.item():.4f}")
        time.sleep(0.005)
log.info(f"training done: {step} steps")
acc.end_training()
