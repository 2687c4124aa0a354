"""qc_train.py: small DDP (gloo) MLP trainer on synthetic per-rank data. Rank/world from env:// (RANK, WORLD_SIZE,
MASTER_ADDR, MASTER_PORT) or from --rank/--world. Logging layout and site conditions chosen by flags."""
import argparse, datetime, fcntl, json, logging, logging.handlers, os, sys, time
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--rank", type=int, default=None); p.add_argument("--world", type=int, default=None)
p.add_argument("--rows", default="2000", help="rows per rank: N or r0,r1,...")
p.add_argument("--classes", default="4", help="number of label classes per rank: N or c0,c1,...")
p.add_argument("--epochs", type=int, default=1); p.add_argument("--bs", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05); p.add_argument("--sleep", type=float, default=0.02)
p.add_argument("--pg-timeout", type=float, default=60)
p.add_argument("--log", "--qc-log", dest="log", default="stdout", help="stdout | rotating:<path with {rank}>:<maxBytes> | json")
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--class-counts", action="store_true", help="all_reduce per-class label counts at each epoch end")
p.add_argument("--label-offset", default="", help="r:k adds k to the labels of rank r (export bug)")
p.add_argument("--metrics-lock", default="", help="append metrics rows to a shared csv under flock")
p.add_argument("--ckpt", default=""); p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--eval-from-ckpt", type=int, default=-1, help="this rank evaluates the latest checkpoint")
p.add_argument("--warn", action="store_true")
p.add_argument("--nan-rows-rank", type=int, default=-1, help="this rank's shard has NaN features in some rows (fixed up with a warning per row)")
a, _ = p.parse_known_args()

RANK = a.rank if a.rank is not None else int(os.environ.get("RANK", 0))
WORLD = a.world if a.world is not None else int(os.environ.get("WORLD_SIZE", 1))
def per_rank(s, cast=int):
    v = s.split(","); return cast(v[RANK] if len(v) > 1 else v[0])

log = logging.getLogger("qc.train")
def setup_logging():
    root = logging.getLogger(); root.setLevel(logging.INFO)
    if a.log == "stdout":
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [rank {RANK}] %(name)s: %(message)s"))
    elif a.log == "json":
        class J(logging.Formatter):
            def format(self, r):
                d = {"t": round(r.created, 3), "lvl": r.levelname, "rank": RANK, "pid": os.getpid(), "logger": r.name,
                     "msg": r.getMessage()}
                if r.exc_info: d["exc"] = self.formatException(r.exc_info)
                return json.dumps(d)
        h = logging.StreamHandler(sys.stdout); h.setFormatter(J())
    elif a.log.startswith("rotating:"):
        _, path, mb = a.log.split(":")
        h = logging.handlers.RotatingFileHandler(path.format(rank=RANK), maxBytes=int(mb), backupCount=3)
        h.setFormatter(logging.Formatter("%(asctime)s.%(msecs)03d|%(process)d|r" + str(RANK) + "|%(levelname)s|%(name)s|%(message)s",
                                         "%H:%M:%S"))
    elif a.log.startswith("file:"):
        h = logging.FileHandler(a.log[5:].format(rank=RANK), mode="a")
        h.setFormatter(logging.Formatter("[%(asctime)s] [" + os.uname().nodename + ":" + str(RANK) + "] %(levelname)s - %(message)s"))
    elif a.log == "none":
        return
    root.addHandler(h)
    logging.captureWarnings(True)


def make_data():
    g = torch.Generator().manual_seed(1000 + RANK)
    n, c = per_rank(a.rows), per_rank(a.classes)
    X = torch.randn(n, 16, generator=g)
    Y = (X[:, :4].sum(1) * 10).long().abs() % c
    if a.label_offset:
        r, k = map(int, a.label_offset.split(":"))
        if r == RANK: Y = Y + k
    return X, Y


def main():
    setup_logging()
    log.info("start pid=%d host=%s world=%d torch=%s", os.getpid(), os.uname().nodename, WORLD, torch.__version__)
    if a.rank is not None:
        dist.init_process_group("gloo", rank=RANK, world_size=WORLD, timeout=datetime.timedelta(seconds=a.pg_timeout))
    else:
        dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (gloo, world %d, timeout %.0fs)", dist.get_world_size(), a.pg_timeout)
    X, Y = make_data()
    nb = len(X) // a.bs
    log.info("data: %d rows, %d batches per epoch, labels %s..%s", len(X), nb, Y.min().item(), Y.max().item())
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    if a.warn:
        import warnings
        warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
        log.warning("gloo backend on CPU: expect slow all_reduce; NCCL not available")
    step = 0
    for ep in range(a.epochs):
        t0 = time.time()
        for b in range(nb):
            xb, yb = X[b * a.bs:(b + 1) * a.bs], Y[b * a.bs:(b + 1) * a.bs]
            if RANK == a.nan_rows_rank:
                for i in range(0, a.bs, 5):
                    sys.stderr.write(f"qc_train.py: WARNING: rank {RANK} epoch {ep} batch {b} row {b * a.bs + i}: "
                                     f"feature vector has NaN in columns [3, 7, 11]; replaced with column means\n")
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step(); step += 1
            if step % a.log_every == 0:
                lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
                log.info("epoch %d step %d batch %d/%d loss %.4f global %.4f", ep, step, b + 1, nb, loss.item(), lt.item())
                if a.metrics_lock:
                    with open(a.metrics_lock.format(rank=RANK), "a") as f:
                        fcntl.flock(f, fcntl.LOCK_EX)
                        f.write(f"{RANK},{step},{loss.item():.5f}\n"); fcntl.flock(f, fcntl.LOCK_UN)
            if a.ckpt and a.ckpt_every and step % a.ckpt_every == 0:
                if RANK == 0:
                    big = {"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step,
                           "ema": [torch.randn(512, 512) for _ in range(40)]}
                    torch.save(big, a.ckpt)
                    log.info("checkpoint step %d written to %s", step, a.ckpt)
                if RANK == a.eval_from_ckpt:
                    while not os.path.exists(a.ckpt): time.sleep(0.001)
                    log.info("eval worker: loading %s for step-%d evaluation", a.ckpt, step)
                    st = torch.load(a.ckpt, weights_only=False)
                    log.info("eval worker: checkpoint at step %d", st["step"])
            time.sleep(a.sleep)
        log.info("epoch %d finished: %d batches in %.1fs", ep, nb, time.time() - t0)
        if a.class_counts:
            counts = torch.bincount(Y).float()
            log.info("class counts (local) %s", counts.tolist())
            dist.all_reduce(counts)
            log.info("class counts (global) %s", counts.tolist())
    acc = (model(X).argmax(1) == Y).float().mean(); dist.all_reduce(acc); acc /= WORLD
    log.info("done: %d steps, train acc %.4f", step, acc.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
