#!/usr/bin/env python3
"""mc_resume_worker.py: worker entrypoint for mc_elastic_api.py (torch.distributed.launcher.api.elastic_launch with a
Python-function entrypoint). Resumes from a per-rank training state written by the previous job: resume/model.pt
(shared weights, read by every rank) and resume/rank-<R>.pt (that rank's optimizer state, RNG state and data cursor).
Logging on stdout: `%(asctime)s [%(levelname)s] worker[rank R]: %(message)s`."""
import datetime, logging, os, sys, time
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP


def net():
    return nn.Sequential(nn.Linear(48, 160), nn.GELU(), nn.Linear(160, 12))


@record
def main(resume_dir, steps):
    rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format=f"%(asctime)s [%(levelname)s] worker[rank {rank}]: %(message)s")
    log = logging.getLogger("worker")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=40))
    log.info("process group ready (world %d, pid %d)", world, os.getpid())
    model = net()
    model.load_state_dict(torch.load(os.path.join(resume_dir, "model.pt")))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    path = os.path.join(resume_dir, f"rank-{rank}.pt")
    log.info("loading per-rank state %s (%d bytes)", path, os.path.getsize(path))
    st = torch.load(path, weights_only=False)
    opt.load_state_dict(st["opt"]); torch.set_rng_state(st["rng"]); start = st["step"]
    log.info("resumed at step %d, data cursor %d", start, st["cursor"])
    ddp = DDP(model)
    w = torch.randn(48, 12, generator=torch.Generator().manual_seed(4))
    for step in range(start + 1, start + steps + 1):
        x = torch.randn(64, 48)
        loss = F.cross_entropy(ddp(x), (x @ w).argmax(1))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    dist.barrier()
    log.info("finished at step %d", start + steps)
    dist.destroy_process_group()
