"""Lightning classifier (DDP on CPU) on per-rank shards; Trainer settings from the command line."""
import argparse, os
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--val-check-interval", type=float, default=1.0)
p.add_argument("--lr", type=float, default=0.003)
args = p.parse_args()


class ShardData(L.LightningDataModule):
    def setup(self, stage):
        r = self.trainer.global_rank
        d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
        self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))

    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)


class Clf(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.save_hyperparameters(vars(args))
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        logits = self.net(x)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True, prog_bar=True)

    def on_validation_epoch_end(self):
        if not self.trainer.sanity_checking:
            self.print(f"epoch {self.current_epoch} step {self.global_step}: "
                       f"val_acc {self.trainer.callback_metrics['val_acc'].item():.4f}")

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=args.lr)


if __name__ == "__main__":
    L.seed_everything(11)
    vci = int(args.val_check_interval) if args.val_check_interval > 1 else args.val_check_interval
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy="ddp", max_epochs=args.max_epochs,
                        val_check_interval=vci, default_root_dir="runs", use_distributed_sampler=False,
                        log_every_n_steps=20)
    trainer.fit(Clf(), datamodule=ShardData())
    trainer.print(f"best/last metrics: { {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()} }")
