"""ag_pl.py: LightningModule on CPU with Trainer(strategy=ddp / ddp_spawn); records read from a JSONL file."""
import argparse, json, os, time
import torch, torch.nn as nn
import lightning as L
from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint
from lightning.pytorch.loggers import CSVLogger

p = argparse.ArgumentParser()
p.add_argument("--strategy", default="ddp"); p.add_argument("--devices", type=int, default=2)
p.add_argument("--epochs", type=int, default=5); p.add_argument("--data", default="data/train.jsonl")
p.add_argument("--workers", type=int, default=0); p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--early-stop", action="store_true"); p.add_argument("--csv", action="store_true")
p.add_argument("--progress", action="store_true")
a = p.parse_args()


class Records(torch.utils.data.Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.off = []; pos = 0
            for line in f:
                self.off.append(pos); pos += len(line.encode())
        self.path = path

    def __len__(self):
        return len(self.off)

    def __getitem__(self, i):
        with open(self.path, "rb") as f:
            f.seek(self.off[i]); rec = json.loads(f.readline())
        x = torch.tensor(rec["x"], dtype=torch.float32)
        if x.shape != (12,):
            raise ValueError(f"record {i} of {self.path}: expected 12 features, got {tuple(x.shape)}")
        return x, int(rec["y"])


class Net(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 48), nn.Tanh(), nn.Linear(48, 3))

    def training_step(self, b, i):
        x, y = b; loss = nn.functional.cross_entropy(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True, sync_dist=True)
        if a.step_sleep: time.sleep(a.step_sleep)
        return loss

    def validation_step(self, b, i):
        x, y = b; out = self.net(x)
        self.log("val_loss", nn.functional.cross_entropy(out, y), sync_dist=True)
        self.log("val_acc", (out.argmax(1) == y).float().mean(), sync_dist=True, prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def main():
    ds = Records(a.data)
    n = len(ds); tr, va = torch.utils.data.random_split(ds, [n - n // 5, n // 5], torch.Generator().manual_seed(0))
    dl = lambda d, s: torch.utils.data.DataLoader(d, batch_size=32, shuffle=s, num_workers=a.workers)
    cbs = [ModelCheckpoint(dirpath="checkpoints", monitor="val_loss", save_top_k=1)]
    if a.early_stop:
        cbs.append(EarlyStopping("val_loss", patience=2, min_delta=0.01))
    tr_ = L.Trainer(accelerator="cpu", devices=a.devices, strategy=a.strategy, max_epochs=a.epochs, callbacks=cbs,
                    logger=CSVLogger("logs", name="ag") if a.csv else False, log_every_n_steps=5,
                    enable_progress_bar=a.progress)
    tr_.fit(Net(), dl(tr, True), dl(va, False))
    if tr_.is_global_zero:
        m = {k: round(float(v), 4) for k, v in tr_.callback_metrics.items()}
        print(f"fit finished; best checkpoint: {cbs[0].best_model_path}; metrics: {m}")


if __name__ == "__main__":
    main()
