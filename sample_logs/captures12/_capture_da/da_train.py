"""Tiny gloo trainer for captures12 (da-*): `run(args, rank, world)` is shared by every launcher wrapper.

Rank/world: from RANK/WORLD_SIZE (torchrun, torchx dist.ddp, xargs loop), or given by the caller (submitit,
torch.multiprocessing.start_processes). MASTER_ADDR/PORT from env.
Logging (--log-style):
  std    '%(asctime)s %(levelname)s [rank R] %(name)s: %(message)s' on stderr
  json   one JSON object per record ({"ts", "level", "logger", "rank", "pid", "msg"[, "exc"]}) via a logging
         Formatter subclass, to --log-file ('{rank}' expanded) or stderr
  plain  bare '%(levelname)s %(message)s' on stdout (the launcher's wrapper stamps the lines)
Faults (--fault on --fault-rank at --fault-step):
  bad_label   the fault rank's batch at the fault step carries label 7 (4 classes) -> cross_entropy IndexError
  busy_lock   the fault rank spins on a lock file nobody releases (busy loop, no sleep) -> peers time out
  eval_rank0  rank 0 runs a validation pass with a metric all_reduce the others never join
  temp_anneal every rank anneals a softmax temperature 0.5x per step (log of an underflowed prob -> nan)
  cfg_pickle  rank 0 broadcasts its TrainConfig object (broadcast_object_list); other ranks unpickle it with
              their own copy of the dacfg module (a stale copy lacks AugmentConfig)
  leak        the fault rank keeps every decoded batch (40 MB each) in a 'replay cache'
  shm         DataLoader num_workers=2 with large samples (the capture shrinks /dev/shm on one node)
  data_root   every rank reads its shard list from $DA_DATA_ROOT/manifest.txt
--ckpt-every N: rank 0 saves {step, model, opt} to --ckpt-dir/step_NNNNN.pt every N steps, then a barrier.
--hidden: hidden width (default 32).
--warnings: harmless alarming lines (UserWarning, WARNING, caught + retried exception logged at ERROR).
"""
import argparse, json, logging, os, sys, time, traceback, warnings
from datetime import datetime, timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def parse(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--sleep", type=float, default=0.3)
    p.add_argument("--pg-timeout", type=int, default=30)
    p.add_argument("--log-style", default="std")
    p.add_argument("--log-file", default="")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--fault", default="")
    p.add_argument("--fault-rank", type=int, default=-1)
    p.add_argument("--fault-step", type=int, default=-1)
    p.add_argument("--warnings", action="store_true")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--manual-sync", action="store_true")
    p.add_argument("--ckpt-every", type=int, default=0)
    p.add_argument("--ckpt-dir", default="ckpt")
    p.add_argument("--hidden", type=int, default=32)
    return p.parse_args(argv)


class JsonFormatter(logging.Formatter):
    def format(self, rec):
        d = {"ts": datetime.fromtimestamp(rec.created).isoformat(timespec="milliseconds"), "level": rec.levelname,
             "logger": rec.name, "rank": rec.rank, "pid": rec.process, "msg": rec.getMessage()}
        if rec.exc_info:
            d["exc"] = self.formatException(rec.exc_info)
        return json.dumps(d)


def setup_log(a, rank):
    root = logging.getLogger()
    root.handlers.clear(); root.setLevel(logging.INFO)
    if a.log_style == "json":
        fmt = JsonFormatter()
    elif a.log_style == "plain":
        fmt = logging.Formatter("%(levelname)s %(message)s")
    else:
        fmt = logging.Formatter("%(asctime)s %(levelname)s [rank %(rank)s] %(name)s: %(message)s")
    if a.log_file:
        os.makedirs(os.path.dirname(a.log_file) or ".", exist_ok=True)
        h = logging.FileHandler(a.log_file.format(rank=rank))
    else:
        h = logging.StreamHandler(sys.stdout if a.log_style == "plain" else sys.stderr)
    old = logging.getLogRecordFactory()

    def factory(*args, **kw):
        r = old(*args, **kw); r.rank = rank
        return r
    logging.setLogRecordFactory(factory)
    h.setFormatter(fmt); root.addHandler(h)
    return logging.getLogger("da.train")


def batch(rank, step, n=8):
    g = torch.Generator().manual_seed(1000 * rank + step)
    return torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g)


class Big(torch.utils.data.Dataset):
    def __init__(self, rank, n):
        self.rank, self.n = rank, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        return torch.randn(64, 64, 64, generator=g), int(torch.randint(0, 4, (1,), generator=g))


def rss_mb():
    with open("/proc/self/status") as f:
        for ln in f:
            if ln.startswith("VmRSS:"):
                return int(ln.split()[1]) // 1024
    return -1


def run(a, rank, world):
    log = setup_log(a, rank)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=a.pg_timeout))
    log.info("process group ready: rank %d/%d pid=%d host=%s", rank, world, os.getpid(), os.uname().nodename)
    torch.manual_seed(0)
    if a.fault == "cfg_pickle":
        import dacfg
        obj = [dacfg.TrainConfig() if rank == 0 else None]
        log.info("dacfg %s from %s", dacfg.__version__, dacfg.__file__)
        dist.broadcast_object_list(obj, src=0)
        log.info("config: %s", obj[0])
    files = None
    if a.fault == "data_root":
        root = os.environ.get("DA_DATA_ROOT", "data")
        log.info("data root %s", root)
        with open(os.path.join(root, "manifest.txt")) as f:
            files = [ln.strip() for ln in f if ln.strip()]
        log.info("manifest: %d shards", len(files))
    model = nn.Sequential(nn.Linear(16, a.hidden), nn.ReLU(), nn.Linear(a.hidden, 4))
    if a.fault == "shm":
        model = nn.Sequential(nn.Flatten(), nn.Linear(64 ** 3, 4))
    ddp = model if a.manual_sync else nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)
    log.info("model %d params, SGD lr=%g, %d steps", sum(p.numel() for p in model.parameters()), a.lr, a.steps)
    if a.warnings:
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", UserWarning)
        log.warning("dataset has 3 duplicate sample ids; they will be sampled twice")
        try:
            raise TimeoutError("timed out reading from http://127.0.0.1:9/metrics (read timeout=2.0)")
        except TimeoutError:
            log.exception("metrics push failed (attempt 1/3), will retry")
        log.info("metrics push ok on attempt 2")
    loader = None
    if a.fault == "shm":
        loader = iter(torch.utils.data.DataLoader(Big(rank, 4 * a.steps), batch_size=4, num_workers=a.workers))
        log.info("dataloader: batch 4 of 64x64x64 float32, num_workers=%d", a.workers)
    cache = []
    temp = 1.0
    for step in range(1, a.steps + 1):
        if loader is not None:
            x, y = next(loader)
        else:
            x, y = batch(rank, step)
        if a.fault == "bad_label" and rank == a.fault_rank and step == a.fault_step:
            y = y.clone(); y[3] = 7
        if a.fault == "busy_lock" and rank == a.fault_rank and step == a.fault_step:
            lock = "cache/shard-00001.lock"
            log.info("step %d: refreshing feature cache, waiting for %s", step, lock)
            while os.path.exists(lock):
                pass
        if a.fault == "leak" and rank == a.fault_rank:
            cache.append(torch.randn(10_000_000))
            if step == 1:
                log.info("replay cache enabled: keeping decoded batches in memory")
        logits = ddp(x)
        if a.fault == "temp_anneal":
            temp = 0.5 ** step
            p = torch.softmax(logits / temp, dim=-1)
            loss = -torch.log(p.gather(1, y[:, None])).mean()
        else:
            loss = F.cross_entropy(logits, y)
        opt.zero_grad(); loss.backward()
        if a.manual_sync:
            flat = torch.cat([q.grad.flatten() for q in model.parameters()])
            dist.all_reduce(flat); flat /= world
            o = 0
            for q in model.parameters():
                q.grad.copy_(flat[o:o + q.numel()].view_as(q)); o += q.numel()
        opt.step()
        t = loss.detach().clone(); dist.all_reduce(t)
        mean = t.item() / world
        extra = f" temp {temp:.2e}" if a.fault == "temp_anneal" else ""
        extra += f" rss {rss_mb()} MB" if a.fault == "leak" else ""
        log.info("step %d/%d loss %.4f mean %.4f%s", step, a.steps, loss.item(), mean, extra)
        if not torch.isfinite(t):
            raise FloatingPointError(f"mean loss is {mean} at step {step}")
        if a.fault == "eval_rank0" and rank == 0 and step == a.fault_step:
            log.info("step %d: running validation on rank 0", step)
            with torch.no_grad():
                xv, yv = batch(99, step, 32)
                acc = (model(xv).argmax(-1) == yv).float().sum()
            m = torch.stack([acc, torch.tensor(32.0)])
            dist.all_reduce(m)
            log.info("val acc %.3f", (m[0] / m[1]).item())
        if a.ckpt_every and step % a.ckpt_every == 0:
            if rank == 0:
                path = os.path.join(a.ckpt_dir, f"step_{step:05d}.pt")
                log.info("saving checkpoint %s", path)
                torch.save({"step": step, "model": model.state_dict(), "opt": opt.state_dict()}, path)
                log.info("saved %s (%.1f MB)", path, os.path.getsize(path) / 1e6)
            dist.barrier()
        time.sleep(a.sleep)
    dist.barrier()
    log.info("training done: %d steps, final mean loss %.4f", a.steps, mean)
    dist.destroy_process_group()


if __name__ == "__main__":
    a = parse()
    run(a, int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
