"""Plain torch DDP trainer (gloo) used under torchrun, mp.spawn and mpirun."""
import argparse, datetime, json, logging, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--log-style", choices=["logging", "print", "json"], default="logging")
p.add_argument("--log-dir", default="")          # also write a per-rank log file (logging/json styles)
p.add_argument("--act-ckpt", action="store_true")  # activation checkpointing of the hidden block (PairSiLU)
p.add_argument("--skip-unknown", action="store_true")  # skip batches holding labels not in classes.txt
p.add_argument("--join", action="store_true")      # DDP join() context for uneven inputs
p.add_argument("--device-check", action="store_true")
p.add_argument("--resume", default="")            # dir with model.pt + per-rank rank_XX_state.pt
p.add_argument("--ckpt", default="")
p.add_argument("--emb-cache-mb", type=int, default=0)
p.add_argument("--nprocs", type=int, default=0)    # mp.spawn mode
args = p.parse_args()

class PairSiLU(torch.autograd.Function):
    """SiLU with a memory-lean backward that processes the batch two rows at a time."""
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        h = x.shape[-1]
        xp, gp = x.reshape(-1, 2, h), g.view(-1, 2, h)
        s = torch.sigmoid(xp)
        return (gp * (s * (1 + xp * (1 - s)))).view(-1, h)

class Net(nn.Module):
    def __init__(self, d, h, c):
        super().__init__()
        self.inp = nn.Linear(d, h); self.mid = nn.Linear(h, h); self.out = nn.Linear(h, c)
    def block(self, z):
        return PairSiLU.apply(self.mid(PairSiLU.apply(z)))
    def forward(self, x):
        z = self.inp(x)
        z = checkpoint(self.block, z, use_reentrant=False) if args.act_ckpt else self.block(z)
        return self.out(z)

class JsonFmt(logging.Formatter):
    def __init__(self, rank):
        super().__init__(); self.rank = rank
    def format(self, r):
        d = {"ts": datetime.datetime.fromtimestamp(r.created).isoformat(timespec="milliseconds"), "level": r.levelname,
             "logger": r.name, "rank": self.rank, "host": os.uname().nodename, "msg": r.getMessage()}
        if r.exc_info:
            d["exc"] = self.formatException(r.exc_info)
        return json.dumps(d)

def get_log(rank):
    if args.log_style == "print":
        return lambda msg, lvl="INFO": print(f"[rank{rank}] {msg}", flush=True)
    fmt = JsonFmt(rank) if args.log_style == "json" else \
        logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s")
    hs = [logging.StreamHandler(sys.stdout)]
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
        hs.append(logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")))
    for h in hs:
        h.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=hs, force=True)
    lg = logging.getLogger("trainer")
    return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)

def main(rank=None):
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # mpirun
        for k, o in (("RANK", "RANK"), ("WORLD_SIZE", "SIZE"), ("LOCAL_RANK", "LOCAL_RANK")):
            os.environ.setdefault(k, os.environ["OMPI_COMM_WORLD_" + o])
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    log = get_log(rank)
    if args.device_check:
        vis = [d for d in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if d != ""]
        lws = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
        log(f"device check: CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '')!r} local_world_size={lws}")
        if len(vis) < lws:
            raise RuntimeError(f"local rank {os.environ.get('LOCAL_RANK')} on {os.uname().nodename}: {len(vis)} visible "
                               f"device(s) in CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', '')!r} but "
                               f"LOCAL_WORLD_SIZE={lws}; each local rank needs its own device")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(f"initialized process group: rank {rank}/{dist.get_world_size()} backend=gloo host={os.uname().nodename}")
    torch.manual_seed(0)
    with open(os.path.join(args.data, "classes.txt")) as f:
        classes = f.read().split()
    cls_idx = {c: i for i, c in enumerate(classes)}
    shard = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x = torch.from_numpy(shard["x"]); y = torch.tensor([cls_idx.get(n, -1) for n in shard["y"]])
    steps = -(-len(y) // args.batch_size)
    log(f"loaded shard_{rank:02d}.npz: {len(y)} rows, {steps} batches of {args.batch_size}")
    if len(y) < args.batch_size:
        sys.exit(3)
    model = DDP(Net(x.shape[1], args.hidden, len(classes)))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    start = 0
    if args.resume:
        sd = torch.load(os.path.join(args.resume, "model.pt"))
        model.module.load_state_dict(sd["model"]); start = sd["epoch"] + 1
        st = torch.load(os.path.join(args.resume, f"rank_{rank:02d}_state.pt"))
        torch.set_rng_state(st["rng"]); opt.load_state_dict(st["optim"])
        log(f"resumed from {args.resume} (epoch {sd['epoch']}), rank state restored")
    if args.emb_cache_mb:
        log(f"allocating embedding cache: {args.emb_cache_mb} MB")
        cache = torch.zeros(args.emb_cache_mb * 1024 * 1024 // 4)
        log(f"embedding cache ready ({cache.numel()} floats)")
    lossf = nn.CrossEntropyLoss()
    from contextlib import nullcontext
    for ep in range(start, args.epochs):
        tot, n = 0.0, 0
        with (model.join() if args.join else nullcontext()):
            for s in range(steps):
                xb = x[s * args.batch_size:(s + 1) * args.batch_size]
                yb = y[s * args.batch_size:(s + 1) * args.batch_size]
                if args.skip_unknown and (yb < 0).any():
                    log(f"epoch {ep} step {s}: skipping batch with {(yb < 0).sum().item()} rows of unknown label", "WARNING")
                    continue
                loss = lossf(model(xb), yb)
                opt.zero_grad(); loss.backward(); opt.step()
                tot += loss.item(); n += 1
                if s % 4 == 0:
                    log(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
                time.sleep(args.step_sleep)
        t = torch.tensor([tot / max(n, 1)]); dist.all_reduce(t)
        log(f"epoch {ep} done: mean loss {t.item() / world:.4f}")
        if args.ckpt:
            os.makedirs(args.ckpt, exist_ok=True)
            if rank == 0:
                torch.save({"model": model.module.state_dict(), "epoch": ep}, os.path.join(args.ckpt, "model.pt"))
            torch.save({"rng": torch.get_rng_state(), "optim": opt.state_dict()}, os.path.join(args.ckpt, f"rank_{rank:02d}_state.pt"))
            log(f"saved checkpoint {args.ckpt} (epoch {ep})")
    dist.barrier()
    log("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29611")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
