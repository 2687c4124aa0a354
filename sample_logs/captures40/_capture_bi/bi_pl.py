"""Lightning classifier (DDP / DDP-spawn on CPU) on per-rank shards; Trainer settings and callbacks from the command line."""
import argparse, json, os, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import Callback, ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger
from lightning.pytorch.utilities import rank_zero_only
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--history", default="")          # rank-zero callback: append per-epoch metrics to this JSON file
p.add_argument("--augment", default="")          # "jitter": train-time feature jitter transform
p.add_argument("--ckpt", action="store_true")    # ModelCheckpoint on val_acc (top 2 + last)
p.add_argument("--progress", action="store_true")
args = p.parse_args()


class ShardDS(torch.utils.data.Dataset):
    def __init__(self, x, y, transform=None):
        self.x, self.y, self.transform = x, y, transform

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i]
        return (self.transform(x) if self.transform else x), self.y[i]


class ShardData(L.LightningDataModule):
    def __init__(self):
        super().__init__()
        if args.augment == "jitter":
            scale = 0.05
            self.transform = lambda x: x + scale * torch.randn_like(x)
        else:
            self.transform = None

    def setup(self, stage):
        r = self.trainer.global_rank
        d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
        self.ds = ShardDS(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]), self.transform)
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
        time.sleep(0.01)
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


class MetricsHistory(Callback):
    """keep a JSON history of the epoch metrics next to the run (rank zero only)"""
    def __init__(self, path):
        self.path, self.rows = path, []

    @rank_zero_only
    def on_train_epoch_end(self, trainer, pl_module):
        row = {"epoch": trainer.current_epoch, "step": trainer.global_step}
        row.update(trainer.callback_metrics)
        self.rows.append(row)
        with open(self.path, "w") as f:
            json.dump(self.rows, f, indent=1)


if __name__ == "__main__":
    L.seed_everything(11)
    cbs = []
    if args.history:
        cbs.append(MetricsHistory(args.history))
    if args.ckpt:
        cbs.append(ModelCheckpoint(monitor="val_acc", mode="max", save_top_k=2, save_last=True,
                                   filename="clf-{epoch:02d}-{val_acc:.3f}"))
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy=args.strategy, max_epochs=args.max_epochs,
                        default_root_dir="runs", use_distributed_sampler=False, log_every_n_steps=20,
                        logger=CSVLogger("runs", name="clf"), callbacks=cbs, enable_progress_bar=args.progress)
    trainer.fit(Clf(), datamodule=ShardData())
    trainer.print(f"best/last metrics: { {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()} }")
