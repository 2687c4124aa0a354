"""Custom training loop with HF accelerate for captures13, run by `accelerate launch --multi_gpu --num_processes N`
with an Accelerator(cpu=True) (gloo on CPU). accelerate's get_logger with `main_process_only=False` on the
per-step lines, so every process logs ('%(asctime)s - %(levelname)s - %(name)s - msg', accelerate adds nothing;
the rank is in the message).

Every --eval-every steps the loop evaluates on a small held-out set:
  correct:  every process computes predictions, `accelerator.gather_for_metrics` on all of them, main computes acc
  --eval-main-only (planted bug): the gather sits inside `if accelerator.is_main_process:`, so only rank 0 enters
            the collective while the others go on to the next step's DDP gradient all-reduce.
"""
import argparse, logging
from datetime import timedelta

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=30)
p.add_argument("--eval-every", type=int, default=10)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--eval-main-only", action="store_true")
args = p.parse_args()

acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=args.pg_timeout))])
logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - %(name)s - %(message)s")
log = get_logger("ea_acc_loop")
r = acc.process_index
log.info(f"process {r}/{acc.num_processes} on {acc.device}, distributed_type={acc.distributed_type}",
         main_process_only=False)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 5))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
g = torch.Generator().manual_seed(11)
X = torch.randn(4096, 24, generator=g)
Y = (X[:, :5].argmax(-1))
train = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[:3840], Y[:3840]), batch_size=32, shuffle=True)
val = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[3840:], Y[3840:]), batch_size=64)
model, opt, train, val = acc.prepare(model, opt, train, val)


def evaluate():
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in val:
            pred = model(xb).argmax(-1)
            if args.eval_main_only:
                if acc.is_main_process:
                    pred, yb = acc.gather_for_metrics((pred, yb))
                    correct += (pred == yb).sum().item(); total += len(yb)
            else:
                pred, yb = acc.gather_for_metrics((pred, yb))
                correct += (pred == yb).sum().item(); total += len(yb)
    model.train()
    return correct / max(total, 1)


step = 0
it = iter(train)
while step < args.steps:
    try:
        xb, yb = next(it)
    except StopIteration:
        it = iter(train); continue
    step += 1
    loss = F.cross_entropy(model(xb), yb)
    acc.backward(loss)
    opt.step(); opt.zero_grad()
    log.info(f"[rank {r}] step {step}/{args.steps} loss {loss.item():.4f}", main_process_only=False)
    if step % args.eval_every == 0:
        log.info(f"[rank {r}] step {step}: evaluating", main_process_only=False)
        a = evaluate()
        if acc.is_main_process:
            log.info(f"[rank {r}] step {step}: val acc {a:.4f}")
acc.wait_for_everyone()
log.info(f"[rank {r}] done: {args.steps} steps", main_process_only=False)
acc.end_training()
