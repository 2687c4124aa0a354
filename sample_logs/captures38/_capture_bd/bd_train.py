"""DDP trainer (gloo, CPU) on per-rank shards; runs under torchrun, torch.multiprocessing.spawn and mpirun.
Logging: Python logging, one FileHandler per rank in a shared log directory (logs/train_rank<r>.log), rank 0 also
on the console."""
import argparse, datetime, json, logging, os, queue, sys, threading, time, urllib.request, zipfile
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=300)          # total optimizer steps
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--log-dir", default="logs")               # shared dir, one file per rank
p.add_argument("--console", choices=["rank0", "all", "none"], default="rank0")
p.add_argument("--whiten", action="store_true")           # input whitening layer (custom autograd Function)
p.add_argument("--metrics-dir", default="")               # per-rank jsonl metrics, rotated past --metrics-max bytes
p.add_argument("--metrics-max", type=int, default=65536)
p.add_argument("--dcp-every", type=int, default=0)         # torch.distributed.checkpoint.save every N steps
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--hard-cache", action="store_true")       # keep a per-rank cache of hard examples in the checkpoint
p.add_argument("--prefetch", action="store_true")         # batches decoded from text records by a prefetch thread
p.add_argument("--metrics-push", default="")              # rank 0 pushes metrics to this URL every --log-every steps
p.add_argument("--chunks", action="store_true")           # shard stored as chunk_XX.npz files (+ replica dir)
p.add_argument("--no-shuffle", action="store_true")     # read the shard in stored order (streaming export)
p.add_argument("--step-timer", type=float, default=0)  # torchelastic FileTimer watchdog around each step (seconds)
p.add_argument("--nprocs", type=int, default=0)           # mp.spawn mode
args = p.parse_args()


def setup_logging(rank):
    fmt = logging.Formatter(f"%(asctime)s [%(levelname)s] [rank {rank}] %(name)s: %(message)s")
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for h in list(root.handlers):
        root.removeHandler(h)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
        fh = logging.FileHandler(os.path.join(args.log_dir, f"train_rank{rank}.log"))
        fh.setFormatter(fmt)
        root.addHandler(fh)
    if args.console == "all" or (args.console == "rank0" and rank == 0):
        sh = logging.StreamHandler(sys.stdout)
        sh.setFormatter(fmt)
        root.addHandler(sh)
    return logging.getLogger("trainer")


class Whiten(torch.autograd.Function):
    """batch whitening: x -> (x - mu) L^-T with L L^T = cov(x); gradient through the whitened output only"""
    @staticmethod
    def forward(ctx, x):
        mu = x.mean(0, keepdim=True)
        xc = x - mu
        cov = xc.T @ xc / (x.shape[0] - 1)
        L = torch.linalg.cholesky(cov)
        y = torch.linalg.solve_triangular(L, xc.T, upper=False).T
        ctx.save_for_backward(L)
        return y

    @staticmethod
    def backward(ctx, g):
        (L,) = ctx.saved_tensors
        return torch.linalg.solve_triangular(L.T, g.T, upper=True).T


class Net(nn.Module):
    def __init__(self, feat, hidden, classes, whiten):
        super().__init__()
        self.whiten = whiten
        self.body = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, classes))

    def forward(self, x):
        if self.whiten:
            x = Whiten.apply(x)
        return self.body(x)


class MetricsWriter:
    """appends one json line per step to <dir>/rank_<r>.jsonl; rotates the file past max_bytes"""
    def __init__(self, d, rank, max_bytes, log):
        os.makedirs(d, exist_ok=True)
        self.path, self.max, self.log = os.path.join(d, f"rank_{rank}.jsonl"), max_bytes, log
        self.lock, self.buf = threading.Lock(), []

    def add(self, rec):
        with self.lock:
            self.buf.append(rec)

    def rotate(self):
        self.log.info(f"metrics file {self.path} over {self.max} bytes, rotating")
        with self.lock:
            os.replace(self.path, self.path + ".1")

    def flush(self):
        with self.lock:
            with open(self.path, "a") as f:
                for r in self.buf:
                    f.write(json.dumps(r) + "\n")
            self.buf = []
            if os.path.getsize(self.path) > self.max:
                self.rotate()


def parse_record(line):
    feats, label = line.rstrip("\n").split("|")
    return [float(v) for v in feats.split(",")], int(label)


def prefetcher(path, bs, q):
    with open(path) as f:
        rows = []
        for line in f:
            rows.append(parse_record(line))
            if len(rows) == bs:
                q.put((torch.tensor([r[0] for r in rows]), torch.tensor([r[1] for r in rows])))
                rows = []
    q.put(None)


def load_chunks(rank, log):
    d = os.path.join(args.data, f"rank_{rank:02d}")
    xs, ys = [], []
    for f in sorted(os.listdir(d)):
        try:
            c = np.load(os.path.join(d, f))
            x, y = c["x"], c["y"]
        except (zipfile.BadZipFile, ValueError, OSError):
            log.exception(f"failed to load {d}/{f}")
            rep = os.path.join(args.data, "replica", f"rank_{rank:02d}", f)
            log.error(f"{f}: falling back to replica copy {rep}")
            c = np.load(rep)
            x, y = c["x"], c["y"]
            log.info(f"{f}: loaded from replica ({len(y)} rows)")
        xs.append(x); ys.append(y)
    return torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ys))


def push_metrics(url, rec, log, state):
    try:
        req = urllib.request.Request(url, data=json.dumps(state["pending"] + [rec]).encode(), method="POST")
        urllib.request.urlopen(req, timeout=2).read()
        if state["failing"]:
            log.info(f"metrics push to {url} recovered, flushed {len(state['pending']) + 1} buffered records")
        state["pending"], state["failing"] = [], False
    except Exception as e:
        state["pending"].append(rec); state["failing"] = True
        log.error(f"metrics push to {url} failed: {e!r}; {len(state['pending'])} records buffered, will retry")


def main(rank=None):
    if "OMPI_COMM_WORLD_RANK" in os.environ:
        for k, o in (("RANK", "RANK"), ("WORLD_SIZE", "SIZE"), ("LOCAL_RANK", "LOCAL_RANK")):
            os.environ.setdefault(k, os.environ["OMPI_COMM_WORLD_" + o])
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log = setup_logging(rank)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log.info(f"process group ready: rank {rank} of {world}, backend gloo, host {os.uname().nodename}, pid {os.getpid()}")
    torch.manual_seed(0)
    if args.chunks:
        x, y = load_chunks(rank, log)
    elif args.prefetch:
        x = y = None
    else:
        d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
        x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    if x is not None:
        log.info(f"shard for rank {rank}: {len(y)} rows x {x.shape[1]} features")
        feat, per_epoch = x.shape[1], len(y) // args.batch_size
    else:
        rec = os.path.join(args.data, f"records_{rank:02d}.txt")
        feat = len(parse_record(open(rec).readline())[0])
        per_epoch = sum(1 for _ in open(rec)) // args.batch_size
        log.info(f"records_{rank:02d}.txt: {per_epoch * args.batch_size} records, {feat} features, prefetch thread")
    model = DDP(Net(feat, args.hidden, 4, args.whiten))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    mw = MetricsWriter(args.metrics_dir, rank, args.metrics_max, log) if args.metrics_dir else None
    push = {"pending": [], "failing": False}
    hard = torch.empty(0, feat)
    if args.step_timer:
        from torch.distributed.elastic import timer
        timer.configure(timer.FileTimerClient(os.environ["TORCHELASTIC_TIMER_FILE"]))
        log.info(f"step watchdog: torchelastic FileTimer {os.environ['TORCHELASTIC_TIMER_FILE']}, {args.step_timer:.0f}s per step")
    import contextlib
    t0 = time.time()
    step, ep = 0, 0
    while step < args.steps:
        if args.prefetch:
            q = queue.Queue(maxsize=8)
            threading.Thread(target=prefetcher, name=f"prefetch-{rank}",
                             args=(os.path.join(args.data, f"records_{rank:02d}.txt"), args.batch_size, q),
                             daemon=True).start()
            batches = iter(q.get, None)
        else:
            g = torch.Generator().manual_seed(1000 * ep + rank)
            perm = torch.arange(len(y)) if args.no_shuffle else torch.randperm(len(y), generator=g)
            batches = ((x[perm[i * args.batch_size:(i + 1) * args.batch_size]],
                        y[perm[i * args.batch_size:(i + 1) * args.batch_size]]) for i in range(per_epoch))
        log.info(f"epoch {ep} start ({per_epoch} steps per epoch, global step {step})")
        tot, n = 0.0, 0
        for xb, yb in batches:
            with (timer.expires(after=args.step_timer, scope="train_step") if args.step_timer else contextlib.nullcontext()):
                out = model(xb)
                loss = lossf(out, yb)
                opt.zero_grad(); loss.backward(); opt.step()
            step += 1; tot += loss.item(); n += 1
            if args.hard_cache:
                with torch.no_grad():
                    l = nn.functional.cross_entropy(out, yb, reduction="none")
                    hard = torch.cat([hard, xb[l > 1.0]])
            if mw:
                mw.add({"step": step, "loss": round(loss.item(), 5), "t": round(time.time() - t0, 3)})
            if step % args.log_every == 0:
                log.info(f"step {step}/{args.steps} epoch {ep} loss {loss.item():.4f} "
                         f"elapsed {datetime.timedelta(seconds=int(time.time() - t0))}")
                if args.metrics_push and rank == 0:
                    push_metrics(args.metrics_push, {"step": step, "loss": loss.item()}, log, push)
            if args.dcp_every and step % args.dcp_every == 0:
                import torch.distributed.checkpoint as dcp
                path = os.path.join(args.ckpt_dir, f"step_{step:06d}")
                state = {"model": model.module.state_dict(), "optim": opt.state_dict(),
                         f"hard_cache_rank{rank}": hard.clone()}
                log.info(f"saving distributed checkpoint to {path} (hard-example cache {tuple(hard.shape)})")
                dcp.save(state, checkpoint_id=path)
                log.info(f"checkpoint {path} saved")
            if args.step_sleep:
                time.sleep(args.step_sleep)
            if step >= args.steps:
                break
        t = torch.tensor([tot / max(n, 1)]); dist.all_reduce(t)
        log.info(f"epoch {ep} done: {n} steps, mean loss across ranks {t.item() / world:.4f}")
        if mw:
            mw.flush()
        dist.barrier()
        ep += 1
    log.info(f"training finished: {step} steps in {datetime.timedelta(seconds=int(time.time() - t0))}")
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29731")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
