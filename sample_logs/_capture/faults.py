"""More failure modes for train.py, in their own module so that train.py's lines (and
hence the `File "train.py", line N` of the tracebacks in the committed captures) stay
where they were. Every hook is a no-op unless its mode (or --save-step) is asked for.

  --fail worker_killed      with --num-workers > 0: the DataLoader worker process of
                            --fail-rank that loads a sample of step --fail-step kills
                            itself with SIGKILL (what the host OOM killer does)
  --fail import_error       every rank (--fail-rank is ignored) imports an optional
                            dependency that is not installed (flash_attn) while
                            building the model
  --fail monitored_barrier  at --fail-step every rank enters
                            dist.monitored_barrier(timeout=--monitored-barrier-timeout);
                            --fail-rank arrives --hang-seconds late
  --fail store_unreachable  --fail-rank connects to MASTER_PORT + 7 (a stale port that
                            nothing listens on) in init_process_group
  --save-step N             (not a failure) after step N rank 0 torch.save()s a
                            checkpoint to --checkpoint-dir/step-<N>.pt while the other
                            ranks wait in dist.barrier(); capture.sh makes that file a
                            symlink to /dev/full for the disk-full scenario
"""

import argparse
import logging
import os
import signal
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.utils.data import Dataset, get_worker_info

logger = logging.getLogger("train")

MODES = ["worker_killed", "import_error", "monitored_barrier", "store_unreachable"]


# Defaults kept out of the argparse namespace (argparse.SUPPRESS) so that train.py's
# `--print-config` line (`vars(args)`) stays as it was unless one of these is given.
DEFAULTS = {"num_workers": 0, "save_step": -1, "checkpoint_dir": "checkpoints", "monitored_barrier_timeout": 10.0}


def add_args(p):
    sup = argparse.SUPPRESS
    p.add_argument("--num-workers", type=int, default=sup, help="DataLoader worker processes (0)")
    p.add_argument("--save-step", type=int, default=sup, help="rank 0 saves a checkpoint after this step")
    p.add_argument("--checkpoint-dir", default=sup, help="(checkpoints)")
    p.add_argument("--monitored-barrier-timeout", type=float, default=sup, help="s (10)")
    return p


def opt(args, name):
    return getattr(args, name, DEFAULTS[name])


def before_init_process_group(args, rank):
    if args.fail == "store_unreachable" and rank == args.fail_rank:
        os.environ["MASTER_PORT"] = str(int(os.environ["MASTER_PORT"]) + 7)


class _KillInWorker(Dataset):
    def __init__(self, ds, kill_index):
        self.ds = ds
        self.kill_index = kill_index

    def __len__(self):
        return len(self.ds)

    def __getitem__(self, idx):
        if idx == self.kill_index and get_worker_info() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.ds[idx]


def wrap_dataset(ds, args, rank, world):
    if args.fail == "worker_killed" and rank == args.fail_rank:
        # DistributedSampler(shuffle=False) gives rank r the indices r, r+world, r+2*world, ...
        return _KillInWorker(ds, args.fail_rank + world * ((args.fail_step - 1) * args.batch_size + 3))
    return ds


def before_model(args):
    if args.fail == "import_error":
        # an optional fast-attention kernel the model code imports unconditionally
        from flash_attn import flash_attn_func  # noqa: F401


def before_step(args, rank, step, model, optimizer):
    if step - 1 == opt(args, "save_step"):
        if rank == 0:
            path = os.path.join(opt(args, "checkpoint_dir"), f"step-{step - 1:06d}.pt")
            logger.info("Saving checkpoint to %s", path)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step - 1}, path)
            logger.info("Checkpoint saved")
        dist.barrier()
    if args.fail == "monitored_barrier" and step == args.fail_step:
        if rank == args.fail_rank:
            time.sleep(args.hang_seconds)
        dist.monitored_barrier(timeout=timedelta(seconds=opt(args, "monitored_barrier_timeout")))
    time.sleep(args.step_time)
