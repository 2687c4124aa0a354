"""Plain torch DDP trainer (gloo, CPU) on per-rank data; used under torchrun, mp.spawn and mpirun."""
import argparse, datetime, json, logging, os, sys, threading, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--config", default="")                 # yaml run config (model / optimizer / schedule)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.02)
p.add_argument("--log-every", type=int, default=4)
p.add_argument("--log-style", choices=["logging", "print", "tqdm", "color"], default="logging")
p.add_argument("--parts", action="store_true")         # data/rank_XX/part-NNNNN.csv, one part per epoch (streamed)
p.add_argument("--eval-every", type=int, default=0)    # rank 0 evaluates on val.npz every N epochs, others wait
p.add_argument("--fetch-watchdog", type=float, default=0)  # warn when a batch fetch takes longer than this
p.add_argument("--vocab-cache", default="")            # label vocab cache built by rank 0, read by the others
p.add_argument("--hard-negatives", action="store_true")  # mine hard negatives over the rank's shard each epoch
p.add_argument("--mine-max-rows", type=int, default=0)
p.add_argument("--resume", default="")
p.add_argument("--save-every", type=int, default=0)
p.add_argument("--max-steps", type=int, default=0)
p.add_argument("--nprocs", type=int, default=0)        # mp.spawn mode
p.add_argument("--nan-guard", action="store_true")    # stop on a non-finite loss
p.add_argument("--init-dir", default="")               # file:// rendezvous dir, one file per elastic attempt
args = p.parse_args()

class Color(logging.Formatter):
    C = {"DEBUG": "\x1b[36m", "INFO": "\x1b[32m", "WARNING": "\x1b[33m", "ERROR": "\x1b[31m", "CRITICAL": "\x1b[1;31m"}
    def format(self, r):
        r.levelname = f"{self.C.get(r.levelname, '')}{r.levelname:<7}\x1b[0m"
        return super().format(r)

def get_log(rank):
    if args.log_style in ("print", "tqdm"):
        return lambda msg, lvl="INFO": print(f"[rank{rank}]: {msg}" if lvl == "INFO" else f"[rank{rank}]: {lvl}: {msg}", flush=True)
    h = logging.StreamHandler(sys.stdout)
    if args.log_style == "color":
        h.setFormatter(Color(f"\x1b[2m%(asctime)s\x1b[0m %(levelname)s \x1b[35m[rank {rank}]\x1b[0m %(message)s", "%H:%M:%S"))
    else:
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[h], force=True)
    lg = logging.getLogger("trainer")
    return lambda msg, lvl="INFO": lg.log(getattr(logging, lvl), msg)

class Parts(Dataset):
    """rows of one CSV part file (features..., label), parsed on load"""
    def __init__(self, path):
        a = np.loadtxt(path, delimiter=",", dtype=np.float32)
        self.x, self.y = torch.from_numpy(a[:, :-1]), torch.from_numpy(a[:, -1]).long()
    def __len__(self):
        return len(self.y)
    def __getitem__(self, i):
        return self.x[i], self.y[i]

class SlowFetch(Dataset):
    """wraps a dataset; reads of the configured rows go through the (slow) remote blob store"""
    def __init__(self, ds, slow):
        self.ds, self.slow = ds, slow
    def __len__(self):
        return len(self.ds)
    def __getitem__(self, i):
        if i in self.slow:
            time.sleep(self.slow[i])
        return self.ds[i]

def main(rank=None):
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # mpirun
        for k, o in (("RANK", "RANK"), ("WORLD_SIZE", "SIZE"), ("LOCAL_RANK", "LOCAL_RANK")):
            os.environ.setdefault(k, os.environ["OMPI_COMM_WORLD_" + o])
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    log = get_log(rank)
    cfg = {"model": {"hidden": args.hidden}, "optimizer": {"lr": args.lr, "momentum": 0.9}}
    if args.config:
        import yaml
        with open(args.config) as f:
            cfg = yaml.safe_load(f)
        log(f"config {args.config}: {json.dumps(cfg)}")
    kw = {}
    if args.init_dir:
        os.makedirs(args.init_dir, exist_ok=True)
        kw = dict(init_method=f"file://{os.path.abspath(args.init_dir)}/pg.{os.environ.get('TORCHELASTIC_RESTART_COUNT', '0')}",
                  rank=rank, world_size=world)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout), **kw)
    log(f"initialized process group: rank {rank}/{dist.get_world_size()} backend=gloo host={os.uname().nodename} "
        f"restart={os.environ.get('TORCHELASTIC_RESTART_COUNT', '-')}")
    torch.manual_seed(0)
    classes = 4
    if args.vocab_cache:
        if rank == 0 and not os.path.exists(args.vocab_cache):
            labels = sorted({str(int(v)) for f in sorted(os.listdir(args.data)) if f.startswith("shard_")
                             for v in np.load(os.path.join(args.data, f))["y"]})
            vocab = {"labels": labels, "index": {l: i for i, l in enumerate(labels)},
                     "synonyms": {f"{l}_{k}": l for l in labels for k in range(400)}}
            s = json.dumps(vocab)
            with open(args.vocab_cache, "w") as f:   # written in place, in chunks, as the builder produces it
                for c in range(0, len(s), 4096):
                    f.write(s[c:c + 4096]); f.flush(); time.sleep(0.05)
            log(f"label vocab built: {len(labels)} labels -> {args.vocab_cache}")
        else:
            while not os.path.exists(args.vocab_cache):
                time.sleep(0.2)
            with open(args.vocab_cache) as f:
                vocab = json.load(f)
            log(f"label vocab loaded from {args.vocab_cache}: {len(vocab['labels'])} labels")
        classes = len(vocab["labels"])
    if args.parts:
        rdir = os.path.join(args.data, f"rank_{rank:02d}")
        parts = sorted(os.listdir(rdir))
        log(f"streaming {len(parts)} parts from {rdir}")
        x0 = Parts(os.path.join(rdir, parts[0])).x
        feat = x0.shape[1]
    else:
        d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
        x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
        feat = x.shape[1]
        log(f"shard_{rank:02d}.npz: {len(y)} rows x {feat} features")
    mcfg, ocfg = cfg["model"], dict(cfg["optimizer"])
    model = nn.Sequential(nn.Linear(feat, mcfg["hidden"]), nn.ReLU(), nn.Linear(mcfg["hidden"], mcfg["hidden"]), nn.ReLU(),
                          nn.Linear(mcfg["hidden"], classes))
    opt = torch.optim.SGD(model.parameters(), **ocfg)
    start = 0
    if args.resume:
        st = torch.load(os.path.join(args.resume, f"rank_{rank}.pt"))
        model.load_state_dict(st["model"]); opt.load_state_dict(st["optim"]); start = st["epoch"] + 1
        log(f"resumed {args.resume}/rank_{rank}.pt at epoch {start}")
    model = DDP(model)
    lossf = nn.CrossEntropyLoss()
    t_start = time.time(); gstep = 0
    for ep in range(start, args.epochs):
        if args.parts:
            pf = os.path.join(rdir, parts[ep % len(parts)])
            ds = Parts(pf)
            log(f"epoch {ep}: part {os.path.basename(pf)} ({len(ds)} rows)")
        else:
            ds = TensorDataset(x, y)
            if args.fetch_watchdog and "BA_SLOW_FETCH" in os.environ:
                r, e, idx, sec = map(float, os.environ["BA_SLOW_FETCH"].split(":"))
                if int(r) == rank and int(e) == ep:
                    ds = SlowFetch(ds, {int(idx): sec})
        g = torch.Generator(); g.manual_seed(100 + rank + ep)
        dl = DataLoader(ds, batch_size=args.batch_size, shuffle=False)
        it = iter(dl)
        if args.log_style == "tqdm" and rank == 0:
            from tqdm import tqdm
            it = iter(tqdm(it, total=len(dl), desc=f"Epoch {ep}", ncols=100))
        tot, n = 0.0, 0
        if args.hard_negatives:
            with torch.no_grad():
                emb = model.module[:2](ds.tensors[0] if hasattr(ds, "tensors") else ds.x)
                if args.mine_max_rows:
                    emb = emb[:args.mine_max_rows]
                log(f"epoch {ep}: mining hard negatives over {len(emb)} embeddings")
                sim = emb @ emb.T
                hard = sim.topk(8, dim=1).indices
                log(f"epoch {ep}: hard negatives ready ({tuple(hard.shape)})")
        s = 0
        while True:
            t0 = time.time()
            done = threading.Event()
            if args.fetch_watchdog:
                def watch(step=s, ep=ep):
                    if not done.wait(args.fetch_watchdog):
                        log(f"data loader: batch {step} of epoch {ep} not ready after {args.fetch_watchdog:.0f}s, still waiting", "WARNING")
                threading.Thread(target=watch, daemon=True).start()
            try:
                xb, yb = next(it)
            except StopIteration:
                done.set(); break
            done.set()
            out = model(xb)
            loss = lossf(out, yb)
            if args.nan_guard and not torch.isfinite(loss):
                log(f"non-finite loss {loss.item()} at epoch {ep} step {s} (global step {gstep + 1}); "
                    f"batch max |x| {xb.abs().max().item():.3g}", "ERROR")
                raise FloatingPointError(f"loss is {loss.item()} at global step {gstep + 1}")
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item(); n += 1; gstep += 1
            if s % args.log_every == 0 and args.log_style != "tqdm":
                el = time.time() - t_start
                log(f"epoch {ep} step {s}/{len(dl)} global_step {gstep} loss {loss.item():.4f} "
                    f"lr {ocfg['lr']:.3g} elapsed {datetime.timedelta(seconds=int(el))}")
            time.sleep(args.step_sleep)
            s += 1
            if args.max_steps and gstep >= args.max_steps:
                break
        t = torch.tensor([tot / max(n, 1)]); dist.all_reduce(t)
        log(f"epoch {ep} finished: mean train loss {t.item() / world:.4f} ({n} steps)")
        if args.save_every and (ep + 1) % args.save_every == 0:
            os.makedirs("ckpt", exist_ok=True)
            torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "epoch": ep}, f"ckpt/rank_{rank}.pt")
            log(f"saved ckpt/rank_{rank}.pt")
        if args.eval_every and (ep + 1) % args.eval_every == 0:
            if rank == 0:
                v = np.load(os.path.join(args.data, "val.npz"))
                vx, vy = torch.from_numpy(v["x"]), torch.from_numpy(v["y"])
                log(f"running evaluation on val.npz ({len(vy)} rows)")
                tp, fp, fn = [0] * classes, [0] * classes, [0] * classes
                with torch.no_grad():
                    for i in range(0, len(vy), 16):
                        pred = model.module(vx[i:i + 16]).argmax(1)
                        for pp, yy in zip(pred.tolist(), vy[i:i + 16].tolist()):
                            if pp == yy:
                                tp[yy] += 1
                            else:
                                fp[pp] += 1; fn[yy] += 1
                prec = [tp[c] / (tp[c] + fp[c]) for c in range(classes)]
                rec = [tp[c] / (tp[c] + fn[c]) for c in range(classes)]
                f1 = sum(2 * p_ * r_ / (p_ + r_) if p_ + r_ else 0.0 for p_, r_ in zip(prec, rec)) / classes
                log(f"eval epoch {ep}: macro-F1 {f1:.4f} acc {sum(tp) / len(vy):.4f}")
            dist.barrier()
        if args.max_steps and gstep >= args.max_steps:
            break
    dist.barrier()
    log(f"training finished: {gstep} steps in {datetime.timedelta(seconds=int(time.time() - t_start))}")
    dist.destroy_process_group()

if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29611")
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
