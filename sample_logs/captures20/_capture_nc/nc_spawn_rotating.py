"""torch.multiprocessing.spawn launcher; each rank logs through a logging.handlers.RotatingFileHandler to
logs/rank<R>.log (maxBytes 2500, backupCount 3), console gets WARNING and above. Features come from per-rank
.npy shards (data/feat-<R>.npy); a loss guard raises on a non-finite loss."""
import os, sys, time, math, logging, logging.handlers
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

def setup_log(rank):
    os.makedirs("logs", exist_ok=True)
    lg = logging.getLogger("trainer"); lg.setLevel(logging.DEBUG)
    fh = logging.handlers.RotatingFileHandler(f"logs/rank{rank}.log", maxBytes=2500, backupCount=3)
    fh.setFormatter(logging.Formatter(f"%(asctime)s.%(msecs)03d rank={rank} %(levelname)-7s %(name)s: %(message)s",
                                      "%Y-%m-%d %H:%M:%S"))
    sh = logging.StreamHandler(); sh.setLevel(logging.WARNING)
    sh.setFormatter(logging.Formatter(f"[rank {rank}] %(levelname)s %(message)s"))
    lg.addHandler(fh); lg.addHandler(sh)
    return lg

def worker(rank, ws):
    log = setup_log(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29683")
    dist.init_process_group("gloo", rank=rank, world_size=ws)
    feats = np.load(f"data/feat-{rank}.npy")
    log.info("loaded data/feat-%d.npy shape=%s dtype=%s", rank, feats.shape, feats.dtype)
    x_all = torch.from_numpy(feats)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(24, 48), nn.Tanh(), nn.Linear(48, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    bs = 32
    for step in range(x_all.shape[0] // bs):
        x = x_all[step * bs:(step + 1) * bs]
        y = x[:, :4].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        gn = sum(p.grad.norm().item() ** 2 for p in model.parameters() if p.grad is not None) ** 0.5 if step else 0.0
        log.debug("step %d batch rows %d-%d loss %.5f prev grad_norm %.4f", step, step * bs, (step + 1) * bs - 1,
                  loss.item(), gn)
        if not math.isfinite(loss.item()):
            log.error("non-finite loss %s at step %d", loss.item(), step)
            raise FloatingPointError(f"rank {rank}: loss is {loss.item()} at step {step}")
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.08)
    log.info("finished %d steps", step + 1)
    dist.destroy_process_group()

if __name__ == "__main__":
    ws = int(sys.argv[1])
    print(f"spawning {ws} ranks", flush=True)
    mp.spawn(worker, args=(ws,), nprocs=ws, join=True)
    print("all ranks finished", flush=True)
