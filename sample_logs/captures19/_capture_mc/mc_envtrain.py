#!/usr/bin/env python3
"""mc_envtrain.py: env:// DDP trainer (gloo) for the shell-launched mc-* jobs (own launch scripts, torchrun).
Progress is print()ed to stdout (`[step N] loss ...`, flushed), diagnostics go through python logging on stderr
(`%(asctime)s %(levelname)s pid=%(process)d %(name)s: %(message)s`, no rank field). On start it prints its
identity (host, pid, RANK / LOCAL_RANK / WORLD_SIZE as found in the environment).
Options: --steps, --ckpt-dir DIR --ckpt-every N (each node's local rank 0 writes a full training-state checkpoint to
DIR, a node-local scratch; --ckpt-keep K keeps the last K), --pg-timeout."""
import argparse, datetime, logging, os, socket, sys, time
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=40)
p.add_argument("--batch", type=int, default=64)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--sleep", type=float, default=0.15)
p.add_argument("--pg-timeout", type=int, default=40)
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-every", type=int, default=10)
p.add_argument("--ckpt-keep", type=int, default=3)
a = p.parse_args()
e = os.environ
print(f"mc_envtrain starting on {socket.gethostname()} pid {os.getpid()}: RANK={e.get('RANK')} "
      f"LOCAL_RANK={e.get('LOCAL_RANK')} WORLD_SIZE={e.get('WORLD_SIZE')} "
      f"MASTER={e.get('MASTER_ADDR')}:{e.get('MASTER_PORT')}", flush=True)
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format="%(asctime)s %(levelname)s pid=%(process)d %(name)s: %(message)s")
log = logging.getLogger("mc_envtrain")

dist.init_process_group("gloo", init_method="env://", timeout=datetime.timedelta(seconds=a.pg_timeout))
rank, world, local_rank = dist.get_rank(), dist.get_world_size(), int(e.get("LOCAL_RANK", 0))
log.info("process group up: rank %d of %d (local rank %d)", rank, world, local_rank)
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(64, a.hidden), nn.ReLU(), nn.Linear(a.hidden, a.hidden), nn.ReLU(),
                          nn.Linear(a.hidden, 10)))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(rank)
w = torch.randn(64, 10, generator=torch.Generator().manual_seed(2))
kept = []
for step in range(1, a.steps + 1):
    x = torch.randn(a.batch, 64, generator=g)
    loss = F.cross_entropy(model(x), (x @ w).argmax(1))
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        print(f"[step {step}] loss {loss.item():.4f}", flush=True)
    if a.ckpt_dir and step % a.ckpt_every == 0:
        if local_rank == 0:
            os.makedirs(a.ckpt_dir, exist_ok=True)
            path = os.path.join(a.ckpt_dir, f"state-r{rank}-s{step:05d}.pt")
            log.info("writing checkpoint %s", path)
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
            kept.append(path)
            while len(kept) > a.ckpt_keep:
                os.remove(kept.pop(0))
            print(f"[step {step}] checkpoint {path} ({os.path.getsize(path)} bytes)", flush=True)
        dist.barrier()
    time.sleep(a.sleep)
dist.barrier()
print(f"done: {a.steps} steps, final loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
