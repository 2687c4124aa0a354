"""Small MLP classifier, DDP over gloo on CPU, per-rank shards. Runs under torchrun, torch.multiprocessing.spawn
(--nprocs N) or mpirun (--mpi, rank/size from mpi4py)."""
import argparse, datetime, faulthandler, logging, os, socket, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from trainlib import WarmupCosine, seed_all

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=4)
p.add_argument("--warmup", type=int, default=10)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--style", choices=["basic", "print", "tqdm", "fmt"], default="basic")
p.add_argument("--show-total", action="store_true")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--per-rank-ckpt", action="store_true")
p.add_argument("--resume", action="store_true")
p.add_argument("--loss-guard", action="store_true")
p.add_argument("--no-shuffle", action="store_true")
p.add_argument("--feature-cache", default="")
p.add_argument("--cache-dtype", default="float16")
p.add_argument("--num-workers", type=int, default=0)
p.add_argument("--eval", action="store_true")
p.add_argument("--class-report", action="store_true")
p.add_argument("--report-rank", type=int, default=-1)
p.add_argument("--bootstrap", type=int, default=0)
p.add_argument("--nprocs", type=int, default=0)
p.add_argument("--mpi", action="store_true")
p.add_argument("--master-port", default="29755")
args = p.parse_args()
faulthandler.enable()


class Net(nn.Module):
    def __init__(self, nin, hidden, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(nin, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.head(self.body(x))


def make_logger(rank):
    if args.style == "print":
        return lambda msg, *a: print(f"[rank{rank}] " + (msg % a if a else msg), flush=True), None
    if args.style == "fmt":
        logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                            format=f"%(asctime)s {socket.gethostname()} [rank {rank}] %(levelname)s %(name)s: %(message)s")
    else:
        logging.basicConfig(level=logging.INFO)
    lg = logging.getLogger("train")
    return lg.info, lg.warning


def load_features(rank, x, log, warn):
    """features standardised once and cached on local disk as .npy (memory-mapped on later runs)"""
    os.makedirs(args.feature_cache, exist_ok=True)
    cache = os.path.join(args.feature_cache, f"feat_rank{rank}.npy")
    shard = os.path.join(args.data, f"shard_{rank:02d}.npz")
    if not os.path.exists(cache):
        log("building feature cache %s", cache)
        np.save(cache, ((x - x.mean(0)) / x.std(0)).astype(args.cache_dtype))
    feats = np.load(cache, mmap_mode="r")
    log("feature cache %s: %s %s (mmap)", cache, feats.shape, feats.dtype)
    if os.path.getmtime(shard) > os.path.getmtime(cache):
        warn("feature cache %s is older than %s, rebuilding", cache, shard)
        np.save(cache, ((x - x.mean(0)) / x.std(0)).astype(args.cache_dtype))
        log("feature cache rebuilt (%s)", args.cache_dtype)
    return feats


def main(rank=None):
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    if args.mpi:
        from mpi4py import MPI
        c = MPI.COMM_WORLD
        os.environ.update(RANK=str(c.Get_rank()), WORLD_SIZE=str(c.Get_size()), MASTER_ADDR="127.0.0.1",
                          MASTER_PORT=args.master_port)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log, warn = make_logger(rank)
    warn = warn or log
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log("rank %d/%d initialised (gloo) on %s", rank, world, socket.gethostname())
    seed_all(0)
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = d["x"], torch.from_numpy(d["y"])
    log("loaded shard_%02d.npz: %d samples", rank, len(y))
    if args.feature_cache:
        feats = load_features(rank, x, log, warn)
    else:
        feats = x
    net = Net(x.shape[1], args.hidden, args.classes)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)
    start_epoch = 0
    if args.resume:
        ck = os.path.join(args.ckpt_dir, f"rank{rank}.pt" if args.per_rank_ckpt else "last.pt")
        if os.path.exists(ck):
            log("resuming from %s", ck)
            st = torch.load(ck)
            net.load_state_dict(st["model"]); opt.load_state_dict(st["opt"])
            start_epoch = st["epoch"] + 1
            log("resumed at epoch %d", start_epoch)
        else:
            log("no checkpoint at %s, starting from scratch", ck)
    model = DDP(net)
    idx_ds = torch.utils.data.TensorDataset(torch.arange(len(y)))
    dl = torch.utils.data.DataLoader(idx_ds, batch_size=args.batch_size, shuffle=not args.no_shuffle,
                                     num_workers=args.num_workers, generator=torch.Generator().manual_seed(rank))
    sched = WarmupCosine(opt, args.warmup, args.epochs * len(dl))
    lossf = nn.CrossEntropyLoss()
    bar = None
    if args.style == "tqdm" and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=(args.epochs - start_epoch) * len(dl), desc="train", file=sys.stderr, mininterval=1.0)
    t0 = time.time(); step = 0
    for ep in range(start_epoch, args.epochs):
        tot = 0.0
        eptag = f"{ep + 1}/{args.epochs}" if args.show_total else f"{ep}"
        for (ib,) in dl:
            step += 1
            ib = ib.sort().values.numpy()
            xb = torch.from_numpy(feats[ib]) if args.feature_cache else torch.from_numpy(x[ib])
            xb = xb.float(); yb = y[ib]
            out = model(xb)
            loss = lossf(out, yb)
            if args.loss_guard and not torch.isfinite(loss):
                raise FloatingPointError(f"non-finite loss {loss.item()} at epoch {ep} step {step}")
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item()
            if bar is not None:
                bar.update(1); bar.set_postfix(loss=f"{loss.item():.3f}")
            elif step % args.log_every == 0:
                log("epoch %s step %d loss %.4f lr %.4f", eptag, step, loss.item(), sched.get_last_lr()[0])
            if args.step_sleep:
                time.sleep(args.step_sleep)
        if bar is not None:
            bar.write(f"epoch {eptag}: mean loss {tot / len(dl):.4f}")
        else:
            log("epoch %s done, mean loss %.4f, %.1fs", eptag, tot / len(dl), time.time() - t0)
        if args.ckpt_dir and (args.per_rank_ckpt or rank == 0):
            os.makedirs(args.ckpt_dir, exist_ok=True)
            path = os.path.join(args.ckpt_dir, f"rank{rank}.pt" if args.per_rank_ckpt else "last.pt")
            torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": ep}, path)
            log("saved checkpoint %s", path)
    if bar is not None:
        bar.close()
    if args.eval:
        v = np.load(os.path.join(args.data, f"val_{rank:02d}.npz"))
        xv, yv = torch.from_numpy(v["x"]), torch.from_numpy(v["y"])
        if args.feature_cache:
            xv = (xv - torch.from_numpy(x.mean(0))) / torch.from_numpy(x.std(0))
        with torch.no_grad():
            pred = net(xv).argmax(1)
        if rank == args.report_rank:
            # per-sample calibration report with bootstrap confidence intervals, written by the reporting rank
            log("writing per-sample eval report (%d samples, %d bootstrap rounds)", len(yv), args.bootstrap)
            with torch.no_grad():
                prob = torch.softmax(net(xv), 1)
            accs = []
            g = np.random.default_rng(rank)
            for b in range(args.bootstrap):
                sel = g.integers(0, len(yv), len(yv))
                accs.append(float(sum(int(pred[i] == yv[i]) for i in sel)) / len(sel))
            lo, hi = np.percentile(accs, [2.5, 97.5]) if accs else (0, 0)
            with open("eval_report.csv", "w") as f:
                for i in range(len(yv)):
                    f.write(f"{i},{int(yv[i])},{int(pred[i])},{prob[i].max().item():.4f}\n")
            log("eval report written: acc CI [%.3f, %.3f]", lo, hi)
        if args.class_report:
            support = torch.bincount(yv)
            log("val_%02d.npz: %d samples, class support %s", rank, len(yv), support.tolist())
            hits = torch.bincount(yv[pred == yv], minlength=len(support))
            dist.all_reduce(support); dist.all_reduce(hits)
            log("per-class recall: %s", " ".join(f"{c}:{h / max(1, s):.3f}" for c, (h, s) in
                                                 enumerate(zip(hits.tolist(), support.tolist()))))
        acc = (pred == yv).float().mean()
        dist.all_reduce(acc)
        log("val accuracy %.4f", acc.item() / world)
    dist.barrier()
    log("finished in %.1fs", time.time() - t0)
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", args.master_port)
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
