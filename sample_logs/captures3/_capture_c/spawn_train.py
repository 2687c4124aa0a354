"""Tiny classifier trained with torch.multiprocessing.spawn (gloo, CPU).

The data set is a directory of .npy samples (features) plus labels.npy, written by
make_data.py; a DistributedSampler (no shuffle) gives index i to rank i % world.
Faults (injected in the data or the code, never in the logs):

  --fault none          healthy
  --fault hang          --fail-rank sleeps before its step --fail-step (stuck, silent);
                        the peers hit the gloo timeout (--pg-timeout seconds)
  --fault nan_check     the loss is checked with torch.isfinite before backward and the
                        script raises FloatingPointError on a non-finite loss
                        (the inf sample itself is in the data: make_data.py --inf-index)
Data faults come from make_data.py (--bad-label-index, --corrupt-index) or from a
wrong --data-dir.

--log-dir DIR: Python logging also to DIR/rank{N}.log (the console always gets it),
and a failing rank logs its traceback with logger.exception before re-raising.
"""
import argparse
import logging
import os
import sys
import time
from datetime import timedelta

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

logger = logging.getLogger("train")


class NpyDir(Dataset):
    def __init__(self, root):
        self.root = root
        self.labels = np.load(os.path.join(root, "labels.npy"))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        x = np.load(os.path.join(self.root, f"sample_{i:05d}.npy"))
        return torch.from_numpy(x).float(), int(self.labels[i])


def setup_logging(rank, log_dir):
    handlers = [logging.StreamHandler(sys.stdout)]
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        handlers.append(logging.FileHandler(os.path.join(log_dir, f"rank{rank}.log")))
    logging.basicConfig(
        level=logging.INFO,
        format=f"%(asctime)s [rank {rank}] %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
        force=True,
    )


def run(rank, args):
    setup_logging(rank, args.log_dir)
    try:
        worker(rank, args)
    except Exception:
        if args.log_dir:
            logger.exception("rank %d failed", rank)
        raise


def worker(rank, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    dist.init_process_group("gloo", rank=rank, world_size=args.world,
                            timeout=timedelta(seconds=args.pg_timeout))
    torch.manual_seed(0)
    logger.info("process group up: world %d, backend %s", args.world, dist.get_backend())
    ds = NpyDir(args.data_dir)
    sampler = DistributedSampler(ds, num_replicas=args.world, rank=rank, shuffle=False)
    dl = DataLoader(ds, batch_size=args.batch_size, sampler=sampler,
                    num_workers=args.num_workers)
    model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    logger.info("dataset %s: %d samples, %d batches per rank", args.data_dir, len(ds), len(dl))
    step = 0
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for x, y in dl:
            step += 1
            if args.fault == "hang" and rank == args.fail_rank and step == args.fail_step:
                time.sleep(3600)
            t0 = time.time()
            loss = F.cross_entropy(model(x), y)
            if args.fault == "nan_check" and not torch.isfinite(loss):
                raise FloatingPointError(
                    f"Loss is {loss.item()} at step {step} (epoch {epoch}); stopping")
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % args.log_every == 0:
                logger.info("epoch %d step %d loss %.4f (%.3f s/step)", epoch, step,
                            loss.item(), time.time() - t0)
    dist.barrier()
    logger.info("training done after %d steps", step)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--world", type=int, default=3)
    p.add_argument("--data-dir", default="data")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--num-workers", type=int, default=0)
    p.add_argument("--log-every", type=int, default=2)
    p.add_argument("--log-dir", default=None)
    p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--port", type=int, default=29711)
    p.add_argument("--fault", default="none", choices=["none", "hang", "nan_check"])
    p.add_argument("--fail-rank", type=int, default=1)
    p.add_argument("--fail-step", type=int, default=5)
    args = p.parse_args()
    print(f"launching {args.world} processes with torch.multiprocessing.spawn "
          f"(torch {torch.__version__})", flush=True)
    mp.spawn(run, args=(args,), nprocs=args.world, join=True)
    print("all processes finished", flush=True)


if __name__ == "__main__":
    main()
