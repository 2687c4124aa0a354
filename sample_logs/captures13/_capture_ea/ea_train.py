"""Tiny gloo DDP trainer for captures13 (ea-*), started by torchrun, the legacy torch.distributed.launch, or a bash
loop (RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT from env).

Logging (--log-style):
  rot   '[%(asctime)s] %(levelname)s r<rank> %(module)s:%(lineno)d %(message)s' into --log-file ('{rank}' expanded)
        through a RotatingFileHandler (--rotate-bytes, --rotate-count); nothing on the console except what Python
        itself prints (uncaught tracebacks)
  iso   '<ISO time> rank<R>/<W> <LEVEL> <logger>: msg' on stdout (the bash-loop job pipes it through `tee -a`)
Data: a map-style Dataset of 16-float samples per rank through a DataLoader (batch 8).
Faults (--fault on --fault-rank at --fault-step):
  collate_empty  the fault rank's tokenised sample at the fault step's batch is empty (0 features): default_collate
                 cannot stack it
  sigfpe         the fault rank's batch at the fault step is all padding: the native token-length normaliser
                 (libtoknorm.so, built from toknorm.c) divides by a zero valid-token count
  double_free    the fault rank calls a 'native augment' helper (ctypes) that frees the same buffer twice
--data-dir DIR: every 4 steps each rank streams its next shard part DIR/rank<R>/part-<k>.bin (k = 0, 1, ...) and
                mixes its bytes into the batch features (the capture script builds DIR on a loop-mounted ext4 image)
--warnings: harmless alarming lines (UserWarning, WARNING, ERROR with a caught and retried exception).
--shutdown-report: at exit (also on error) each rank logs a per-phase timing table (many lines).
--local-rank / --local_rank is NOT accepted unless --accept-local-rank (the legacy launcher passes it).
"""
import argparse, ctypes, logging, logging.handlers, os, sys, time, warnings
from datetime import datetime, timedelta

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def parse():
    p = argparse.ArgumentParser(prog="ea_train.py")
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--sleep", type=float, default=0.3)
    p.add_argument("--pg-timeout", type=int, default=30)
    p.add_argument("--log-style", default="iso")
    p.add_argument("--log-file", default="")
    p.add_argument("--rotate-bytes", type=int, default=4096)
    p.add_argument("--rotate-count", type=int, default=3)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--fault", default="")
    p.add_argument("--fault-rank", type=int, default=-1)
    p.add_argument("--fault-step", type=int, default=-1)
    p.add_argument("--warnings", action="store_true")
    p.add_argument("--data-dir", default="")
    p.add_argument("--shutdown-report", action="store_true")
    p.add_argument("--accept-local-rank", action="store_true")
    a, rest = p.parse_known_args()
    if a.accept_local_rank:
        p.add_argument("--local-rank", "--local_rank", type=int, default=0)
    return p.parse_args()


class IsoFormatter(logging.Formatter):
    def formatTime(self, rec, datefmt=None):
        return datetime.fromtimestamp(rec.created).isoformat(timespec="milliseconds")


def setup_log(a, rank, world):
    root = logging.getLogger()
    root.handlers.clear(); root.setLevel(logging.DEBUG if a.log_style == "rot" else logging.INFO)
    old = logging.getLogRecordFactory()

    def factory(*args, **kw):
        r = old(*args, **kw); r.rank = rank; r.world = world
        return r
    logging.setLogRecordFactory(factory)
    if a.log_style == "rot":
        path = a.log_file.format(rank=rank)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        h = logging.handlers.RotatingFileHandler(path, maxBytes=a.rotate_bytes, backupCount=a.rotate_count)
        h.setFormatter(logging.Formatter("[%(asctime)s] %(levelname)s r%(rank)d %(module)s:%(lineno)d %(message)s"))
    else:
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(IsoFormatter("%(asctime)s rank%(rank)d/%(world)d %(levelname)s %(name)s: %(message)s"))
    root.addHandler(h)
    logging.captureWarnings(True)
    return logging.getLogger("ea.train")


class Shard(torch.utils.data.Dataset):
    """rank-local synthetic 'tokenised' samples: 16 features, label in 0..3."""

    def __init__(self, rank, n, empty_at=-1):
        self.rank, self.n, self.empty_at = rank, n, empty_at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        x = torch.randn(16, generator=g)
        if i == self.empty_at:
            x = x[:0]  # the record's text field was empty -> no features
        return x, int(torch.randint(0, 4, (1,), generator=g))


def native_augment(log, n):
    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    buf = libc.malloc(n * 64)
    log.info("native augment: jitter buffer %d bytes at 0x%x", n * 64, buf)
    libc.free(buf)
    libc.free(buf)  # released again by the 'error path' of the helper


def native_mean_len(lens, count):
    lib = ctypes.CDLL(os.path.abspath("libtoknorm.so"))
    arr = (ctypes.c_int * len(lens))(*lens)
    return lib.ea_mean_len(arr, len(lens), count)


def main():
    a = parse()
    if "OMPI_COMM_WORLD_RANK" in os.environ:  # Open MPI: map its variables to torch's env:// ones
        os.environ["RANK"] = os.environ["OMPI_COMM_WORLD_RANK"]
        os.environ["WORLD_SIZE"] = os.environ["OMPI_COMM_WORLD_SIZE"]
        os.environ["LOCAL_RANK"] = os.environ["OMPI_COMM_WORLD_LOCAL_RANK"]
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log = setup_log(a, rank, world)
    t0 = time.time()
    steptimes = []
    phases = {"init": 0.0, "data": 0.0, "fwd": 0.0, "bwd": 0.0, "allreduce": 0.0, "opt": 0.0}
    try:
        dist.init_process_group("gloo", timeout=timedelta(seconds=a.pg_timeout))
        phases["init"] = time.time() - t0
        log.info("process group ready: rank %d/%d local_rank %s pid=%d", rank, world,
                 os.environ.get("LOCAL_RANK"), os.getpid())
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        ddp = nn.parallel.DistributedDataParallel(model)
        opt = torch.optim.SGD(ddp.parameters(), lr=a.lr)
        log.info("model %d params, SGD lr=%g, %d steps", sum(p.numel() for p in model.parameters()), a.lr, a.steps)
        empty_at = 8 * (a.fault_step - 1) + 5 if a.fault == "collate_empty" and rank == a.fault_rank else -1
        ds = Shard(rank, 8 * a.steps, empty_at)
        loader = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=False)
        log.info("shard: %d samples, %d batches of 8", len(ds), len(loader))
        if a.warnings:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", UserWarning)
            log.warning("tokenizer has no pad token, using eos (id 2) for padding")
            try:
                raise ConnectionRefusedError(111, "Connection refused: http://127.0.0.1:8125/v1/metrics")
            except ConnectionRefusedError:
                log.exception("metrics exporter failed to connect (attempt 1/3), retrying in 1s")
            log.info("metrics exporter connected on attempt 2")
        it = iter(loader)
        for step in range(1, a.steps + 1):
            ts = time.time()
            t = time.time()
            log.debug("step %d: fetching batch", step)
            x, y = next(it)
            if a.data_dir and (step - 1) % 4 == 0:
                part = os.path.join(a.data_dir, f"rank{rank}", f"part-{(step - 1) // 4:03d}.bin")
                with open(part, "rb") as f:
                    raw = f.read()
                noise = torch.frombuffer(bytearray(raw[:4 * x.numel()]), dtype=torch.uint8)[:x.numel()]
                log.info("step %d: streaming %s (%d bytes)", step, part, len(raw))
            if a.data_dir:
                x = x + 1e-3 * noise.float().view_as(x)
            phases["data"] += time.time() - t
            if a.fault == "double_free" and rank == a.fault_rank and step == a.fault_step:
                log.info("step %d: applying native feature jitter (libaugment fallback)", step)
                native_augment(log, 8)
            if a.fault == "sigfpe":
                valid = [16] * len(x)
                if rank == a.fault_rank and step == a.fault_step:
                    valid = [0] * len(x)
                    log.warning("step %d: batch has 0 valid tokens (all padding)", step)
                log.debug("step %d: mean valid length %d", step, native_mean_len(valid, sum(v > 0 for v in valid)))
            t = time.time()
            loss = F.cross_entropy(ddp(x), y)
            phases["fwd"] += time.time() - t
            t = time.time()
            opt.zero_grad(); loss.backward()
            phases["bwd"] += time.time() - t
            t = time.time()
            opt.step()
            phases["opt"] += time.time() - t
            t = time.time()
            m = loss.detach().clone(); dist.all_reduce(m)
            phases["allreduce"] += time.time() - t
            log.info("step %d/%d loss %.4f mean %.4f", step, a.steps, loss.item(), m.item() / world)
            log.debug("step %d: batch %s, grad norm %.4f", step, tuple(x.shape),
                      float(sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5))
            steptimes.append((step, 1000 * (time.time() - ts)))
            time.sleep(a.sleep)
        dist.barrier()
        log.info("training done: %d steps in %.1fs", a.steps, time.time() - t0)
    except Exception:
        log.exception("training failed on rank %d", rank)
        raise
    finally:
        if a.shutdown_report:
            log.info("shutdown: per-phase timing report (rank %d)", rank)
            for k, v in phases.items():
                for stat in ("total_s", "mean_ms", "share"):
                    val = v if stat == "total_s" else (1000 * v / max(a.steps, 1) if stat == "mean_ms" else
                                                       v / max(time.time() - t0, 1e-9))
                    log.info("shutdown: phase %-9s %-8s %10.4f", k, stat, val)
            for st, ms in steptimes:
                log.info("shutdown: step %3d compute_ms %9.3f (excl. sleep)", st, ms)
            log.info("shutdown: report complete")
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
