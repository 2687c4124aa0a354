"""Tiny gloo DDP trainer for the captures5 k-* incidents (torchrun or accelerate launch).

Logging: --log-format iso  -> '%(asctime)s %(levelname)s [rank N] %(name)s: msg' with ISO-8601 time,
         --log-dir D       -> each rank also writes D/rank{N}.log (FileHandler), console keeps stderr.
Faults (--fault on --fault-rank at --fault-step): oom, shape_mismatch, corrupt_sample, nan, early_exit,
         missing_shard (reads --shard-dir/shard-{rank}.pt), jit_model (loads --jit-model on every rank).
"""
import argparse, datetime, logging, os, sys, time, warnings

import torch
import torch.distributed as dist
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--launcher", default="torchrun", choices=["torchrun", "accelerate"])
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=1)
p.add_argument("--fault-step", type=int, default=5)
p.add_argument("--log-format", default="plain", choices=["plain", "iso"])
p.add_argument("--log-dir", default=None)
p.add_argument("--shard-dir", default=None)
p.add_argument("--jit-model", default=None)
p.add_argument("--data-dir", default=None)
p.add_argument("--pg-timeout", type=float, default=30.0)
p.add_argument("--warnings", action="store_true")
args = p.parse_args()

if args.launcher == "accelerate":
    from accelerate import Accelerator
    from datetime import timedelta
    from accelerate.utils import InitProcessGroupKwargs
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=timedelta(seconds=args.pg_timeout))])
    rank, world = acc.process_index, acc.num_processes
else:
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    rank, world = dist.get_rank(), dist.get_world_size()
    acc = None

log = logging.getLogger("train")
log.setLevel(logging.INFO)
if args.log_format == "iso":
    fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z")
else:
    fmt = logging.Formatter(f"[rank {rank}] %(levelname)s %(message)s")
h = logging.StreamHandler(sys.stderr); h.setFormatter(fmt); log.addHandler(h)
if args.log_dir:
    os.makedirs(args.log_dir, exist_ok=True)
    fh = logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")); fh.setFormatter(fmt); log.addHandler(fh)
log.info("process group up: world_size=%d backend=gloo host=%s pid=%d", world, os.uname().nodename, os.getpid())

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
if args.jit_model:
    log.info("loading frozen feature extractor %s", args.jit_model)
    feat = torch.jit.load(args.jit_model)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
if acc is not None:
    model, opt = acc.prepare(model, opt)
else:
    model = nn.parallel.DistributedDataParallel(model)

if args.warnings:
    scaler = torch.cuda.amp.GradScaler()  # a GPU recipe run on CPU: deprecation + "CUDA is not available" warnings
    ds = torch.utils.data.TensorDataset(torch.randn(64, 16))
    next(iter(torch.utils.data.DataLoader(ds, batch_size=8, num_workers=4)))  # more workers than cores: warning

shard = None
if args.shard_dir:
    path = os.path.join(args.shard_dir, f"shard-{rank:05d}.pt")
    log.info("reading shard %s", path)
    shard = torch.load(path)

g = torch.Generator().manual_seed(100 + rank)
for step in range(1, args.steps + 1):
    x = torch.randn(8, 16, generator=g)
    y = torch.randint(0, 4, (8,), generator=g)
    if shard is not None:
        x = x + shard["bias"]
    if args.data_dir:
        sample = torch.load(os.path.join(args.data_dir, f"sample-{(step - 1) * world + rank:06d}.pt"))
        x, y = sample["x"], sample["y"]
    if step == args.fault_step and rank == args.fault_rank:
        f = args.fault
        if f == "oom":
            log.info("building activation cache for %d samples", 1 << 24)
            cache = torch.empty((1 << 24, 1 << 22), dtype=torch.float32)
        elif f == "nan":
            x[3, 5] = float("inf")
        elif f == "early_exit":
            log.info("no more batches in local shard, leaving the loop")
            sys.exit(0)
    if args.fault == "shape_mismatch" and step == args.fault_step:
        t = torch.ones(16 if rank == args.fault_rank else 12)
        dist.all_reduce(t)
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    if torch.isnan(loss) or torch.isinf(loss):
        raise FloatingPointError(f"Loss is {loss.item()} at step {step}")
    opt.zero_grad()
    if acc is not None:
        acc.backward(loss)
    else:
        loss.backward()
    opt.step()
    lt = loss.detach().clone()
    dist.all_reduce(lt)
    if rank == 0:
        log.info("step %d/%d loss %.4f", step, args.steps, lt.item() / world)
    time.sleep(args.sleep)

dist.barrier()
log.info("training done")
if acc is not None:
    acc.end_training()
else:
    dist.destroy_process_group()
