#!/usr/bin/env python3
"""kc_lit.py: LightningCLI entry point (`python kc_lit.py fit --config cfg.yaml`) for the roundI kc-* jobs.
KcModel: MLP classifier; KcData: synthetic tabular features (n_features columns) split train/val."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L
from lightning.pytorch.cli import LightningCLI
from torch.utils.data import DataLoader, TensorDataset


class KcModel(L.LightningModule):
    def __init__(self, in_features: int = 24, hidden: int = 64, num_classes: int = 6, lr: float = 1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, num_classes))

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        out = self.net(x)
        self.log("val_loss", F.cross_entropy(out, y), prog_bar=True)
        self.log("val_acc", (out.argmax(1) == y).float().mean(), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


class KcData(L.LightningDataModule):
    def __init__(self, n_features: int = 24, n_samples: int = 2048, batch_size: int = 32, num_classes: int = 6,
                 num_workers: int = 0):
        super().__init__()
        self.save_hyperparameters()

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(5)
        h = self.hparams
        x = torch.randn(h.n_samples, h.n_features, generator=g)
        w = torch.randn(h.n_features, h.num_classes, generator=g)
        y = (x @ w).argmax(1)
        n = int(0.8 * h.n_samples)
        self.train_ds, self.val_ds = TensorDataset(x[:n], y[:n]), TensorDataset(x[n:], y[n:])

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.hparams.batch_size, shuffle=True,
                          num_workers=self.hparams.num_workers)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.hparams.batch_size, num_workers=self.hparams.num_workers)


if __name__ == "__main__":
    LightningCLI(KcModel, KcData)
