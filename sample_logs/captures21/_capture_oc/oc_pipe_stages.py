"""Three-stage pipeline-parallel classifier with torch.distributed.pipelining (ScheduleGPipe, 4 micro-batches) on
gloo; env:// rendezvous from MASTER_ADDR/PORT, RANK and WORLD_SIZE in the environment. Stage 0 reads the token
features, the last stage reads the labels; usage: oc_pipe_stages.py DATA_DIR STEPS"""
import logging, os, sys, time
from datetime import timedelta
import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format=f"%(asctime)s.%(msecs)03d [stage {rank}/{world}] %(levelname)s %(message)s",
                    datefmt="%H:%M:%S")
log = logging.getLogger("pp")
data, steps = sys.argv[1], int(sys.argv[2])
HID, NCLS, BS, MB = 128, 10, 64, 4


def stage_module(i):
    torch.manual_seed(100 + i)
    if i == 0:
        return nn.Sequential(nn.Linear(48, HID), nn.GELU())
    if i == world - 1:
        return nn.Sequential(nn.Linear(HID, HID), nn.GELU(), nn.Linear(HID, NCLS))
    return nn.Sequential(nn.Linear(HID, HID), nn.GELU())


def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    mod = stage_module(rank)
    log.info("built stage module: %s params", sum(p.numel() for p in mod.parameters()))
    stage = PipelineStage(mod, rank, world, torch.device("cpu"))
    sched = ScheduleGPipe(stage, n_microbatches=MB, loss_fn=nn.functional.cross_entropy)
    opt = torch.optim.AdamW(mod.parameters(), lr=1e-3)
    if rank == 0:
        x = torch.from_numpy(np.load(os.path.join(data, "features.npy")))
        log.info("features %s", tuple(x.shape))
    if rank == world - 1:
        y = torch.from_numpy(np.load(os.path.join(data, "labels.npy"))).long()
        log.info("labels %s, %d classes in head", tuple(y.shape), NCLS)
    t0 = time.time()
    for step in range(steps):
        sl = slice(step * BS, (step + 1) * BS)
        opt.zero_grad()
        if rank == 0:
            sched.step(x[sl])
        elif rank == world - 1:
            losses = []
            sched.step(target=y[sl], losses=losses)
            if step % 5 == 0:
                log.info("step %d loss %.4f (%.1f s)", step, torch.stack(losses).mean().item(), time.time() - t0)
        else:
            sched.step()
        opt.step()
    log.info("finished %d steps", steps)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
