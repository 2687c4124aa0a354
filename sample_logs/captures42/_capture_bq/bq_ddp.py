"""Small DDP classifier (gloo, CPU) on per-rank shards. Runs under torchrun (env://), torch.multiprocessing.spawn
(--nprocs), mpirun (--mpi: rank/size from mpi4py) or a Slurm-style wrapper (SLURM_PROCID / SLURM_NTASKS)."""
import argparse, datetime, logging, os, sqlite3, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=300)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--style", choices=["logging", "print"], default="logging")
p.add_argument("--epochs", type=int, default=0)      # pass over the shard in order (last batch partial) instead of random batches
p.add_argument("--bn", action="store_true")         # BatchNorm1d after the first layer
p.add_argument("--mpi", action="store_true")
p.add_argument("--slurm", action="store_true")
p.add_argument("--nprocs", type=int, default=0)
p.add_argument("--metrics-db", default="")        # rank 0 writes scalars to this sqlite file every --log-every steps
p.add_argument("--metrics-file", default="")      # rank 0 appends CSV metrics here
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--val-file", default="")
p.add_argument("--early-stop-patience", type=int, default=0)  # stop when the local eval loss has not improved
p.add_argument("--sync-early-stop", action="store_true")  # average the val loss over ranks before the early-stop test
p.add_argument("--min-delta", type=float, default=1e-3)
args = p.parse_args()


def make_log(rank, host):
    if args.style == "print":
        return lambda level, msg: print(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] {msg}", flush=True)
    logging.basicConfig(format=f"%(asctime)s {host} rank{rank} %(levelname)s %(name)s: %(message)s", level=logging.INFO,
                        stream=sys.stdout)
    lg = logging.getLogger("trainer")
    return lambda level, msg: lg.log(level, msg)


class Net(nn.Module):
    def __init__(self, feat, classes=4, bn=False):
        super().__init__()
        norm = [nn.BatchNorm1d(64)] if bn else []
        self.body = nn.Sequential(nn.Linear(feat, 64), *norm, nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, classes))

    def forward(self, x):
        return self.body(x)


class Config:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def evaluate(model, path):
    v = np.load(path)
    xv, yv = torch.from_numpy(v["x"]), torch.from_numpy(v["y"])
    with torch.no_grad():
        out = model(xv)
        loss = nn.functional.cross_entropy(out, yv, reduction="sum").item()
        correct = (out.argmax(1) == yv).sum().item()
    return loss / len(yv), correct / len(yv)


def main(rank=None):
    if args.mpi:
        from mpi4py import MPI
        rank, world = MPI.COMM_WORLD.Get_rank(), MPI.COMM_WORLD.Get_size()
        os.environ.update(RANK=str(rank), WORLD_SIZE=str(world))
    elif args.slurm:
        rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
        os.environ.update(RANK=str(rank), WORLD_SIZE=str(world))
    elif rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    host = os.uname().nodename
    log = make_log(rank, host)
    I, W, E = logging.INFO, logging.WARNING, logging.ERROR
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(I, f"rank {rank}/{world} on {host}: process group ready (gloo), pid {os.getpid()}")
    torch.manual_seed(0)
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    log(I, f"shard_{rank:02d}: {len(y)} rows x {x.shape[1]} features")
    model = DDP(Net(x.shape[1], bn=args.bn))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    cfg = Config(lr=args.lr, batch_size=args.batch_size, steps=args.steps, world=world)
    if rank == 0 and args.metrics_file:
        cfg.metrics_out = open(args.metrics_file, "a")
        cfg.metrics_out.write("step,loss,ms_per_step\n")
    db = None
    if rank == 0 and args.metrics_db:
        db = sqlite3.connect(args.metrics_db, timeout=2.0)
        db.execute("CREATE TABLE IF NOT EXISTS scalars (run TEXT, step INTEGER, key TEXT, value REAL, ts REAL)")
        db.commit()
        log(I, f"metrics backend: sqlite {args.metrics_db}")
    lossf = nn.CrossEntropyLoss()
    best, bad = float("inf"), 0
    t0 = time.time()
    g = torch.Generator().manual_seed(rank)
    if args.epochs:
        nb = -(-len(y) // args.batch_size)
        args.steps = args.epochs * nb
        log(I, f"{args.epochs} epochs x {nb} batches of {args.batch_size}")
    for step in range(1, args.steps + 1):
        if args.epochs:
            b = (step - 1) % nb
            if b == 0:
                perm = torch.randperm(len(y), generator=g)
            idx = perm[b * args.batch_size:(b + 1) * args.batch_size]
        else:
            idx = torch.randint(0, len(y), (args.batch_size,), generator=g)
        loss = lossf(model(x[idx]), y[idx])
        opt.zero_grad(); loss.backward(); opt.step()
        if step % args.log_every == 0:
            ms = (time.time() - t0) / step * 1000
            if rank == 0 or args.style == "print":
                log(I, f"step {step}/{args.steps} loss {loss.item():.4f} ({ms:.0f} ms/step)")
            if rank == 0 and args.metrics_file:
                cfg.metrics_out.write(f"{step},{loss.item():.5f},{ms:.1f}\n"); cfg.metrics_out.flush()
            if db is not None:
                db.executemany("INSERT INTO scalars VALUES (?,?,?,?,?)",
                               [("run-0412", step, "train/loss", loss.item(), time.time()),
                                ("run-0412", step, "perf/ms_per_step", ms, time.time())])
                db.commit()
        if args.eval_every and step % args.eval_every == 0:
            vl, va = evaluate(model.module, args.val_file.format(rank=rank, host=host))
            if args.sync_early_stop:
                t = torch.tensor([vl, va]); dist.all_reduce(t); vl, va = (t / world).tolist()
                if rank == 0:
                    log(I, f"eval at step {step}: val_loss {vl:.4f} val_acc {va:.4f} (mean over {world} ranks)")
            else:
                log(I, f"eval at step {step}: val_loss {vl:.4f} val_acc {va:.4f}")
            if args.early_stop_patience and args.sync_early_stop:
                if vl < best - args.min_delta:
                    best, bad = vl, 0
                else:
                    bad += 1
                    if bad >= args.early_stop_patience:
                        if rank == 0:
                            log(I, f"early stopping at step {step}: mean val_loss has not improved by {args.min_delta} for {bad} evals (best {best:.4f})")
                        break
            elif args.early_stop_patience:
                if vl < best - 1e-3:
                    best, bad = vl, 0
                else:
                    bad += 1
                    if bad >= args.early_stop_patience:
                        log(I, f"early stopping at step {step}: val_loss has not improved for {bad} evals (best {best:.4f})")
                        return
        if args.ckpt_every and step % args.ckpt_every == 0 and rank == 0:
            os.makedirs(args.ckpt_dir, exist_ok=True)
            path = os.path.join(args.ckpt_dir, f"step{step:05d}.pt")
            torch.save({"step": step, "model": model.module.state_dict(), "optim": opt.state_dict(), "config": cfg}, path)
            log(I, f"saved checkpoint {path}")
        if args.step_sleep:
            time.sleep(args.step_sleep)
    t = torch.tensor([loss.item()]); dist.all_reduce(t)
    log(I, f"training done: {step} steps in {time.time() - t0:.1f}s, mean final loss over ranks {t.item() / world:.4f}")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29641")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
