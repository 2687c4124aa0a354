"""ag_train.py: small data-parallel MLP trainer (gloo, CPU) for the round-Y ag captures.
Rank / world from env:// (torchrun), from mp.spawn (--spawn N) or from MPI (--mpi, mpi4py)."""
import argparse, logging, os, random, socket, sys, threading, time
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser(prog="ag_train.py")
p.add_argument("--epochs", type=int, default=2); p.add_argument("--steps", type=int, default=40)
p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sched", choices=["constant", "cosine", "step"], default="constant")
p.add_argument("--hidden", type=int, default=64); p.add_argument("--sleep", type=float, default=0.02)
p.add_argument("--pg-timeout", type=float, default=120); p.add_argument("--log-every", type=int, default=10)
p.add_argument("--style", choices=["logging", "print"], default="logging")
p.add_argument("--spawn", type=int, default=0); p.add_argument("--mpi", action="store_true")
p.add_argument("--port", type=int, default=29611)
p.add_argument("--comm-hook", action="store_true"); p.add_argument("--grad-stats-rank", type=int, default=-1)
p.add_argument("--bucket-cap-mb", type=float, default=0)
p.add_argument("--prefetch", action="store_true", help="background prefetch thread")
p.add_argument("--prefetch-bug-rank", type=int, default=-1); p.add_argument("--prefetch-bug-step", type=int, default=-1)
p.add_argument("--ckpt-every", type=int, default=0); p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--resume", action="store_true"); p.add_argument("--ckpt-per-rank", action="store_true")
p.add_argument("--shard-url-rank", type=int, default=-1); p.add_argument("--shard-url-step", type=int, default=-1)
p.add_argument("--feature-scale", default="", help="RANK:FACTOR: raw (unnormalised) features on that rank")
p.add_argument("--nan-guard", action="store_true")
p.add_argument("--hash-ext-rank", type=int, default=-1); p.add_argument("--hash-ext-step", type=int, default=-1)
p.add_argument("--warn", action="store_true")
p.add_argument("--final-eval", action="store_true")
a = p.parse_args()

log = logging.getLogger("ag.train")


def out(rank, msg, level=logging.INFO):
    if a.style == "print":
        print(f"[rank{rank}] {msg}", flush=True)
    else:
        log.log(level, msg)


class Prefetcher:
    """Background thread filling a small queue of batches (the loader reads ahead while the model trains)."""
    def __init__(self, gen, rank, depth=4):
        self.gen, self.rank, self.depth = gen, rank, depth
        self.cv = threading.Condition(); self.lock = threading.Lock(); self.q = []; self.i = 0
        threading.Thread(target=self._fill, daemon=True).start()

    def _fill(self):
        while True:
            with self.cv:
                while len(self.q) >= self.depth:
                    self.cv.wait()
                self.i += 1
                if self.rank == a.prefetch_bug_rank and self.i == a.prefetch_bug_step:
                    # refill path re-takes the stats lock it already holds (lock is not re-entrant)
                    self.lock.acquire(); self.lock.acquire()
                self.q.append(self.gen()); self.cv.notify_all()

    def next(self):
        t0 = time.time()
        while not self.cv.acquire(timeout=5.0):
            out(self.rank, f"WARNING data loader stalled: no batch for {time.time() - t0:.0f}s "
                           f"(prefetched={self.i}, queue depth {self.depth})")
        with self.cv:
            self.cv.release()
            while not self.q:
                self.cv.wait()
            b = self.q.pop(0); self.cv.notify_all(); return b

    def stats(self):
        with self.lock:
            return len(self.q)


def main(rank, world):
    import faulthandler; faulthandler.enable()
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, force=True,
                        format=f"%(asctime)s %(levelname)s [{socket.gethostname()}:{rank}] %(name)s: %(message)s")
    dist.init_process_group("gloo", rank=rank, world_size=world,
                            timeout=__import__("datetime").timedelta(seconds=a.pg_timeout))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 4))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    start_epoch = 0
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    if a.resume and os.path.exists(os.path.join(a.ckpt_dir, "last.pt")):
        st = torch.load(os.path.join(a.ckpt_dir, "last.pt"))
        model.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start_epoch = st["epoch"] + 1
        out(rank, f"resumed from {a.ckpt_dir}/last.pt (epoch {st['epoch']}), restart_count={restart}")
    ddp = DDP(model, bucket_cap_mb=a.bucket_cap_mb) if a.bucket_cap_mb else DDP(model)
    if a.comm_hook:
        import math
        pbytes = sum(q.numel() * q.element_size() for q in model.parameters())
        nb = math.ceil(pbytes / (25 * 2**20))
        state = {"hist": [[] for _ in range(nb)], "world": world}

        def allreduce_with_stats(state, bucket):
            t = bucket.buffer()
            if rank == a.grad_stats_rank:
                state["hist"][bucket.index()].append(t.norm().item())
            fut = dist.all_reduce(t.div_(state["world"]), async_op=True).get_future()
            return fut.then(lambda f: f.value()[0])
        ddp.register_comm_hook(state, allreduce_with_stats)
        out(rank, f"registered comm hook allreduce_with_stats ({nb} bucket(s), {pbytes} param bytes)")
    sched = {"constant": None, "cosine": torch.optim.lr_scheduler.CosineAnnealingLR(opt, a.epochs * a.steps),
             "step": torch.optim.lr_scheduler.StepLR(opt, a.steps, 0.5)}[a.sched]
    g = torch.Generator().manual_seed(1000 + rank)
    w_true = torch.randn(16, 4, generator=torch.Generator().manual_seed(7))
    scale = 1.0
    if a.feature_scale and int(a.feature_scale.split(":")[0]) == rank:
        scale = float(a.feature_scale.split(":")[1])

    def batch():
        x = torch.randn(a.bs, 16, generator=g)
        y = (x @ w_true).argmax(1)
        return x * scale, y
    pf = Prefetcher(batch, rank) if a.prefetch else None
    lossf = nn.CrossEntropyLoss()
    out(rank, f"start: world_size={world} epochs={a.epochs} steps/epoch={a.steps} bs={a.bs} lr={a.lr} "
              f"sched={a.sched} backend={dist.get_backend()}")
    if a.warn:
        import warnings
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
    t0 = time.time()
    for ep in range(start_epoch, a.epochs):
        tot = 0.0
        for step in range(a.steps):
            if rank == a.shard_url_rank and ep * a.steps + step == a.shard_url_step and restart == 0:
                raise ConnectionResetError(104, "Connection reset by peer",
                                           f"http://shards.internal:8080/train/part-{rank:05d}.tar")
            x, y = pf.next() if pf else batch()
            if rank == a.hash_ext_rank and ep * a.steps + step == a.hash_ext_step:
                import ctypes  # dedup hash of the raw batch through the native helper (stale buffer handle)
                ctypes.string_at(0xdead0000, x.numel() * 4)
            loss = lossf(ddp(x), y)
            if a.nan_guard and not torch.isfinite(loss):
                raise FloatingPointError(f"loss is {loss.item()} at epoch {ep} step {step} (rank {rank}); stopping")
            opt.zero_grad(); loss.backward(); opt.step()
            if sched: sched.step()
            tot += loss.item()
            if pf and step % a.log_every == 0:
                pf.stats()
            if step % a.log_every == 0:
                out(rank, f"epoch {ep} step {step}/{a.steps} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.4g}")
            time.sleep(a.sleep)
        m = torch.tensor([tot / a.steps]); dist.all_reduce(m); m /= world
        out(rank, f"epoch {ep} done: mean loss {m.item():.4f} ({time.time() - t0:.1f}s)")
        if a.ckpt_every and (ep + 1) % a.ckpt_every == 0 and a.ckpt_per_rank:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            path = os.path.join(a.ckpt_dir, f"ep{ep}_rank{rank}.pt")
            out(rank, f"writing checkpoint shard {path}")
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep, "rank": rank}, path)
        elif a.ckpt_every and (ep + 1) % a.ckpt_every == 0 and rank == 0:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep},
                       os.path.join(a.ckpt_dir, "last.pt"))
            out(rank, f"saved checkpoint {a.ckpt_dir}/last.pt")
        dist.barrier()
    if a.final_eval:
        x, y = batch(); acc = (ddp(x).argmax(1) == y).float().mean().reshape(1); dist.all_reduce(acc)
        out(rank, f"final eval: acc {acc.item() / world:.3f}")
    out(rank, "training finished")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    if a.spawn:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", str(a.port))
        mp.spawn(main, args=(a.spawn,), nprocs=a.spawn)
    elif a.mpi:
        from mpi4py import MPI
        c = MPI.COMM_WORLD
        os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = str(a.port)
        main(c.Get_rank(), c.Get_size())
    else:
        main(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
