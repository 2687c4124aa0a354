"""Small DDP classifier (gloo, CPU) on per-rank shards; runs under torchrun or torch.multiprocessing.spawn.
Output style: --style logging (Python logging; optional per-rank files in --log-dir) or --style print."""
import argparse, atexit, datetime, json, logging, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--shard-pattern", default="shard_{rank:02d}.npz")
p.add_argument("--steps", type=int, default=300)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--style", choices=["logging", "print"], default="logging")
p.add_argument("--log-dir", default="")                 # per-rank FileHandler files (logging style)
p.add_argument("--console", choices=["rank0", "all"], default="all")
p.add_argument("--norm", choices=["none", "bn", "syncbn"], default="none")
p.add_argument("--aux-head", action="store_true")       # auxiliary head (only used when --aux-weight > 0)
p.add_argument("--aux-weight", type=float, default=0.0)
p.add_argument("--find-unused", action="store_true")
p.add_argument("--resume", default="")                  # checkpoint to load before training
p.add_argument("--save", default="")                    # rank 0 saves the final checkpoint here
p.add_argument("--save-wrapped", action="store_true")   # (older exporter) saves the DDP wrapper's state_dict
p.add_argument("--save-every", type=int, default=0)     # rank 0 saves ckpt dir/step_N.pt
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--warmup-sched", action="store_true")   # LambdaLR warmup, stepped at the top of each step
p.add_argument("--metrics-file", default="")            # rank 0 writes run metrics at exit
p.add_argument("--early-stop", type=int, default=0)     # patience (in evals) on the local held-out loss
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-after", action="store_true")     # every rank evaluates the final model on val.npz
p.add_argument("--nprocs", type=int, default=0)         # torch.multiprocessing.spawn mode
args = p.parse_args()


def make_log(rank):
    if args.style == "print":
        def out(level, msg):
            if args.console == "all" or rank == 0:
                print(f"[{time.strftime('%H:%M:%S')}][rank{rank}] {msg}", flush=True)
        return out, None
    fmt = logging.Formatter(f"%(asctime)s %(levelname)-7s [rank{rank}] %(name)s - %(message)s")
    root = logging.getLogger(); root.setLevel(logging.INFO)
    for h in list(root.handlers):
        root.removeHandler(h)
    fh = None
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
        fh = logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")); fh.setFormatter(fmt); root.addHandler(fh)
    if args.console == "all" or rank == 0:
        sh = logging.StreamHandler(sys.stdout); sh.setFormatter(fmt); root.addHandler(sh)
    lg = logging.getLogger("train")
    return (lambda level, msg: lg.log(level, msg)), fh


class Net(nn.Module):
    def __init__(self, feat, hidden, classes):
        super().__init__()
        norm = (lambda: nn.BatchNorm1d(hidden)) if args.norm != "none" else (lambda: nn.Identity())
        self.body = nn.Sequential(nn.Linear(feat, hidden), norm(), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, classes))
        self.aux = nn.Linear(hidden, classes) if args.aux_head else None

    def forward(self, x):
        return self.body(x)


class RunState:
    """bookkeeping saved with every checkpoint so a resumed run continues its logs and counters"""
    def __init__(self, fh):
        self.step, self.best, self.history = 0, float("inf"), []
        self.log_handler = fh


def main(rank=None):
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log, fh = make_log(rank)
    I, W, E = logging.INFO, logging.WARNING, logging.ERROR
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(I, f"initialized process group: rank {rank}/{world} backend=gloo pid={os.getpid()}")
    if args.metrics_file and rank == 0:
        summary = {"rank": rank, "world": world}
        def write_metrics():
            with open(args.metrics_file, "w") as f:
                json.dump(summary, f)
        atexit.register(write_metrics)
    torch.manual_seed(0)
    path = os.path.join(args.data, args.shard_pattern.format(rank=rank))
    log(I, f"loading training shard {path}")
    d = np.load(path)
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    log(I, f"shard: {len(y)} samples, {x.shape[1]} features")
    model = Net(x.shape[1], args.hidden, 4)
    if args.norm == "syncbn":
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
        log(I, "converted BatchNorm layers to SyncBatchNorm")
    state = RunState(fh)
    if args.resume:
        log(I, f"resuming from {args.resume}")
        ck = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ck["model"])
        state.step = ck["step"]
        log(I, f"resumed at step {ck['step']}")
    model = DDP(model, find_unused_parameters=args.find_unused)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50)) if args.warmup_sched else None
    lossf = nn.CrossEntropyLoss()
    if args.early_stop:
        k = len(y) // 10
        xh, yh, x, y = x[:k], y[:k], x[k:], y[k:]
        bad, stopped = 0, False
    per_epoch = len(y) // args.batch_size
    t0 = time.time()
    step, ep = state.step, 0
    while step < args.steps:
        g = torch.Generator().manual_seed(1000 * ep + rank)
        perm = torch.randperm(len(y), generator=g)
        for i in range(per_epoch):
            idx = perm[i * args.batch_size:(i + 1) * args.batch_size]
            xb, yb = x[idx], y[idx]
            step += 1
            if sched is not None:
                sched.step()
            out = model(xb)
            loss = lossf(out, yb)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % args.log_every == 0:
                log(I, f"epoch {ep} step {step}/{args.steps} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.4f} "
                       f"({(time.time() - t0) / step * 1000:.0f} ms/step)")
            if args.save_every and step % args.save_every == 0 and rank == 0:
                os.makedirs(args.ckpt_dir, exist_ok=True)
                state.step = step; state.history.append(float(loss.item()))
                torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step,
                            "state": state}, os.path.join(args.ckpt_dir, f"step_{step}.pt"))
                log(I, f"saved checkpoint {args.ckpt_dir}/step_{step}.pt")
            if args.early_stop and args.eval_every and step % args.eval_every == 0:
                with torch.no_grad():
                    hl = lossf(model.module(xh), yh).item()
                log(I, f"step {step}: held-out loss {hl:.4f} (best {state.best:.4f})")
                if hl < state.best - 1e-3:
                    state.best, bad = hl, 0
                else:
                    bad += 1
                    if bad >= args.early_stop:
                        log(W, f"early stopping at step {step}: no improvement in {bad} evals")
                        dist.destroy_process_group()
                        stopped = True
                        break
            if args.step_sleep:
                time.sleep(args.step_sleep)
            if step >= args.steps:
                break
        else:
            t = torch.tensor([float(loss.item())]); dist.all_reduce(t)
            log(I, f"epoch {ep} finished, mean loss over ranks {t.item() / world:.4f}")
        ep += 1
        if args.early_stop and stopped:
            break
    if args.early_stop:
        t = torch.tensor([state.best]); dist.all_reduce(t)
        log(I, f"best held-out loss (mean over ranks) {t.item() / world:.4f}")
    if args.save and rank == 0:
        torch.save({"model": (model if args.save_wrapped else model.module).state_dict(), "step": step}, args.save)
        log(I, f"saved checkpoint to {args.save}")
    if args.eval_after:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            model.eval()
            acc = (model.module(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean()
        dist.all_reduce(acc)
        log(I, f"final val accuracy (mean over ranks) {acc.item() / world:.4f}")
        if args.metrics_file and rank == 0:
            summary.update(val_acc=acc.item() / world, steps=step)
    dist.barrier()
    log(I, f"done: {step} steps in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29811")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
