"""Lightning 'ddp' (gloo, CPU) with a CSVLogger, for captures10.

    python cx_pl.py --devices 2 --epochs 6 [--step-sleep S]
Lightning starts the other processes itself; each rank prints a 'rank R step N loss' progress line on
stdout every 4 steps. CSVLogger to csv_logs/tiny/version_0/metrics.csv."""
import argparse, os, sys, time

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.loggers import CSVLogger
from lightning.pytorch.strategies import DDPStrategy
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--devices", type=int, default=2)
p.add_argument("--epochs", type=int, default=6)
p.add_argument("--step-sleep", type=float, default=0.1)
a = p.parse_args()


class Tiny(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, sync_dist=True)
        if self.global_step % 4 == 0:
            print(f"rank {self.global_rank} pid {os.getpid()} step {self.global_step} loss {loss.item():.4f}", flush=True)
        time.sleep(a.step_sleep)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_loss", F.cross_entropy(self.net(x), y), sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


g = torch.Generator().manual_seed(0)
ds = TensorDataset(torch.randn(256, 16, generator=g), torch.randint(0, 4, (256,), generator=g))
trainer = L.Trainer(accelerator="cpu", devices=a.devices, strategy=DDPStrategy(process_group_backend="gloo"),
                    max_epochs=a.epochs, logger=CSVLogger("csv_logs", name="tiny"), log_every_n_steps=4,
                    enable_progress_bar=False, enable_checkpointing=False)
trainer.fit(Tiny(), DataLoader(ds, batch_size=16), DataLoader(ds, batch_size=64))
print(f"rank {trainer.global_rank} fit done", flush=True)
