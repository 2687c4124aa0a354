"""Two-node DDP worker (torchrun static rendezvous) logging only to a per-rank TimedRotatingFileHandler file in the
node's log dir (logs/<host>/rank<R>.log, rotated every 20 s, backups suffixed with the rotation time); warnings and
tracebacks go to the node agent's stderr. Every --eval-every steps each rank evaluates its held-out slice (8192 samples) and the
metrics are all_reduced."""
import argparse, logging, logging.handlers, os, socket, statistics, time
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=300)
ap.add_argument("--eval-every", type=int, default=100)
ap.add_argument("--pg-timeout", type=float, default=20)
args = ap.parse_args()
RANK, LOCAL = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
HOST = socket.gethostname()
os.makedirs(f"logs/{HOST}", exist_ok=True)
h = logging.handlers.TimedRotatingFileHandler(f"logs/{HOST}/rank{RANK}.log", when="S", interval=20, backupCount=50)
h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)-7s [{HOST}:{RANK}/{LOCAL}] %(message)s"))
log = logging.getLogger("train")
log.addHandler(h)
log.setLevel(logging.INFO)


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=args.pg_timeout))
    log.info("joined: world %d, pid %d, pg timeout %.0fs", dist.get_world_size(), os.getpid(), args.pg_timeout)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    g = torch.Generator().manual_seed(RANK)
    xe, ye = torch.randn(8192, 256, generator=g), torch.randint(0, 10, (8192,), generator=g)
    fwd_hist = []
    for step in range(1, args.steps + 1):
        t0 = time.perf_counter()
        x, y = torch.randn(128, 256, generator=g), torch.randint(0, 10, (128,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        t1 = time.perf_counter()
        opt.zero_grad()
        loss.backward()
        opt.step()
        t2 = time.perf_counter()
        fwd_hist.append((t1 - t0) * 1000)
        if step % 10 == 0:
            log.info("step %d loss %.4f fwd %.1f ms (median %.1f) step %.1f ms", step, loss.item(), fwd_hist[-1],
                     statistics.median(fwd_hist), (t2 - t0) * 1000)
        if step % args.eval_every == 0:
            te = time.perf_counter()
            with torch.no_grad():
                acc = torch.zeros(2)
                for i in range(0, 8192, 256):
                    acc += torch.tensor([(model(xe[i:i + 256]).argmax(1) == ye[i:i + 256]).sum().item(), 256.0])
            log.info("eval step %d: local pass %.1f s", step, time.perf_counter() - te)
            dist.all_reduce(acc)
            log.info("eval step %d: acc %.4f over %d samples", step, (acc[0] / acc[1]).item(), int(acc[1]))
        time.sleep(0.04)
    dist.barrier()
    log.info("finished %d steps", args.steps)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
