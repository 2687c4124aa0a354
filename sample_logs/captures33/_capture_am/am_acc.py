"""HF accelerate training loop on the toy shards (gloo on CPU)."""
import argparse, datetime, math, os, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger
import logging

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--eval-batch-size", type=int, default=4)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--val-file", default="val.npz")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
logger = get_logger("train")

def pad_batch(rows, bs):
    """repeat rows so the last eval batch is full (keeps gather shapes equal across ranks)"""
    out = list(rows)
    while len(out) < bs:
        out.extend(rows[: bs - len(out)])
    return out

def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=args.pg_timeout))])
    logger.info(acc.state, main_process_only=False)
    rank, world = acc.process_index, acc.num_processes
    with open(os.path.join(args.data, "classes.txt")) as f:
        classes = f.read().split()
    path = os.path.join(args.data, f"shard_{rank:02d}.npz")
    d = np.load(path)
    x = torch.from_numpy(d["x"]); y = torch.tensor([classes.index(n) for n in d["y"]])
    logger.info(f"rank {rank}: {path} {len(y)} rows", main_process_only=False)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, len(classes)))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    model, opt = acc.prepare(model, opt)
    lossf = nn.CrossEntropyLoss()
    steps = len(y) // args.batch_size
    for ep in range(args.epochs):
        for s in range(steps):
            xb, yb = x[s*args.batch_size:(s+1)*args.batch_size], y[s*args.batch_size:(s+1)*args.batch_size]
            loss = lossf(model(xb), yb)
            acc.backward(loss); opt.step(); opt.zero_grad()
            if s % 4 == 0:
                logger.info(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
            time.sleep(0.03)
        l = acc.gather(loss.detach().reshape(1)).mean()
        logger.info(f"epoch {ep}: mean train loss {l.item():.4f}")
    # final evaluation: contiguous split of the val set over ranks
    v = np.load(os.path.join(args.data, args.val_file))
    per = math.ceil(len(v["y"]) / world)
    idx = list(range(rank * per, min(len(v["y"]), (rank + 1) * per)))
    logger.info(f"rank {rank}: final eval on {len(idx)} val rows", main_process_only=False)
    correct = 0
    for b in range(0, max(len(idx), 1), args.eval_batch_size):
        rows = pad_batch(idx[b:b + args.eval_batch_size], args.eval_batch_size)
        xb = torch.from_numpy(v["x"][rows]); yb = torch.tensor([classes.index(n) for n in v["y"][rows]])
        with torch.no_grad():
            correct += (model(xb).argmax(1) == yb).sum().item()
    acc.wait_for_everyone()
    tot = acc.reduce(torch.tensor([float(correct)]), reduction="sum")
    logger.info(f"final val accuracy {tot.item() / len(v['y']):.4f}")
    acc.end_training()

if __name__ == "__main__":
    main()
