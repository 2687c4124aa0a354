"""Own training loop with accelerate (Accelerator handles DDP / FSDP from the launcher's plugin settings): MLP
classifier on per-rank .npz shards, eval on val.npz each epoch with gather_for_metrics, save at the end."""
import argparse, logging, os, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--out", default="out")
p.add_argument("--step-sleep", type=float, default=0.0)
args = p.parse_args()
logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.INFO)
log = get_logger("fit")

acc = Accelerator(cpu=True)   # CPU-only box: gloo process group from the torchrun env
set_seed(5)
d = np.load(os.path.join(args.data, f"shard_{acc.process_index:02d}.npz"))
train = DataLoader(TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"])), batch_size=args.batch_size, shuffle=True)
v = np.load(os.path.join(args.data, "val.npz"))
val = DataLoader(TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"])), batch_size=64)
model = nn.Sequential(nn.Linear(16, args.hidden), nn.GELU(), nn.Linear(args.hidden, args.hidden), nn.GELU(),
                      nn.Linear(args.hidden, 4))
model = acc.prepare(model)
opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
opt, val = acc.prepare(opt, val)
log.info(f"distributed_type={acc.distributed_type} num_processes={acc.num_processes}", main_process_only=True)
log.info(f"process {acc.process_index}: {len(train.dataset)} training rows", main_process_only=False)
for ep in range(args.epochs):
    model.train()
    tot, n = 0.0, 0
    for step, (x, y) in enumerate(train):
        loss = F.cross_entropy(model(x), y)
        acc.backward(loss)
        opt.step(); opt.zero_grad()
        tot += loss.item(); n += 1
        if step % 20 == 0:
            log.info(f"epoch {ep} step {step} loss {loss.item():.4f}", main_process_only=True)
        time.sleep(args.step_sleep)
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in val:
            pred = model(x).argmax(1)
            pred, y = acc.gather_for_metrics((pred, y))
            correct += (pred == y).sum().item(); total += len(y)
    log.info(f"epoch {ep}: train_loss {tot / max(n, 1):.4f} val_acc {correct / total:.4f}", main_process_only=True)
acc.wait_for_everyone()
state = acc.get_state_dict(model)
acc.save(state, os.path.join(args.out, "model.pt")) if acc.is_main_process and os.makedirs(args.out, exist_ok=True) is None else None
acc.wait_for_everyone()
log.info("training complete", main_process_only=True)
acc.end_training()
