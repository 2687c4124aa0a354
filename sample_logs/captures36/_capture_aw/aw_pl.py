"""Lightning trainer on the toy shards (each rank its own shard)."""
import argparse, os
import numpy as np
import torch, torch.nn as nn
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
from datetime import timedelta
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--act-cap", type=float, default=0.0)     # cap hidden activations of outlier batches
p.add_argument("--pg-timeout", type=int, default=60)
args = p.parse_args()

class ShardData(L.LightningDataModule):
    def setup(self, stage):
        d = np.load(os.path.join(args.data, f"shard_{self.trainer.global_rank:02d}.npz"))
        self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))
    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True)
    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)

class Clf(L.LightningModule):
    def __init__(self, num_classes=4):
        super().__init__()
        self.l1, self.l2, self.head = nn.Linear(16, 64), nn.Linear(64, 64), nn.Linear(64, num_classes)
        self.lossf = nn.CrossEntropyLoss()
    def forward(self, x):
        h = torch.relu(self.l1(x))
        if args.act_cap and (h > args.act_cap).any():
            h.clamp_(max=args.act_cap)    # outlier batch: cap activations in place (saves a copy)
        return self.head(torch.relu(self.l2(h)))
    def training_step(self, batch, i):
        x, y = batch
        loss = self.lossf(self(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        logits = self(x)
        self.log("val_loss", self.lossf(logits, y), prog_bar=True, sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), prog_bar=True, sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=args.lr, momentum=0.9)

if __name__ == "__main__":
    L.seed_everything(7)
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, max_epochs=args.max_epochs, logger=False,
                        strategy=DDPStrategy(timeout=timedelta(seconds=args.pg_timeout)), enable_checkpointing=False,
                        enable_progress_bar=False, log_every_n_steps=4)
    trainer.fit(Clf(), datamodule=ShardData())
    trainer.print(f"fit finished: {trainer.callback_metrics}")
