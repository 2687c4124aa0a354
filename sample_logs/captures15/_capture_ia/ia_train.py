#!/usr/bin/env python3
"""ia_train.py: small gloo DDP regression/classifier for the roundG ia-* jobs.

Init: --init env   (RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT from the launcher or the job's env file)
      --init mpi   (rank/size from mpi4py COMM_WORLD; rank 0 picks MASTER_ADDR/PORT and broadcasts them over MPI)
Logging (--log-style): asctime = `%(asctime)s %(levelname)s [rank R] %(name)s: msg` on stderr, optionally also a
      RotatingFileHandler (--log-file template); plain = print() `rank R | msg` to stdout.
Per-rank model config: --config FILE (json; {rank} in the name is expanded) sets hidden/layernorm.
Behaviours: --lock FILE (wait up to --lock-wait s for FILE to disappear before loading data: the dataset cache lock),
      --metrics-every N (all_reduce(loss) + all_gather(throughput)); the rank in --throughput-rank gathers first,
      --workers N (DataLoader worker processes), --warmup-ratio (LambdaLR linear warmup then linear decay).
"""
import argparse, datetime, json, logging, logging.handlers, os, socket, sys, time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--init", default="env", choices=["env", "mpi"])
p.add_argument("--steps", type=int, default=12)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="asctime", choices=["asctime", "plain"])
p.add_argument("--log-file", default=None)
p.add_argument("--config", default=None)
p.add_argument("--hidden", type=int, default=32)
p.add_argument("--lock", default=None)
p.add_argument("--lock-wait", type=float, default=60)
p.add_argument("--metrics-every", type=int, default=0)
p.add_argument("--throughput-rank", type=int, default=-1)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--warmup-ratio", type=float, default=-1)
p.add_argument("--samples", type=int, default=512)
p.add_argument("--grad-accum", type=int, default=1)
args = p.parse_args()

if args.init == "mpi":
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, world = comm.Get_rank(), comm.Get_size()
    local_rank = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", rank))
    addr = None
    if rank == 0:
        s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
        addr = ("127.0.0.1", port)
    addr = comm.bcast(addr, root=0)
    os.environ.update(MASTER_ADDR=addr[0], MASTER_PORT=str(addr[1]), RANK=str(rank), WORLD_SIZE=str(world))
else:
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", rank))


def setup_logging():
    log = logging.getLogger("ia.train")
    log.setLevel(logging.INFO)
    log.propagate = False
    if args.log_style == "asctime":
        fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s")
        h = logging.StreamHandler(sys.stderr); h.setFormatter(fmt); log.addHandler(h)
        if args.log_file:
            fn = args.log_file.format(rank=rank)
            os.makedirs(os.path.dirname(fn) or ".", exist_ok=True)
            fh = logging.handlers.RotatingFileHandler(fn, maxBytes=200_000, backupCount=2)
            fh.setFormatter(fmt); log.addHandler(fh)
        return log
    class P:
        def _p(self, lvl, msg, *a, exc_info=False):
            print(f"rank {rank} | {lvl} | {msg % a if a else msg}", flush=True)
            if exc_info:
                import traceback; traceback.print_exc(file=sys.stdout); sys.stdout.flush()
        def info(self, m, *a): self._p("INFO", m, *a)
        def warning(self, m, *a): self._p("WARNING", m, *a)
        def error(self, m, *a): self._p("ERROR", m, *a)
        def exception(self, m, *a): self._p("ERROR", m, *a, exc_info=True)
    return P()


log = setup_logging()


class Net(nn.Module):
    def __init__(self, hidden, layernorm):
        super().__init__()
        self.fc1 = nn.Linear(16, hidden)
        self.norm = nn.LayerNorm(hidden) if layernorm else nn.Identity()
        self.fc2 = nn.Linear(hidden, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.norm(self.fc1(x))))


def load_config():
    cfg = {"hidden": args.hidden, "layernorm": False}
    if args.config:
        fn = args.config.format(rank=rank)
        with open(fn) as f:
            cfg.update(json.load(f))
        log.info("model config from %s: %s", fn, cfg)
    return cfg


def wait_lock():
    if not args.lock:
        return
    args.lock = args.lock.format(rank=rank)
    t0 = time.time(); warned = False
    while os.path.exists(args.lock):
        if not warned:
            try:
                holder = open(args.lock).read().strip()
            except OSError:
                holder = "?"
            log.warning("dataset cache %s is locked (%s); waiting for the lock to be released", args.lock, holder)
            warned = True
        if time.time() - t0 > args.lock_wait:
            log.warning("cache lock still held after %.0f s, removing stale lock and rebuilding the cache", args.lock_wait)
            break
        time.sleep(1)


def make_data():
    g = torch.Generator().manual_seed(100)
    x = torch.randn(args.samples, 16, generator=g)
    w = torch.linspace(-1, 1, 64).reshape(16, 4)
    y = (x @ w).argmax(1)
    return TensorDataset(x, y)


def main():
    log.info("host %s pid %d: rank %d/%d local_rank %d, init %s", socket.gethostname(), os.getpid(), rank, world,
             local_rank, args.init)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log.info("process group ready (gloo, timeout %ds, master %s:%s)", args.pg_timeout, os.environ.get("MASTER_ADDR"),
             os.environ.get("MASTER_PORT"))
    torch.manual_seed(0)
    cfg = load_config()
    model = DDP(Net(cfg["hidden"], cfg["layernorm"]))
    log.info("model: %d parameters in %d tensors", sum(p.numel() for p in model.parameters()),
             len(list(model.parameters())))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    wait_lock()
    ds = make_data()
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=1)
    dl = DataLoader(ds, batch_size=args.batch, sampler=sampler, num_workers=args.workers,
                    persistent_workers=args.workers > 0)
    total = args.epochs * len(dl) // args.grad_accum  # optimizer steps
    sched = None
    if args.warmup_ratio >= 0:
        warmup = int(total * args.warmup_ratio)
        log.info("lr schedule: %d optimizer steps (%d batches/epoch, grad accumulation %d), linear warmup %d steps",
                 total, len(dl), args.grad_accum, warmup)

        def lr_lambda(step):
            if step < warmup:
                return step / warmup
            return max(0.0, 1.0 - (step - warmup) / (total - warmup))
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
    step = 0
    t_last = time.time()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        if args.workers:
            log.info("epoch %d: starting %d DataLoader workers", epoch, args.workers)
        for xb, yb in dl:
            step += 1
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            if sched:
                sched.step()
            lr = opt.param_groups[0]["lr"]
            log.info("epoch %d step %d loss %.4f lr %.5f", epoch, step, loss.item(), lr)
            if args.metrics_every and step % args.metrics_every == 0:
                sync_metrics(step, loss.detach(), time.time() - t_last)
                t_last = time.time()
            time.sleep(args.sleep)
            if step >= args.steps:
                break
        if step >= args.steps:
            break
    dist.barrier()
    log.info("training done: %d steps", step)
    dist.destroy_process_group()


def sync_metrics(step, loss, dt):
    tput = torch.tensor([args.batch / max(dt, 1e-6)])
    gathered = [torch.zeros(1) for _ in range(world)]
    if rank == args.throughput_rank:
        # the throughput reporter gathers the per-rank samples/s first
        log.info("step %d: collecting per-rank throughput", step)
        dist.all_gather(gathered, tput)
        dist.all_reduce(loss)
    else:
        dist.all_reduce(loss)
        dist.all_gather(gathered, tput)
    log.info("step %d: mean loss %.4f, throughput %s samples/s", step, loss.item() / world,
             " ".join(f"{t.item():.0f}" for t in gathered))


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("training failed")
        raise
