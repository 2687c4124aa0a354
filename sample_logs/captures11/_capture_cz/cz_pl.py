"""Lightning trainer for captures11: strategy ddp_notebook (fork) or ddp_spawn on CPU, regression on random data,
Trainer(detect_anomaly=...), CSVLogger-free (default TensorBoard-less logger off), progress bar off, printing
metrics through Python logging ('%(asctime)s %(levelname)s [%(processName)s] %(name)s - %(message)s')."""
import argparse, logging, sys

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--strategy", default="ddp_notebook")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--lr", type=float, default=0.01)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--anomaly", action="store_true")
a = p.parse_args()

logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format="%(asctime)s %(levelname)s [%(processName)s] %(name)s - %(message)s")
log = logging.getLogger("cz.pl")


class Reg(L.LightningModule):
    def __init__(self, lr):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, i):
        x, y = batch
        loss = F.mse_loss(self.net(x).squeeze(-1), y)
        if i % 2 == 0:
            log.info("rank %d epoch %d batch %d loss %.4g", self.global_rank, self.current_epoch, i, loss.item())
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.lr, momentum=0.9)


def data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 16, generator=g) * 3
    y = x @ torch.randn(16, generator=g) + 5
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)


if __name__ == "__main__":
    log.info("config: strategy=%s devices=%d lr=%g epochs=%d", a.strategy, a.devices, a.lr, a.epochs)
    t = L.Trainer(accelerator="cpu", devices=a.devices, strategy=a.strategy, max_epochs=a.epochs,
                  detect_anomaly=a.anomaly, enable_progress_bar=False, logger=False, enable_checkpointing=False)
    t.fit(Reg(a.lr), data())
    log.info("fit finished: rank %d", t.global_rank)
