"""Tiny PyTorch Lightning classifier (CPU, gloo) for the c-pl-* captures.

Data: synthetic 16-feature, 5-class rows; a `mask` column marks padding rows.
Nothing is injected by a flag at run time except through the data / config flags:

  --empty-batch RANK:BATCH   the training rows of that rank's batch are all padding
                             (mask 0): training_step's early-return path for an empty
                             batch returns no "n_tokens", ThroughputLog reads it
  --val-label4 RANK:BATCH    one validation row in that rank's batch has label 4; the
                             example printer's CLASS_NAMES has only 4 names
  --resume PATH              trainer.fit(ckpt_path=PATH)
  --hparams-dataclass        save_hyperparameters() also stores a DataConfig dataclass
                             (a custom class pickled into the checkpoint)
"""
import argparse
import dataclasses
import os

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.callbacks import Callback, ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger
from torch.utils.data import DataLoader, TensorDataset

CLASS_NAMES = ["cat", "dog", "bird", "fish"]
N_CLASSES = 5


@dataclasses.dataclass
class DataConfig:
    rows: int = 384
    batch_size: int = 8
    features: int = 16


def make_split(n, seed, world, bs, empty=None, label4=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    y = torch.randint(0, 4, (n,), generator=g)
    mask = torch.ones(n)
    if empty is not None:
        # Lightning shuffles the training split with DistributedSampler(seed=PL_GLOBAL_SEED):
        # epoch 0's order is randperm(n) under seed 7; rank r takes every world-th row
        r, b = empty
        order = torch.randperm(n, generator=torch.Generator().manual_seed(7))[r::world]
        for i in order[b * bs:(b + 1) * bs]:
            mask[i] = 0
    if label4 is not None:
        # validation is not shuffled: row i -> rank i % world, batch (i // world) // bs
        r, b = label4
        y[(b * bs + 1) * world + r] = 4
    return TensorDataset(x, y, mask)


class Model(L.LightningModule):
    def __init__(self, lr=0.05, data_config=None):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))

    def training_step(self, batch, batch_idx):
        x, y, mask = batch
        logits = self.net(x)
        if mask.sum() == 0:  # all padding: nothing to learn from this batch
            return {"loss": logits.sum() * 0.0}
        loss = (F.cross_entropy(logits, y, reduction="none") * mask).sum() / mask.sum()
        self.log("train_loss", loss, prog_bar=True)
        return {"loss": loss, "n_tokens": int(mask.sum())}

    def validation_step(self, batch, batch_idx):
        x, y, _ = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.log("val_loss", loss)
        if batch_idx % 2 == 1:
            preds = logits.argmax(-1)
            examples = [f"{CLASS_NAMES[t]}->{CLASS_NAMES[p % 4]}" for t, p in zip(y[:4], preds[:4])]
            self.print(f"[rank {self.global_rank}] val batch {batch_idx} examples: {examples}")

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


class ThroughputLog(Callback):
    def __init__(self):
        self.tokens = 0

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        self.tokens += outputs["n_tokens"]
        if batch_idx % 4 == 0:
            pl_module.log("tokens_seen", float(self.tokens))


def pair(s):
    return tuple(int(v) for v in s.split(":")) if s else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--strategy", default="ddp")
    p.add_argument("--devices", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--empty-batch", type=pair, default=None)
    p.add_argument("--val-label4", type=pair, default=None)
    p.add_argument("--resume", default=None)
    p.add_argument("--hparams-dataclass", action="store_true")
    p.add_argument("--save-dir", default="lightning_logs")
    p.add_argument("--log-every", type=int, default=4)
    args = p.parse_args()
    L.seed_everything(7)
    bs = 8
    train = make_split(384, 1, args.devices, bs, empty=args.empty_batch)
    val = make_split(128, 2, args.devices, bs, label4=args.val_label4)
    model = Model(data_config=DataConfig() if args.hparams_dataclass else None)
    trainer = L.Trainer(
        accelerator="cpu", strategy=args.strategy, devices=args.devices,
        max_epochs=args.epochs, log_every_n_steps=args.log_every,
        logger=CSVLogger(args.save_dir, name="tiny"),
        callbacks=[ThroughputLog(), ModelCheckpoint(save_last=True)],
        enable_progress_bar=False, enable_model_summary=True,
    )
    trainer.fit(model, DataLoader(train, batch_size=bs), DataLoader(val, batch_size=bs),
                ckpt_path=args.resume)
    trainer.print(f"done: {trainer.global_step} steps, checkpoint {trainer.checkpoint_callback.last_model_path}")


if __name__ == "__main__":
    main()
