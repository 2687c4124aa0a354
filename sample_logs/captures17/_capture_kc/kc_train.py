#!/usr/bin/env python3
"""kc_train.py: small gloo DDP regressor/classifier for the roundI kc-* jobs.

Rank/world from RANK/WORLD_SIZE (torchrun, torchx, own launchers) or OMPI_COMM_WORLD_* (mpirun without mpi4py).
Logging (--log-style): asctime (stderr), rotating (logging.handlers.RotatingFileHandler logs/rank-R.log, small
maxBytes, rotated files .1 .2 ...; WARNING+ also on stderr), jsonl (one JSON object per line on stdout),
tqdm (tqdm bar on stderr per rank + logging lines via tqdm.write).
Behaviours: --ckpt-dir D --ckpt-every N (rank 0 saves D/step-N.pt with optimizer state, others wait at a barrier),
--gather-stats (all_gather of a per-rank label histogram every --stats-every steps; size = classes seen in the shard),
--shard-dir (per-rank .npz shards written by make_kc_shards.py instead of synthetic data), --nan-guard (raise on a
non-finite loss before backward), --fast-tokenize (ctypes C helper libkctok.so hashing the text field of each
record), --lockfile PATH ({rank} expanded; a rank waits while its dataset cache lock file exists).
"""
import argparse, datetime, json, logging, logging.handlers, os, socket, sys, time

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=12)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="asctime", choices=["asctime", "rotating", "jsonl", "tqdm"])
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=6)
p.add_argument("--shard-dir", default=None)
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--gather-stats", action="store_true")
p.add_argument("--stats-every", type=int, default=4)
p.add_argument("--fast-tokenize", action="store_true")
p.add_argument("--lockfile", default=None)
p.add_argument("--verbose-every", type=int, default=1)
p.add_argument("--nan-guard", action="store_true")
p.add_argument("--shuffle-seed", type=int, default=0)
args = p.parse_args()

env = os.environ
rank = int(env.get("RANK", env.get("OMPI_COMM_WORLD_RANK", 0)))
world = int(env.get("WORLD_SIZE", env.get("OMPI_COMM_WORLD_SIZE", 1)))
local_rank = int(env.get("LOCAL_RANK", env.get("OMPI_COMM_WORLD_LOCAL_RANK", rank)))


class JsonFormatter(logging.Formatter):
    def format(self, r):
        d = {"time": self.formatTime(r, "%Y-%m-%dT%H:%M:%S") + f".{int(r.msecs):03d}Z", "severity": r.levelname,
             "logger": r.name, "rank": rank, "pid": os.getpid(), "message": r.getMessage()}
        if r.exc_info:
            d["exception"] = self.formatException(r.exc_info)
        return json.dumps(d)


class TqdmHandler(logging.Handler):
    def emit(self, r):
        from tqdm import tqdm
        tqdm.write(self.format(r), file=sys.stderr)


def setup_logging():
    log = logging.getLogger("kc.train")
    log.setLevel(logging.INFO)
    log.propagate = False
    fmt = logging.Formatter(f"%(asctime)s %(levelname)-7s rank{rank} %(name)s %(filename)s:%(lineno)d] %(message)s")
    if args.log_style == "rotating":
        os.makedirs("logs", exist_ok=True)
        h = logging.handlers.RotatingFileHandler(f"logs/rank-{rank}.log", maxBytes=2048, backupCount=3)
        h.setFormatter(fmt)
        log.addHandler(h)
        e = logging.StreamHandler(sys.stderr)
        e.setLevel(logging.WARNING)
        e.setFormatter(fmt)
        log.addHandler(e)
    elif args.log_style == "jsonl":
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(JsonFormatter())
        log.addHandler(h)
    elif args.log_style == "tqdm":
        h = TqdmHandler()
        h.setFormatter(fmt)
        log.addHandler(h)
    else:
        h = logging.StreamHandler(sys.stderr)
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


def load_data():
    if args.shard_dir:
        path = os.path.join(args.shard_dir, f"part-{rank:05d}.npz")
        z = np.load(path, allow_pickle=False)
        x, y = torch.from_numpy(z["x"]).float(), torch.from_numpy(z["y"]).long()
        log.info("loaded shard %s: %d records, label set %s", path, len(y), sorted(set(y.tolist())))
        texts = list(z["text"]) if "text" in z else None
        return x, y, texts, None
    g = torch.Generator().manual_seed(100)
    x = torch.randn(1024, 24, generator=g)
    y = (x @ torch.linspace(-1, 1, 24 * args.classes).reshape(24, args.classes)).argmax(1)
    return x, y, None, DistributedSampler(TensorDataset(x, y), num_replicas=world, rank=rank, shuffle=True, seed=3)


def fast_tokenize(texts):
    import ctypes
    lib = ctypes.CDLL(os.path.abspath("libkctok.so"))
    lib.kc_hash_tokens.restype = ctypes.c_uint64
    lib.kc_hash_tokens.argtypes = [ctypes.c_char_p, ctypes.c_int]
    out = []
    for t in texts:
        s = str(t).encode()
        out.append(lib.kc_hash_tokens(s if s else None, len(s)))
    return out


def wait_lock(path):
    t0 = time.time()
    log.info("waiting for dataset cache lock %s", path)
    warned = False
    while os.path.exists(path):
        if not warned and time.time() - t0 > 5:
            with open(path) as f:
                log.warning("cache lock %s still held after 5s (%s)", path, f.read().strip())
            warned = True
        time.sleep(0.5)
    log.info("cache lock released after %.1fs", time.time() - t0)


def save_ckpt(model, opt, step):
    if rank == 0:
        os.makedirs(args.ckpt_dir, exist_ok=True)
        path = os.path.join(args.ckpt_dir, f"step-{step:06d}.pt")
        log.info("saving checkpoint %s", path)
        t0 = time.time()
        torch.save({"step": step, "model": model.module.state_dict(), "optim": opt.state_dict(),
                    "rng": torch.get_rng_state()}, path)
        log.info("checkpoint %s saved (%d bytes, %.2fs)", path, os.path.getsize(path), time.time() - t0)
    dist.barrier()


def main():
    log.info("host %s pid %d: rank %d/%d local_rank %d, master %s:%s", socket.gethostname(), os.getpid(), rank,
             world, local_rank, env.get("MASTER_ADDR"), env.get("MASTER_PORT"))
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.pg_timeout))
    log.info("process group ready (gloo, world %d, timeout %ds)", world, args.pg_timeout)
    torch.manual_seed(args.shuffle_seed)
    x, y, texts, sampler = load_data()
    if args.lockfile:
        wait_lock(args.lockfile.format(rank=rank))
    if args.fast_tokenize and texts is not None:
        log.info("tokenizing %d text fields with libkctok.so", len(texts))
        h = fast_tokenize(texts)
        log.info("token hashes ready (%d, first %x)", len(h), h[0])
    model = DDP(Net(x.shape[1], args.hidden, args.classes))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    log.info("model: %d parameters, optimizer AdamW lr %g", sum(p.numel() for p in model.parameters()), args.lr)
    dl = DataLoader(TensorDataset(x, y), batch_size=args.batch, sampler=sampler, shuffle=sampler is None)
    bar = None
    if args.log_style == "tqdm":
        from tqdm import tqdm
        bar = tqdm(total=args.steps, desc=f"rank{rank} train", position=rank, file=sys.stderr, ascii=True,
                   mininterval=0, dynamic_ncols=False, ncols=90)
    step = 0
    for epoch in range(args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for xb, yb in dl:
            step += 1
            out = model(xb)
            loss = F.cross_entropy(out, yb)
            if args.nan_guard and not torch.isfinite(loss):
                log.error("non-finite loss %s at epoch %d step %d (batch of %d)", loss.item(), epoch, step, len(yb))
                raise FloatingPointError(f"loss is {loss.item()} at step {step}; stopping (nan_guard)")
            opt.zero_grad()
            loss.backward()
            opt.step()
            if bar is not None:
                bar.set_postfix(loss=f"{loss.item():.4f}")
                bar.update(1)
            if step % args.verbose_every == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            if args.gather_stats and step % args.stats_every == 0:
                hist = torch.bincount(y, minlength=0).float()
                parts = [torch.zeros_like(hist) for _ in range(world)]
                dist.all_gather(parts, hist)
                tot = torch.stack(parts).sum(0)
                log.info("step %d: global label histogram %s", step, tot.int().tolist())
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
    dist.barrier()
    log.info("training done: %d steps", step)
    dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed on rank %d", rank)
        raise
