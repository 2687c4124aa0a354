"""HF accelerate training loop on the toy shards (gloo on CPU); optional per-rank augmentation cache."""
import argparse, datetime, logging, os, sys, time, warnings
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.002)
p.add_argument("--aug-cache-copies", type=int, default=0)   # materialise N augmented copies of the shard in memory
p.add_argument("--grad-accum", type=int, default=1)
p.add_argument("--metrics-sink", default="")               # host:port of a metrics push endpoint (best effort)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--output-dir", default="out")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)

def push_metrics(step, loss):
    import socket
    host, port = args.metrics_sink.split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=0.5) as s:
            s.sendall(f"train.loss {loss:.4f} {step}\n".encode())
    except OSError as e:
        logger.error(f"metrics push failed for step {step}: {e!r}; dropping sample (will retry next interval)")

def main():
    acc = Accelerator(cpu=True, gradient_accumulation_steps=args.grad_accum,
                      kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    rank = acc.process_index
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    logger.info(f"loaded shard_{rank:02d}.npz: {len(y)} rows x {x.shape[1]} features", main_process_only=False)
    if args.aug_cache_copies:
        t0 = time.time()
        cache = []
        for c in range(args.aug_cache_copies):
            cache.append(x + 0.01 * torch.randn_like(x))
        cache = torch.stack(cache)
        logger.info(f"augmentation cache ready: {args.aug_cache_copies} copies, "
                    f"{cache.numel() * 4 / 2**20:.0f} MiB in {time.time() - t0:.1f}s", main_process_only=False)
    model = nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    model, opt = acc.prepare(model, opt)
    lossf = nn.CrossEntropyLoss()
    steps = len(y) // args.batch_size
    gstep = 0
    for ep in range(args.epochs):
        for s in range(steps):
            xb, yb = x[s*args.batch_size:(s+1)*args.batch_size], y[s*args.batch_size:(s+1)*args.batch_size]
            if args.aug_cache_copies:
                xb = cache[(ep + s) % args.aug_cache_copies, s*args.batch_size:(s+1)*args.batch_size]
            with acc.accumulate(model):
                loss = lossf(model(xb), yb)
                acc.backward(loss); opt.step(); opt.zero_grad()
            gstep += 1
            if s % 4 == 0:
                logger.info(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
                if args.metrics_sink and acc.is_main_process:
                    push_metrics(gstep, loss.item())
            time.sleep(args.step_sleep)
        l = acc.gather(loss.detach().reshape(1)).mean()
        logger.info(f"epoch {ep}: mean train loss {l.item():.4f}")
    acc.wait_for_everyone()
    if acc.is_main_process:
        os.makedirs(args.output_dir, exist_ok=True)
        torch.save(acc.unwrap_model(model).state_dict(), os.path.join(args.output_dir, "model.pt"))
        logger.info(f"model saved to {args.output_dir}/model.pt")
    logger.info("training complete")
    acc.end_training()

if __name__ == "__main__":
    main()
