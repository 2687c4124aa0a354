"""LightningCLI entry point for captures13: `python ea_cli.py fit --config <yaml>`.

TinyClassifier (an MLP over 16 features, 4 classes) logs `train/loss` every step and `val/loss`, `val/acc` per
validation epoch (sync_dist=True). RandomShards datamodule: seeded synthetic features, `batch_size`, `n_train`,
`n_val`. --model.warn_noise true: harmless alarming lines at fit start (a WARNING, an ERROR with a caught
exception traceback about an optional metrics sink).
"""
import logging

import lightning.pytorch as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.cli import LightningCLI

log = logging.getLogger("ea_cli")


class TinyClassifier(pl.LightningModule):
    def __init__(self, hidden: int = 32, lr: float = 0.05, warn_noise: bool = False):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, x):
        return self.net(x)

    def on_fit_start(self):
        if self.hparams.warn_noise:
            log.warning("[rank %d] class weights file not given; using uniform weights", self.global_rank)
            try:
                raise ConnectionRefusedError(111, "Connection refused: udp://127.0.0.1:8125 (statsd)")
            except ConnectionRefusedError:
                log.error("[rank %d] statsd sink unavailable, metrics only go to the logger", self.global_rank,
                          exc_info=True)

    def training_step(self, batch, i):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train/loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        logits = self(x)
        self.log("val/loss", F.cross_entropy(logits, y), sync_dist=True)
        self.log("val/acc", (logits.argmax(-1) == y).float().mean(), sync_dist=True)

    def on_validation_epoch_end(self):
        m = self.trainer.callback_metrics
        if "val/acc" in m:
            print(f"[rank {self.global_rank}] epoch {self.current_epoch}: val/loss {float(m['val/loss']):.4f} "
                  f"val/acc {float(m['val/acc']):.4f}", flush=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr)


class RandomShards(pl.LightningDataModule):
    def __init__(self, batch_size: int = 16, n_train: int = 512, n_val: int = 128, seed: int = 3):
        super().__init__()
        self.save_hyperparameters()

    def _ds(self, n, off):
        g = torch.Generator().manual_seed(self.hparams.seed + off)
        x = torch.randn(n, 16, generator=g)
        y = (x[:, :4].argmax(-1) + (torch.rand(n, generator=g) < 0.1).long()) % 4
        return torch.utils.data.TensorDataset(x, y)

    def train_dataloader(self):
        return torch.utils.data.DataLoader(self._ds(self.hparams.n_train, 0), batch_size=self.hparams.batch_size,
                                           shuffle=True)

    def val_dataloader(self):
        return torch.utils.data.DataLoader(self._ds(self.hparams.n_val, 1), batch_size=self.hparams.batch_size)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    LightningCLI(TinyClassifier, RandomShards)
