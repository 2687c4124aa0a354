#!/usr/bin/env python3
"""mc_fabric_rich.py: Lightning Fabric(accelerator="cpu", strategy="ddp", devices=2) started with fabric.launch()
(plain `python mc_fabric_rich.py`; Fabric's subprocess launcher re-runs the script for rank 1). Console output via a
rich Console (console.log(...) with its time column and file:line) plus python logging through rich's RichHandler.
Trains a small MLP on a synthetic regression-ish classification set, then a final distributed eval on a held-out set
(all_reduce'd accuracy), rank 0 writes metrics.json and prints the final metrics."""
import json, logging, os, sys, time, warnings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from rich.console import Console
from rich.logging import RichHandler
from torch.utils.data import DataLoader, TensorDataset

con = Console(width=140, force_terminal=False, log_time_format="[%X]")
logging.basicConfig(level=logging.INFO, format="%(message)s", datefmt="[%X]",
                    handlers=[RichHandler(console=con, show_path=True, rich_tracebacks=True)])
log = logging.getLogger("mc.fabric")


def legacy_scale(x, factor):
    # helper kept from the old training loop; warns on every call
    warnings.warn("legacy_scale() is deprecated and will be removed in the next release; use torch.mul", FutureWarning)
    return torch.tensor(x) * factor  # torch.tensor(tensor): copy-construct UserWarning


def main():
    fabric = L.Fabric(accelerator="cpu", strategy="ddp", devices=2)
    fabric.launch()
    r = fabric.global_rank
    con.log(f"rank {r}/{fabric.world_size} up, pid {os.getpid()}, strategy {type(fabric.strategy).__name__}")
    g = np.random.default_rng(11)
    w = g.standard_normal((20, 4))
    x = g.standard_normal((1600, 20)).astype(np.float32)
    y = (x @ w).argmax(1)
    xt, yt, xv, yv = x[:1280], y[:1280], x[1280:], y[1280:]
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    model, opt = fabric.setup(model, opt)
    dl, vdl = fabric.setup_dataloaders(
        DataLoader(TensorDataset(torch.from_numpy(xt), torch.from_numpy(yt)), batch_size=32, shuffle=True),
        DataLoader(TensorDataset(torch.from_numpy(xv), torch.from_numpy(yv)), batch_size=64))
    step = 0
    for epoch in range(3):
        for xb, yb in dl:
            xb = legacy_scale(xb, 1.0)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(); fabric.backward(loss); opt.step()
            step += 1
            if step % 10 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.03)
        fabric.barrier()
        con.log(f"rank {r}: epoch {epoch} done ({step} steps)")
    model.eval()
    correct = torch.zeros(1); total = torch.zeros(1); vloss = torch.zeros(1)
    with torch.no_grad():
        for xb, yb in vdl:
            out = model(xb)
            vloss += F.cross_entropy(out, yb, reduction="sum")
            correct += (out.argmax(1) == yb).sum(); total += len(yb)
    correct, total, vloss = (fabric.all_reduce(t, reduce_op="sum") for t in (correct, total, vloss))
    metrics = {"val_acc": round(correct.item() / total.item(), 4), "val_loss": round(vloss.item() / total.item(), 4),
               "steps": step}
    if r == 0:
        json.dump(metrics, open("metrics.json", "w"))
        con.log(f"final eval: {metrics}")
        con.rule("done")
    fabric.barrier()
    log.info("rank %d exiting cleanly", r)


if __name__ == "__main__":
    main()
