"""Lightning Trainer (strategy="ddp", accelerator="cpu", devices=2, Lightning's subprocess launcher) fitting a small
regression model for 30 epochs with the default TQDM progress bar and a per-epoch print of val_loss on rank 0."""
import time
import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Reg(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 1))

    def training_step(self, batch, _):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        time.sleep(0.1)
        return loss

    def validation_step(self, batch, _):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), prog_bar=True, sync_dist=True)

    def on_validation_epoch_end(self):
        if self.trainer.is_global_zero and not self.trainer.sanity_checking:
            print(f"epoch {self.current_epoch}: val_loss {self.trainer.callback_metrics['val_loss']:.4f}", flush=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    return TensorDataset(x, x[:, :4].sum(1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g))


if __name__ == "__main__":
    L.seed_everything(0)
    trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=30, log_every_n_steps=10,
                        logger=False, enable_checkpointing=False)
    trainer.fit(Reg(), DataLoader(data(4096, 1), batch_size=64, shuffle=True), DataLoader(data(512, 2), batch_size=128))
    print("fit finished", flush=True)
