"""Lightning classifier on per-rank record files (each rank its own shard)."""
import argparse, os, warnings
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.strategies import DDPStrategy
from datetime import timedelta
from torch.utils.data import DataLoader, Dataset, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--num-workers", type=int, default=0)
p.add_argument("--records", action="store_true")   # text records data/rank_XX/*.rec, decoded in the dataset
p.add_argument("--soft-targets", action="store_true")
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--warnings-always", action="store_true")   # show every warning occurrence (debugging)
args = p.parse_args()

class Records(Dataset):
    """one record per file: 'f1 f2 ... f16|label' (utf-8)"""
    def __init__(self, d):
        self.files = sorted(os.path.join(d, f) for f in os.listdir(d))
    def __len__(self):
        return len(self.files)
    def __getitem__(self, i):
        with open(self.files[i], encoding="utf-8") as f:
            feats, label = f.read().strip().split("|")
        return torch.tensor([float(v) for v in feats.split()]), int(label)

class ShardData(L.LightningDataModule):
    def setup(self, stage):
        r = self.trainer.global_rank
        if args.records:
            self.ds = Records(os.path.join(args.data, f"rank_{r:02d}"))
        else:
            d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
            self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))
    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True, num_workers=args.num_workers,
                          persistent_workers=args.num_workers > 0)
    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)

class Clf(L.LightningModule):
    def __init__(self, num_classes=4):
        super().__init__()
        self.save_hyperparameters()
        self.l1, self.l2, self.head = nn.Linear(16, 64), nn.Linear(64, 64), nn.Linear(64, num_classes)
    def forward(self, x):
        return self.head(torch.relu(self.l2(torch.relu(self.l1(x)))))
    def on_fit_start(self):
        if args.warnings_always:
            warnings.simplefilter("always")
    def training_step(self, batch, i):
        x, y = batch
        logits = self(x)
        if args.soft_targets:
            # label smoothing by hand: soft targets from a one-hot of the batch labels
            t = torch.tensor(F.one_hot(y, 4).float()) * 0.9 + 0.025
            loss = torch.sum(-t * F.log_softmax(logits), dim=1).mean()
        else:
            loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss, prog_bar=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y), prog_bar=True, sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), prog_bar=True, sync_dist=True)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=args.lr, momentum=0.9)

if __name__ == "__main__":
    L.seed_everything(7)
    strategy = DDPStrategy(timeout=timedelta(seconds=args.pg_timeout)) if args.strategy == "ddp" else \
        DDPStrategy(start_method="spawn", timeout=timedelta(seconds=args.pg_timeout))
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, max_epochs=args.max_epochs, logger=False,
                        strategy=strategy, enable_checkpointing=False, enable_progress_bar=False, log_every_n_steps=4)
    trainer.fit(Clf(), datamodule=ShardData())
    trainer.print(f"fit finished: {trainer.callback_metrics}")
