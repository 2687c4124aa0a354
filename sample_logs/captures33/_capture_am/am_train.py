"""Plain torch DDP trainer (gloo) used under torchrun / accelerate-style env, mp.spawn and mpirun."""
import argparse, datetime, logging, os, pickle, sys, threading, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.05)
p.add_argument("--normalize", choices=["global", "shard"], default="global")
p.add_argument("--eval-cache-mb", default="0")  # per-rank sizes, comma separated
p.add_argument("--metrics-pusher", action="store_true")
p.add_argument("--ckpt", default="")
p.add_argument("--log-style", choices=["logging", "print"], default="logging")
p.add_argument("--world-size", type=int, default=None)
p.add_argument("--nprocs", type=int, default=0)  # mp.spawn mode
p.add_argument("--init-dir", default="")  # file:// rendezvous dir (one file per elastic attempt)
args = p.parse_args()

def setup_env():
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # mpirun
        os.environ.setdefault("RANK", os.environ["OMPI_COMM_WORLD_RANK"])
        os.environ.setdefault("WORLD_SIZE", os.environ["OMPI_COMM_WORLD_SIZE"])
        os.environ.setdefault("LOCAL_RANK", os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])

def get_log(rank):
    if args.log_style == "print":
        return lambda msg, lvl="INFO": print(f"[rank{rank}] {msg}", flush=True)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s %(levelname)s [rank {rank}] %(name)s: %(message)s")
    lg = logging.getLogger("trainer")
    return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)

class MetricsPusher(threading.Thread):
    """Background thread that pushes throughput counters every few seconds."""
    def __init__(self):
        super().__init__(name="metrics-pusher")
        self.stop = threading.Event(); self.samples = 0
    def run(self):
        while not self.stop.wait(2.0):
            pass

def main(rank=None):
    setup_env()
    if rank is not None:
        os.environ["RANK"] = str(rank); os.environ["LOCAL_RANK"] = str(rank)
        os.environ["WORLD_SIZE"] = str(args.world_size or args.nprocs)
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    log = get_log(rank)
    kw = {}
    if args.init_dir:
        os.makedirs(args.init_dir, exist_ok=True)
        kw = dict(init_method=f"file://{os.path.abspath(args.init_dir)}/pg.{os.environ.get('TORCHELASTIC_RESTART_COUNT', '0')}",
                  rank=rank, world_size=world)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout), **kw)
    log(f"initialized process group: rank {rank}/{dist.get_world_size()} backend=gloo host={os.uname().nodename}")
    torch.manual_seed(0)
    with open(os.path.join(args.data, "classes.txt")) as f:
        classes = f.read().split()
    cls_idx = {c: i for i, c in enumerate(classes)}
    with open(os.path.join(args.data, "stats.pkl"), "rb") as f:
        stats = pickle.load(f)
    shard = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x = torch.from_numpy(shard["x"])
    if args.normalize == "shard":
        x = (x - x.mean(0)) / x.std(0)
    else:
        x = (x - torch.from_numpy(stats["mean"])) / torch.from_numpy(stats["std"])
    names = shard["y"]
    log(f"loaded shard_{rank:02d}.npz: {len(names)} rows, {x.shape[1]} features")
    model = DDP(nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Linear(64, len(classes))))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    pusher = None
    if args.metrics_pusher:
        pusher = MetricsPusher(); pusher.start()
    sizes = [int(v) for v in args.eval_cache_mb.split(",")]
    cache_mb = sizes[rank] if len(sizes) > 1 else sizes[0]
    if cache_mb:
        log(f"building eval feature cache ({cache_mb} MB)")
        cache = []
        for i in range(cache_mb // 16):
            cache.append(np.ones(16 * 1024 * 1024 // 8))
            time.sleep(0.01)
        log(f"eval cache ready: {len(cache)} blocks")
    try:
        steps = len(names) // args.batch_size
        for ep in range(args.epochs):
            tot = 0.0
            for s in range(steps):
                xb = x[s * args.batch_size:(s + 1) * args.batch_size]
                yb = torch.tensor([cls_idx[n] for n in names[s * args.batch_size:(s + 1) * args.batch_size]])
                loss = lossf(model(xb), yb)
                if not torch.isfinite(loss):
                    raise FloatingPointError(f"non-finite loss {loss.item()} at epoch {ep} step {s}")
                opt.zero_grad(); loss.backward(); opt.step()
                tot += loss.item()
                if pusher: pusher.samples += len(yb)
                if s % 4 == 0:
                    log(f"epoch {ep} step {s}/{steps} loss {loss.item():.4f}")
                time.sleep(args.step_sleep)
            t = torch.tensor([tot / steps]); dist.all_reduce(t); 
            log(f"epoch {ep} done: mean loss {t.item() / world:.4f}")
            if args.ckpt and rank == 0:
                os.makedirs(args.ckpt, exist_ok=True)
                torch.save({"model": model.module.state_dict(), "epoch": ep}, os.path.join(args.ckpt, "last.pt"))
                log(f"saved checkpoint {args.ckpt}/last.pt (epoch {ep})")
    except RuntimeError:
        # collective / comm failure: stop background threads so the launcher sees this worker exit
        if pusher: pusher.stop.set()
        raise
    if pusher:
        pusher.stop.set(); pusher.join()
    dist.barrier()
    log("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29511")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
