#!/usr/bin/env python3
"""mc_mpi_nan.py: mpi4py-initialised torch.distributed (gloo) for `mpirun`: MPI.COMM_WORLD gives rank/size, rank 0
picks a free TCP port and broadcasts tcp://127.0.0.1:<port> over MPI, every rank then calls init_process_group with
it. Each rank trains on its own shard data/shard-<r>.npy (features, last column = label). A per-rank guard checks the
local loss every step; a non-finite loss aborts the whole MPI job with comm.Abort(3) (the site's rule: never let a
diverged replica write checkpoints). Metrics lines: print() on stdout; diagnostics: logging on stderr."""
import datetime, logging, os, socket, sys, time
from mpi4py import MPI
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format=f"%(asctime)s %(levelname)s [mpi rank {rank}/{size}] %(message)s")
log = logging.getLogger("mc_mpi")
if rank == 0:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); url = f"tcp://127.0.0.1:{s.getsockname()[1]}"; s.close()
else:
    url = None
url = comm.bcast(url, root=0)
dist.init_process_group("gloo", init_method=url, rank=rank, world_size=size, timeout=datetime.timedelta(seconds=40))
log.info("torch.distributed initialised from MPI (init_method %s, MPI %s)", url, MPI.Get_library_version().splitlines()[0])
arr = np.load(f"data/shard-{rank}.npy")
x, y = torch.from_numpy(arr[:, :-1]).float(), torch.from_numpy(arr[:, -1]).long()
log.info("data/shard-%d.npy: %d rows, feature abs max %.3g", rank, len(y), float(np.abs(arr[:, :-1]).max()))
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(x.shape[1], 64), nn.ReLU(), nn.Linear(64, 5)))
opt = torch.optim.SGD(model.parameters(), lr=0.02)
bs, step = 32, 0
for epoch in range(4):
    perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(epoch))
    for i in range(0, len(y) - bs + 1, bs):
        step += 1
        idx = perm[i:i + bs]
        loss = F.cross_entropy(model(x[idx]), y[idx])
        if not torch.isfinite(loss):
            log.error("non-finite loss %s at epoch %d step %d (batch rows %s..): aborting the MPI job", loss.item(),
                      epoch, step, idx[:4].tolist())
            sys.stderr.flush()
            comm.Abort(3)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.08)
dist.barrier()
print(f"rank {rank}: done after {step} steps", flush=True)
dist.destroy_process_group()
