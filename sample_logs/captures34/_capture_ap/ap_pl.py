"""Lightning trainer on the toy shards (each rank its own shard), activation checkpointing, JSON-lines logging."""
import argparse, json, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn
import lightning as L
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
args = p.parse_args()

class JsonLines(logging.Formatter):
    def format(self, r):
        d = {"ts": self.formatTime(r), "lvl": r.levelname, "logger": r.name,
             "rank": int(os.environ.get("LOCAL_RANK", 0)), "msg": r.getMessage()}
        return json.dumps(d)
h = logging.StreamHandler(sys.stdout); h.setFormatter(JsonLines())
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("train")

class ShardData(L.LightningDataModule):
    def setup(self, stage):
        rank = self.trainer.global_rank
        with open(os.path.join(args.data, "classes.txt")) as f:
            self.classes = f.read().split()
        d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
        self.ds = TensorDataset(torch.from_numpy(d["x"]), torch.tensor([self.classes.index(n) for n in d["y"]]))
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.tensor([self.classes.index(n) for n in v["y"]]))
        log.info(f"setup({stage}): shard_{rank:02d}.npz {len(self.ds)} rows, val {len(self.val)} rows")
    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True)
    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)

class Clf(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(16, 64)
        self.block = nn.Sequential(nn.SiLU(), nn.Linear(64, 64), nn.SiLU())
        self.out = nn.Linear(64, 4)
        self.lossf = nn.CrossEntropyLoss()
    def forward(self, x):
        z = self.inp(x)
        z = checkpoint(self.block, z, use_reentrant=False) if self.training else self.block(z)
        return self.out(z)
    def training_step(self, batch, i):
        x, y = batch
        loss = self.lossf(self(x), y)
        self.log("train_loss", loss, sync_dist=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        logits = self(x)
        self.log("val_loss", self.lossf(logits, y), sync_dist=True)
        self.log("val_acc", (logits.argmax(1) == y).float().mean(), sync_dist=True)
    def on_train_epoch_end(self):
        log.info(f"epoch {self.current_epoch} done: train_loss {float(self.trainer.callback_metrics['train_loss']):.4f}")
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=args.lr, momentum=0.9)

if __name__ == "__main__":
    L.seed_everything(11)
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy=args.strategy, max_epochs=args.max_epochs,
                        log_every_n_steps=4, enable_progress_bar=False, logger=False, enable_checkpointing=False)
    trainer.fit(Clf(), datamodule=ShardData())
    if trainer.global_rank == 0:
        log.info(f"final metrics: {json.dumps({k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})}")
