#!/usr/bin/env python3
"""lc_train.py: small gloo DDP classifier for the roundJ lc-* jobs.

Rank/world from RANK/WORLD_SIZE (torchrun, deepspeed launcher, own launchers) or OMPI_COMM_WORLD_* (mpirun).
Data: --data-dir with per-rank shards part-<rank>.npz (x, y, optional raw bytes records) from lc_make_data.py,
else synthetic. Logging (--log-style): asctime (rank in each line), pid (only %(process)d, no rank), tqdm (a bar per
rank on stderr, logging through tqdm.write).
Behaviours: --eval-every N (eval loss all_reduce; a rank with an empty eval split skips it), --stall-fifo PATH
--stall-rank R --stall-step S (that rank reads a monitoring FIFO at step S), --cache-mb M (in-memory prefetch cache),
--num-workers W with --fast-decode (ctypes decode of the raw record bytes in the Dataset), --ckpt-dir/--ckpt-every
(rank 0 saves; --ckpt-retries K retries an OSError after --ckpt-backoff s), --final-check (rank 0 refuses a non-finite
final loss).
"""
import argparse, ctypes, datetime, logging, os, socket, sys, time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=12)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="asctime", choices=["asctime", "pid", "tqdm"])
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=6)
p.add_argument("--data-dir", default=None)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-frac", type=float, default=0.1)
p.add_argument("--stall-fifo", default=None)
p.add_argument("--stall-rank", type=int, default=-1)
p.add_argument("--stall-step", type=int, default=-1)
p.add_argument("--cache-mb", type=int, default=0)
p.add_argument("--num-workers", type=int, default=0)
p.add_argument("--fast-decode", action="store_true")
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-retries", type=int, default=0)
p.add_argument("--ckpt-backoff", type=float, default=5.0)
p.add_argument("--final-check", action="store_true")
args, unknown = p.parse_known_args()

env = os.environ
rank = int(env.get("RANK", env.get("OMPI_COMM_WORLD_RANK", 0)))
world = int(env.get("WORLD_SIZE", env.get("OMPI_COMM_WORLD_SIZE", 1)))
local_rank = int(env.get("LOCAL_RANK", env.get("OMPI_COMM_WORLD_LOCAL_RANK", rank)))


class TqdmHandler(logging.Handler):
    def emit(self, r):
        from tqdm import tqdm
        tqdm.write(self.format(r), file=sys.stderr)


def setup_logging():
    log = logging.getLogger("lc.train")
    log.setLevel(logging.INFO)
    log.propagate = False
    if args.log_style == "pid":
        fmt = logging.Formatter("%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s")
    else:
        fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(name)s:%(lineno)d - %(message)s")
    h = TqdmHandler() if args.log_style == "tqdm" else logging.StreamHandler(sys.stderr)
    h.setFormatter(fmt)
    log.addHandler(h)
    return log


log = setup_logging()


class Net(nn.Module):
    def __init__(self, d_in, hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.head(F.relu(self.fc2(F.relu(self.fc1(x)))))


class Records(Dataset):
    """x/y arrays; with --fast-decode each item's feature vector is decoded from its raw record bytes
    (4-byte little-endian payload length + float32 payload) through ctypes into a fixed-size buffer."""

    def __init__(self, x, y, raw=None):
        self.x, self.y, self.raw = x, y, raw

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        if args.fast_decode and self.raw is not None:
            rec = bytes(self.raw[i])
            n = int.from_bytes(rec[:4], "little")
            buf = (ctypes.c_float * self.x.shape[1])()
            ctypes.memmove(buf, rec[4:], n)
            xi = torch.tensor(torch.frombuffer(bytes(buf), dtype=torch.float32))
        else:
            xi = torch.from_numpy(self.x[i])
        return xi, int(self.y[i])


def load_data():
    if args.data_dir:
        path = os.path.join(args.data_dir, f"part-{rank:05d}.npz")
        z = np.load(path, allow_pickle=False)
        x, y = z["x"].astype(np.float32), z["y"].astype(np.int64)
        raw = z["raw"] if "raw" in z else None
        log.info("loaded %s: %d records, %d features", path, len(y), x.shape[1])
        return Records(x, y, raw), None
    g = np.random.default_rng(100)
    x = g.standard_normal((1024, 24)).astype(np.float32)
    y = (x @ np.linspace(-1, 1, 24 * args.classes).reshape(24, args.classes)).argmax(1)
    ds = Records(x, y)
    return ds, DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)


def save_ckpt(model, opt, step):
    if rank == 0:
        path = os.path.join(args.ckpt_dir, f"step-{step:06d}.pt")
        for attempt in range(args.ckpt_retries + 1):
            try:
                log.info("saving checkpoint %s (attempt %d)", path, attempt + 1)
                torch.save({"step": step, "model": model.module.state_dict(), "optim": opt.state_dict()}, path)
                log.info("checkpoint %s saved (%d bytes)", path, os.path.getsize(path))
                break
            except (OSError, RuntimeError) as e:
                if attempt >= args.ckpt_retries:
                    raise
                log.warning("checkpoint write failed: %s; retrying in %.0fs (%d/%d)", e, args.ckpt_backoff,
                            attempt + 1, args.ckpt_retries)
                time.sleep(args.ckpt_backoff)
    dist.barrier()


def evaluate(model, ev):
    if len(ev) == 0:
        log.warning("eval split is empty on this rank, skipping evaluation")
        return None
    model.eval()
    with torch.no_grad():
        x = torch.stack([ev[i][0] for i in range(len(ev))])
        y = torch.tensor([ev[i][1] for i in range(len(ev))])
        t = torch.tensor([F.cross_entropy(model(x), y, reduction="sum").item(), float(len(y))])
    dist.all_reduce(t)
    model.train()
    return (t[0] / t[1]).item()


def main():
    log.info("host %s pid %d: rank %d/%d local_rank %d, master %s:%s", socket.gethostname(), os.getpid(), rank,
             world, local_rank, env.get("MASTER_ADDR"), env.get("MASTER_PORT"))
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.pg_timeout))
    log.info("process group ready (gloo, world %d, timeout %ds)", world, args.pg_timeout)
    torch.manual_seed(0)
    ds, sampler = load_data()
    if args.cache_mb:
        log.info("allocating prefetch cache: %d MiB", args.cache_mb)
        cache = torch.empty(args.cache_mb * 2 ** 20 // 4, dtype=torch.float32)
        cache[: 2 ** 20].zero_()
        log.info("prefetch cache ready (%d floats)", cache.numel())
    n_ev = int(len(ds) * args.eval_frac) if args.eval_every else 0
    ev = torch.utils.data.Subset(ds, range(len(ds) - n_ev, len(ds)))
    tr = torch.utils.data.Subset(ds, range(0, len(ds) - n_ev)) if n_ev else ds
    if args.eval_every:
        log.info("train split %d records, eval split %d records", len(tr), len(ev))
    model = DDP(Net(ds.x.shape[1], args.hidden, args.classes))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    log.info("model: %d parameters, AdamW lr %g", sum(p.numel() for p in model.parameters()), args.lr)
    dl = DataLoader(tr, batch_size=args.batch, sampler=sampler if sampler is not None and not n_ev else None,
                    shuffle=sampler is None, num_workers=args.num_workers)
    bar = None
    if args.log_style == "tqdm":
        from tqdm import tqdm
        bar = tqdm(total=args.steps, desc=f"rank{rank} train", position=rank, file=sys.stderr, ascii=True,
                   mininterval=0, dynamic_ncols=False, ncols=90)
    step, loss = 0, None
    for epoch in range(args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for xb, yb in dl:
            step += 1
            if rank == args.stall_rank and step == args.stall_step and args.stall_fifo:
                log.info("reading throughput hint from %s", args.stall_fifo)
                with open(args.stall_fifo) as f:
                    log.info("throughput hint: %s", f.read().strip())
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if bar is not None:
                bar.set_postfix(loss=f"{loss.item():.4f}")
                bar.update(1)
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            if args.eval_every and step % args.eval_every == 0:
                v = evaluate(model, ev)
                if v is not None:
                    log.info("step %d eval loss %.4f", step, v)
            if args.ckpt_every and step % args.ckpt_every == 0:
                save_ckpt(model, opt, step)
            time.sleep(args.sleep)
            if step >= args.steps:
                break
        log.info("epoch %d finished at step %d", epoch, step)
        if step >= args.steps:
            break
    if bar is not None:
        bar.close()
    if args.final_check and rank == 0 and loss is not None and not torch.isfinite(loss):
        raise RuntimeError(f"final training loss is {loss.item()}; refusing to export the model")
    dist.barrier()
    log.info("training done: %d steps, final loss %.4f", step, loss.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed on rank %d", rank)
        raise
