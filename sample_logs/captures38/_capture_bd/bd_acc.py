"""HF accelerate training loop (gloo on CPU) with gradient accumulation; each rank streams its own shard, the number of
optimizer steps comes from the dataset manifest."""
import argparse, datetime, json, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--micro-batch", type=int, default=16)
p.add_argument("--grad-accum", type=int, default=4)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--step-sleep", type=float, default=0.01)
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)

def main():
    acc = Accelerator(cpu=True, gradient_accumulation_steps=args.grad_accum,
                      kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    set_seed(3)
    man = json.load(open(os.path.join(args.data, "manifest.json")))
    rank = acc.process_index
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
    rows = man["rows_per_shard"]
    total_steps = rows // (args.micro_batch * args.grad_accum)
    logger.info(f"manifest {man['name']}: {man['shards']} shards x {rows} rows -> {total_steps} optimizer steps "
                f"(micro-batch {args.micro_batch}, grad accumulation {args.grad_accum})")
    model = nn.Sequential(nn.Linear(ds.tensors[0].shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    dl = DataLoader(ds, batch_size=args.micro_batch, shuffle=False, drop_last=True)
    model, opt = acc.prepare(model, opt)   # each rank reads its own shard: the loader is not sharded by accelerate
    lossf = nn.CrossEntropyLoss()
    train_iter = iter(dl)
    t0 = time.time()
    for step in range(total_steps):
        for micro in range(args.grad_accum):
            xb, yb = next(train_iter)
            with acc.accumulate(model):
                loss = lossf(model(xb), yb)
                acc.backward(loss)
                opt.step(); opt.zero_grad()
        if step % 25 == 0:
            logger.info(f"step {step}/{total_steps} loss {loss.item():.4f} lr {args.lr:g} "
                        f"({time.time() - t0:.1f}s)")
        time.sleep(args.step_sleep)
    l = acc.gather(loss.detach().reshape(1)).mean()
    logger.info(f"finished {total_steps} optimizer steps, final loss (mean over ranks) {l.item():.4f}")
    acc.wait_for_everyone()
    acc.end_training()

if __name__ == "__main__":
    main()
