"""HF accelerate training loop on the toy shards (gloo on CPU), JSON-lines logging."""
import argparse, datetime, json, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--class-weights", action="store_true")  # rank 0 computes inverse-frequency class weights, broadcast
p.add_argument("--step-sleep", type=float, default=0.03)
args = p.parse_args()

class JsonLines(logging.Formatter):
    def format(self, r):
        d = {"time": self.formatTime(r, "%Y-%m-%dT%H:%M:%S"), "level": r.levelname, "name": r.name,
             "pid": r.process, "message": r.getMessage()}
        if r.exc_info:
            d["exc_info"] = self.formatException(r.exc_info)
        return json.dumps(d)
h = logging.StreamHandler(sys.stdout); h.setFormatter(JsonLines())
logging.basicConfig(level=logging.INFO, handlers=[h])
logger = get_logger("train")

def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=args.pg_timeout))])
    logger.info(f"process {acc.process_index}/{acc.num_processes} distributed_type={acc.distributed_type} device={acc.device}", main_process_only=False)
    rank, world = acc.process_index, acc.num_processes
    with open(os.path.join(args.data, "classes.txt")) as f:
        classes = f.read().split()
    path = os.path.join(args.data, f"shard_{rank:02d}.npz")
    d = np.load(path)
    x = torch.from_numpy(d["x"]); y = torch.tensor([classes.index(n) for n in d["y"]])
    logger.info(f"rank {rank}: {path} {len(y)} rows", main_process_only=False)
    weight = None
    if args.class_weights:
        if acc.is_main_process:
            counts = np.bincount(y.numpy(), minlength=len(classes))
            weight = torch.from_numpy(len(y) / (len(classes) * np.maximum(counts, 1)))
            logger.info(f"class weights from shard_00 counts {counts.tolist()}: {[round(v, 3) for v in weight.tolist()]}")
        else:
            weight = torch.empty(len(classes))
        dist.broadcast(weight, src=0)
        logger.info(f"rank {rank}: class weights {[round(v, 3) for v in weight.tolist()]}", main_process_only=False)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, len(classes)))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    model, opt = acc.prepare(model, opt)
    lossf = nn.CrossEntropyLoss(weight=weight.float() if weight is not None else None)
    steps = len(y) // args.batch_size
    for ep in range(args.epochs):
        for s in range(steps):
            xb, yb = x[s*args.batch_size:(s+1)*args.batch_size], y[s*args.batch_size:(s+1)*args.batch_size]
            with acc.accumulate(model):
                loss = lossf(model(xb), yb)
                acc.backward(loss); opt.step(); opt.zero_grad()
            if s % 4 == 0:
                logger.info(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}", main_process_only=False)
            time.sleep(args.step_sleep)
        l = acc.gather(loss.detach().reshape(1)).mean()
        logger.info(f"epoch {ep}: mean train loss {l.item():.4f}")
    v = np.load(os.path.join(args.data, "val.npz"))
    with torch.no_grad():
        correct = (model(torch.from_numpy(v["x"])).argmax(1) == torch.tensor([classes.index(n) for n in v["y"]])).float().mean()
    acc.wait_for_everyone()
    logger.info(f"final val accuracy {correct.item():.4f}")
    acc.end_training()

if __name__ == "__main__":
    main()
