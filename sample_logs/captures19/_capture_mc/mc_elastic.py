#!/usr/bin/env python3
"""mc_elastic.py: elastic-aware DDP trainer for the torchrun --nnodes MIN:MAX jobs. Reads RANK / WORLD_SIZE /
GROUP_RANK / TORCHELASTIC_RESTART_COUNT from the agent; resumes from shared/ckpt/last.pt when it exists (rank 0
saves it every --ckpt-every steps); global batch kept fixed (per-rank batch = --global-batch // WORLD_SIZE).
Logging: `%(asctime)s host=<hostname> rank=<r>/<world> restart=<n> %(levelname)s %(message)s` on stderr."""
import argparse, datetime, logging, os, socket, sys, time
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=60)
p.add_argument("--global-batch", type=int, default=96)
p.add_argument("--ckpt-every", type=int, default=10)
p.add_argument("--ckpt", default="shared/ckpt/last.pt")
p.add_argument("--sleep", type=float, default=0.25)
a = p.parse_args()
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
host = socket.gethostname()
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format=f"%(asctime)s host={host} rank={rank}/{world} restart={restart} %(levelname)s %(message)s")
log = logging.getLogger()

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
log.info("joined process group (group_rank=%s, local_rank=%s, pid=%d)", os.environ.get("GROUP_RANK"),
         os.environ.get("LOCAL_RANK"), os.getpid())
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 8))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
start = 0
if os.path.exists(a.ckpt):
    st = torch.load(a.ckpt, map_location="cpu")
    model.load_state_dict(st["model"]); opt.load_state_dict(st["opt"]); start = st["step"]
    log.info("resumed from %s at step %d (saved with world_size %d)", a.ckpt, start, st["world"])
else:
    log.info("no checkpoint at %s, starting from step 0", a.ckpt)
ddp = DDP(model)
bs = a.global_batch // world
g = torch.Generator().manual_seed(1000 + rank)
wt = torch.randn(32, 8, generator=torch.Generator().manual_seed(1))
for step in range(start + 1, a.steps + 1):
    x = torch.randn(bs, 32, generator=g)
    y = (x @ wt).argmax(1)
    loss = F.cross_entropy(ddp(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        log.info("step %d/%d loss %.4f (per-rank batch %d)", step, a.steps, loss.item(), bs)
    if step % a.ckpt_every == 0:
        if rank == 0:
            os.makedirs(os.path.dirname(a.ckpt), exist_ok=True)
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "world": world},
                       a.ckpt + ".tmp")
            os.replace(a.ckpt + ".tmp", a.ckpt)
            log.info("checkpoint saved: %s (step %d)", a.ckpt, step)
        dist.barrier()
    time.sleep(a.sleep)
dist.barrier()
log.info("training complete: %d steps, final loss %.4f", a.steps, loss.item())
dist.destroy_process_group()
