"""Lightning trainer on the toy shards: each rank trains on its own shard (per-shard feature standardisation)."""
import argparse, os
import numpy as np
import torch, torch.nn as nn
import lightning as L
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--data", default="data")
p.add_argument("--devices", type=int, default=2)
p.add_argument("--num-nodes", type=int, default=1)
p.add_argument("--strategy", default="ddp")
p.add_argument("--max-epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--normalize", choices=["global", "shard"], default="global")
p.add_argument("--nan-guard", action="store_true")
p.add_argument("--shard-path", default="{data}/shard_{rank:02d}.npz")
args = p.parse_args()

class ShardData(L.LightningDataModule):
    def setup(self, stage):
        rank = self.trainer.global_rank
        with open(os.path.join(args.data, "classes.txt")) as f:
            self.classes = f.read().split()
        path = args.shard_path.format(data=args.data, rank=rank)
        d = np.load(path)
        x = torch.from_numpy(d["x"])
        if args.normalize == "shard":
            x = (x - x.mean(0)) / x.std(0)
        y = torch.tensor([self.classes.index(n) for n in d["y"]])
        print(f"[rank {rank}] {path}: {len(y)} samples", flush=True)
        self.ds = TensorDataset(x, y)
        v = np.load(os.path.join(args.data, "val.npz"))
        self.val = TensorDataset(torch.from_numpy(v["x"]), torch.tensor([self.classes.index(n) for n in v["y"]]))
    def train_dataloader(self):
        return DataLoader(self.ds, batch_size=args.batch_size, shuffle=True)
    def val_dataloader(self):
        return DataLoader(self.val, batch_size=args.batch_size)

class Clf(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
        self.lossf = nn.CrossEntropyLoss()
    def training_step(self, batch, i):
        x, y = batch
        loss = self.lossf(self.net(x), y)
        if args.nan_guard and not torch.isfinite(loss):
            raise FloatingPointError(f"rank {self.global_rank}: loss is {loss.item()} at step {self.global_step}")
        self.log("train_loss", loss, prog_bar=True)
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        logits = self.net(x)
        self.log("val_loss", self.lossf(logits, y))
        self.log("val_acc", (logits.argmax(1) == y).float().mean())
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=args.lr, momentum=0.9)

if __name__ == "__main__":
    L.seed_everything(7)
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, num_nodes=args.num_nodes, strategy=args.strategy,
                        max_epochs=args.max_epochs, log_every_n_steps=2, enable_progress_bar=False, logger=False,
                        enable_checkpointing=False)
    trainer.fit(Clf(), datamodule=ShardData())
    if trainer.global_rank == 0:
        print(f"final metrics: {({k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})}")
