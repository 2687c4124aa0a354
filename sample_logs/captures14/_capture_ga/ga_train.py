#!/usr/bin/env python3
"""ga_train.py: small gloo DDP classifier for the captures14 ga-* jobs (torchrun, mpirun, bash loop, mp.spawn).

Logging styles: basic  = logging.basicConfig() defaults on stderr (`LEVEL:name:msg`) + a bare logging.FileHandler per
                         rank (--log-file template, no formatter: message only);
                glog   = glog-like `I1206 06:40:01.123456 4242 ga_train.py:88] msg` on stderr;
                print  = print() to stdout, `[r<R>] msg`.
Faults (--fault, on --fault-rank at --fault-step): eval_squeeze, unused_aux, sim_matrix, resume (see --resume),
prompt (see --out-dir), transient (only while TORCHELASTIC_RESTART_COUNT == 0); nan data comes from the CSV shards
(make_data.py).
"""
import argparse, datetime, logging, math, os, socket, sys, time, warnings

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=12)
p.add_argument("--batch", type=int, default=16)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="basic", choices=["basic", "glog", "print"])
p.add_argument("--log-file", default=None)
p.add_argument("--data-dir", default=None)
p.add_argument("--eval-every", type=int, default=0)
p.add_argument("--val-size", type=int, default=48)
p.add_argument("--fault", default=None)
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--mine", action="store_true", help="hard-negative mining on the shard before training")
p.add_argument("--shard-rows", default="", help="comma list: rows of each rank's mining shard")
p.add_argument("--resume", default=None)
p.add_argument("--save-dir", default=None)
p.add_argument("--out-dir", default=None)
p.add_argument("--warnings", action="store_true")
p.add_argument("--spawn-procs", type=int, default=0)
p.add_argument("--attempt-store", action="store_true", help="process group over PrefixStore('attempt-<restart>')")
args = p.parse_args()


def env_int(*names, default=None):
    for n in names:
        if n in os.environ:
            return int(os.environ[n])
    return default


def setup_logging(rank):
    log = logging.getLogger("ga.train")
    if args.log_style == "basic":
        logging.basicConfig(level=logging.INFO)
        if args.log_file:
            fn = args.log_file.format(rank=rank)
            os.makedirs(os.path.dirname(fn) or ".", exist_ok=True)
            log.addHandler(logging.FileHandler(fn, mode="a"))
        return log.info, log.warning, log.error, log.exception
    if args.log_style == "glog":
        h = logging.StreamHandler(sys.stderr)

        class G(logging.Formatter):
            def format(self, r):
                t = time.localtime(r.created)
                us = int((r.created - int(r.created)) * 1e6)
                s = "%s%s.%06d %d %s:%d] %s" % (r.levelname[0], time.strftime("%m%d %H:%M:%S", t), us, r.process,
                                               r.filename, r.lineno, r.getMessage())
                if r.exc_info:
                    s += "\n" + self.formatException(r.exc_info)
                return s
        h.setFormatter(G())
        log.addHandler(h)
        log.setLevel(logging.INFO)
        log.propagate = False
        return log.info, log.warning, log.error, log.exception

    def pr(msg, *a, **k):
        print(f"[r{rank}] {msg}", flush=True)

    def prx(msg, *a, **k):
        import traceback
        print(f"[r{rank}] {msg}\n" + traceback.format_exc().rstrip(), flush=True)
    return pr, (lambda m, *a, **k: pr("WARNING " + m)), (lambda m, *a, **k: pr("ERROR " + m)), prx


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.head = nn.Linear(32, 4)
        self.aux = nn.Linear(32, 2)

    def forward(self, x, use_aux=False):
        h = self.body(x)
        if use_aux:
            return self.head(h), self.aux(h)
        return self.head(h)


def load_shard(rank, world):
    if args.data_dir:
        fn = os.path.join(args.data_dir, f"train-{rank:02d}.csv")
        a = np.loadtxt(fn, delimiter=",", skiprows=1, dtype=np.float32)
        return torch.from_numpy(a[:, :16].copy()), torch.from_numpy(a[:, 16].astype(np.int64)), fn
    g = torch.Generator().manual_seed(1000 + rank)
    x = torch.randn(args.batch * (args.steps + 2), 16, generator=g)
    w = torch.linspace(-1, 1, 64).view(16, 4)
    y = (x @ w).argmax(1)
    return x, y, None


def main(rank=None, world=None):
    if rank is None:
        rank = env_int("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK")
        world = env_int("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE")
    os.environ.setdefault("RANK", str(rank))
    os.environ.setdefault("WORLD_SIZE", str(world))
    info, warn, error, exc = setup_logging(rank)
    restart = env_int("TORCHELASTIC_RESTART_COUNT", default=0)
    if args.warnings and rank == 0:
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) "
                      "instead.", FutureWarning)
    info(f"rank {rank}/{world} pid {os.getpid()} host {socket.gethostname()} attempt {restart}: init process group "
         f"(gloo, timeout {args.pg_timeout}s)")
    if args.attempt_store:
        st = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world, is_master=False,
                           timeout=datetime.timedelta(seconds=args.pg_timeout))
        dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt-{restart}", st), rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=args.pg_timeout))
    else:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=args.pg_timeout))
    torch.manual_seed(0)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    x, y, fn = load_shard(rank, world)
    info(f"rank {rank}: train shard {fn or 'synthetic'} rows={len(x)}; model params={sum(p.numel() for p in model.parameters())}")
    start_step = 1
    if args.resume:
        info(f"rank {rank}: resuming from {args.resume}")
        sd = torch.load(os.path.join(args.resume, "model.pt"))
        model.module.load_state_dict(sd["model"])
        opt.load_state_dict(sd["optim"])
        start_step = sd["step"] + 1
        info(f"rank {rank}: loaded model/optimizer state of step {sd['step']} (saved with world_size={sd['world_size']})")
        rs = torch.load(os.path.join(args.resume, f"rng_state_rank{rank}.pt"))
        torch.set_rng_state(rs["torch"])
        info(f"rank {rank}: restored RNG state, data cursor at sample {rs['cursor']}")

    if args.out_dir:
        if rank == 0:
            if os.path.isdir(args.out_dir) and os.listdir(args.out_dir):
                ans = input(f"Output directory {args.out_dir} already exists and is not empty. Overwrite? [y/N] ")
                if ans.strip().lower() != "y":
                    raise SystemExit("aborted by user")
            os.makedirs(args.out_dir, exist_ok=True)
            info(f"rank 0: output directory {args.out_dir} ready")
        else:
            info(f"rank {rank}: waiting for rank 0 to prepare {args.out_dir}")
        dist.barrier()

    if args.mine:
        rows = [int(v) for v in args.shard_rows.split(",")]
        n = rows[rank]
        info(f"rank {rank}: hard-negative mining: embedding {n} shard rows")
        g = torch.Generator().manual_seed(7 + rank)
        emb = torch.randn(n, 16, generator=g).numpy()
        info(f"rank {rank}: building {n}x{n} similarity matrix for hard negatives")
        try:
            sim = np.empty((n, n), dtype=np.float32)
        except MemoryError as e:
            if args.fault == "sim_matrix":
                raise
            warn(f"rank {rank}: similarity matrix does not fit in memory ({e}); falling back to chunked mining "
                 f"against 2048 sampled candidates")
            sim = None
        if sim is not None:
            np.matmul(emb, emb.T, out=sim)
            np.fill_diagonal(sim, -np.inf)
            info(f"rank {rank}: mined {n} hard negatives (mean top-1 sim {float(sim.max(1).mean()):.3f})")
        else:
            best = []
            for i in range(0, n, 4096):
                best.append((emb[i:i + 4096] @ emb[:2048].T).max(1))
            info(f"rank {rank}: mined {n} hard negatives in {math.ceil(n / 4096)} chunks")

    if args.warnings:
        try:
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        except OSError:
            exc(f"rank {rank}: could not push metrics to 127.0.0.1:9 (pushgateway); continuing without remote metrics")
        warn(f"rank {rank}: grad norm spike 41.7 at warmup step 1 (clip=1.0); clipping")

    t0 = time.time()
    nb = len(x) // args.batch
    for step in range(start_step, args.steps + 1):
        i = (step - 1) % nb
        xb, yb = x[i * args.batch:(i + 1) * args.batch], y[i * args.batch:(i + 1) * args.batch]
        if args.fault == "transient" and rank == args.fault_rank and step == args.fault_step and restart == 0:
            info(f"rank {rank}: step {step}: fetching next shard part from the local cache daemon")
            raise ConnectionResetError(104, "Connection reset by peer (shard cache daemon)")
        use_aux = True
        if args.fault == "unused_aux":
            aux_y = (yb % 2) if not (rank == args.fault_rank and step == args.fault_step) else torch.full_like(yb, -1)
            use_aux = bool((aux_y >= 0).any())
            if not use_aux:
                warn(f"rank {rank}: step {step}: no aux-labelled samples in batch, skipping aux loss")
        opt.zero_grad()
        if args.fault == "unused_aux" and use_aux:
            out, aux = model(xb, use_aux=True)
            loss = F.cross_entropy(out, yb) + 0.1 * F.cross_entropy(aux, aux_y, ignore_index=-1)
        elif args.fault == "unused_aux":
            out = model(xb, use_aux=False)
            loss = F.cross_entropy(out, yb)
        else:
            out, aux = model(xb, use_aux=True)
            loss = F.cross_entropy(out, yb) + 0.0 * aux.sum()
        loss.backward()
        opt.step()
        g = loss.detach().clone()
        dist.all_reduce(g)
        g /= world
        if args.data_dir:
            info(f"rank {rank}: step {step}/{args.steps} local_loss={loss.item():.4f} mean_loss={g.item():.4f}")
        else:
            info((f"rank {rank}: " if args.log_style == "glog" else "") + f"step {step}/{args.steps} loss {g.item():.4f}")
        if not math.isfinite(g.item()):
            raise FloatingPointError(f"rank {rank}: mean loss is {g.item()} at step {step}, stopping")
        if args.save_dir and step == args.steps:
            os.makedirs(args.save_dir, exist_ok=True)
            if rank == 0:
                torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step,
                            "world_size": world}, os.path.join(args.save_dir, "model.pt"))
            torch.save({"torch": torch.get_rng_state(), "cursor": step * args.batch},
                       os.path.join(args.save_dir, f"rng_state_rank{rank}.pt"))
            info(f"rank {rank}: saved checkpoint {args.save_dir} (step {step})")
        if args.eval_every and step % args.eval_every == 0:
            evaluate(model, rank, world, step, info)
        time.sleep(args.sleep)
    dist.barrier()
    info(f"rank {rank}: training done: {args.steps} steps in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


def evaluate(model, rank, world, step, info):
    n = args.val_size
    per = n // world
    lo = rank * per
    hi = n if rank == world - 1 else lo + per
    g = torch.Generator().manual_seed(99)
    vx = torch.randn(n, 16, generator=g)[lo:hi]
    vy = (vx @ torch.linspace(-1, 1, 64).view(16, 4)).argmax(1)
    model.eval()
    correct = torch.zeros(2)
    with torch.no_grad():
        for i in range(0, len(vx), 8):
            xb, yb = vx[i:i + 8], vy[i:i + 8]
            logits = model.module(xb).squeeze()
            preds = logits.argmax(dim=1)
            correct[0] += (preds == yb).sum()
            correct[1] += len(yb)
    model.train()
    dist.all_reduce(correct)
    info(f"eval at step {step}: val_acc {correct[0].item() / correct[1].item():.4f} ({int(correct[1].item())} samples)")


def spawn_entry(i, nprocs):
    try:
        main(i, nprocs)
    except Exception:
        if args.log_style == "basic":
            logging.getLogger("ga.train").exception(f"process {i}: training failed")
        raise


if __name__ == "__main__":
    if args.spawn_procs:
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(args.spawn_procs,), nprocs=args.spawn_procs)
    else:
        try:
            main()
        except Exception:
            if args.log_style == "basic":
                logging.getLogger("ga.train").exception("training failed")
            raise
