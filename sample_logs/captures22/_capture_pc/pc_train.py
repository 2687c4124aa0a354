"""pc_train.py: DDP (gloo) MLP classifier over JSONL shards; logging through logging.config.dictConfig with a
rank filter. Faults are site conditions given by flags (see the capture scripts)."""
import argparse, json, logging, logging.config, os, sys, threading, time, datetime
import torch, torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--steps", type=int, default=200)
p.add_argument("--bs", type=int, default=32)
p.add_argument("--pg-timeout", type=float, default=60)
p.add_argument("--fmt", default="plain")
p.add_argument("--logfile", default="")
p.add_argument("--prefetch", action="store_true")
p.add_argument("--cache-features", action="store_true")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--sleep", type=float, default=0.05)
p.add_argument("--faulthandler", action="store_true")
a = p.parse_args()

RANK = int(os.environ.get("RANK", 0)); WORLD = int(os.environ.get("WORLD_SIZE", 1))
LOCAL = int(os.environ.get("LOCAL_RANK", 0))


class RankFilter(logging.Filter):
    def filter(self, rec):
        rec.rank = RANK; rec.world = WORLD
        rec.host = os.uname().nodename
        return True


FMTS = {"plain": "%(asctime)s [rank%(rank)d/%(world)d] %(levelname)s %(name)s: %(message)s",
        "host": "%(asctime)s %(host)s r%(rank)d %(levelname).1s %(name)s | %(message)s",
        "json": '{"ts": "%(asctime)s", "rank": %(rank)d, "level": "%(levelname)s", "logger": "%(name)s", "msg": "%(message)s"}'}
handlers = {"console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "f",
                        "filters": ["rank"]}}
if a.logfile:
    handlers["file"] = {"class": "logging.FileHandler", "filename": a.logfile.format(rank=RANK), "formatter": "f",
                        "filters": ["rank"], "mode": "a"}
logging.config.dictConfig({
    "version": 1, "disable_existing_loggers": False,
    "filters": {"rank": {"()": RankFilter}},
    "formatters": {"f": {"format": FMTS[a.fmt]}},
    "handlers": handlers,
    "root": {"level": "INFO", "handlers": list(handlers)},
})
log = logging.getLogger("train")
data_log = logging.getLogger("train.data")


def load_shard(path):
    xs, ys = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            rec = json.loads(line)
            xs.append(rec["x"]); ys.append(rec["y"])
    return torch.tensor(xs), torch.tensor(ys)


class Prefetcher:
    """background thread that keeps the next batches ready; shares the stats lock with the main loop"""
    def __init__(self, X, Y, bs):
        self.X, self.Y, self.bs = X, Y, bs
        self.q_lock = threading.Lock(); self.stats_lock = threading.Lock()
        self.buf = []; self.i = 0; self.served = 0; self.stop = False
        self.t = threading.Thread(target=self.run, name="prefetch", daemon=True); self.t.start()

    def run(self):
        epoch = 0
        while not self.stop:
            with self.q_lock:
                if len(self.buf) < 4:
                    j = (self.i * self.bs) % (len(self.X) - self.bs)
                    xb, yb = self.X[j:j + self.bs], self.Y[j:j + self.bs]
                    time.sleep(0.002)  # augment / pin (kept under the queue lock)
                    self.buf.append((xb, yb)); self.i += 1
                    if j < self.bs and self.i > 1:
                        epoch += 1
                        with self.stats_lock:   # epoch boundary of the local shard: record stats
                            data_log.info("prefetch: shard pass %d done after %d batches (served %d)",
                                          epoch, self.i, self.served)
            time.sleep(0.001)

    def next(self):
        while True:
            with self.stats_lock:
                self.served += 1
                with self.q_lock:
                    if self.buf:
                        return self.buf.pop(0)
            time.sleep(0.001)


def main():
    if a.faulthandler:
        import faulthandler, signal
        faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    log.info("starting pid=%d host=%s local_rank=%d torch=%s", os.getpid(), os.uname().nodename, LOCAL, torch.__version__)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group ready: backend=gloo world_size=%d timeout=%ss", dist.get_world_size(), a.pg_timeout)
    path = os.path.join(a.data, f"shard-{RANK:05d}.jsonl")
    data_log.info("loading %s", path)
    X, Y = load_shard(path)
    data_log.info("loaded %d rows from %s", len(X), path)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    pf = Prefetcher(X, Y, a.bs) if a.prefetch else None
    start = 0
    if a.ckpt_dir:
        ck = os.path.join(a.ckpt_dir, "last.pt")
        if os.path.exists(ck):
            st = torch.load(ck)
            model.module.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start = st["step"] + 1
            log.info("resumed from %s at step %d", ck, start)
    cache = []
    t0 = time.time()
    for step in range(start, a.steps):
        if pf:
            xb, yb = pf.next()
        else:
            j = (step * a.bs) % (len(X) - a.bs); xb, yb = X[j:j + a.bs], Y[j:j + a.bs]
        loss = nn.functional.cross_entropy(model(xb), yb)
        if a.cache_features and loss.item() > 0.9:
            # hard batch: keep its augmented feature view for the replay pass at the end of the epoch
            cache.append(torch.randn(1024, 2048) + xb.mean())
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
            log.info("step %d loss %.4f (global %.4f) %.1f steps/s", step, loss.item(), lt.item(),
                     (step - start + 1) / (time.time() - t0))
        if a.ckpt_dir and a.ckpt_every and step > 0 and step % a.ckpt_every == 0:
            dist.barrier()
            if RANK == 0:
                os.makedirs(a.ckpt_dir, exist_ok=True)
                tmp = os.path.join(a.ckpt_dir, "last.pt.tmp")
                torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, tmp)
                os.replace(tmp, os.path.join(a.ckpt_dir, "last.pt"))
                log.info("saved checkpoint step %d to %s", step, a.ckpt_dir)
            dist.barrier()
        time.sleep(a.sleep)
    if pf:
        pf.stop = True
    acc = (model(X).argmax(1) == Y).float().mean()
    dist.all_reduce(acc); acc /= WORLD
    log.info("done: %d steps, final train acc %.4f", a.steps, acc.item())
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
