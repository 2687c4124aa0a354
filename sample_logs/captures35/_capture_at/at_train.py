"""Plain torch data-parallel trainer (gloo) used under torchrun, mp.spawn and mpirun."""
import argparse, datetime, logging, logging.config, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--config", default="")             # yaml with model settings (hidden, depth)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--log-style", choices=["logging", "print"], default="logging")
p.add_argument("--log-dir", default="")            # also write a per-rank log file
p.add_argument("--log-config", default="")         # logging.config.dictConfig yaml (replaces --log-style setup)
p.add_argument("--loader", choices=["tensor", "rec"], default="tensor")
p.add_argument("--workers", type=int, default=0)
p.add_argument("--persistent-workers", action="store_true")
p.add_argument("--no-shuffle", action="store_true")
p.add_argument("--grad-sync", choices=["ddp", "fp16-allreduce"], default="ddp")
p.add_argument("--loss-scale", type=float, default=1024.0)
p.add_argument("--ckpt", default="")
p.add_argument("--ckpt-mb", type=int, default=0)   # extra optimizer-state padding saved per rank
p.add_argument("--tensorboard", default="")        # SummaryWriter log dir
p.add_argument("--eval", action="store_true")
p.add_argument("--nprocs", type=int, default=0)    # mp.spawn mode
args = p.parse_args()

class RecDataset(Dataset):
    """Fixed-size float32 records (features..., label) read with seek/read; the file is opened lazily per worker."""
    def __init__(self, path):
        self.path = path
        with open(path[:-4] + ".idx") as f:
            self.n, self.width = map(int, f.read().split())
        self.f = None
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        if self.f is None:
            self.f = open(self.path, "rb")
        self.f.seek(i * self.width * 4)
        rec = np.frombuffer(self.f.read(self.width * 4), dtype=np.float32).reshape(self.width)
        return torch.from_numpy(rec[:-1].copy()), int(rec[-1])

def net(d, h, c, depth):
    layers = [nn.Linear(d, h), nn.ReLU()]
    for _ in range(depth - 1):
        layers += [nn.Linear(h, h), nn.ReLU()]
    return nn.Sequential(*layers, nn.Linear(h, c))

def get_log(rank):
    if args.log_config:
        import yaml
        with open(args.log_config) as f:
            cfg = yaml.safe_load(f)
        logging.config.dictConfig(cfg)
        lg = logging.LoggerAdapter(logging.getLogger("trainer"), {"rank": rank})
        return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)
    if args.log_style == "print":
        return lambda msg, lvl="INFO": print(f"[rank{rank}] {msg}", flush=True)
    hs = [logging.StreamHandler(sys.stdout)]
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
        hs.append(logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")))
    fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s")
    for h in hs:
        h.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=hs, force=True)
    lg = logging.getLogger("trainer")
    return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)

def main(rank=None):
    try:
        run(rank)
    except Exception:
        logging.getLogger("trainer").exception(f"rank {os.environ.get('RANK')}: training failed")
        raise

def run(rank=None):
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # mpirun
        for k, o in (("RANK", "RANK"), ("WORLD_SIZE", "SIZE"), ("LOCAL_RANK", "LOCAL_RANK")):
            os.environ.setdefault(k, os.environ["OMPI_COMM_WORLD_" + o])
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    log = get_log(rank)
    hidden, depth = args.hidden, 2
    if args.config:
        import yaml
        with open(args.config) as f:
            cfg = yaml.safe_load(f)["model"]
        hidden, depth = cfg["hidden"], cfg.get("depth", 2)
        log(f"model config {os.path.abspath(args.config)}: hidden={hidden} depth={depth}")
    tb = None
    if args.tensorboard:
        from torch.utils.tensorboard import SummaryWriter
        tb = SummaryWriter(os.path.join(args.tensorboard, f"rank{rank}"))
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(f"initialized process group: rank {rank}/{dist.get_world_size()} backend=gloo host={os.uname().nodename}")
    torch.manual_seed(0)
    if args.loader == "rec":
        ds = RecDataset(os.path.join(args.data, f"shard_{rank:02d}.rec"))
        nfeat = ds.width - 1
    else:
        sh = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
        ds = TensorDataset(torch.from_numpy(sh["x"]), torch.from_numpy(sh["y"]))
        nfeat = sh["x"].shape[1]
    g = torch.Generator(); g.manual_seed(100 + rank)
    dl = DataLoader(ds, batch_size=args.batch_size, shuffle=not args.no_shuffle, generator=g, num_workers=args.workers,
                    persistent_workers=args.persistent_workers and args.workers > 0)
    log(f"shard_{rank:02d}: {len(ds)} rows, {len(dl)} batches of {args.batch_size}, {args.workers} loader workers")
    model = net(nfeat, hidden, 4, depth)
    if args.grad_sync == "ddp":
        model = DDP(model)
    else:
        for prm in model.parameters():
            dist.broadcast(prm.data, src=0)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    gstep = 0
    for ep in range(args.epochs):
        tot, n = 0.0, 0
        for s, (xb, yb) in enumerate(dl):
            loss = lossf(model(xb), yb)
            opt.zero_grad()
            if args.grad_sync == "ddp":
                loss.backward()
            else:
                (loss * args.loss_scale).backward()
                flat = torch.cat([q.grad.flatten() for q in model.parameters()]).half()
                if not torch.isfinite(flat).all():
                    raise FloatingPointError(f"non-finite gradient on rank {rank} at epoch {ep} step {s} "
                                             f"(loss {loss.item():.4f}, loss scale {args.loss_scale:g}, "
                                             f"{(~torch.isfinite(flat)).sum().item()} of {flat.numel()} elements inf/nan)")
                dist.all_reduce(flat)
                flat = flat.float() / (world * args.loss_scale); off = 0
                for q in model.parameters():
                    q.grad.copy_(flat[off:off + q.numel()].view_as(q)); off += q.numel()
            opt.step()
            tot += loss.item(); n += 1; gstep += 1
            if tb is not None:
                tb.add_scalar("loss", loss.item(), gstep)
            if s % 4 == 0:
                log(f"epoch {ep} step {s}/{len(dl)} loss {loss.item():.4f}")
            time.sleep(args.step_sleep)
        t = torch.tensor([tot / max(n, 1)]); dist.all_reduce(t)
        log(f"epoch {ep} done: mean loss {t.item() / world:.4f}")
        if args.ckpt:
            os.makedirs(args.ckpt, exist_ok=True)
            m = model.module if isinstance(model, DDP) else model
            if rank == 0:
                torch.save({"model": m.state_dict(), "epoch": ep}, os.path.join(args.ckpt, "model.pt"))
            st = {"rng": torch.get_rng_state(), "optim": opt.state_dict(), "epoch": ep}
            if args.ckpt_mb:
                st["ema_buffer"] = torch.zeros(args.ckpt_mb * 262144)
            torch.save(st, os.path.join(args.ckpt, f"rank_{rank:02d}_state.pt"))
            log(f"saved checkpoint {args.ckpt} (epoch {ep})")
    if args.eval:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            acc = (model(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean()
        a = acc.clone(); dist.all_reduce(a)
        log(f"eval: val accuracy {acc.item():.4f} (mean over ranks {a.item() / world:.4f})")
    dist.barrier()
    log("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29711")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
