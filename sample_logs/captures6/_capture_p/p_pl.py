"""Lightning trainer (strategy="ddp", CPU, 2 processes) for p-pl-*: ModelCheckpoint every epoch into
--ckpt-dir; CSVLogger into pl_logs/."""
import argparse
import lightning as L
import torch, torch.nn as nn
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger

p = argparse.ArgumentParser()
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--epochs", type=int, default=3)
args = p.parse_args()


class Tiny(L.LightningModule):
    def __init__(self, hidden=512):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def training_step(self, batch, i):
        x, y = batch
        loss = nn.functional.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, sync_dist=True)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_loss", nn.functional.cross_entropy(self.net(x), y), sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def loader(n, seed):
    g = torch.Generator().manual_seed(seed)
    ds = torch.utils.data.TensorDataset(torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g))
    return torch.utils.data.DataLoader(ds, batch_size=16)


if __name__ == "__main__":
    L.seed_everything(0)
    ckpt = ModelCheckpoint(dirpath=args.ckpt_dir, filename="tiny-{epoch:02d}-{val_loss:.3f}", monitor="val_loss", save_top_k=2)
    trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=args.epochs, callbacks=[ckpt],
                        logger=CSVLogger("pl_logs", name="tiny"), log_every_n_steps=2, enable_progress_bar=False)
    trainer.fit(Tiny(), loader(256, 1), loader(64, 2))
