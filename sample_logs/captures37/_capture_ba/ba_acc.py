"""HF accelerate training loop on the toy shards (gloo on CPU): save_state checkpoints + per-rank data-position state."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger
from accelerate.utils import set_seed

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--grad-accum", type=int, default=1)
p.add_argument("--step-sleep", type=float, default=0.02)
p.add_argument("--output-dir", default="runs/exp")
p.add_argument("--resume-from", default="")
p.add_argument("--final-eval", action="store_true")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)

def main():
    acc = Accelerator(cpu=True, gradient_accumulation_steps=args.grad_accum,
                      kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    set_seed(11)
    rank = acc.process_index
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    logger.info(f"loaded shard_{rank:02d}.npz: {len(y)} rows", main_process_only=False)
    model = nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    model, opt = acc.prepare(model, opt)
    lossf = nn.CrossEntropyLoss()
    steps = len(y) // args.batch_size
    start_ep, perm = 0, torch.randperm(len(y))
    if args.resume_from:
        acc.load_state(args.resume_from)
        st = torch.load(os.path.join(args.resume_from, f"data_state_{rank}.pt"))
        start_ep, perm = st["epoch"] + 1, st["perm"]
        logger.info(f"resumed data position from {args.resume_from}/data_state_{rank}.pt: epoch {start_ep}",
                    main_process_only=False)
    for ep in range(start_ep, args.epochs):
        for s in range(steps):
            idx = perm[s*args.batch_size:(s+1)*args.batch_size]
            with acc.accumulate(model):
                loss = lossf(model(x[idx]), y[idx])
                acc.backward(loss); opt.step(); opt.zero_grad()
            if s % 5 == 0:
                logger.info(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
            time.sleep(args.step_sleep)
        l = acc.gather(loss.detach().reshape(1)).mean()
        logger.info(f"epoch {ep}: mean train loss {l.item():.4f}")
        out = os.path.join(args.output_dir, f"checkpoint-epoch{ep}")
        acc.save_state(out)
        torch.save({"epoch": ep, "perm": perm}, os.path.join(out, f"data_state_{rank}.pt"))
        perm = torch.randperm(len(y))
    if args.final_eval:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            pred = model(torch.from_numpy(v["x"])).argmax(1)
        a = acc.gather_for_metrics((pred == torch.from_numpy(v["y"])).float().mean().reshape(1))
        logger.info(f"final eval: val accuracy {a.mean().item():.4f} (per rank {[round(t, 4) for t in a.tolist()]})")
    acc.wait_for_everyone()
    logger.info("training complete")
    acc.end_training()

if __name__ == "__main__":
    main()
