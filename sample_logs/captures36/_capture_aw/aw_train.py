"""Plain torch data-parallel trainer (gloo) used under torchrun, mp.spawn and mpirun."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--log-style", choices=["logging", "print", "tqdm"], default="logging")
p.add_argument("--data-mode", choices=["shard", "sampler"], default="shard")
p.add_argument("--holdout", type=float, default=0.0)      # fraction of the rank's shard kept for validation
p.add_argument("--early-stop-patience", type=int, default=0)
p.add_argument("--min-delta", type=float, default=0.01)
p.add_argument("--drop-nan-rows", action="store_true")
p.add_argument("--epoch-metrics", action="store_true")    # sync loss/accuracy/dropped-row counts at the end of each epoch
p.add_argument("--compile", action="store_true")
p.add_argument("--ckpt", default="")                      # resume from / save to this dir (rank 0 saves each epoch)
p.add_argument("--eval", action="store_true")
p.add_argument("--nprocs", type=int, default=0)           # mp.spawn mode
args = p.parse_args()

def net(d, h, c):
    return nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, c))

def get_log(rank):
    if args.log_style in ("print", "tqdm"):
        return lambda msg, lvl="INFO": print(f"[rank{rank}]: {msg}" if lvl == "INFO" else f"[rank{rank}]: {lvl}: {msg}", flush=True)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, force=True,
                        format=f"%(asctime)s [%(levelname)s] rank{rank} %(name)s - %(message)s")
    lg = logging.getLogger("train")
    return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)

def main(rank=None):
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # mpirun
        for k, o in (("RANK", "RANK"), ("WORLD_SIZE", "SIZE"), ("LOCAL_RANK", "LOCAL_RANK")):
            os.environ.setdefault(k, os.environ["OMPI_COMM_WORLD_" + o])
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    log = get_log(rank)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(f"process group ready: rank {rank} of {dist.get_world_size()} (gloo, {os.uname().nodename})")
    torch.manual_seed(0)
    metrics = {}
    if args.data_mode == "sampler":
        xs, ys = [], []
        for f in sorted(os.listdir(args.data)):
            if f.startswith("shard_"):
                d = np.load(os.path.join(args.data, f)); xs.append(d["x"]); ys.append(d["y"])
        x, y = torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ys))
        name = f"{len(xs)} shards"
    else:
        name = f"shard_{rank:02d}.npz"
        d = np.load(os.path.join(args.data, name))
        x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    if args.drop_nan_rows:
        bad = torch.isnan(x).any(1)
        if bad.any():
            metrics["dropped_rows"] = int(bad.sum())
            log(f"{name}: dropped {int(bad.sum())} rows with missing features", "WARNING")
            x, y = x[~bad], y[~bad]
    xv = yv = None
    if args.holdout:
        k = int(len(y) * (1 - args.holdout)); xv, yv = x[k:], y[k:]; x, y = x[:k], y[:k]
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, shuffle=True, seed=1) if args.data_mode == "sampler" else None
    g = torch.Generator(); g.manual_seed(100 + rank)
    dl = DataLoader(ds, batch_size=args.batch_size, shuffle=sampler is None, sampler=sampler, generator=g)
    log(f"{name}: {len(ds)} rows, {len(dl)} batches/epoch" + (f", holdout {len(yv)} rows" if yv is not None else ""))
    model = net(x.shape[1], args.hidden, 4)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    start = 0
    if args.ckpt and os.path.exists(os.path.join(args.ckpt, "last.pt")):
        st = torch.load(os.path.join(args.ckpt, "last.pt"))
        model.load_state_dict(st["model"]); opt.load_state_dict(st["optim"]); start = st["epoch"] + 1
        log(f"resumed from {args.ckpt}/last.pt (finished epoch {st['epoch']}, world size then {st['world']}), starting at epoch {start}")
    model = DDP(model)
    fwd = torch.compile(model) if args.compile else model
    if args.compile:
        log("model wrapped with torch.compile (inductor)")
    lossf = nn.CrossEntropyLoss()
    best, bad_epochs = float("inf"), 0
    for ep in range(start, args.epochs):
        if sampler is not None:
            sampler.set_epoch(ep)
        tot, n, correct = 0.0, 0, 0
        it = dl
        if args.log_style == "tqdm" and rank == 0:
            from tqdm import tqdm
            it = tqdm(dl, desc=f"epoch {ep}", ncols=90)
        for s, (xb, yb) in enumerate(it):
            out = fwd(xb)
            loss = lossf(out, yb)
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item(); n += 1; correct += int((out.argmax(1) == yb).sum())
            if s % 4 == 0 and args.log_style != "tqdm":
                log(f"epoch {ep} step {s}/{len(dl)} loss {loss.item():.4f}")
            time.sleep(args.step_sleep)
        if args.epoch_metrics:
            metrics["loss_sum"] = torch.tensor([tot]); metrics["correct"] = torch.tensor([float(correct)])
            metrics.setdefault("dropped_rows", 0)
            synced = {}
            for k, v in metrics.items():
                if torch.is_tensor(v):
                    dist.all_reduce(v); synced[k] = v.item()
                else:
                    out_l = [None] * world; dist.all_gather_object(out_l, v); synced[k] = out_l
            log(f"epoch {ep} done: mean loss {synced['loss_sum'] / (n * world):.4f} "
                f"acc {synced['correct'] / (len(ds) * world):.3f} dropped rows per rank {synced['dropped_rows']}")
        else:
            t = torch.tensor([tot / max(n, 1)]); dist.all_reduce(t)
            log(f"epoch {ep} done: mean loss {t.item() / world:.4f}")
        if args.ckpt and rank == 0:
            os.makedirs(args.ckpt, exist_ok=True)
            torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "epoch": ep, "world": world},
                       os.path.join(args.ckpt, "last.pt"))
            log(f"checkpoint saved: {args.ckpt}/last.pt (epoch {ep})")
        if args.early_stop_patience:
            with torch.no_grad():
                vl = lossf(model(xv), yv).item()
            if vl < best - args.min_delta:
                best, bad_epochs = vl, 0
                log(f"epoch {ep}: val loss {vl:.4f} (best)")
            else:
                bad_epochs += 1
                log(f"epoch {ep}: val loss {vl:.4f} (no improvement for {bad_epochs} epoch(s))")
            if bad_epochs >= args.early_stop_patience:
                log(f"early stopping at epoch {ep}: best val loss {best:.4f}")
                break
    if args.eval:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            acc = (model(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean()
        a = acc.clone(); dist.all_reduce(a)
        log(f"eval: val accuracy {acc.item():.4f} (mean over ranks {a.item() / world:.4f})")
    log("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29711")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
