"""HF accelerate training loop on the toy shards (gloo on CPU) with accelerator.save_state() every N steps."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--width", type=int, default=64)     # width of the 'feature bank' layer (checkpoint size)
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--bank-mb", type=int, default=0)    # hard-negative feature bank kept in the checkpoint
p.add_argument("--output-dir", default="out")
p.add_argument("--step-sleep", type=float, default=0.05)
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)

class FeatureBank:
    """Ring buffer of past hidden features (hard-negative mining); saved with the training state."""
    def __init__(self, mb, dim):
        self.feats = torch.zeros(mb * 1024 * 1024 // (4 * dim), dim); self.ptr = 0
    def push(self, f):
        n = f.shape[0]; i = torch.arange(self.ptr, self.ptr + n) % self.feats.shape[0]
        self.feats[i] = f; self.ptr = int((self.ptr + n) % self.feats.shape[0])
    def state_dict(self):
        return {"feats": self.feats, "ptr": self.ptr}
    def load_state_dict(self, sd):
        self.feats, self.ptr = sd["feats"], sd["ptr"]

def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    rank = acc.process_index
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    model = nn.Sequential(nn.Linear(16, args.width), nn.ReLU(), nn.Linear(args.width, args.width), nn.ReLU(), nn.Linear(args.width, 4))
    nparam = sum(p.numel() for p in model.parameters())
    logger.info(f"model parameters: {nparam / 1e6:.1f}M")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr / 50)
    model, opt = acc.prepare(model, opt)
    bank = None
    if args.bank_mb:
        bank = FeatureBank(args.bank_mb, 4)
        acc.register_for_checkpointing(bank)
        logger.info(f"feature bank: {tuple(bank.feats.shape)} ({args.bank_mb} MB), registered for checkpointing")
    lossf = nn.CrossEntropyLoss()
    steps = len(y) // args.batch_size
    gstep = 0
    for ep in range(args.epochs):
        for s in range(steps):
            xb, yb = x[s*args.batch_size:(s+1)*args.batch_size], y[s*args.batch_size:(s+1)*args.batch_size]
            loss = lossf(model(xb), yb)
            acc.backward(loss); opt.step(); opt.zero_grad(); gstep += 1
            if bank is not None:
                bank.push(model(xb).detach())
            if s % 4 == 0:
                logger.info(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
            if args.save_every and gstep % args.save_every == 0:
                out = os.path.join(args.output_dir, f"checkpoint-{gstep}")
                logger.info(f"saving state to {out}")
                acc.save_state(out)
                logger.info(f"state saved to {out}")
            time.sleep(args.step_sleep)
        l = acc.gather(loss.detach().reshape(1)).mean()
        logger.info(f"epoch {ep}: mean train loss {l.item():.4f}")
    acc.wait_for_everyone()
    logger.info("training complete")
    acc.end_training()

if __name__ == "__main__":
    main()
