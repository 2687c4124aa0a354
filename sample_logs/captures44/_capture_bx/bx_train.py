"""bx_train.py: small MLP classifier, DDP over gloo on CPU, one data shard per rank.
Rank/world come from torchrun's env (RANK/WORLD_SIZE/LOCAL_RANK), torch.multiprocessing.spawn (--nprocs), Open MPI
(OMPI_COMM_WORLD_RANK/SIZE) or a Slurm-style task env (SLURM_PROCID/SLURM_NTASKS).
Log formats (--log-format): json (one JSON object a line), logfmt (key=value, structlog style), rich (RichHandler),
plain (logging with host/rank), print."""
import argparse, datetime, glob, json, logging, os, socket, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--lr-schedule", choices=["const", "warmup"], default="const")
p.add_argument("--warmup-steps", type=int, default=20)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=4)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--log-format", choices=["json", "logfmt", "rich", "plain", "print"], default="plain")
p.add_argument("--show-total", action="store_true")
p.add_argument("--balanced-from-epoch", type=int, default=-1)
p.add_argument("--min-per-class", type=int, default=16)
p.add_argument("--max-steps-from-shard", action="store_true")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--eval-rank", type=int, default=-1)
p.add_argument("--mine-hard", type=float, default=0.0)
p.add_argument("--skip-bad-records", action="store_true")
p.add_argument("--nonfinite-guard", action="store_true")
p.add_argument("--legacy-clip", type=float, default=0.0)
p.add_argument("--label-tensor-copy", action="store_true")
p.add_argument("--eval", action="store_true")
p.add_argument("--nprocs", type=int, default=0)
p.add_argument("--master-port", default="29755")
args = p.parse_args()
HOST = socket.gethostname()


def make_logger(rank):
    if args.log_format == "print":
        return lambda msg, level="INFO", exc=False: print(f"[rank{rank}] {msg}", flush=True)
    logger = logging.getLogger("train")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if args.log_format == "json":
        class Fmt(logging.Formatter):
            def format(self, r):
                d = {"ts": datetime.datetime.fromtimestamp(r.created).isoformat(timespec="milliseconds"),
                     "level": r.levelname.lower(), "logger": r.name, "host": HOST, "rank": rank, "pid": r.process,
                     "msg": r.getMessage()}
                if r.exc_info:
                    d["exc_info"] = self.formatException(r.exc_info)
                return json.dumps(d)
        h = logging.StreamHandler(sys.stdout); h.setFormatter(Fmt())
    elif args.log_format == "logfmt":
        class Fmt(logging.Formatter):
            def format(self, r):
                ts = datetime.datetime.fromtimestamp(r.created).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
                s = f'ts={ts} level={r.levelname.lower()} logger={r.name} rank={rank} pid={r.process} event="{r.getMessage()}"'
                if r.exc_info:
                    s += ' exc_info="' + self.formatException(r.exc_info).replace("\n", "\\n").replace('"', "'") + '"'
                return s
        h = logging.StreamHandler(sys.stderr); h.setFormatter(Fmt())
    elif args.log_format == "rich":
        from rich.logging import RichHandler
        h = RichHandler(show_path=True, log_time_format="[%X]")
        h.setFormatter(logging.Formatter(f"rank {rank} | %(message)s"))
    else:
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s %(name)s [{HOST} rank {rank}] %(message)s"))
    logger.addHandler(h)

    def log(msg, level="INFO", exc=False):
        logger.log(getattr(logging, level), msg, exc_info=exc)
    return log


class Net(nn.Module):
    def __init__(self, nin, hidden, classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(nin, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        h = self.body(x)
        return self.head(h), h


class SampleDir(torch.utils.data.Dataset):
    """one .npy file per sample; file objects are kept open and reused (seek(0)) to avoid re-opening"""
    def __init__(self, d):
        self.files = sorted(glob.glob(os.path.join(d, "*.npy"))); self._fh = {}

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        fh = self._fh.get(i)
        if fh is None:
            fh = self._fh[i] = open(self.files[i], "rb")
        fh.seek(0)
        a = np.load(fh)
        return torch.from_numpy(a[:-1]), int(a[-1])


def load_shard(rank, log):
    base = os.path.join(args.data, f"shard_{rank:02d}")
    if os.path.isdir(base):
        ds = SampleDir(base)
        log(f"shard_{rank:02d}/: {len(ds)} sample files")
        return ds, None
    if os.path.exists(base + ".jsonl"):
        xs, ys, bad = [], [], 0
        with open(base + ".jsonl") as f:
            for ln, line in enumerate(f, 1):
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    if not args.skip_bad_records:
                        raise
                    bad += 1
                    log(f"skipping unreadable record at shard_{rank:02d}.jsonl line {ln}", "WARNING", exc=True)
                    continue
                xs.append(r["x"]); ys.append(r["y"])
        x, y = torch.tensor(xs, dtype=torch.float32), torch.tensor(ys)
        log(f"loaded shard_{rank:02d}.jsonl: {len(y)} records ({bad} skipped)")
    else:
        d = np.load(base + ".npz")
        x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
        counts = torch.bincount(y, minlength=args.classes).tolist()
        log(f"loaded shard_{rank:02d}.npz: {len(y)} samples, class counts {counts}")
    if args.label_tensor_copy:
        y = torch.tensor(y)
    return torch.utils.data.TensorDataset(x, y), y


def balanced_indices(y, gen):
    """draw indices until every class has at least min_per_class picks (oversampling rare classes)"""
    picked = {c: [] for c in range(args.classes)}
    while any(len(v) < args.min_per_class for v in picked.values()):
        i = int(torch.randint(len(y), (1,), generator=gen))
        c = int(y[i])
        if len(picked[c]) < 4 * args.min_per_class:
            picked[c].append(i)
    idx = [i for v in picked.values() for i in v]
    return [idx[j] for j in torch.randperm(len(idx), generator=gen).tolist()]


def main(spawn_rank=None):
    if spawn_rank is not None:
        rank, world, local = spawn_rank, args.nprocs, spawn_rank
    elif "RANK" in os.environ:
        rank, world, local = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ["LOCAL_RANK"])
    elif "OMPI_COMM_WORLD_RANK" in os.environ:
        rank, world = int(os.environ["OMPI_COMM_WORLD_RANK"]), int(os.environ["OMPI_COMM_WORLD_SIZE"])
        local = int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])
    else:
        rank, world, local = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"]), int(os.environ["SLURM_LOCALID"])
    lw = int(os.environ.get("LOCAL_WORLD_SIZE", world))
    log = make_logger(rank)
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(f"rank {rank}/{world} local {local}/{lw} on {HOST}: process group ready (gloo)")
    torch.manual_seed(0)
    ds, y = load_shard(rank, log)
    net = Net(16, args.hidden, args.classes)
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    sched = None
    if args.lr_schedule == "warmup":
        w = args.warmup_steps
        # exponential warmup from 1% of the base lr to the base lr over w steps, then constant
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.01 ** (1 - s / w))
    lossf = nn.CrossEntropyLoss(reduction="none")
    gen = torch.Generator().manual_seed(rank)
    dl = torch.utils.data.DataLoader(ds, batch_size=args.batch_size, shuffle=True, generator=gen)
    max_steps = args.epochs * len(dl) if args.max_steps_from_shard else None
    if max_steps:
        log(f"{len(dl)} batches per epoch, max_steps={max_steps}")
    hard = []
    t0 = time.time(); step = 0; done = False
    for ep in range(args.epochs):
        if 0 <= args.balanced_from_epoch <= ep:
            log(f"epoch {ep}: rebuilding class-balanced sampler (min {args.min_per_class} per class)")
            idx = balanced_indices(y, gen)
            dl = torch.utils.data.DataLoader(torch.utils.data.Subset(ds, idx), batch_size=args.batch_size, shuffle=False)
        tot, nb = 0.0, 0
        for xb, yb in dl:
            step += 1
            out, h = model(xb)
            per = lossf(out, yb)
            loss = per.mean()
            if args.nonfinite_guard and not torch.isfinite(loss):
                raise FloatingPointError(f"non-finite loss {loss.item()} at step {step} (epoch {ep}, lr {opt.param_groups[0]['lr']:.4g})")
            opt.zero_grad(); loss.backward()
            if args.legacy_clip:
                torch.nn.utils.clip_grad_norm(model.parameters(), args.legacy_clip)
            opt.step()
            if sched is not None:
                sched.step()
            if args.mine_hard:
                for k in torch.nonzero(per.detach() > args.mine_hard).flatten().tolist():
                    hard.append(torch.outer(h[k].detach(), h[k].detach()))   # kept for the hard-negative report
            tot += loss.item(); nb += 1
            if step % args.log_every == 0:
                ept = f"epoch {ep + 1}/{args.epochs}" if args.show_total else f"epoch {ep}"
                extra = f" lr {opt.param_groups[0]['lr']:.4g}" if sched is not None else ""
                extra += f" hard {len(hard)}" if args.mine_hard else ""
                log(f"{ept} step {step} loss {loss.item():.4f}{extra}")
            if args.ckpt_every and step % args.ckpt_every == 0:
                path = os.path.join(args.ckpt_dir, f"step_{step:05d}.pt")
                if rank == 0:
                    os.makedirs(args.ckpt_dir, exist_ok=True)
                    torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "step": step}, path)
                    log(f"saved checkpoint {path}")
                if rank == args.eval_rank:
                    while not os.path.exists(path):
                        time.sleep(0.02)
                    st = torch.load(path, map_location="cpu")
                    ev = Net(16, args.hidden, args.classes); ev.load_state_dict(st["model"])
                    v = np.load(os.path.join(args.data, "val.npz"))
                    with torch.no_grad():
                        acc = (ev(torch.from_numpy(v["x"]))[0].argmax(1) == torch.from_numpy(v["y"])).float().mean()
                    log(f"eval of {path}: val accuracy {acc.item():.4f}")
            if args.step_sleep:
                time.sleep(args.step_sleep)
            if max_steps and step >= max_steps:
                log(f"reached max_steps={max_steps}, stopping")
                done = True
                break
        ept = f"epoch {ep + 1}/{args.epochs}" if args.show_total else f"epoch {ep}"
        log(f"{ept} done: mean loss {tot / max(nb, 1):.4f}, {time.time() - t0:.1f}s")
        if done:
            break
    if args.eval:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            acc = (net(torch.from_numpy(v["x"]))[0].argmax(1) == torch.from_numpy(v["y"])).float().mean()
        dist.all_reduce(acc)
        log(f"val accuracy {acc.item() / world:.4f}")
        dist.barrier()
    log(f"training finished after {step} steps in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", args.master_port)
        mp.spawn(main, nprocs=args.nprocs)
    else:
        if "OMPI_COMM_WORLD_RANK" in os.environ or "SLURM_PROCID" in os.environ:
            os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", args.master_port)
        main()
