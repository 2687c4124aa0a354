#!/usr/bin/env python3
"""ja_train.py: small gloo DDP classifier for the roundH ja-* jobs (env init: RANK/WORLD_SIZE/MASTER_ADDR/PORT).

Logging (--log-style): asctime = `%(asctime)s %(levelname)s [rank R] ja.train: msg` on stderr;
      json = logging.config.dictConfig from --log-config (a JSON file; {rank} in filenames expanded), one JSON object
      per record; plain = print() `[R] LEVEL msg` on stdout.
Data (--data): synthetic (default) | shards: data/shard-<R>.bin + data/shard-<R>.idx (int64 offsets, np.memmap, the
      Megatron-style index) | pairs: per-rank shard data/pairs-<R>.pt with a pairing collate_fn (reshape(-1, 2, D)).
Behaviours: --ckpt-share N (rank 0 writes ckpt/shared-N.pt after step N, streamed in chunks as to a network FS; the
      other ranks wait for the file to appear and load it), --resume FILE (torch.load), --metrics-every N (all_reduce of
      [loss_sum, correct, n]; built from a numpy accumulator with --np-metrics), --push URL (POST metrics with retries).
"""
import argparse, datetime, io, json, logging, logging.config, os, socket, sys, time, urllib.request

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset, Dataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=12)
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="asctime", choices=["asctime", "json", "plain"])
p.add_argument("--log-config", default="logging.json")
p.add_argument("--hidden", type=int, default=32)
p.add_argument("--data", default="synthetic", choices=["synthetic", "shards", "pairs"])
p.add_argument("--ckpt-share", type=int, default=0)
p.add_argument("--resume", default=None)
p.add_argument("--metrics-every", type=int, default=0)
p.add_argument("--np-metrics", default="")  # comma list of ranks whose metric accumulator is numpy float64
p.add_argument("--push", default=None)
p.add_argument("--push-retries", type=int, default=5)
p.add_argument("--warn-extra", action="store_true")
args = p.parse_args()

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
local_rank = int(os.environ.get("LOCAL_RANK", rank))


class JsonFormatter(logging.Formatter):
    def format(self, r):
        d = {"ts": self.formatTime(r, "%Y-%m-%dT%H:%M:%S") + f".{int(r.msecs):03d}", "level": r.levelname,
             "logger": r.name, "rank": rank, "msg": r.getMessage()}
        if r.exc_info:
            d["exc"] = self.formatException(r.exc_info)
        return json.dumps(d)


def setup_logging():
    if args.log_style == "json":
        with open(args.log_config) as f:
            cfg = json.load(f)
        for h in cfg.get("handlers", {}).values():
            if "filename" in h:
                h["filename"] = h["filename"].format(rank=rank)
                os.makedirs(os.path.dirname(h["filename"]) or ".", exist_ok=True)
        logging.config.dictConfig(cfg)
        return logging.getLogger("ja.train")
    log = logging.getLogger("ja.train")
    log.setLevel(logging.INFO)
    log.propagate = False
    if args.log_style == "asctime":
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s"))
        log.addHandler(h)
        return log
    class P:
        def _p(self, lvl, msg, *a, exc_info=False):
            print(f"[{rank}] {lvl} {msg % a if a else msg}", flush=True)
            if exc_info:
                import traceback; traceback.print_exc(file=sys.stdout); sys.stdout.flush()
        def info(self, m, *a): self._p("INFO", m, *a)
        def warning(self, m, *a): self._p("WARNING", m, *a)
        def error(self, m, *a): self._p("ERROR", m, *a)
        def exception(self, m, *a): self._p("ERROR", m, *a, exc_info=True)
    return P()


log = setup_logging()


class Net(nn.Module):
    def __init__(self, d_in, hidden, n_out=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class ShardDataset(Dataset):
    """Megatron-style indexed shard: .bin = float32 records of variable length, .idx = int64 byte offsets."""
    def __init__(self, prefix):
        self.idx = np.memmap(prefix + ".idx", dtype=np.int64, mode="r")
        self.bin = np.memmap(prefix + ".bin", dtype=np.float32, mode="r")
        log.info("shard %s: %d records, %d bytes", prefix, len(self.idx) - 1, self.bin.nbytes)

    def __len__(self):
        return len(self.idx) - 1

    def __getitem__(self, i):
        a, b = self.idx[i] // 4, self.idx[i + 1] // 4
        rec = torch.from_numpy(np.array(self.bin[a:b]))
        return rec[:16], rec[16].long()


def pair_collate(batch):
    # contrastive pairs: consecutive samples (2k, 2k+1) form one pair
    x = torch.stack([b[0] for b in batch]).reshape(-1, 2, 16)
    y = torch.stack([b[1] for b in batch]).reshape(-1, 2)
    return x, y


def make_loader():
    if args.data == "shards":
        ds = ShardDataset(f"data/shard-{rank:02d}")
        return DataLoader(ds, batch_size=args.batch, shuffle=True), "shard"
    if args.data == "pairs":
        x, y = torch.load(f"data/pairs-{rank}.pt")
        log.info("pairs shard data/pairs-%d.pt: %d samples", rank, len(x))
        return DataLoader(TensorDataset(x, y), batch_size=args.batch, shuffle=False, collate_fn=pair_collate), "pairs"
    g = torch.Generator().manual_seed(100)
    x = torch.randn(512, 16, generator=g)
    y = (x @ torch.linspace(-1, 1, 64).reshape(16, 4)).argmax(1)
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=1)
    return DataLoader(ds, batch_size=args.batch, sampler=sampler), sampler


def share_checkpoint(model, step):
    path = f"ckpt/shared-{step}.pt"
    if rank == 0:
        os.makedirs("ckpt", exist_ok=True)
        buf = io.BytesIO()
        torch.save({"step": step, "model": model.module.state_dict()}, buf)
        data = buf.getvalue()
        log.info("step %d: writing shared checkpoint %s (%d bytes)", step, path, len(data))
        with open(path, "wb") as f:  # streamed in 256 KiB chunks (as to the network file system)
            for i in range(0, len(data), 1 << 18):
                f.write(data[i:i + (1 << 18)]); f.flush(); time.sleep(0.15)
        log.info("step %d: shared checkpoint written", step)
    else:
        while not os.path.exists(path):
            time.sleep(0.05)
        log.info("step %d: loading shared checkpoint %s", step, path)
        sd = torch.load(path, map_location="cpu")
        model.module.load_state_dict(sd["model"])
        log.info("step %d: weights synced from %s", step, path)


def push(step, metrics):
    for attempt in range(1, args.push_retries + 1):
        try:
            req = urllib.request.Request(args.push, data=json.dumps({"step": step, **metrics}).encode(),
                                         headers={"Content-Type": "application/json"})
            urllib.request.urlopen(req, timeout=2).read()
            if attempt > 1:
                log.info("metrics push for step %d succeeded on attempt %d", step, attempt)
            return
        except OSError as e:
            log.warning("metrics push for step %d failed (attempt %d/%d): %s", step, attempt, args.push_retries, e)
            time.sleep(1.0)
    log.error("giving up on metrics push for step %d", step)


def main():
    log.info("host %s pid %d: rank %d/%d local_rank %d, master %s:%s", socket.gethostname(), os.getpid(), rank, world,
             local_rank, os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT"))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log.info("process group ready (gloo, world %d, timeout %ds)", world, args.pg_timeout)
    torch.manual_seed(0)
    hidden = args.hidden
    model = DDP(Net(16 if args.data != "pairs" else 32, hidden))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    start = 0
    if args.resume:
        log.info("resuming from %s", args.resume)
        ck = torch.load(args.resume, map_location="cpu")
        model.module.load_state_dict(ck["model"]); opt.load_state_dict(ck["optim"]); start = ck["step"]
        log.info("resumed at step %d (saved with %s)", start, ck.get("meta", {}))
    log.info("model: %d parameters", sum(p.numel() for p in model.parameters()))
    dl, sampler = make_loader()
    if args.warn_extra and rank == 0:
        import warnings
        warnings.warn("torch.distributed: gloo backend is used on CPU; performance may be low", UserWarning)
    step = start
    np_acc = str(rank) in args.np_metrics.split(",")
    acc = np.zeros(3) if np_acc else torch.zeros(3)
    if args.metrics_every:
        log.info("metrics: [loss_sum, correct, n] accumulator %s %s, all_reduce every %d steps", type(acc).__name__,
                 acc.dtype, args.metrics_every)
    for epoch in range(args.epochs):
        if isinstance(sampler, DistributedSampler):
            sampler.set_epoch(epoch)
        for xb, yb in dl:
            step += 1
            if args.data == "pairs":
                xb = xb.reshape(len(xb), -1); yb = yb[:, 0]
            out = model(xb)
            loss = F.cross_entropy(out, yb)
            opt.zero_grad(); loss.backward(); opt.step()
            acc[0] += loss.item() * len(yb); acc[1] += (out.argmax(1) == yb).sum().item(); acc[2] += len(yb)
            log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            if args.metrics_every and step % args.metrics_every == 0:
                t = torch.from_numpy(acc.copy()) if np_acc else acc.clone()
                dist.all_reduce(t)
                log.info("step %d: global loss %.4f acc %.3f over %d samples", step, t[0].item() / t[2].item(),
                         t[1].item() / t[2].item(), int(t[2].item()))
                if args.push and rank == 0:
                    push(step, {"loss": t[0].item() / t[2].item()})
                acc[:] = 0
            if args.ckpt_share and step == args.ckpt_share:
                share_checkpoint(model, step)
            time.sleep(args.sleep)
            if step >= args.steps:
                break
        log.info("epoch %d finished at step %d", epoch, step)
        if step >= args.steps:
            break
    dist.barrier()
    log.info("training done: %d steps", step)
    dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed")
        raise
