"""Tiny distributed trainer used to capture the real crashed-job logs in sample_logs/.

It is an ordinary DDP training script on the gloo backend (CPU): a small MLP, a
synthetic regression data set read through a DistributedSampler, SGD, Python
logging with timestamps, and an optional tqdm progress bar on rank 0.  Flags
inject one failure on one rank, the way such failures happen in real jobs:

  --fail data_error  the data set raises ValueError for a corrupt sample
  --fail sigkill     the process kills itself with SIGKILL (host OOM killer's mark)
  --fail inf_input   one sample is enormous: loss inf on that rank, the DDP
                     all_reduce spreads the non-finite gradient, every rank then
                     sees a NaN loss and raises
  --fail hang        the rank sleeps (say, stuck in I/O) past the collective
                     timeout, logging nothing; the others time out in all_reduce
  --fail mismatch    the rank calls all_gather where the others call all_reduce
  --fail shape_bug   the rank drops a feature column (a preprocessing bug): the
                     first Linear raises "mat1 and mat2 shapes cannot be multiplied"

The process group comes from the env vars set by torchrun or by a launcher script.
More --fail modes (and --save-step) are in faults.py, hooked in without moving a line.
"""
import argparse
import logging
import math
import os
import signal
import sys
import time
from datetime import timedelta

import faults
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

logger = logging.getLogger("train")

HF_FORMAT = "%(asctime)s - %(levelname)s - %(name)s - %(message)s"
HF_DATEFMT = "%m/%d/%Y %H:%M:%S"
DEFAULT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class SyntheticRegression(Dataset):
    """y = x @ w + noise, deterministic per index."""

    def __init__(self, n, dim, corrupt_index=None, huge_index=None):
        self.n = n
        self.dim = dim
        self.corrupt_index = corrupt_index
        self.huge_index = huge_index
        g = torch.Generator().manual_seed(1234)
        self.w = torch.randn(dim, 1, generator=g)

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        if idx == self.corrupt_index:
            raise ValueError(
                f"corrupt sample at index {idx}: expected {self.dim} features, got 0 "
                f"(shard train-00002-of-00004.bin)"
            )
        g = torch.Generator().manual_seed(idx)
        x = torch.randn(self.dim, generator=g)
        if idx == self.huge_index:
            x = x * 1e30
        y = x @ self.w + 0.01 * torch.randn(1, generator=g)
        return x, y


class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--log-format", choices=["hf", "default"], default="hf")
    p.add_argument("--progress", action="store_true", help="tqdm bar on rank 0")
    p.add_argument("--timeout", type=float, default=20.0, help="collective timeout, s")
    p.add_argument("--step-time", type=float, default=0.05, help="simulated compute per step, s")
    p.add_argument("--fail", choices=["none", "data_error", "sigkill", "inf_input", "hang", "mismatch", "shape_bug", *faults.MODES],
                   default="none")
    p.add_argument("--fail-rank", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=-1)
    p.add_argument("--hang-seconds", type=float, default=120.0)
    p.add_argument("--grad-sync", choices=["ddp", "manual"], default="ddp",
                   help="ddp: DistributedDataParallel; manual: all_reduce each .grad after backward")
    p.add_argument("--record", action="store_true",
                   help="decorate the entrypoint with torch.distributed.elastic's @record (writes error.json)")
    p.add_argument("--print-config", action="store_true", help="print() the config to stdout at start")
    return faults.add_args(p).parse_args()


def setup_logging(args, rank):
    fmt = HF_FORMAT if args.log_format == "hf" else DEFAULT_FORMAT
    datefmt = HF_DATEFMT if args.log_format == "hf" else None
    logging.basicConfig(format=fmt, datefmt=datefmt, level=logging.INFO, handlers=[logging.StreamHandler(sys.stderr)])
    # Like HF scripts: only the main process logs at INFO, the others at WARNING ...
    # but our trainer logs per-rank step lines on every rank (per-rank loss).


def train(args):
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", rank))
    setup_logging(args, rank)
    faults.before_init_process_group(args, rank)
    dist.init_process_group("gloo", timeout=timedelta(seconds=args.timeout))
    logger.info(
        "rank %d/%d (local_rank %d) pid %d host %s: process group initialized, backend=%s",
        rank, world, local_rank, os.getpid(), os.uname().nodename, dist.get_backend(),
    )
    if rank == 0:
        logger.info("torch %s, python %s", torch.__version__, sys.version.split()[0])
    if args.print_config and rank == 0:
        print(f"config: {vars(args)}")

    torch.manual_seed(0)
    n = args.steps * args.batch_size * world
    per_rank = n // world
    corrupt_index = None
    huge_index = None
    if args.fail in ("data_error", "inf_input") and args.fail_rank >= 0:
        # DistributedSampler(shuffle=False) gives rank r the indices r, r+world, r+2*world, ...
        idx = args.fail_rank + world * ((args.fail_step - 1) * args.batch_size + 3)
        if args.fail == "data_error":
            corrupt_index = idx
        else:
            huge_index = idx
    ds = faults.wrap_dataset(SyntheticRegression(n, args.dim, corrupt_index=corrupt_index, huge_index=huge_index), args, rank, world)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, num_workers=faults.opt(args, "num_workers"))
    faults.before_model(args)
    model = MLP(args.dim, args.hidden)
    if args.grad_sync == "ddp":
        model = DDP(model)
    else:
        for prm in model.parameters():  # same initial weights everywhere
            dist.broadcast(prm.data, src=0)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    if rank == 0:
        logger.info("***** Running training *****")
        logger.info("  Num examples = %d", n)
        logger.info("  Num examples per rank = %d", per_rank)
        logger.info("  World size = %d", world)
        logger.info("  Total optimization steps = %d", args.steps)

    bar = None
    if args.progress and rank == 0:
        from tqdm.auto import tqdm

        bar = tqdm(total=args.steps, desc="Training", dynamic_ncols=False, ncols=100)

    step = 0
    t0 = time.time()
    for x, y in loader:
        step += 1
        if step > args.steps:
            break
        mine = rank == args.fail_rank and step == args.fail_step
        if mine and args.fail == "sigkill":
            os.kill(os.getpid(), signal.SIGKILL)
        if mine and args.fail == "hang":
            time.sleep(args.hang_seconds)
        if mine and args.fail == "shape_bug":
            x = x[:, 1:]
        faults.before_step(args, rank, step, model, opt)  # ends in time.sleep(args.step_time)
        out = model(x)
        loss = loss_fn(out, y)
        if torch.isnan(loss):
            raise RuntimeError(f"Loss is NaN at step {step}, stopping training")
        opt.zero_grad()
        loss.backward()
        if args.grad_sync == "manual":
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= world
        opt.step()
        loss_t = loss.detach().clone()
        if mine and args.fail == "mismatch":
            gathered = [torch.zeros_like(loss_t) for _ in range(world)]
            dist.all_gather(gathered, loss_t)
        else:
            dist.all_reduce(loss_t)
        avg = loss_t.item() / world
        if bar is not None:
            bar.update(1)
            bar.set_postfix(loss=f"{avg:.4f}")
        if step % args.log_every == 0 or not math.isfinite(loss.item()):
            logger.info("step %d | rank %d | loss %.4f | avg loss %.4f | %.2f s/step",
                        step, rank, loss.item(), avg, (time.time() - t0) / step)
    if bar is not None:
        bar.close()
    dist.barrier()
    if rank == 0:
        logger.info("Training completed. %d steps in %.1f s", args.steps, time.time() - t0)
    dist.destroy_process_group()


@record
def main_recorded(args):
    train(args)


def main():
    args = parse_args()
    if args.record:
        main_recorded(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
