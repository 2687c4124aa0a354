"""Small DDP classifier (gloo, CPU) on per-rank shards; runs under torchrun or torch.multiprocessing.spawn.
Output style: --style logging (Python logging; optional per-rank files in --log-dir) or --style print."""
import argparse, datetime, logging, os, sys, time
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
p.add_argument("--resume", default="")                  # checkpoint to load before training
p.add_argument("--save", default="")                    # rank 0 saves the final checkpoint here
p.add_argument("--mem-budget-gib", type=float, default=0)  # activation-memory guard (per device)
p.add_argument("--check-finite", action="store_true")   # raise on a non-finite loss
p.add_argument("--skip-unlabelled", action="store_true")  # skip a batch whose labels are all -1 (ignore index)
p.add_argument("--keep-preds", action="store_true")     # rank 0 keeps every step's logits for the final report
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--eval-after", action="store_true")   # rank 0 saves --save, the others wait for it, all evaluate
p.add_argument("--nprocs", type=int, default=0)         # torch.multiprocessing.spawn mode
args = p.parse_args()


def make_log(rank):
    if args.style == "print":
        def out(level, msg):
            if args.console == "all" or rank == 0:
                print(f"[{time.strftime('%H:%M:%S')}][rank{rank}] {msg}", flush=True)
        return out
    fmt = logging.Formatter(f"%(asctime)s %(levelname)-7s [rank{rank}] %(name)s - %(message)s")
    root = logging.getLogger(); root.setLevel(logging.INFO)
    for h in list(root.handlers):
        root.removeHandler(h)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
        fh = logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")); fh.setFormatter(fmt); root.addHandler(fh)
    if args.console == "all" or rank == 0:
        sh = logging.StreamHandler(sys.stdout); sh.setFormatter(fmt); root.addHandler(sh)
    lg = logging.getLogger("train")
    return lambda level, msg: lg.log(level, msg)


class Net(nn.Module):
    def __init__(self, feat, hidden, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, classes))

    def forward(self, x):
        return self.body(x)


def main(rank=None):
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log = make_log(rank)
    I, W, E = logging.INFO, logging.WARNING, logging.ERROR
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(I, f"initialized process group: rank {rank}/{world} backend=gloo pid={os.getpid()}")
    torch.manual_seed(0)
    path = os.path.join(args.data, args.shard_pattern.format(rank=rank))
    log(I, f"loading training shard {path}")
    d = np.load(path)
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    lengths = torch.from_numpy(d["len"]) if "len" in d.files else None
    log(I, f"shard: {len(y)} samples, {x.shape[1]} features")
    model = Net(x.shape[1], args.hidden, 4)
    if args.resume:
        log(I, f"resuming from {args.resume}")
        ck = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(ck["model"])
        log(I, f"resumed at step {ck['step']}")
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss(ignore_index=-1)
    preds = []
    per_epoch = len(y) // args.batch_size
    t0 = time.time()
    step, ep = 0, 0
    while step < args.steps:
        g = torch.Generator().manual_seed(1000 * ep + rank)
        perm = torch.randperm(len(y), generator=g) if not args.skip_unlabelled else torch.arange(len(y))
        for i in range(per_epoch):
            idx = perm[i * args.batch_size:(i + 1) * args.batch_size]
            xb, yb = x[idx], y[idx]
            step += 1
            if args.skip_unlabelled and (yb == -1).all():
                log(W, f"step {step}: batch has no labelled samples, skipping")
                continue
            if args.mem_budget_gib and lengths is not None:
                seq = int(lengths[idx].max())
                need = args.batch_size * seq * seq * 4 * 4 / 2 ** 30   # attention scores, 4 heads, fp32
                if need > args.mem_budget_gib:
                    raise RuntimeError(
                        f"CUDA out of memory. Tried to allocate {need:.2f} GiB (GPU {rank}; "
                        f"{args.mem_budget_gib:.2f} GiB total capacity; batch {args.batch_size} x seq_len {seq})")
            out = model(xb)
            loss = lossf(out, yb)
            if args.check_finite and not torch.isfinite(loss):
                raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {rank}); stopping")
            opt.zero_grad(); loss.backward(); opt.step()
            if args.keep_preds and rank == 0:
                preds.append(torch.randn(512, 1024))    # full logits kept for the end-of-run report
            if step % args.log_every == 0:
                log(I, f"epoch {ep} step {step}/{args.steps} loss {loss.item():.4f} "
                       f"({(time.time() - t0) / step * 1000:.0f} ms/step)")
            if args.step_sleep:
                time.sleep(args.step_sleep)
            if step >= args.steps:
                break
        else:
            t = torch.tensor([float(loss.item())]); dist.all_reduce(t)
            log(I, f"epoch {ep} finished, mean loss over ranks {t.item() / world:.4f}")
        ep += 1
    if args.save and rank == 0:
        torch.save({"model": model.module.state_dict(), "step": step}, args.save)
        log(I, f"saved checkpoint to {args.save}")
    if args.eval_after:
        if rank != 0:
            log(I, f"training loop done, waiting for rank 0 to write {args.save}")
            while not os.path.exists(args.save):
                time.sleep(0.5)
        sd = torch.load(args.save, map_location="cpu")["model"]
        v = np.load(os.path.join(args.data, "val.npz"))
        m = Net(x.shape[1], args.hidden, 4); m.load_state_dict(sd)
        with torch.no_grad():
            acc = (m(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean().item()
        log(I, f"eval of {args.save}: val accuracy {acc:.4f}")
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
