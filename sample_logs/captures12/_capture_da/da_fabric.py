"""Lightning Fabric (accelerator=cpu, devices=N, strategy=DDPStrategy(gloo, timeout)) trainer for captures12 (da-*).
fabric.launch() re-runs this script for ranks 1..N-1 (subprocess script launcher). Same faults/flags as da_train.py
(busy_lock, temp_anneal, --warnings); logging via da_train.setup_log with fabric.global_rank."""
import os, sys, time, warnings
from datetime import timedelta

import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.fabric import Fabric, seed_everything
from lightning.fabric.strategies import DDPStrategy

import da_train

p = da_train.parse(sys.argv[1:])


def main(fabric):
    rank, world = fabric.global_rank, fabric.world_size
    log = da_train.setup_log(p, rank)
    seed_everything(42)
    log.info("fabric ready: rank %d/%d pid=%d", rank, world, os.getpid())
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=p.lr)
    model, opt = fabric.setup(model, opt)
    log.info("model set up, SGD lr=%g, %d steps", p.lr, p.steps)
    if p.warnings:
        warnings.warn("The `srun` command is available on your system but is not used. HINT: If your intention is "
                      "to run Lightning on SLURM, prepend your python command with `srun`", UserWarning)
        log.warning("checkpoint dir ckpt/ not empty: 2 old files will be overwritten")
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except ConnectionRefusedError:
            log.exception("could not reach experiment tracker at 127.0.0.1:5000, falling back to offline mode")
    temp = 1.0
    for step in range(1, p.steps + 1):
        x, y = da_train.batch(rank, step)
        if p.fault == "busy_lock" and rank == p.fault_rank and step == p.fault_step:
            lock = "cache/shard-00001.lock"
            log.info("step %d: refreshing feature cache, waiting for %s", step, lock)
            while os.path.exists(lock):
                pass
        logits = model(x)
        if p.fault == "temp_anneal":
            temp = 0.5 ** step
            prob = torch.softmax(logits / temp, dim=-1)
            loss = -torch.log(prob.gather(1, y[:, None])).mean()
        else:
            loss = F.cross_entropy(logits, y)
        opt.zero_grad(); fabric.backward(loss); opt.step()
        mean = fabric.all_reduce(loss.detach(), reduce_op="mean")
        extra = f" temp {temp:.2e}" if p.fault == "temp_anneal" else ""
        log.info("step %d/%d loss %.4f mean %.4f%s", step, p.steps, loss.item(), mean.item(), extra)
        if not torch.isfinite(mean):
            raise FloatingPointError(f"mean loss is {mean.item()} at step {step}")
        time.sleep(p.sleep)
    fabric.barrier()
    log.info("training done: %d steps, final mean loss %.4f", p.steps, mean.item())


if __name__ == "__main__":
    n = int(os.environ.get("DA_DEVICES", "2"))
    fabric = Fabric(accelerator="cpu", devices=n,
                    strategy=DDPStrategy(process_group_backend="gloo", timeout=timedelta(seconds=p.pg_timeout)))
    fabric.launch(main)
