"""aj_train.py: small data-parallel (gloo, CPU) trainer for the round-Z aj captures. Rank / world from RANK/WORLD_SIZE
(env://, torchrun), OMPI_COMM_WORLD_RANK/SIZE (mpirun) or spawn(). Synthetic classification rows, or per-rank CSV
shards parsed lazily by a Dataset (--data). Optional DDP comm hook (fp16 compression with a range guard), a
channels_last conv model, periodic checkpoints, a per-rank dataset cache guarded by a lock file, label checks."""
import argparse, datetime, logging, math, os, socket, sys, time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_parser():
    p = argparse.ArgumentParser(prog="aj_train")
    p.add_argument("--model", default="mlp", choices=["mlp", "conv"])
    p.add_argument("--hidden", type=int, default=128); p.add_argument("--classes", type=int, default=10)
    p.add_argument("--rows", type=int, default=1024); p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--log-style", default="logging", choices=["logging", "print"])
    p.add_argument("--fmt", default="%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
    p.add_argument("--logfile", default="", help="log to this file instead of stdout ({rank} expanded)")
    p.add_argument("--comm-hook", default="", choices=["", "fp16_guard"])
    p.add_argument("--bucket-cap-mb", type=float, default=25)
    p.add_argument("--data", default="", help="per-rank CSV shard ({rank} expanded): features..., label")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-dir", default="checkpoints")
    p.add_argument("--cache-dir", default="", help="per-node dataset cache dir guarded by a .lock file")
    p.add_argument("--cache-lock-timeout", type=float, default=0, help="0: wait forever")
    p.add_argument("--check-labels", action="store_true", help="mpirun: validate labels, MPI Abort on error")
    p.add_argument("--final-eval", action="store_true"); p.add_argument("--warn", action="store_true")
    p.add_argument("--heartbeat", type=float, default=0)
    return p


a = None
RANK = WORLD = LOCAL = 0
log = logging.getLogger("aj.train")


def out(msg, level=logging.INFO):
    if a.log_style == "print":
        print(f"[{RANK}/{WORLD}] {msg}", flush=True)
    else:
        log.log(level, msg)


def setup_logging():
    root = logging.getLogger(); root.setLevel(logging.INFO)
    h = logging.FileHandler(a.logfile.replace("{rank}", str(RANK))) if a.logfile else logging.StreamHandler(sys.stdout)
    h.setFormatter(logging.Formatter(a.fmt.replace("{rank}", str(RANK)).replace("{world}", str(WORLD))))
    root.handlers[:] = [h]
    logging.captureWarnings(True)


class Net(nn.Module):
    def __init__(self, d_in, hidden, classes):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden); self.fc2 = nn.Linear(hidden, hidden); self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.head(F.relu(self.fc2(F.relu(self.fc1(x)))))


class ConvNet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1); self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        x = F.relu(self.c1(x)); x = F.max_pool2d(x, 2); x = F.relu(self.c2(x))
        return self.head(x.mean((2, 3)))


class CsvShard(Dataset):
    """rows of a CSV shard, parsed when fetched (the reader keeps line offsets only)"""
    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.lines = [ln for ln in f.read().splitlines()[1:] if ln.strip()]

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        cols = self.lines[i].split(",")
        x = torch.tensor([float(c) for c in cols[:-1]])
        return x, int(cols[-1])


def fp16_guard_hook(state, bucket):
    """fp16 compression with a range guard: casting a bucket whose values exceed the fp16 range would silently
    turn into inf on every rank, so refuse it here."""
    buf = bucket.buffer()
    m = buf.abs().max().item()
    if not math.isfinite(m) or m > 65504.0:
        raise OverflowError(f"fp16_guard: bucket {bucket.index()} ({buf.numel()} elems) has max |grad| {m:.4g}, "
                            f"out of fp16 range")
    t = buf.to(torch.float16).div_(WORLD)
    fut = dist.all_reduce(t, async_op=True).get_future()
    return fut.then(lambda f: buf.copy_(f.value()[0]))


def take_cache_lock(path):
    lock = os.path.join(path, ".lock")
    t0 = time.time(); n = 0
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.write(fd, f"{socket.gethostname()} {os.getpid()}\n".encode()); os.close(fd)
            return lock
        except FileExistsError:
            if n % 5 == 0:
                try:
                    holder = open(lock).read().strip()
                except OSError:
                    holder = "?"
                out(f"dataset cache {path} is locked by {holder}; waiting ({time.time() - t0:.0f}s)")
            n += 1
            if a.cache_lock_timeout and time.time() - t0 > a.cache_lock_timeout:
                raise TimeoutError(f"could not lock dataset cache {path}")
            time.sleep(1)


def make_data(g):
    if a.data:
        return CsvShard(a.data.replace("{rank}", str(RANK)))
    n = a.rows
    if a.model == "conv":
        x = torch.randn(n, 3, 16, 16, generator=g)
        y = (x[:, 0].mean((1, 2)) > 0).long() + 2 * (x[:, 1].mean((1, 2)) > 0).long()
    else:
        x = torch.randn(n, 32, generator=g)
        y = (x[:, :4].sum(1) * 2).long().clamp(-a.classes // 2, a.classes // 2 - 1) + a.classes // 2
    return TensorDataset(x, y)


def main(rank=None, world=None, argv=None):
    global a, RANK, WORLD, LOCAL
    a = build_parser().parse_args(argv)
    mpi = None
    if rank is not None:
        RANK, WORLD, LOCAL = rank, world, rank
    elif "OMPI_COMM_WORLD_RANK" in os.environ:
        from mpi4py import MPI
        mpi = MPI.COMM_WORLD
        RANK, WORLD = mpi.Get_rank(), mpi.Get_size(); LOCAL = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", RANK))
        os.environ.update(RANK=str(RANK), WORLD_SIZE=str(WORLD))
    else:
        RANK, WORLD = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]); LOCAL = int(os.environ.get("LOCAL_RANK", 0))
    setup_logging()
    out(f"host={socket.gethostname()} pid={os.getpid()} rank={RANK} local_rank={LOCAL} world_size={WORLD} "
        f"torch={torch.__version__}")
    dist.init_process_group("gloo", rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=a.pg_timeout))
    out(f"process group ready (backend=gloo, timeout={a.pg_timeout:.0f}s)")
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1234 + RANK)
    if a.cache_dir:
        cdir = a.cache_dir.replace("{rank}", str(RANK))
        os.makedirs(cdir, exist_ok=True)
        lock = take_cache_lock(cdir)
        out(f"building dataset cache in {cdir}")
        time.sleep(0.5); os.unlink(lock)
    ds = make_data(g)
    if a.check_labels:
        labels = torch.tensor([ds[i][1] for i in range(len(ds))])
        bad = ((labels < 0) | (labels >= a.classes)).nonzero().flatten()
        if len(bad):
            out(f"label check failed: {len(bad)} of {len(labels)} labels outside [0, {a.classes}) "
                f"(first at row {bad[0].item()}: {labels[bad[0]].item()}); aborting job", logging.ERROR)
            mpi.Abort(3)
        out(f"label check ok ({len(labels)} rows, {a.classes} classes)")
    if a.data:
        loader = DataLoader(ds, batch_size=a.bs, shuffle=True, num_workers=a.workers, generator=g)
    else:
        sampler = DistributedSampler(ds, num_replicas=1, rank=0, shuffle=True, seed=RANK)
        loader = DataLoader(ds, batch_size=a.bs, sampler=sampler, num_workers=a.workers)
    if a.model == "conv":
        model = ConvNet(a.classes).to(memory_format=torch.channels_last)
    else:
        d_in = ds[0][0].numel()
        model = Net(d_in, a.hidden, a.classes)
    ddp = DDP(model, bucket_cap_mb=a.bucket_cap_mb)
    if a.comm_hook == "fp16_guard":
        ddp.register_comm_hook(None, fp16_guard_hook)
        out("registered DDP comm hook fp16_guard")
    nparams = sum(p.numel() for p in model.parameters())
    out(f"model {type(model).__name__} params={nparams} batches/epoch={len(loader)}")
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr, momentum=0.9)
    step = 0
    if a.warn:
        import warnings
        warnings.warn("aj_train: --bs is per rank; the global batch is %d" % (a.bs * WORLD), UserWarning)
    for ep in range(a.epochs):
        if hasattr(loader.sampler, "set_epoch"):
            loader.sampler.set_epoch(ep)
        tot = n = 0
        t0 = time.time()
        for x, y in loader:
            if a.model == "conv":
                x = x.contiguous(memory_format=torch.channels_last)
            loss = F.cross_entropy(ddp(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1; tot += loss.item() * len(y); n += len(y)
            if step % a.log_every == 0:
                out(f"epoch {ep} step {step} loss {loss.item():.4f} lr {a.lr:g}")
            if a.ckpt_every and step % a.ckpt_every == 0:
                if RANK == 0:
                    os.makedirs(a.ckpt_dir, exist_ok=True)
                    path = os.path.join(a.ckpt_dir, f"step{step:05d}.pt")
                    torch.save({"step": step, "model": model.state_dict(), "optim": opt.state_dict()}, path)
                    out(f"saved checkpoint {path}")
                dist.barrier()
            time.sleep(a.sleep)
        s = torch.tensor([tot, n], dtype=torch.float64)
        dist.all_reduce(s)
        out(f"epoch {ep} done: mean train loss {s[0].item() / s[1].item():.4f} over {int(s[1].item())} samples "
            f"({time.time() - t0:.1f}s)")
    if a.final_eval:
        model.eval()
        with torch.no_grad():
            x, y = ds.tensors if isinstance(ds, TensorDataset) else (None, None)
            acc = torch.tensor([(model(x).argmax(1) == y).float().mean().item()])
        dist.all_reduce(acc); acc /= WORLD
        out(f"final eval: accuracy {acc.item():.4f} (mean over {WORLD} ranks)")
    dist.barrier()
    dist.destroy_process_group()
    out("done")


if __name__ == "__main__":
    main()
