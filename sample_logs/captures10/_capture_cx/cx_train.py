"""Tiny gloo DDP trainer for captures10 (torchrun / accelerate env, or --spawn N).

Logging styles (--log-style):
  kv      Python logging '%(asctime)s rank=%(rank)s lvl=%(levelname)s %(name)s: %(message)s', to --log-file
          (per rank, '{rank}' expanded) and, with --also-stderr, to stderr
  json    one JSON object per line on stderr: {"@timestamp", "severity", "rank", "logger", "event", ...}
  bracket '[%(asctime)s][rank R/W][%(levelname)s] %(message)s' on stdout
  print   print() of progress to stdout, warnings/errors via logging (plain '%(levelname)s:%(name)s:%(message)s') to stderr
Faults (--fault, on --fault-rank at --fault-step): val_recursion, short_shard, nan, bcast_size, ckpt_save,
--resume (all ranks load it), sigterm_handler (all ranks: log the signal and exit 143),
transient (attempt 0 only: TimeoutError fetching a shard).
--attempt-store: process group over PrefixStore('attempt-<restart>') on the agent's store (restarts)."""
import argparse, json, logging, os, signal, sys, time
from datetime import datetime, timedelta, timezone

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.3)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--log-style", default="print")
p.add_argument("--log-file", default="")
p.add_argument("--also-stderr", action="store_true")
p.add_argument("--val-every", type=int, default=0)
p.add_argument("--fault", default="")
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--resume", default="")
p.add_argument("--warnings", action="store_true")
p.add_argument("--attempt-store", action="store_true")
a = p.parse_args()


class RankFilter(logging.Filter):
    def __init__(self, rank, world):
        super().__init__(); self.rank, self.world = rank, world

    def filter(self, rec):
        rec.rank, rec.world = self.rank, self.world
        return True


class JsonFmt(logging.Formatter):
    def format(self, rec):
        d = {"@timestamp": datetime.fromtimestamp(rec.created, timezone.utc).isoformat(timespec="milliseconds"),
             "severity": rec.levelname.lower(), "rank": rec.rank, "logger": rec.name, "event": rec.getMessage()}
        if rec.exc_info:
            d["exception"] = self.formatException(rec.exc_info)
        return json.dumps(d)


def setup_logging(rank, world):
    root = logging.getLogger()
    root.handlers.clear()
    root.setLevel(logging.INFO)
    hs = []
    if a.log_style == "kv":
        fmt = logging.Formatter("%(asctime)s rank=%(rank)s lvl=%(levelname)s %(name)s: %(message)s")
        if a.log_file:
            os.makedirs(os.path.dirname(a.log_file) or ".", exist_ok=True)
            hs.append(logging.FileHandler(a.log_file.format(rank=rank)))
        if a.also_stderr or not a.log_file:
            hs.append(logging.StreamHandler(sys.stderr))
    elif a.log_style == "json":
        fmt = JsonFmt()
        hs.append(logging.StreamHandler(sys.stderr))
    elif a.log_style == "bracket":
        fmt = logging.Formatter(f"[%(asctime)s][rank %(rank)s/%(world)s][%(levelname)s] %(message)s")
        hs.append(logging.StreamHandler(sys.stdout))
    else:
        fmt = logging.Formatter("%(levelname)s:%(name)s:%(message)s")
        hs.append(logging.StreamHandler(sys.stderr))
    for h in hs:
        h.setFormatter(fmt); h.addFilter(RankFilter(rank, world)); root.addHandler(h)
    return logging.getLogger("cx.train")


def info(log, msg, *args):
    if a.log_style == "print":
        print(msg % args, flush=True)
    else:
        log.info(msg, *args)


def flatten_metrics(m, prefix=""):
    out = {}
    for k, v in m.items():
        if isinstance(v, dict):
            out.update(flatten_metrics(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def shard_batches(rank, world, steps):
    n = steps
    if a.fault == "short_shard" and rank == a.fault_rank:
        n = a.fault_step  # this rank's shard file holds fewer samples
    return n


def run(rank, world):
    log = setup_logging(rank, world)
    attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    if a.fault == "sigterm_handler":
        def on_term(sig, frame):
            log.warning("caught signal %d (SIGTERM), writing emergency state and exiting", sig)
            logging.shutdown()
            os._exit(143)
        signal.signal(signal.SIGTERM, on_term)
    to = timedelta(seconds=a.pg_timeout)
    if a.attempt_store:  # restarted attempts: fresh keys on the agent's store
        base = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), is_master=False, timeout=to)
        dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt-{attempt}", base), rank=rank,
                                world_size=world, timeout=to)
    else:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=to)
    info(log, "starting: rank %d/%d pid=%d attempt=%d", rank, world, os.getpid(), attempt)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    start = 1
    if a.resume:
        info(log, "resuming from %s", a.resume)
        sd = torch.load(a.resume, map_location="cpu")
        model.load_state_dict(sd["model"]); start = sd["step"] + 1
        info(log, "resumed at step %d", start)
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    if a.fault == "bcast_size":
        # class-count table: rank 0 holds the current vocab, others allocate from their cached config
        nv = 12 if rank != a.fault_rank else 8
        buf = torch.arange(nv, dtype=torch.float32) if rank == 0 else torch.zeros(nv)
        info(log, "syncing class table from rank 0 (local size %d)", nv)
        dist.broadcast(buf, src=0)
    if a.warnings:
        log.warning("gradient clipping disabled: max_grad_norm=None; loss spikes will not be clipped")
        log.warning("found 3 stale lock files under cache/, ignoring")
    nb = shard_batches(rank, world, a.steps)
    info(log, "shard rank%d: %d batches", rank, nb)
    for step in range(start, nb + 1):
        if a.fault == "transient" and rank == a.fault_rank and step == a.fault_step and attempt == 0:
            raise TimeoutError(f"fetching shard part-{rank:05d}.bin from object store: read timed out after 5.0 s")
        g = torch.Generator().manual_seed(100 * rank + step)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        if a.fault == "nan" and rank == a.fault_rank and step == a.fault_step:
            x[3, 5] = float("inf")
        loss = F.cross_entropy(ddp(x), y)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"rank {rank}: non-finite loss {loss.item()} at step {step}")
        opt.zero_grad(); loss.backward(); opt.step()
        t = loss.detach().clone(); dist.all_reduce(t)
        info(log, "step %d/%d loss %.4f mean %.4f", step, a.steps, loss.item(), t.item() / world)
        if a.val_every and step % a.val_every == 0:
            with torch.no_grad():
                vx = torch.randn(8, 16, generator=g)
                vl = F.cross_entropy(model(vx), torch.zeros(8, dtype=torch.long))
                metrics = {"val": {"loss": vl.item(), "n": 8}}
                if a.fault == "val_recursion" and rank == a.fault_rank and step >= a.fault_step:
                    metrics["val"]["parent"] = metrics  # per-class breakdown references its parent dict
                flat = flatten_metrics(metrics)
                v = torch.tensor([flat["val.loss"]]); dist.all_reduce(v)
                info(log, "validation at step %d: val_loss %.4f", step, v.item() / world)
        if a.ckpt_every and step % a.ckpt_every == 0 and rank == 0:
            path = os.path.join(a.ckpt_dir, f"step_{step:04d}.pt")
            torch.save({"model": model.state_dict(), "step": step}, path)
            info(log, "saved checkpoint %s", path)
        if a.ckpt_every and step % a.ckpt_every == 0:
            dist.barrier()
        time.sleep(a.sleep)
    if a.fault == "short_shard" and rank == a.fault_rank:
        info(log, "epoch 0 done after %d batches, waiting for peers", nb)
    dist.barrier()
    info(log, "training done")
    dist.destroy_process_group()


def spawn_main(lr, world):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29931")
    run(lr, world)


if __name__ == "__main__":
    if a.spawn:
        import torch.multiprocessing as mp
        mp.spawn(spawn_main, args=(a.spawn,), nprocs=a.spawn)
    else:
        r, w = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        if a.log_style == "kv":
            try:
                run(r, w)
            except Exception:
                logging.getLogger("cx.train").exception("rank %d failed", r)
                raise
        else:
            run(r, w)
