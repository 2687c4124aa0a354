"""Lightning classifier (DDP / DDP-spawn on CPU) on per-rank shards. Options for the near-duplicate filter run on each
rank's shard at setup, and for the packed-record shard format read through the native fast path in DataLoader workers."""
import argparse, ctypes, os, time
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger
from torch.utils.data import DataLoader, Dataset, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--dedup", type=float, default=0.0)   # drop rows closer than this to an earlier row (pairwise distances)
p.add_argument("--packed", action="store_true")      # read shard_XX.bin + shard_XX.idx (packed float32 records)
p.add_argument("--workers", type=int, default=0)
p.add_argument("--ckpt", action="store_true")
p.add_argument("--step-sleep", type=float, default=0.01)
p.add_argument("--progress", action="store_true")
p.add_argument("--root", default="runs")
args = p.parse_args()


def near_duplicate_mask(x, eps):
    """keep-mask of rows with no earlier row within eps (exact pairwise distances)"""
    x = x.astype(np.float64)
    sq = (x * x).sum(1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * (x @ x.T)
    np.fill_diagonal(d2, np.inf)
    close = np.triu(d2 < eps * eps, 1)
    return ~close.any(0)


class PackedRecords(Dataset):
    """shard_XX.bin: float32 records (16 features + label as float); shard_XX.idx: byte offset of each record"""
    def __init__(self, stem):
        self.buf = np.fromfile(stem + ".bin", dtype=np.uint8)
        self.off = np.fromfile(stem + ".idx", dtype=np.int64)

    def __len__(self):
        return len(self.off)

    def __getitem__(self, i):
        rec = np.empty(17, dtype=np.float32)
        ctypes.memmove(rec.ctypes.data, self.buf.ctypes.data + int(self.off[i]), 17 * 4)
        return torch.from_numpy(rec[:16].copy()), torch.tensor(int(rec[16]))


class ShardData(L.LightningDataModule):
    def setup(self, stage):
        r = self.trainer.global_rank
        if args.packed:
            self.ds = PackedRecords(os.path.join(args.data, f"shard_{r:02d}"))
        else:
            d = np.load(os.path.join(args.data, f"shard_{r:02d}.npz"))
            x, y = d["x"], d["y"]
            if args.dedup:
                t0 = time.time()
                keep = near_duplicate_mask(x, args.dedup)
                x, y = x[keep], y[keep]
                print(f"[rank {r}] near-duplicate filter: kept {keep.sum()}/{len(keep)} rows ({time.time() - t0:.1f}s)")
            self.ds = TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))

    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True, num_workers=args.workers,
                          persistent_workers=args.workers > 0)

    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)


class Clf(L.LightningModule):
    def __init__(self, hidden=64, lr=0.003):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        time.sleep(args.step_sleep)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        logits = self.net(x)
        self.log("val_loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True, prog_bar=True)

    def on_validation_epoch_end(self):
        if not self.trainer.sanity_checking:
            self.print(f"epoch {self.current_epoch} step {self.global_step}: "
                       f"val_loss {self.trainer.callback_metrics['val_loss'].item():.4f} "
                       f"val_acc {self.trainer.callback_metrics['val_acc'].item():.4f}")

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


if __name__ == "__main__":
    L.seed_everything(11)
    cbs = [ModelCheckpoint(monitor="val_loss", mode="min", save_top_k=1, save_last=True)] if args.ckpt else []
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy=args.strategy, max_epochs=args.max_epochs,
                        default_root_dir=args.root, use_distributed_sampler=False, log_every_n_steps=20,
                        logger=CSVLogger(args.root, name="clf"), callbacks=cbs, enable_progress_bar=args.progress)
    trainer.fit(Clf(args.hidden, args.lr), datamodule=ShardData())
    trainer.print(f"fit finished: {trainer.global_step} steps, "
                  f"{ {k: round(v.item(), 4) for k, v in trainer.callback_metrics.items()} }")
