"""Tiny trainer for the fault captures in sample_logs/faults/ (CPU, gloo when launched by torchrun).

Runs single-process (`python ft.py`) when RANK is not set, DDP on gloo otherwise.
--fault picks what goes wrong on --fail-rank (-1: every rank) at --fail-step.
"""
import argparse
import json
import logging
import os
import sys
import time
import warnings
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

logger = logging.getLogger("ft")

FAULTS = ["none", "enospc_save", "enospc_write", "eacces_save", "erofs_save", "enoent_resume",
          "fileexists_outdir", "cpu_alloc", "memoryerror", "anomaly_nan", "collate_stack",
          "getitem_keyerror", "caught_exception", "warning_spam", "retry_open", "fail_attempt0", "fail_start_attempt0",
          "sleep"]


class Records(Dataset):
    """A list of dict records like a json-lines shard: {"x": [...], "y": float}."""

    def __init__(self, n, dim, drop_key_at=None, ragged_at=None):
        self.n, self.dim = n, dim
        self.drop_key_at, self.ragged_at = drop_key_at, ragged_at

    def __len__(self):
        return self.n

    def record(self, idx):
        g = torch.Generator().manual_seed(idx)
        x = torch.randn(self.dim, generator=g)
        rec = {"x": x, "y": float(x.sum()) * 0.1}
        if idx == self.drop_key_at:
            rec = {"x": x, "target": rec["y"]}  # a shard written by an older preprocessing script
        if idx == self.ragged_at:
            rec["x"] = torch.randn(self.dim + 3, generator=g)
        return rec

    def __getitem__(self, idx):
        rec = self.record(idx)
        return rec["x"], torch.tensor([rec["y"]])


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.stack(ys)

class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x, fault_nan=False):
        h = torch.relu(self.fc1(x))
        if fault_nan:
            h = torch.sqrt(h - 1.0)  # negative inputs: NaN forward, anomaly mode raises in backward
        return self.fc2(h)

def open_shard(path, attempt):
    if attempt < 3:
        raise ConnectionResetError(104, "Connection reset by peer", path)
    return True

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--dim", type=int, default=16)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--step-time", type=float, default=0.05)
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--output-dir", default="outputs")
    p.add_argument("--save-step", type=int, default=-1)
    p.add_argument("--resume-from", default=None)
    p.add_argument("--fault", choices=FAULTS, default="none")
    p.add_argument("--fail-rank", type=int, default=0)
    p.add_argument("--fail-step", type=int, default=10)
    p.add_argument("--num-workers", type=int, default=0)
    args = p.parse_args()

    distributed = "RANK" in os.environ
    rank = int(os.environ.get("RANK", 0))
    world = int(os.environ.get("WORLD_SIZE", 1))
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                        datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO, stream=sys.stderr)
    if args.fault == "fail_start_attempt0" and rank == args.fail_rank and \
            int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0)) == 0:
        raise RuntimeError(f"rank {rank}: shard index not ready yet (transient), exiting")
    if distributed:
        dist.init_process_group("gloo", timeout=timedelta(seconds=args.timeout))
        logger.info("rank %d/%d pid %d: process group initialized, backend=gloo", rank, world, os.getpid())
    else:
        logger.info("single process run, pid %d", os.getpid())
    if rank == 0:
        logger.info("torch %s, python %s", torch.__version__, sys.version.split()[0])
    mine = args.fail_rank < 0 or rank == args.fail_rank
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))

    if args.fault == "fileexists_outdir":
        # every rank creates "its" output dir; the path does not contain the rank
        os.makedirs(args.output_dir)
        logger.info("created output dir %s", args.output_dir)
    if args.fault == "anomaly_nan":
        torch.autograd.set_detect_anomaly(True)

    torch.manual_seed(0)
    n = args.steps * args.batch_size * world
    bad_idx = rank + world * ((args.fail_step - 1) * args.batch_size + 3)
    ds = Records(n, args.dim,
                 drop_key_at=bad_idx if args.fault == "getitem_keyerror" and mine else None,
                 ragged_at=bad_idx if args.fault == "collate_stack" and mine else None)
    if distributed:
        from torch.utils.data.distributed import DistributedSampler
        sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
    else:
        sampler = None
    loader = DataLoader(ds, batch_size=args.batch_size, sampler=sampler, collate_fn=collate,
                        num_workers=args.num_workers)
    model = MLP(args.dim, args.hidden)
    if args.resume_from:
        logger.info("resuming from checkpoint %s", args.resume_from)
        state = torch.load(args.resume_from, map_location="cpu")
        model.load_state_dict(state["model"])
    if distributed:
        from torch.nn.parallel import DistributedDataParallel as DDP
        model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()
    if rank == 0:
        logger.info("***** Running training *****")
        logger.info("  Num examples = %d", n)
        logger.info("  World size = %d", world)
        logger.info("  Total optimization steps = %d", args.steps)

    step = 0
    t0 = time.time()
    for x, y in loader:
        step += 1
        if step > args.steps:
            break
        here = mine and step == args.fail_step
        if here and args.fault == "cpu_alloc":
            logger.info("step %d | rank %d | building the activation cache", step, rank)
            cache = torch.empty(1 << 44, dtype=torch.float32)  # 64 TiB
        if here and args.fault == "memoryerror":
            logger.info("step %d | rank %d | materialising the eval buffer", step, rank)
            buf = bytearray(1 << 46)
        if here and args.fault == "fail_attempt0" and restart == 0:
            raise RuntimeError(f"rank {rank}: lost the shard reader at step {step} (transient), exiting")
        if here and args.fault == "sleep":
            time.sleep(300)
        if args.fault == "warning_spam" and step % 5 == 1:
            warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                          "`torch.nn.utils.clip_grad_norm_`.", FutureWarning)
            warnings.warn("This DataLoader will create 4 worker processes in total. Our suggested max "
                          "number of worker in current system is 2, which is smaller than what this "
                          "DataLoader is going to create.", UserWarning)
        if here and args.fault == "retry_open":
            shard = f"s3://bucket/train/shard-{rank:05d}.tar"
            for attempt in range(1, 6):
                try:
                    open_shard(shard, attempt)
                    logger.info("opened %s on attempt %d", shard, attempt)
                    break
                except ConnectionResetError as e:
                    logger.warning("attempt %d/5 to open %s failed: %s; retrying in 0.5 s", attempt, shard, e)
                    time.sleep(0.5)
        time.sleep(args.step_time)
        out = model(x, fault_nan=here and args.fault == "anomaly_nan")  # DDP passes the kwarg through
        loss = loss_fn(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if here and args.fault == "caught_exception":
            try:
                with open(os.path.join(args.output_dir, "metrics", f"step{step}.json")) as f:
                    json.load(f)
            except Exception:
                logger.exception("failed to update the metrics file at step %d; metrics for this step are lost, continuing", step)
        if step % args.log_every == 0:
            logger.info("step %d | rank %d | loss %.4f | %.2f s/step", step, rank, loss.item(), (time.time() - t0) / step)
        if args.save_step > 0 and step == args.save_step:
            path = os.path.join(args.output_dir, f"checkpoint-{step}")
            if rank == 0 or not distributed:
                os.makedirs(path, exist_ok=True)
                sd = (model.module if distributed else model).state_dict()
                if args.fault == "enospc_write":
                    logger.info("writing optimizer state to %s", path)
                    with open(os.path.join(path, "optimizer.json"), "w") as f:
                        json.dump({k: v.tolist() for k, v in opt.state_dict()["state"].get(0, {}).items()} or
                                  {"w": [list(range(200000))]}, f)
                else:
                    logger.info("saving checkpoint to %s", path)
                    torch.save({"model": sd, "step": step}, os.path.join(path, "model.pt"))
                logger.info("checkpoint saved")
            if distributed:
                dist.barrier()
    if distributed:
        dist.barrier()
    if rank == 0:
        logger.info("Training completed. %d steps in %.1f s", args.steps, time.time() - t0)
    if distributed:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
