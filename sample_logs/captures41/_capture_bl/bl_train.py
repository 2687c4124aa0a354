"""Small classifier trained data-parallel over gloo on CPU, per-rank shards; runs under torchrun or
torch.multiprocessing.spawn (--nprocs). Output: --style logging (format chosen by --log-format) or print."""
import argparse, datetime, fcntl, json, logging, os, shutil, socket, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=300)
p.add_argument("--epochs", type=int, default=0)          # epoch-based loop (DataLoader) instead of --steps
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=0)         # 0: infer from the labels of the shard
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--style", choices=["logging", "print"], default="logging")
p.add_argument("--log-format", choices=["plain", "hostrankpid", "bracketed"], default="plain")
p.add_argument("--log-stream", choices=["stdout", "stderr"], default="stdout")
p.add_argument("--grad-sync", choices=["ddp", "manual"], default="ddp")   # manual: all_reduce every grad by hand
p.add_argument("--optim", choices=["sgd", "adamw"], default="sgd")
p.add_argument("--sched", choices=["none", "onecycle", "cosine"], default="none")
p.add_argument("--accum", type=int, default=1)
p.add_argument("--feature-cache", default="")            # per-rank cached feature tensors (torch.save files)
p.add_argument("--stage-from", default="")               # copy the shard from this dir to the local scratch first
p.add_argument("--stage-barrier-timeout", type=int, default=30)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--dl-timeout", type=int, default=0)
p.add_argument("--decode-cache", default="")             # per-rank decoded-sample cache (np.memmap) guarded by lockf
p.add_argument("--eval-rank0", action="store_true")      # rank 0 evaluates on val.npz, others wait at a barrier
p.add_argument("--eval-all", action="store_true")        # every rank evaluates, accuracy all-reduced
p.add_argument("--nprocs", type=int, default=0)
p.add_argument("--master-port", default="29733")
args = p.parse_args()


class RankFilter(logging.Filter):
    def __init__(self, rank, world):
        super().__init__(); self.rank, self.world, self.hostname = rank, world, socket.gethostname()

    def filter(self, record):
        record.rank, record.world, record.hostname = self.rank, self.world, self.hostname
        return True


def make_log(rank, world):
    stream = sys.stdout if args.log_stream == "stdout" else sys.stderr
    if args.style == "print":
        return lambda level, msg: print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} | rank {rank} | {msg}", flush=True)
    fmts = {"plain": "%(asctime)s %(levelname)s %(name)s: %(message)s",
            "hostrankpid": "%(asctime)s %(hostname)s:%(rank)d:%(process)d %(levelname).1s %(name)s] %(message)s",
            "bracketed": "[%(asctime)s][%(hostname)s][rank %(rank)d/%(world)d][pid %(process)d][%(levelname)s] "
                         "%(message)s"}
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter(fmts[args.log_format]))
    h.addFilter(RankFilter(rank, world))
    root = logging.getLogger(); root.handlers[:] = [h]; root.setLevel(logging.INFO)
    lg = logging.getLogger("trainer")
    return lambda level, msg: lg.log(level, msg)


class ShardDataset(torch.utils.data.Dataset):
    """decoded samples cached in a memmap next to the data; the cache is built once under an exclusive lockf and
    read under a shared one (several jobs may share the data dir)"""
    def __init__(self, x, y, cache, log):
        self.y, self.cache, self.shape = y, cache, tuple(x.shape)
        self.lockfile = open(cache + ".lock", "a+")
        fcntl.lockf(self.lockfile, fcntl.LOCK_EX)
        if not os.path.exists(cache):
            log(logging.INFO, f"decode cache {cache} missing, building it ({len(y)} samples)")
            mm = np.lib.format.open_memmap(cache + ".tmp", mode="w+", dtype=np.float32, shape=self.shape)
            mm[:] = x.numpy(); mm.flush(); del mm
            os.replace(cache + ".tmp", cache)
            log(logging.INFO, f"decode cache written: {cache}")
        else:
            fcntl.lockf(self.lockfile, fcntl.LOCK_UN)
        self.mm = None

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        if self.mm is None:
            fcntl.lockf(self.lockfile, fcntl.LOCK_SH)
            self.mm = np.load(self.cache, mmap_mode="r")
            fcntl.lockf(self.lockfile, fcntl.LOCK_UN)
        return torch.from_numpy(np.array(self.mm[i])), self.y[i]


def stage_in(src, dst, log):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    t = time.time(); n = 0
    with open(src, "rb") as fi, open(dst, "wb") as fo:
        while True:
            b = fi.read(1 << 16)
            if not b:
                break
            fo.write(b); n += len(b)
    log(logging.INFO, f"staged {src} -> {dst} ({n} bytes, {time.time() - t:.1f}s)")


def main(rank=None):
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log = make_log(rank, world)
    I, W = logging.INFO, logging.WARNING
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(I, f"process group ready: rank {rank} of {world}, local_rank {os.environ.get('LOCAL_RANK')}, backend gloo")
    torch.manual_seed(0)
    shard = os.path.join(args.data, f"shard_{rank:02d}.npz")
    if args.stage_from:
        stage_in(os.path.join(args.stage_from, f"shard_{rank:02d}.npz"), shard, log)
        log(I, "waiting for all ranks to finish stage-in")
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=args.stage_barrier_timeout))
        log(I, "stage-in complete on all ranks")
    if args.feature_cache:
        cf = os.path.join(args.feature_cache, f"features_rank{rank}.pt")
        log(I, f"loading cached features {cf}")
        d = torch.load(cf)
        x, y = d["x"], d["y"]
    else:
        log(I, f"loading {shard}")
        d = np.load(shard)
        x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    classes = args.classes or int(y.max()) + 1
    log(I, f"{len(y)} samples, {x.shape[1]} features, {classes} classes")
    model = nn.Sequential(nn.Linear(x.shape[1], args.hidden), nn.ReLU(), nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                          nn.Linear(args.hidden, classes))
    log(I, f"model: {sum(q.numel() for q in model.parameters())} parameters")
    if args.grad_sync == "ddp":
        model = DDP(model)
        net = model.module
    else:
        net = model    # same seed on every rank: identical initial weights, no broadcast needed
    if args.optim == "adamw":
        decay = [q for n, q in net.named_parameters() if n.endswith("weight")]
        no_decay = [q for n, q in net.named_parameters() if n.endswith("bias")]
        head = list(net[-1].parameters())
        opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0},
                                 {"params": head, "lr": args.lr * 10}], lr=args.lr)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    if args.decode_cache:
        ds = ShardDataset(x, y, os.path.join(args.decode_cache, f"decoded_{rank:02d}.npy"), log)
    else:
        ds = torch.utils.data.TensorDataset(x, y)
    g = torch.Generator().manual_seed(rank)
    dl = torch.utils.data.DataLoader(ds, batch_size=args.batch_size, shuffle=True, generator=g,
                                     num_workers=args.workers, timeout=args.dl_timeout)
    sched = None
    if args.sched == "onecycle":
        steps_per_epoch = len(ds) // args.batch_size
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch)
        log(I, f"OneCycleLR: {args.epochs} epochs x {steps_per_epoch} steps, max_lr {args.lr}")
    elif args.sched == "cosine":
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.steps // args.accum)
    t0 = time.time(); step = 0; ep = 0
    total = args.epochs * len(dl) if args.epochs else args.steps
    done = False
    while not done:
        for i, (xb, yb) in enumerate(dl):
            step += 1
            sync = step % args.accum == 0
            if args.grad_sync == "ddp" and not sync:
                with model.no_sync():
                    loss = lossf(model(xb), yb); (loss / args.accum).backward()
            else:
                loss = lossf(model(xb), yb); (loss / args.accum).backward()
            if sync:
                if args.grad_sync == "manual":
                    for q in model.parameters():
                        dist.all_reduce(q.grad); q.grad /= world
                opt.step(); opt.zero_grad()
                if sched is not None:
                    sched.step()
            if step % args.log_every == 0:
                log(I, f"epoch {ep} step {step}/{total} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.5f} "
                       f"{(time.time() - t0) / step * 1000:.0f}ms/step")
            if args.step_sleep:
                time.sleep(args.step_sleep)
            if step >= total:
                done = True
                break
        ep += 1
    log(I, f"training finished: {step} steps, {ep} epochs, {time.time() - t0:.1f}s")
    if args.eval_rank0:
        if rank == 0:
            v = np.load(os.path.join(args.data, "val.npz"))
            yt = torch.from_numpy(v["y"])
            with torch.no_grad():
                yp = net(torch.from_numpy(v["x"])).argmax(1)
            log(I, f"evaluating on {len(yt)} validation samples")
            cm = torch.bincount(yt * classes + yp, minlength=classes * classes).reshape(classes, classes)
            acc = cm.diag().sum().item() / cm.sum().item()
            log(I, f"val accuracy {acc:.4f}; per-class recall "
                   + " ".join(f"{r:.3f}" for r in (cm.diag() / cm.sum(1).clamp(min=1)).tolist()))
        else:
            log(I, "waiting for rank 0 evaluation")
        dist.barrier()
    if args.eval_all:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            acc = (net(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean()
        dist.all_reduce(acc)
        log(I, f"val accuracy (mean over {world} ranks) {acc.item() / world:.4f}")
    dist.barrier()
    log(I, "done")
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", args.master_port)
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
