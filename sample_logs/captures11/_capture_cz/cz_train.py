"""Tiny gloo DDP trainer for captures11 (cz-*).

Rank/world from torchrun/env (RANK, WORLD_SIZE), Open MPI (OMPI_COMM_WORLD_RANK/SIZE) or --spawn N (mp.spawn).
Logging styles (--log-style):
  pipe    '%(asctime)s | %(levelname)-8s | %(name)s:%(lineno)d | rank %(rank)s | %(message)s'
  syslog  '%(asctime)s vm train[%(process)d]: <rank%(rank)s> %(levelname)s %(message)s'
  loguru  loguru sink on stderr, '{time:YYYY-MM-DD HH:mm:ss.SSS} {level: <7} r{extra[rank]} {name}:{function}:{line} - {message}'
  print   print() of progress to stdout
--log-file F: Python logging to F ('{rank}' expanded) only (no console handler), else stderr/stdout.
Faults (--fault, on --fault-rank at --fault-step):
  ckpt_resume   every rank resumes from ckpt/rank{R}.pt (the capture script truncates one of them)
  extra_barrier the fault rank runs a barrier ('waiting for async checkpoint writer') the others do not
  fifo_stall    the fault rank reads its next shard part from a named pipe nobody writes (blocks in open())
  gather_shape  the fault rank all_gathers 5 per-class counts, the others 4
  dl_segv       DataLoader (num_workers=2): the fault rank's sample --fault-step goes through a native decoder
                (ctypes NULL read) -> SIGSEGV in the worker
  csv_row       every rank reads data/part-{R}.csv (the capture script writes a malformed row into one)
  json_metrics  the fault rank dumps its metrics with a tensor value into metrics.json (TypeError)
--manual-sync: no DDP wrapper, gradients all-reduced by hand per parameter.
--lr: learning rate (nan_lr job uses a huge one); non-finite loss raises FloatingPointError on that rank.
"""
import argparse, csv, ctypes, json, logging, os, sys, time, warnings
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--port", type=int, default=29971)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.3)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="pipe")
p.add_argument("--log-file", default="")
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--fault", default="")
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--warnings", action="store_true")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--manual-sync", action="store_true")
a = p.parse_args()


class RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__(); self.rank = rank

    def filter(self, rec):
        rec.rank = self.rank
        return True


class Log:
    """thin wrapper so loguru and logging share the call sites"""

    def __init__(self, rank):
        self.rank = rank
        if a.log_style == "loguru":
            from loguru import logger
            logger.remove()
            fmt = "{time:YYYY-MM-DD HH:mm:ss.SSS} {level: <7} r{extra[rank]} {name}:{function}:{line} - {message}"
            if a.log_file:
                os.makedirs(os.path.dirname(a.log_file) or ".", exist_ok=True)
                logger.add(a.log_file.format(rank=rank), format=fmt, level="INFO")
            else:
                logger.add(sys.stderr, format=fmt, level="INFO", colorize=False)
            self.l = logger.bind(rank=rank)
            return
        root = logging.getLogger()
        root.handlers.clear(); root.setLevel(logging.INFO)
        if a.log_style == "syslog":
            fmt = logging.Formatter("%(asctime)s vm train[%(process)d]: <rank%(rank)s> %(levelname)s %(message)s",
                                    "%b %d %H:%M:%S")
        else:
            fmt = logging.Formatter("%(asctime)s | %(levelname)-8s | %(name)s:%(lineno)d | rank %(rank)s | %(message)s")
        if a.log_file:
            os.makedirs(os.path.dirname(a.log_file) or ".", exist_ok=True)
            h = logging.FileHandler(a.log_file.format(rank=rank))
        else:
            h = logging.StreamHandler(sys.stdout if a.log_style == "print" else sys.stderr)
        h.setFormatter(fmt); h.addFilter(RankFilter(rank)); root.addHandler(h)
        self.l = logging.getLogger("cz.train")

    def info(self, msg, *args):
        if a.log_style == "print":
            print(msg % args, flush=True)
        elif a.log_style == "loguru":
            self.l.opt(depth=1).info(msg % args if args else msg)
        else:
            self.l.info(msg, *args, stacklevel=2)

    def warning(self, msg, *args):
        if a.log_style == "loguru":
            self.l.opt(depth=1).warning(msg % args if args else msg)
        elif a.log_style == "print":
            print("WARNING: " + (msg % args), file=sys.stderr, flush=True)
        else:
            self.l.warning(msg, *args, stacklevel=2)

    def exception(self, msg, *args):
        if a.log_style == "loguru":
            self.l.opt(exception=True).error(msg % args if args else msg)
        elif a.log_style != "print":
            self.l.exception(msg, *args)


class Samples(torch.utils.data.Dataset):
    def __init__(self, rank, n):
        self.rank, self.n = rank, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if a.fault == "dl_segv" and self.rank == a.fault_rank and i == a.fault_step:
            # sample stored in the legacy packed format: handed to the native decoder
            ctypes.string_at(0)
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        return torch.randn(16, generator=g), int(torch.randint(0, 4, (1,), generator=g))


def read_csv_shard(path):
    xs, ys = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            xs.append([float(row[f"f{k}"]) for k in range(16)])
            ys.append(int(row["label"]))
    return torch.tensor(xs), torch.tensor(ys)


def run(rank, world):
    log = Log(rank)
    to = timedelta(seconds=a.pg_timeout)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=to)
    log.info("process group ready: rank %d/%d pid=%d backend=%s", rank, world, os.getpid(), dist.get_backend())
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    start = 1
    if a.fault == "ckpt_resume":
        path = f"ckpt/rank{rank}.pt"
        log.info("resuming from %s (%d bytes)", path, os.path.getsize(path))
        sd = torch.load(path, map_location="cpu")
        model.load_state_dict(sd["model"]); start = sd["step"] + 1
        log.info("resumed at step %d", start)
    ddp = model if a.manual_sync else nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)
    log.info("optimizer SGD lr=%g", a.lr)
    if a.warnings:
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", UserWarning)
        log.warning("max_grad_norm=None: gradient clipping disabled")
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except ConnectionResetError:
            log.exception("metrics push to http://127.0.0.1:9/ failed (attempt 1/3), retrying in 0.5 s")
        log.info("metrics push succeeded on attempt 2")
    if a.fault == "csv_row":
        path = f"data/part-{rank}.csv"
        log.info("loading shard %s", path)
        X, Y = read_csv_shard(path)
        log.info("shard %s: %d rows", path, len(Y))
        batches = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, len(Y), 8)]
    else:
        ds = Samples(rank, 8 * a.steps)
        batches = torch.utils.data.DataLoader(ds, batch_size=8, num_workers=a.workers)
        log.info("dataloader: %d samples, batch 8, num_workers=%d", len(ds), a.workers)
    step = start - 1
    for x, y in batches:
        step += 1
        if step < start:
            continue
        if step > a.steps:
            break
        if a.fault == "fifo_stall" and rank == a.fault_rank and step == a.fault_step:
            part = f"stream/part-{rank:05d}.fifo"
            log.info("prefetch queue empty, reading next shard part from %s", part)
            with open(part, "rb") as f:
                f.read(1 << 16)
        loss = F.cross_entropy(ddp(x), y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"rank {rank}: loss is {loss.item()} at step {step} (lr={a.lr})")
        opt.zero_grad(); loss.backward()
        if a.manual_sync:  # average gradients by hand (no DDP reducer)
            for prm in model.parameters():
                dist.all_reduce(prm.grad); prm.grad /= world
        opt.step()
        if a.fault == "extra_barrier" and rank == a.fault_rank and step == a.fault_step:
            log.info("step %d: waiting for async checkpoint writer", step)
            dist.barrier()
        t = loss.detach().clone(); dist.all_reduce(t)
        log.info("step %d/%d loss %.4f mean %.4f", step, a.steps, loss.item(), t.item() / world)
        if a.fault == "gather_shape" and step == a.fault_step:
            counts = torch.bincount(y, minlength=4).float()
            if rank == a.fault_rank:
                counts = torch.cat([counts, torch.zeros(1)])  # class table with an 'unknown' bucket
            log.info("gathering per-class counts (%d classes)", counts.numel())
            out = [torch.zeros_like(counts) for _ in range(world)]
            dist.all_gather(out, counts)
            log.info("class counts: %s", [o.tolist() for o in out])
        if a.fault == "json_metrics" and step == a.fault_step and rank == a.fault_rank:
            m = {"step": step, "loss": loss.detach(), "mean_loss": t.item() / world}
            with open("metrics.json", "w") as f:
                json.dump(m, f)
        time.sleep(a.sleep)
    dist.barrier()
    log.info("training done")
    dist.destroy_process_group()


def spawn_main(lr, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(a.port)
    run(lr, world)


if __name__ == "__main__":
    if a.spawn:
        import torch.multiprocessing as mp
        mp.spawn(spawn_main, args=(a.spawn,), nprocs=a.spawn)
    elif "OMPI_COMM_WORLD_RANK" in os.environ:
        run(int(os.environ["OMPI_COMM_WORLD_RANK"]), int(os.environ["OMPI_COMM_WORLD_SIZE"]))
    else:
        run(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
